-- bine_fugaku_flow.lua - timed (flow model, cm02) points on the two large Fugaku job shapes
-- of the Bine paper, 64x64 (4,096 nodes) and 32x256 (8,192 nodes), that bine_fugaku.lua
-- only counts in the traffic model (issue 6; the paper's Sec. 5.4 / Fig. 11b: "up to 4.12x"
-- for allreduce from 128 KiB on 32x256, "up to 5x" for reduce-scatter).
--
-- Allreduce: torus-optimised Bine with one port and multiport against the torus baselines
-- (bucket multiport, Swing multiport, torus Rabenseifner); reduce-scatter: Bine torus
-- against MPICH's recursive halving. 128 KiB and 8 MiB, except bucket (8 MiB only: its
-- 2(d1 + d2 - 2) steps on 32x256 make a 128 KiB point latency-bound and slow to simulate).
-- Fujitsu's Trinaryx, the paper's baseline, is not implemented. About 40 min on one core.
--
--   collsim run scenarios/bine_fugaku_flow.lua -o results/bine/bine_fugaku_flow -j 1

local algorithms = {
  allreduce = {
    collsim.algorithm("bine_torus", {ports = {"1", "multi"}}),
    collsim.algorithm("bucket", {ports = "multi"}),
    collsim.algorithm("swing_bandwidth", {ports = "multi"}),
    "rabenseifner_torus",
  },
  reduce_scatter = {collsim.algorithm("bine_torus", {ports = {"1", "multi"}}), "recursive_halving"},
}

for _, shape in ipairs{"64x64", "32x256"} do
  -- endpoint=none: the network alone, as the shipped results (same point ids)
  local torus = collsim.machine("platforms/fugaku.yaml", {dims = shape, endpoint = "none"})
  for _, coll in ipairs{"allreduce", "reduce_scatter"} do
    collsim.sweep{
      topology = torus, collective = coll, ranks = torus.hosts, dims = shape,
      algorithms = algorithms[coll], sizes = {"128KiB", "8MiB"}, model = "cm02",
      filter = function(pt) return pt.algorithm ~= "bucket" or pt.size >= 8 * 1024 * 1024 end,
    }
  end
end

collsim.plot{baseline = {"bucket", "swing_bandwidth", "rabenseifner_torus", "recursive_halving"}}
