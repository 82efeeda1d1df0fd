-- bine_lumi_small.lua - the reduced run of bine_lumi.lua (same algorithms, fewer points)
-- that fits in minutes on 2 shared cores: 16 and 128 nodes, four sizes (32 B, 16 KiB,
-- 1 MiB, 64 MiB: every other x8 step of the full 32 B .. 512 MiB range), plus allreduce
-- on 1024 nodes at 16 KiB and 8 MiB without the ring (one ring point on 1024 nodes took
-- 143 s on the loaded machine: 0.00499 s simulated at 8 MiB).
BINE_LUMI = {
  ranks = {16, 128},
  sizes = {"32B", "16KiB", "1MiB", "64MiB"},
}
dofile(collsim.info.dir .. "/bine_lumi.lua")

BINE_LUMI = {
  ranks = {1024},
  sizes = {"16KiB", "8MiB"},
  collectives = {"allreduce"},
  filter = function(pt) return pt.algorithm ~= "ring" end,
}
dofile(collsim.info.dir .. "/bine_lumi.lua")
