-- alltoallv_compare.lua - issue 8: every alltoallv algorithm at its best parameters
-- (from alltoallv_radix / alltoallv_parlinna) against the MPI baselines, on Polaris and
-- Fugaku with 32 ranks per node, P = 2048: uniform S = 16 B .. 16 KiB, and the paper's
-- normal, power-law and FFT (N1, N2) workloads (docs/workloads.md).
-- `python3 scripts/alltoallv_stats.py compare <dir>/results.csv` prints each algorithm's speedup over the best baseline.
-- COLLSIM_QUICK=1 runs P = 512 on Polaris only, uniform S = 16 B, 1 KiB, 16 KiB, normal,
-- power-law, fft1, fft2, and fewer variants (below).
-- ALLTOALLV_MACHINES=polaris (or fugaku, or both comma-separated) picks the machines.
-- `collsim run --model packet` runs the plan on the packet model instead of cm02: seconds
-- instead of minutes for the points with thousands of messages in flight, and no SimGrid
-- max-min aborts (results/alltoallv/README.md). Give it its own -o directory.

local quick = os.getenv("COLLSIM_QUICK") == "1"
local machines = dofile(collsim.info.dir .. "/lib/alltoallv_machines.lua")(
  quick and {"polaris"} or {"polaris", "fugaku"})
local P = quick and 512 or 2048
local sq = math.tointeger(math.floor(math.sqrt(P) + 0.5))
local algorithms = {
  -- the paper's algorithms: radix 2, ~sqrt(P), P (the three regimes) and the ParLinNa
  -- variants at their usual best (small intra radix, all batches at once or 16)
  collsim.algorithm("parlogna", {radix = {2, sq, P}}),
  collsim.algorithm("parlinna_coalesced", {radix = {2, 32}, batch_size = 0}),
  collsim.algorithm("parlinna_staggered", {radix = {2, 32}, batch_size = {0, 64}}),
  -- baselines
  collsim.algorithm("scattered", {batch_size = {32, 0}}),  -- MPICH (32) and unthrottled
  "linear", "pairwise", "xor", "spread_out", "bruck",
}
if quick then  -- fewer variants, and none that posts hundreds of messages per rank at once
  algorithms = {collsim.algorithm("parlogna", {radix = {2, sq, P}}),
                collsim.algorithm("parlinna_coalesced", {radix = 2, batch_size = 0}),
                collsim.algorithm("parlinna_staggered", {radix = 2, batch_size = 64}),
                collsim.algorithm("scattered", {batch_size = 32}), "pairwise", "bruck"}
end
local workloads = {}
for _, S in ipairs(quick and {"16B", "1KiB", "16KiB"} or {"16B", "64B", "256B", "1KiB", "4KiB", "16KiB"}) do
  workloads[#workloads + 1] = collsim.workload("uniform", {S = S})
end
workloads[#workloads + 1] = collsim.workload("normal", {mean = 1000, sd = 240, max = 1024})
workloads[#workloads + 1] = collsim.workload("powerlaw", {max = 1024, x = 0.95})
workloads[#workloads + 1] = collsim.workload("fft1", {})
workloads[#workloads + 1] = collsim.workload("fft2", {})

collsim.sweep{
  topologies     = machines,
  collective     = "alltoallv",
  ranks          = P,
  ranks_per_node = 32,
  model          = "cm02",
  workloads      = workloads,
  algorithms     = algorithms,
}
collsim.plot{baseline = {"scattered", "linear", "pairwise", "xor", "spread_out", "bruck"}}
