-- bine_rabenseifner_order.lua - is Bine's win over "Rabenseifner" an artifact of the
-- baseline's peer order? Bine (bine_bandwidth) against collsim's allreduce rabenseifner in
-- both orders: order=farthest (collsim's default: reduce-scatter r xor 2^(k-1-s), the
-- largest message to the farthest peer) and order=nearest (MPICH's and Open MPI's, the
-- libraries the Bine paper ran: r xor 2^s first; docs/algorithms.md "Orders of the
-- recursive doubling butterflies"). The same check for reduce_scatter: recursive_halving
-- (farthest first, MPICH's and Open MPI's recursive halving) and recursive_doubling
-- (nearest first, the paper's tracer's distance-doubling baseline) against bine.
--
-- Same machines, allocations and sizes as the headline claims:
--   traffic  LUMI and Leonardo as scenarios/bine_traffic.lua (16..2048 ranks, linear,
--            fragmented:{4,8,16}:{1..8}, the aligned allocation files), MareNostrum 5 as
--            scenarios/bine_mn5.lua (4..64 ranks, fragmented:max(1,P/8):{1..8}); 1 MiB
--            (bytes scale with the size)
--   time     LUMI, flow model (cm02), 64 and 256 nodes x 1, 16, 128 MiB, linear and
--            fragmented:8:1
-- scripts/bine_rorder_stats.py turns results.csv into the tables of
-- results/bine/rabenseifner_order/README.md.

-- endpoint=none: the network alone, as the shipped results were made (the preset's
-- endpoint costs, on since 27 Nov 2026, would change every timed point; same point ids).
local lumi = collsim.machine("platforms/lumi.yaml", {endpoint = "none"})
local leonardo = collsim.machine("platforms/leonardo.yaml", {endpoint = "none"})
local mn5 = collsim.machine("platforms/marenostrum5.yaml", {endpoint = "none"})

local allreduce = {collsim.algorithm("rabenseifner", {order = {"farthest", "nearest"}}),
                   "bine_bandwidth"}
local reduce_scatter = {"recursive_halving", "recursive_doubling", "bine"}

-- LUMI / Leonardo placements and their filter, as bine_traffic.lua
local placements, fits = dofile(collsim.info.dir .. "/lib/bine_placements.lua")

for _, pair in ipairs{{"allreduce", allreduce}, {"reduce_scatter", reduce_scatter}} do
  collsim.sweep{topologies = {lumi, leonardo}, collective = pair[1], algorithms = pair[2],
                ranks = collsim.ranks.pow2(16, 2048), size = "1MiB",
                placements = placements, model = "traffic", filter = fits}
  -- MareNostrum 5: a P-node job is fragmented:max(1, P/8):SEED (bine_mn5.lua)
  for _, p in ipairs(collsim.ranks.pow2(4, 64)) do
    local seeds = {}
    for s = 1, 8 do seeds[s] = collsim.placement.fragmented(math.max(1, p // 8), s) end
    collsim.sweep{topology = mn5, collective = pair[1], algorithms = pair[2], ranks = p,
                  size = "1MiB", placements = seeds, model = "traffic"}
  end
end

-- time on LUMI (flow model), allreduce only
collsim.sweep{topology = lumi, collective = "allreduce", algorithms = allreduce,
              ranks = {64, 256}, sizes = {"1MiB", "16MiB", "128MiB"},
              placements = {"linear", collsim.placement.fragmented(8, 1)}, model = "cm02"}
