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
-- a 128 MiB Swing-B point ~4 min, a 512 MiB one ~16 min):
--   latency-optimal (Swing-L, RD-L torus, mirrored RD-L)  32 B, 2 KiB, 32 KiB, 128 KiB
--   bandwidth-optimal (Swing-B, RD-B torus, mirrored RD-B) 32 KiB .. 32 MiB
--   bucket (252 steps: latency-bound below 128 KiB)        128 KiB .. 32 MiB
--   Swing-B and bucket at 128 MiB (the paper's crossover), adaptive routing only
-- (sizes 32 KiB, 128 KiB, 2 MiB, 8 MiB, 32 MiB, 128 MiB for the bandwidth ones). No
-- Hamiltonian rings and no plain ring: 2(P-1) = 8,190 steps of >= 400 ns each cost them
-- >= 3.3 ms at any size, more than every other algorithm up to 128 MiB (flow: Swing-B 1.7 ms
-- at 128 MiB), and ~134 M messages a point; the flow reference has no 64x64 ring row either.
-- 64 points (62 up to 32 MiB). Run as
--   SWING_MAX=8MiB collsim run scenarios/swing_torus_packet.lua -o DIR -j 1    (first)
--   SWING_MAX=32MiB collsim run scenarios/swing_torus_packet.lua -o DIR -j 1 --resume
--   collsim run scenarios/swing_torus_packet.lua -o DIR -j 1 --resume           (128 MiB)

local latency = {swing_latency = true, recursive_doubling_torus = true}
local wanted = {swing_latency = true, swing_bandwidth = true, recursive_doubling_torus = true,
                rabenseifner_torus = true, bucket = true}
local KiB, MiB = 1024, 1024 * 1024

local function in_plan(pt)
  if not wanted[pt.algorithm] then return false end
  if pt.size > 32 * MiB then
    return pt.routing == "adaptive" and pt.size == 128 * MiB
       and (pt.algorithm == "swing_bandwidth" or pt.algorithm == "bucket")
  end
  if latency[pt.algorithm] then return pt.size <= 128 * KiB end
  if pt.algorithm == "bucket" then return pt.size >= 128 * KiB end
  return pt.size >= 32 * KiB
end

SWING_TORI = {
  shapes = "64x64",
  model  = "packet",
  keys   = {routing = {"minimal", "adaptive"}},
  sizes  = {"32B", "2KiB", "32KiB", "128KiB", "2MiB", "8MiB", "32MiB", "128MiB"},
  filter = function(pt) return in_plan(pt) end,
}
dofile(collsim.info.dir .. "/swing_tori.lua")
