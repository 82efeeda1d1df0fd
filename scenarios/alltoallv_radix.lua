-- alltoallv_radix.lua - issue 8: ParLogNa radix sweeps (Fan et al., HPDC'25, Figure 6).
--
-- P in {512, 1024, 2048} ranks, 32 ranks per node, uniform block sizes on [0, S] for
-- S = 16 B .. 16 KiB (x4), every radix r = 2, 4, ..., P plus r ~ sqrt(P), on the Polaris
-- (Dragonfly) and Fugaku (8x8x8 torus) presets. `scripts/alltoallv_stats.py radix` prints the best
-- radix per (machine, P, S); the paper's trend: ~2 (small S), ~sqrt(P) (medium), ~P (large).
-- COLLSIM_QUICK=1 (environment) runs a scaled-down version: P = 512 only, fewer radices.
-- ALLTOALLV_P=1024 (comma-separated) picks the rank counts; `collsim run --model packet`
-- runs the plan on the packet model instead of cm02: a point with hundreds of thousands
-- of messages in flight takes seconds where SimGrid's max-min solver takes minutes
-- (results/alltoallv/README.md compares the two at P = 512). A subset or model is its own
-- plan: give it its own -o directory.

local quick = os.getenv("COLLSIM_QUICK") == "1"
local machines = {
  -- endpoint=none: the network alone, as the shipped results (same point ids)
  collsim.machine("platforms/polaris.yaml", {endpoint = "none"}),
  collsim.machine("platforms/fugaku.yaml", {endpoint = "none"}),
}
local Ps = quick and {512} or {512, 1024, 2048}
if os.getenv("ALLTOALLV_P") then
  Ps = {}
  for v in os.getenv("ALLTOALLV_P"):gmatch("[^,]+") do
    local P = math.tointeger(tonumber(v))
    if not P or P < 2 then error("ALLTOALLV_P: a comma-separated list of rank counts, got " .. v) end
    Ps[#Ps + 1] = P
  end
end
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
      model          = "cm02",
      size           = S,   -- the nominal S, kept in size_bytes for the statistics
    }
  end
end
