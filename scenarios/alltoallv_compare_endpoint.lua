-- alltoallv_compare_endpoint.lua - issue 24: ParLogNa / ParLinNa against the MPI baselines
-- (Fan et al., HPDC'25, Figures 11-14) again, with endpoint costs switched off and on
-- (same points otherwise).
--
-- P = 512 (the smallest P of the paper; P = 2048 takes the packet model ~3 CPU hours a
-- machine, results/alltoallv/README.md), 32 ranks per node, packet model. Polaris:
-- uniform S = 16 B and 4 KiB, the paper's normal (mean 1000 B, max 1 KiB) and FFT N1 / N2
-- patterns; Fugaku: uniform S = 16 B and 4 KiB. Algorithms: ParLogNa at radix 2 and
-- ~sqrt(P); coalesced ParLinNa (intra radix 2 / 32, all batches at once); the baselines
-- MPICH scattered (batch 32 = MPICH's default, and unbatched), Open MPI linear, pairwise,
-- xor, spread-out, Bruck. Staggered ParLinNa: alltoallv_parlinna_endpoint.lua.
-- Endpoint settings: lib/alltoallv_endpoint.lua (off; paper: o_s = o_r = 3.16 us Polaris,
-- 24.9 us Fugaku, the paper's vendor alltoallv per message; sources there).
-- `python3 scripts/alltoallv_stats.py compare-md <dir>/results.csv` prints the speedups.
-- ALLTOALLV_MACHINES=polaris picks a subset (its own -o directory).

local settings = dofile(collsim.info.dir .. "/lib/alltoallv_endpoint.lua")
-- the machines ALLTOALLV_MACHINES names (endpoint=none: only the keys below), by name
local _, names, machines = dofile(collsim.info.dir .. "/lib/alltoallv_machines.lua")({"polaris", "fugaku"})
local P = 512
local algorithms = {
  collsim.algorithm("parlogna", {radix = {2, 23}}),
  collsim.algorithm("parlinna_coalesced", {radix = {2, 32}, batch_size = 0}),
  collsim.algorithm("scattered", {batch_size = {32, 0}}),  -- MPICH (32) and unthrottled
  "linear", "pairwise", "xor", "spread_out", "bruck",
}
local uniform = {collsim.workload("uniform", {S = "16B"}), collsim.workload("uniform", {S = "4KiB"})}
local workloads = {
  polaris = {uniform[1], uniform[2], collsim.workload("normal", {mean = 1000, sd = 240, max = 1024}),
             collsim.workload("fft1", {}), collsim.workload("fft2", {})},
  fugaku = uniform,
}

for _, name in ipairs(names) do
  for _, set in ipairs(settings(name)) do
    if set.name == "off" or set.name == "paper" then
      collsim.sweep{
        topology       = machines[name],
        collective     = "alltoallv",
        ranks          = P,
        ranks_per_node = 32,
        model          = "packet",
        workloads      = workloads[name],
        algorithms     = algorithms,
        send_overhead  = set.keys.send_overhead,
        recv_overhead  = set.keys.recv_overhead,
        msg_gap        = set.keys.msg_gap,
        envelope       = set.keys.envelope,
      }
    end
  end
end
