-- analytic_vs_flow.lua - the analytic model's error against the flow model (cm02), issue 28
-- deliverable 3: every topology family, every collective (alltoallv with its vector split
-- evenly, p2p from rank 0 to the last rank), P = 64 .. 4,096, 1 MiB vectors,
-- default link parameters and reduction / copy rates, linear placement. Every point runs
-- under both models; scripts/analytic_vs_flow_table.py makes the table of
-- results/analytic-vs-flow/README.md from the CSV.
--
-- CPU is scarce (the flow model at P = 4,096 costs seconds to minutes a point), so:
--   log-step algorithms (ceil(log2 P) .. 2 log2 P steps) and p2p: P = 64, 512, 4,096;
--   step-heavy algorithms (P - 1 or 2(P - 1) steps: ring, pairwise): P = 64, 256;
--   alltoallv linear (P - 1 messages per rank at once: the flow model's max-min solver
--   with 65,280 flows in flight takes minutes a point): P = 64 only.
-- Each family has one instance per P, of P hosts or a little more (the flow model loads the
-- whole platform for every point: a 4,096-host platform costs seconds even at P = 64);
-- P = 256 runs on the 512-host instance.

local instances = {
  {["64"] = "dragonfly p=2 a=4 h=2 g=8", ["512"] = "dragonfly p=4 a=8 h=4 g=16",
   ["4096"] = "dragonfly p=8 a=16 h=8 g=32"},
  {["64"] = "dragonflyplus p=4 leaves=4 spines=4 h=4 g=4",
   ["512"] = "dragonflyplus p=8 leaves=8 spines=8 h=8 g=8",
   ["4096"] = "dragonflyplus p=16 leaves=16 spines=16 h=16 g=16"},
  {["64"] = "fattree levels=2 radix=16 leaves=8", ["512"] = "fattree levels=3 radix=16 pods=8",
   ["4096"] = "fattree levels=3 radix=32 pods=16"},
  {["64"] = "torus dims=4x4x4", ["512"] = "torus dims=8x8x8", ["4096"] = "torus dims=16x16x16"},
  {["64"] = "hyperx dims=4x4 T=4", ["512"] = "hyperx dims=8x8 T=8",
   ["4096"] = "hyperx dims=16x16 T=16"},
  {["64"] = "kautz d=4 k=2 T=4", ["512"] = "kautz d=8 k=2 T=8", ["4096"] = "kautz d=16 k=2 T=16"},
  {["64"] = "2dfc m1=4 m2=4 T=4", ["512"] = "2dfc m1=8 m2=8 T=8", ["4096"] = "2dfc m1=16 m2=16 T=16"},
  {["64"] = "hammingmesh a=2 b=2 x=4 y=4", ["512"] = "hammingmesh a=2 b=2 x=8 y=16",
   ["4096"] = "hammingmesh a=2 b=2 x=32 y=32"},
}

local log_step = {
  bcast = {"binomial_halving"},
  reduce = {"binomial"},
  gather = {"binomial"},
  scatter = {"binomial"},
  allgather = {"recursive_doubling"},
  reduce_scatter = {"recursive_halving"},
  allreduce = {"rabenseifner", "recursive_doubling"},
  alltoall = {"bruck"},
  alltoallv = {"bruck"},
}
local step_heavy = {
  allgather = {"ring"},
  allreduce = {"ring"},
  alltoall = {"pairwise"},
  alltoallv = {"linear"},
}
local collectives = {"bcast", "reduce", "gather", "scatter", "allgather", "reduce_scatter",
                     "allreduce", "alltoall", "alltoallv"}

local function sweep(topology, coll, algorithms, P, dst)
  collsim.sweep{topology = topology, collective = coll, algorithms = algorithms, ranks = P,
                dst = dst, size = "1MiB", models = {"analytic", "cm02"}}
end

for _, family in ipairs(instances) do
  for _, coll in ipairs(collectives) do
    for _, P in ipairs({64, 512, 4096}) do
      sweep(family[tostring(P)], coll, log_step[coll], P)
    end
    if step_heavy[coll] then
      sweep(family["64"], coll, step_heavy[coll], 64)
      if coll ~= "alltoallv" then -- 255 x 256 flows at once: minutes per flow point
        sweep(family["512"], coll, step_heavy[coll], 256)
      end
    end
  end
  -- p2p: one message from rank 0 to the last rank, across the instance
  for _, P in ipairs({64, 512, 4096}) do
    sweep(family[tostring(P)], "p2p", {"direct"}, P, P - 1)
  end
end
