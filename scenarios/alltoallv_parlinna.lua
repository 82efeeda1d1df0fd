-- alltoallv_parlinna.lua - issue 8: ParLinNa intra-node radix x inter-node batch-size
-- heatmaps (Fan et al., HPDC'25, section 5.2), coalesced and staggered, on the Polaris and
-- Fugaku presets with 32 ranks per node, P = 2048 (N = 64 nodes), S = 16 B, 1 KiB, 16 KiB.
-- batch_size 0 means "all at once" (the artifact's default N resp. P).
-- COLLSIM_QUICK=1 runs P = 512 (N = 16), Polaris only, S = 16 B and 16 KiB, radix 2/8/32,
-- batch sizes 1, 4, all (coalesced) and 1, 32, all (staggered).
-- ALLTOALLV_MACHINES=polaris (or fugaku, or both comma-separated) picks the machines.
-- `collsim run --model packet` runs the plan on the packet model instead of cm02: seconds
-- instead of minutes for the points with thousands of messages in flight, and no SimGrid
-- max-min aborts (results/alltoallv/README.md). Give it its own -o directory.

local quick = os.getenv("COLLSIM_QUICK") == "1"
local machines = dofile(collsim.info.dir .. "/lib/alltoallv_machines.lua")(
  quick and {"polaris"} or {"polaris", "fugaku"})
local P = quick and 512 or 2048
local N = P // 32
local radices = quick and {2, 8, 32} or {2, 4, 8, 16, 32}
for _, S in ipairs(quick and {"16B", "16KiB"} or {"16B", "1KiB", "16KiB"}) do
  local b_coal, b_stag = {}, {}
  local b = 1
  while b < N do b_coal[#b_coal + 1] = b; b = b * (quick and 4 or 2) end
  b_coal[#b_coal + 1] = 0
  b = 1
  while b < P do b_stag[#b_stag + 1] = b; b = b * (quick and 32 or 4) end
  b_stag[#b_stag + 1] = 0
  collsim.sweep{
    topologies     = machines,
    collective     = "alltoallv",
    ranks          = P,
    ranks_per_node = 32,
    model          = "cm02",
    workload       = collsim.workload("uniform", {S = S}),
    size           = S,
    algorithms     = {
      collsim.algorithm("parlinna_coalesced", {radix = radices, batch_size = b_coal}),
      collsim.algorithm("parlinna_staggered", {radix = radices, batch_size = b_stag}),
    },
  }
end
