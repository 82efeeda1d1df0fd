-- bine_lumi_ugal_buffer.lua - scenarios/bine_lumi_ugal.lua's control: the same algorithms
-- on the packet model with UGAL-L routing and 1 MiB buffers instead of 64 KiB, on a subset:
-- 256 and 1,024 nodes (3 and 9 LUMI groups); allreduce at 128 KiB, 1 MiB and 8 MiB,
-- allgather, reduce_scatter and alltoall at 128 KiB and 1 MiB (86 points; their 8 MiB
-- points were dropped while it ran, for time: an 8 MiB point on 1,024 nodes took minutes
-- on the shared machine).
-- Why: the LUMI preset folds the 22 global links of a group pair into one link of 22 x 200
-- Gb/s (trunk=1), whose far end had, until commit 9e7ce5c, one 64 KiB buffer per virtual
-- channel where the real switches have 22; its bandwidth-delay product (550 GB/s x 800 ns =
-- 440 KB) exceeded 64 KiB, so credits, not bandwidth, limited it (allreduce rabenseifner,
-- 1,024 nodes, 8 MiB, packet minimal: 28.1 ms with 64 KiB buffers, 4.4 ms with 1 MiB, flow
-- model 4.1 ms). The fix gives a folded trunk m buffers (4.24 ms at 64 KiB); this control
-- now only asks whether 16 times larger buffers change the comparison.
-- results/bine/README.md ("LUMI on the packet model with UGAL") compares the three.
local function run(collectives, sizes)
  BINE_LUMI = {
    collectives = collectives,
    ranks = {256, 1024},
    sizes = sizes,
    model = "packet",
    keys = {routing = "ugal", buffer = "1MiB"},
    plot = false,
  }
  dofile(collsim.info.dir .. "/bine_lumi.lua")
end
run({"allreduce"}, {"128KiB", "1MiB", "8MiB"})
run({"allgather", "reduce_scatter", "alltoall"}, {"128KiB", "1MiB"})
