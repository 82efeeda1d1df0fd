-- alltoallv_radix.lua - issue 8: ParLogNa radix sweeps (Fan et al., HPDC'25, Figure 6).
--
-- P in {512, 1024, 2048} ranks, 32 ranks per node, uniform block sizes on [0, S] for
-- S = 16 B .. 16 KiB (x4), every radix r = 2, 4, ..., P plus r ~ sqrt(P), on the Polaris
-- (Dragonfly) and Fugaku (8x8x8 torus) presets. `scripts/alltoallv_stats.py radix` prints the best
-- radix per (machine, P, S); the paper's trend: ~2 (small S), ~sqrt(P) (medium), ~P (large).
-- COLLSIM_QUICK=1 (environment) runs a scaled-down version: P = 512 only, fewer radices.

local quick = os.getenv("COLLSIM_QUICK") == "1"
local machines = {
  collsim.machine("platforms/polaris.yaml"),
  collsim.machine("platforms/fugaku.yaml"),
}
local Ps = quick and {512} or {512, 1024, 2048}
local Ss = {"16B", "64B", "256B", "1KiB", "4KiB", "16KiB"}

local function radices(P)
  local r, list = {}, {}
  for k = 1, 30 do
    local v = 2 ^ k
    if v > P then break end
    if not quick or k % 2 == 1 or v == P then r[#r + 1] = math.tointeger(v) end
  end
  r[#r + 1] = math.tointeger(math.floor(math.sqrt(P) + 0.5))  -- 23, 32, 45
  local seen = {}
  for _, v in ipairs(r) do if not seen[v] then seen[v] = true; list[#list + 1] = v end end
  return list
end

for _, P in ipairs(Ps) do
  for _, S in ipairs(Ss) do
    collsim.sweep{
      topologies     = machines,
      collective     = "alltoallv",
      ranks          = P,
      ranks_per_node = 32,
      workload       = collsim.workload("uniform", {S = S}),
      algorithm      = collsim.algorithm("parlogna", {radix = radices(P)}),
      size           = S,   -- the nominal S, kept in size_bytes for the statistics
    }
  end
end
