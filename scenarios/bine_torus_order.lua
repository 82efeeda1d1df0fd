-- bine_torus_order.lua - why does the torus-optimised Bine allreduce trail Swing on the
-- elongated 32x256 Fugaku job shape when the two tie on 64x64 (results/bine/README.md,
-- "Fugaku")? The suspected cause, switched on and off: the dimension order of bine_torus's
-- butterflies on a rectangular torus. dim_order=round_robin (collsim's default): the
-- allgather goes round the dimensions and the reduce-scatter is that order backwards, so
-- the long dimension's extra steps come first in the reduce-scatter, with the largest
-- messages (n/2, n/4, ... over 1, 1, 3, 5 hops of the 256-long ring); dim_order=rotation:
-- libswing's order (Swing's), those steps last, with the smallest messages. On a square
-- torus the two orders are the same.
--
-- 2D Fugaku shapes 64x64, 32x128, 32x256, 16x256, 8x512 (linear, one rank per node),
-- allreduce 8 MiB, traffic model: bine_torus ports 1 / multi x both orders, and
-- swing_bandwidth ports 1 / multi. No flow points: with dim_order=rotation bine_torus sends
-- exactly Swing's messages on a 2D torus (tests/test_bine_torus_order.c), so the flow times
-- of both orders are those of bine_fugaku_flow's bine_torus (round_robin) and
-- swing_bandwidth rows (a flow run of both orders here took 195 s for one point on the
-- loaded machine and was left out).
--
--   collsim run scenarios/bine_torus_order.lua -o results/bine/bine_torus_order -j 1 --no-plot
-- scripts/bine_torus_order_stats.py turns results.csv into the README tables.

local bine = collsim.algorithm("bine_torus", {ports = {"1", "multi"},
                                              dim_order = {"round_robin", "rotation"}})
local swing = collsim.algorithm("swing_bandwidth", {ports = {"1", "multi"}})

for _, shape in ipairs{"64x64", "32x128", "32x256", "16x256", "8x512"} do
  local torus = collsim.machine("platforms/fugaku.yaml", {dims = shape})
  collsim.sweep{topology = torus, collective = "allreduce", ranks = torus.hosts,
                algorithms = {bine, swing}, size = "8MiB", model = "traffic"}
end
