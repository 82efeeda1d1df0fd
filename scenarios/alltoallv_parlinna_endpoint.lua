-- alltoallv_parlinna_endpoint.lua - issue 24: coalesced vs staggered ParLinNa (Fan et al.,
-- HPDC'25, section 5.2) again, with endpoint costs switched off and on (same points).
--
-- P = 512 (N = 16 nodes of 32 ranks), the Polaris preset (the claims' machine; Fugaku with
-- ALLTOALLV_MACHINES=fugaku or polaris,fugaku, its own -o directory), packet model, uniform
-- S = 16 B and 16 KiB, intra-node radix 2 / 8 / 32, inter-node batch sizes 1, 4, all
-- (coalesced: up to N - 1 messages) and 1, 32, all (staggered: up to (N - 1) x 32):
-- the plan of alltoallv_parlinna.lua with COLLSIM_QUICK=1.
-- Endpoint settings: lib/alltoallv_endpoint.lua (off; paper: o_s = o_r = 3.16 us Polaris,
-- 24.9 us Fugaku; sources there).
-- `python3 scripts/alltoallv_stats.py parlinna-md <dir>/results.csv` prints the best variants.

local settings = dofile(collsim.info.dir .. "/lib/alltoallv_endpoint.lua")
-- the machines ALLTOALLV_MACHINES names (endpoint=none: only the keys below), by name
local _, names, machines = dofile(collsim.info.dir .. "/lib/alltoallv_machines.lua")({"polaris"})
local P = 512

for _, name in ipairs(names) do
  for _, set in ipairs(settings(name)) do
    if set.name == "off" or set.name == "paper" then
      for _, S in ipairs({"16B", "16KiB"}) do
        collsim.sweep{
          topology       = machines[name],
          collective     = "alltoallv",
          ranks          = P,
          ranks_per_node = 32,
          model          = "packet",
          workload       = collsim.workload("uniform", {S = S}),
          size           = S,
          algorithms     = {
            collsim.algorithm("parlinna_coalesced", {radix = {2, 8, 32}, batch_size = {1, 4, 0}}),
            collsim.algorithm("parlinna_staggered", {radix = {2, 8, 32}, batch_size = {1, 32, 0}}),
          },
          send_overhead  = set.keys.send_overhead,
          recv_overhead  = set.keys.recv_overhead,
          msg_gap        = set.keys.msg_gap,
          envelope       = set.keys.envelope,
        }
      end
    end
  end
end
