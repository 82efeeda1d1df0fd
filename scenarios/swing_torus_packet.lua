-- swing_torus_packet.lua - the Swing study's 64x64 torus (Fig. 6) on the packet model with
-- minimal (dimension-order) and adaptive (least-occupied minimal next hop) routing: issue
-- 25, "Swing on the 64x64 torus with minimal adaptive routing" (the paper's SST runs used
-- minimal adaptive routing). Shape, algorithms and costs are swing_tori.lua's (dofile with
-- SWING_TORI): platforms/swing-torus.yaml dims=64x64, 400 Gb/s, 100 ns per link, 300 ns
-- per hop, allreduce, reductions and copies free; every point is also a point of the
-- flow-model reference results/swing/swing_large (same algorithm, params and size).
-- Packet model: 4 KiB packets, 64 KiB buffers (the defaults).
--
-- A subset of the paper's 32 B .. 512 MiB, chosen from timed points to fit about an hour
-- of one core (a packet point costs ~0.8 us of CPU per packet-hop plus ~2 us per message:
-- an 8 MiB Swing-B point ~20 s, a 128 MiB one ~4 min, a 512 MiB one ~16 min):
--   latency-optimal (Swing-L, RD-L torus, mirrored RD-L)  32 B .. 128 KiB
--   bandwidth-optimal (Swing-B, RD-B torus, mirrored RD-B) 8 KiB .. 32 MiB
--   bucket (252 steps: latency-bound below 128 KiB)        128 KiB .. 32 MiB
--   Swing-B and bucket at 128 MiB (the paper's crossover), adaptive routing only
-- in x4 steps (the paper's grid, 32 B x 4^k), as swing_tori.lua's pruned plan for 64x64.
-- No Hamiltonian rings and no plain ring: 2(P-1) = 8,190 steps of >= 400 ns each cost them
-- >= 3.3 ms at any size, more than every other algorithm up to 128 MiB (flow: Swing-B 1.7 ms
-- at 128 MiB), and ~134 M messages a point; the flow reference has no 64x64 ring row either.
-- 96 points.
--
-- SWINGPK_STAGE=N keeps the points of stages 1..N only, so that a run on a busy machine
-- does the points that decide the paper's comparisons first (each stage's plan contains
-- the previous one: run the stages in order into one directory with --resume):
--   1  every point up to 8 MiB (54)
--   2  + 32 MiB Swing-B and bucket, adaptive routing
--   3  + 128 MiB Swing-B and bucket, adaptive routing
--   4  + 32 MiB Swing-B and bucket, minimal routing
--   5  + 128 B, 512 B, 8 KiB, 512 KiB (the x4 grid between the sizes above)
--   6  + 32 MiB RD-B and mirrored RD-B, both routings (= the whole plan, also without N)
--   SWINGPK_STAGE=1 collsim run scenarios/swing_torus_packet.lua -o DIR -j 1
--   SWINGPK_STAGE=2 collsim run scenarios/swing_torus_packet.lua -o DIR -j 1 --resume  ...

local latency = {swing_latency = true, recursive_doubling_torus = true}
local wanted = {swing_latency = true, swing_bandwidth = true, recursive_doubling_torus = true,
                rabenseifner_torus = true, bucket = true}
local KiB, MiB = 1024, 1024 * 1024
local stage = tonumber(os.getenv("SWINGPK_STAGE") or "6")
local filled = {[128] = true, [512] = true, [8 * KiB] = true, [512 * KiB] = true}

-- The stage of a point of the plan (1..6, 5 for the sizes that fill the grid), or nil
-- when it is not in the plan.
local function stage_of(pt)
  if not wanted[pt.algorithm] then return nil end
  local k = filled[pt.size] and 5 or 1
  local crossover = pt.algorithm == "swing_bandwidth" or pt.algorithm == "bucket"
  if pt.size == 128 * MiB then
    return (crossover and pt.routing == "adaptive") and 3 or nil
  end
  if pt.size > 8 * MiB then
    if latency[pt.algorithm] then return nil end
    if not crossover then return 6 end
    return pt.routing == "adaptive" and 2 or 4
  end
  if latency[pt.algorithm] then return pt.size <= 128 * KiB and k or nil end
  if pt.algorithm == "bucket" then return pt.size >= 128 * KiB and k or nil end
  return pt.size >= 8 * KiB and k or nil
end

SWING_TORI = {
  shapes = "64x64",
  model  = "packet",
  keys   = {routing = {"minimal", "adaptive"}},
  sizes  = collsim.sizes.geometric("32B", "128MiB", 4),
  filter = function(pt)
    local k = stage_of(pt)
    return k ~= nil and k <= stage
  end,
}
dofile(collsim.info.dir .. "/swing_tori.lua")
