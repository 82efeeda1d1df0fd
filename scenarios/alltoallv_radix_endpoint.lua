-- alltoallv_radix_endpoint.lua - issue 24: the ParLogNa radix sweep (Fan et al., HPDC'25,
-- Figure 6) again, with endpoint costs switched off and on (same points otherwise).
--
-- P = 512 (the paper's P range is 512..16,384 and its trends are "consistent across all
-- process counts"; its Figure 6 is at 2,048, which the packet model takes ~1 CPU hour a
-- machine and setting for: ALLTOALLV_P=1024 or 2048 runs another P), 32 ranks per
-- node, uniform block sizes on [0, S], S = 16 B .. 16 KiB (x4), every radix 2, 4, ..., P
-- plus ~sqrt(P), Polaris (Dragonfly) and Fugaku (torus) presets, packet model (the flow
-- model's max-min solver aborts or times out on the large radices: results/alltoallv/).
-- Endpoint settings (lib/alltoallv_endpoint.lua, with their sources): off (all zero),
-- paper (o_s = o_r = 3.16 us Polaris, 24.9 us Fugaku: the paper's vendor alltoallv,
-- per message) and, on Polaris, third (1 us: the middle of the switch sweep).
-- `python3 scripts/alltoallv_stats.py regimes-md <dir>/results.csv` prints the best radix
-- per (machine, setting, P, S) and which of the paper's three regimes it falls in.
-- ALLTOALLV_P=1024 (comma-separated), ALLTOALLV_MACHINES=polaris, ALLTOALLV_ENDPOINT=off,paper
-- (the settings) and ALLTOALLV_S=16B,1KiB,16KiB (the sizes) pick subsets; a subset is its
-- own plan: give it its own -o directory.

local settings = dofile(collsim.info.dir .. "/lib/alltoallv_endpoint.lua")
-- the machines ALLTOALLV_MACHINES names (endpoint=none: only the keys below), by name
local _, names, machines = dofile(collsim.info.dir .. "/lib/alltoallv_machines.lua")({"polaris", "fugaku"})
local Ps = {}
for v in (os.getenv("ALLTOALLV_P") or "512"):gmatch("[^,]+") do
  local P = math.tointeger(tonumber(v))
  if not P or P < 64 then error("ALLTOALLV_P: a comma-separated list of rank counts >= 64, got " .. v) end
  Ps[#Ps + 1] = P
end
local Ss = {}
for v in (os.getenv("ALLTOALLV_S") or "16B,64B,256B,1KiB,4KiB,16KiB"):gmatch("[^,]+") do
  if not v:match("^%d+K?i?B$") then error("ALLTOALLV_S: a comma-separated list of sizes such as 16B,1KiB, got " .. v) end
  Ss[#Ss + 1] = v
end
local wanted
if os.getenv("ALLTOALLV_ENDPOINT") then
  wanted = {}
  for v in os.getenv("ALLTOALLV_ENDPOINT"):gmatch("[^,]+") do wanted[v] = true end
end

local function radices(P)
  local list, seen = {}, {}
  local v = 2
  while v <= P do list[#list + 1] = v; seen[v] = true; v = v * 2 end
  local sq = math.tointeger(math.floor(math.sqrt(P) + 0.5))
  if not seen[sq] then list[#list + 1] = sq end
  return list
end

for _, name in ipairs(names) do
  for _, set in ipairs(settings(name)) do
    for _, P in ipairs(Ps) do
      if not wanted or wanted[set.name] then
        for _, S in ipairs(Ss) do
          collsim.sweep{
            topology       = machines[name],
            collective     = "alltoallv",
            ranks          = P,
            ranks_per_node = 32,
            workload       = collsim.workload("uniform", {S = S}),
            algorithm      = collsim.algorithm("parlogna", {radix = radices(P)}),
            model          = "packet",
            size           = S,   -- the nominal S, kept in size_bytes for the statistics
            send_overhead  = set.keys.send_overhead,
            recv_overhead  = set.keys.recv_overhead,
            msg_gap        = set.keys.msg_gap,
            envelope       = set.keys.envelope,
          }
        end
      end
    end
  end
end
