-- shared_dragonfly.lua - issue 29's first study (results/shared-dragonfly/README.md): on a
-- Dragonfly, an allreduce "victim" shares the routers, local and global links of its
-- groups with an alltoall "bully" (every other host of groups 0-7 each); the victim runs
-- Bine (bine_bandwidth), Rabenseifner or ring. Each point is the two jobs together, then
-- each alone on the same hosts: one row per job, with its time alone and its slowdown
-- (docs/scenarios.md "Several jobs").
--
--   collsim run scenarios/shared_dragonfly.lua -o results/shared-dragonfly   # takes ~1 h
--
-- Sections, in this order (the points of the table of the README):
--   shared:  the bully on the victim's routers, loads 0.5 and 1, victim 256KiB, 1MiB, 4MiB;
--   control: the bully alone in group 8, which no minimal route of the victim crosses
--            (slowdown 1 expected), 1MiB;
--   packet:  the shared case at load 1 and 1MiB under the packet model, minimal and UGAL-L.

local DF = "dragonfly p=2 a=4 h=2"  -- 9 groups of 4 routers x 2 hosts, one global link per pair
local ALGS = {"bine_bandwidth", "rabenseifner", "ring"}

local even, odd = {}, {}           -- host 0 / host 1 of every router of groups 0-7
for h = 0, 62, 2 do
  even[#even + 1] = h
  odd[#odd + 1] = h + 1
end

local function victim(size)
  return {name = "victim", coll = "allreduce", alg = ALGS, ranks = 32, hosts = even,
          size = size, start = "100us"}
end

local function bully(hosts, ranks, load)
  return {name = "bully", pattern = "alltoall", ranks = ranks, hosts = hosts, size = "16KiB",
          load = load, duration = "3ms"}
end

-- shared
for _, load in ipairs({0.5, 1}) do
  for _, size in ipairs({"256KiB", "1MiB", "4MiB"}) do
    collsim.sweep{topology = DF, jobs = {victim(size), bully(odd, 32, load)}}
  end
end

-- control: the bully on the 8 hosts of group 8
collsim.sweep{topology = DF, jobs = {victim("1MiB"), bully("64-71", 8, 1)}}

-- packet: minimal and UGAL-L routing
for _, routing in ipairs({"minimal", "ugal"}) do
  collsim.sweep{topology = DF, model = "packet", routing = routing,
                jobs = {victim("1MiB"), bully(odd, 32, 1)}}
end
