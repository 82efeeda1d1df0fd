-- bine_mn5.lua - Bine against the classic algorithms on the MareNostrum 5 preset (issue 23,
-- deliverable 6; the Bine paper's Sec. 5.3, Table 5 and Fig. 11a; digest
-- /work/shared/reference/bine.md sections 5 and 7.6-7.7).
--
-- The paper's setup: 4..64 nodes (the most a user gets), spanning 1..8 of the 160-node
-- full-bandwidth subtrees of MN5's 2:1 fat tree, one rank per node, the nine sizes
-- 32 B .. 512 MiB (x8), all eight collectives, each Bine algorithm against its binomial
-- counterpart (Table 5) and against every classic one (Fig. 11a).
--
-- Placement: the paper requested none; its jobs spanned 1..8 subtrees. Here a job of P
-- nodes is fragmented:K:SEED with K = max(1, P/8) contiguous chunks at random positions
-- of the 8 x 160 hosts (a busy machine's allocation): 4 and 8 nodes lie in one chunk,
-- 64 nodes in 8 chunks (about 8 subtrees). Linear placement would put all 64 nodes in
-- subtree 0 and no byte on the tapered links.
--
-- Two parts:
--   time     flow model (cm02), seed 1: 5 node counts x 9 sizes x 32 algorithms
--   traffic  traffic model, 1 MiB (bytes scale with the size), seeds 1..8: the "Avg/Max
--            traffic reduction" columns of Table 5 over several allocations
-- scripts/bine_mn5_stats.py turns results.csv into the tables of results/bine/bine_mn5/README.md.

local ranks = collsim.ranks.pow2(4, 64)
local sizes = collsim.sizes.geometric("32B", "512MiB", 8)
-- endpoint=none: the network alone, as the shipped results were made (the preset's
-- endpoint costs, on since 27 Nov 2026, would change every timed point; same point ids).
local mn5 = collsim.machine("platforms/marenostrum5.yaml", {endpoint = "none"})

-- per collective: the classic algorithms (the baselines), then Bine's (as bine_lumi.lua)
local algorithms, order = dofile(collsim.info.dir .. "/lib/bine_algorithms.lua")

-- the allocation of a P-node job with seed s
local function placement(p, seed)
  return collsim.placement.fragmented(math.max(1, p // 8), seed)
end

local baselines = {}
for _, coll in ipairs(order) do
  local list = {}
  for _, a in ipairs(algorithms[coll].classic) do
    list[#list + 1] = a
    baselines[#baselines + 1] = a
  end
  for _, a in ipairs(algorithms[coll].bine) do list[#list + 1] = a end
  for _, p in ipairs(ranks) do
    collsim.sweep{topology = mn5, collective = coll, algorithms = list, ranks = p,
                  sizes = sizes, placement = placement(p, 1), model = "cm02"}
    local seeds = {}
    for s = 1, 8 do seeds[s] = placement(p, s) end
    collsim.sweep{topology = mn5, collective = coll, algorithms = list, ranks = p,
                  size = "1MiB", placements = seeds, model = "traffic"}
  end
end

collsim.plot{baseline = baselines}
