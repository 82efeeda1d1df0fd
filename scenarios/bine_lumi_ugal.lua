-- bine_lumi_ugal.lua - Bine against the classic algorithms on the LUMI preset under the
-- packet model with UGAL-L routing (issue 25: the Bine study that needed adaptive routing,
-- rerun at its scale). The algorithms, machine (LUMI's network alone, endpoint=none) and
-- sweeps are bine_lumi.lua's (dofile with BINE_LUMI), so every point also exists in the
-- flow-model reference results/bine/bine_lumi (same collective, algorithm, nodes, size).
--
-- Subset of bine_lumi's 8 collectives x 16..1,024 nodes x 32 B..512 MiB, chosen to fit in
-- about an hour of CPU on the shared 2-core machine: the four butterfly / all-to-all
-- collectives of the paper's Table 3 and Fig. 9 (allreduce, allgather, reduce_scatter,
-- alltoall; the rooted ones are trees whose few messages rarely contend), all 7 node
-- counts (16..1,024: 1 to 9 of LUMI's 124-node groups) and the 7 sizes 32 B..8 MiB (x8
-- steps). The packet model's cost grows with the bytes moved: one 8 MiB point on 1,024
-- nodes takes 2 to 30 CPU s, so 64 MiB and 512 MiB (8x and 64x that) are left out.
-- 18 algorithms x 7 x 7 = 882 points. Packet model: 4 KiB packets, 64 KiB buffers.
BINE_LUMI = {
  collectives = {"allreduce", "allgather", "reduce_scatter", "alltoall"},
  sizes = collsim.sizes.geometric("32B", "8MiB", 8),
  model = "packet",
  keys = {routing = "ugal"},
}
dofile(collsim.info.dir .. "/bine_lumi.lua")
