-- quickstart.lua - the scenario `make run` runs (docs/scenarios.md explains every call).
--
-- Allreduce on a small Dragonfly: 9 groups of 4 routers, 2 hosts per router (72 hosts),
-- 64 ranks, one per host. The classic algorithms against Bine and Swing, vectors from
-- 32 B to 64 MiB. Every row has both the completion time (time_s, algbw_Bps, busbw_Bps)
-- and the traffic on the global (inter-group) links (bytes_global).

local dragonfly = collsim.topology.dragonfly{p = 2, a = 4, h = 2}

collsim.sweep{
  topology   = dragonfly,
  collective = "allreduce",
  ranks      = 64,
  algorithms = {
    "ring", "recursive_doubling", "rabenseifner", "reduce_bcast",  -- classic
    "bine_latency", "bine_bandwidth",                              -- Bine trees / butterflies
    "swing_latency", "swing_bandwidth",                            -- Swing
  },
  sizes      = collsim.sizes.geometric("32B", "64MiB", 8),       -- 32 B, 256 B, ..., 64 MiB
}

-- the speedup plot compares every algorithm with the best classic one
collsim.plot{baseline = {"ring", "recursive_doubling", "rabenseifner", "reduce_bcast"}}
