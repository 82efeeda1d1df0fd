-- bine_traffic.lua - global-link bytes of Bine against the binomial / Rabenseifner /
-- Bruck baselines on the LUMI and Leonardo presets (issue 6, deliverable 4; the paper's
-- Fig. 5 and the "traffic reduction" columns of Tables 3 and 4).
--
-- Traffic model only (no timing): every row's bytes_intergroup_msgs is the paper's
-- "global traffic" (bytes of messages between ranks in different Dragonfly groups,
-- minimal routing), bytes_global the same weighted by global links crossed.
-- Bytes scale linearly with the vector size, so one size (1 MiB) is enough.
--
-- Placements (docs/simulator.md#placement):
--   linear            ranks on hosts 0..P-1 (groups of 124 / 180: not a power of two)
--   fragmented:K:S    K contiguous chunks at random positions, seeds S = 1..8, K = 4, 8, 16
--   file:...          aligned power-of-two groups (first 16 / 64 hosts of every group),
--                     written by scripts/bine_alloc_files.py
-- scripts/bine_traffic_stats.py turns results.csv into the figures of
-- results/bine/README.md.

local presets = {
  lumi     = collsim.machine("platforms/lumi.yaml"),
  leonardo = collsim.machine("platforms/leonardo.yaml"),
}
local topologies = {presets.lumi, presets.leonardo}
local ranks = collsim.ranks.pow2(16, 2048)

-- the placements above and the filter that keeps a file placement only on its own preset
-- and when it holds P ranks (lib/bine_placements.lua, shared with bine_rabenseifner_order)
local placements, fits = dofile(collsim.info.dir .. "/lib/bine_placements.lua")

-- Allreduce, the statistic of the paper's Fig. 5. The paper's tracer "rabenseifner" is a
-- distance-doubling reduce-scatter + distance-halving allgather (the mirror image, same
-- bytes): its global bytes are 2 x reduce_scatter recursive_doubling. collsim's
-- allreduce rabenseifner is MPICH's (recursive halving first: the largest message to the
-- farthest peer) and is kept as a second baseline.
collsim.sweep{
  topologies = topologies,
  collective = "allreduce",
  algorithms = {"rabenseifner", "bine_bandwidth"},
  ranks      = ranks,
  size       = "1MiB",
  placements = placements,
  model      = "traffic",
  filter     = fits,
}
collsim.sweep{
  topologies = topologies,
  collective = "reduce_scatter",
  algorithms = {"recursive_doubling", "recursive_halving", "bine"},
  ranks      = ranks,
  size       = "1MiB",
  placements = placements,
  model      = "traffic",
  filter     = fits,
}

-- The other collectives (Tables 3/4 traffic columns): linear and three fragmented:8
-- placements.
local few = {"linear", collsim.placement.fragmented(8, 1), collsim.placement.fragmented(8, 2),
             collsim.placement.fragmented(8, 3)}
local others = {
  bcast     = {"binomial_halving", "binomial_doubling", "scatter_allgather", "bine",
               "bine_scatter_allgather"},
  reduce    = {"binomial", "rabenseifner", "bine", "bine_rs_gather"},
  gather    = {"binomial", "bine"},
  scatter   = {"binomial", "bine"},
  allgather = {"recursive_doubling", "bruck", "bine"},
  alltoall  = {"bruck", "bine"},
}
for _, coll in ipairs{"bcast", "reduce", "gather", "scatter", "allgather", "alltoall"} do
  collsim.sweep{
    topologies = topologies,
    collective = coll,
    algorithms = others[coll],
    ranks      = ranks,
    size       = "1MiB",
    placements = few,
    model      = "traffic",
  }
end
