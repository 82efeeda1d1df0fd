-- bine_lumi_endpoint.lua - Bine against the classic algorithms on LUMI and Leonardo with the
-- presets' endpoint costs on and off, same points (issue 24, deliverable 5; the Bine paper's
-- Tables 3 and 4). The algorithms and sweeps are bine_lumi.lua's (dofile with BINE_LUMI),
-- reduced to the paper's Table 3 / 4 pairs plus the linear gather, scatter and alltoall:
--
--   allreduce      bine_latency, bine_bandwidth vs recursive_doubling, rabenseifner order=nearest
--   allgather      bine (strategy block and permute) vs recursive_doubling
--   reduce_scatter bine (strategy block and permute) vs recursive_halving
--   alltoall       bine vs bruck, linear           bcast  bine, bine_scatter_allgather vs
--   reduce         bine, bine_rs_gather vs              binomial_halving, scatter_allgather
--                  binomial, rabenseifner         gather, scatter  bine vs binomial, linear
--
-- 16, 64 and 256 nodes (one rank per node, linear placement) x 32 B, 2 KiB, 128 KiB, 8 MiB
-- (every other x8 step of bine_lumi's 32 B .. 512 MiB), flow model cm02, six variants:
--
--   lumi off       "platforms/lumi.yaml endpoint=none": the network alone (bine_lumi's points,
--                  same ids)
--   lumi on        platforms/lumi.yaml: its fragment, eager_limit 18433 B only (no public
--                  per-message overhead of Cassini / Cray MPICH was found)
--   lumi on+o      LUMI with o_s = o_r = 625 ns given as sweep keys: an assumption (Leonardo's
--                  value, platforms/endpoint/leonardo.yaml), to ask what a per-message cost
--                  of that size does on LUMI
--   leonardo off   "platforms/leonardo.yaml endpoint=none"
--   leonardo on    platforms/leonardo.yaml: o_s = o_r = 625 ns, g = 4.651 ns, envelope 34 B
--   lumi on+o nic_ports=1   as lumi on+o with one NIC per node (gather, scatter, alltoall):
--                  whether linear's large-vector lead is its use of the node's 4 NICs
--
-- scripts/bine_endpoint_stats.py turns results.csv into the tables of results/bine/README.md
-- ("Endpoint costs"); scripts/claims_spec/bine.py gives the Table 3 / 4 claims their
-- endpoint-on verdicts from it.

local keep = {
  allreduce      = {"bine_latency", "bine_bandwidth", "recursive_doubling",
                    "rabenseifner order=nearest"},
  allgather      = {"bine", "bine strategy=permute", "recursive_doubling"},
  reduce_scatter = {"bine", "bine strategy=permute", "recursive_halving"},
  alltoall       = {"bine", "bruck", "linear"},
  bcast          = {"bine", "bine_scatter_allgather", "binomial_halving", "scatter_allgather"},
  reduce         = {"bine", "bine_rs_gather", "binomial", "rabenseifner"},
  gather         = {"bine", "binomial", "linear"},
  scatter        = {"bine", "binomial", "linear"},
}
local kept = {}
for coll, list in pairs(keep) do
  kept[coll] = {}
  for _, name in ipairs(list) do kept[coll][name] = true end
end
local function filter(pt)
  local name = pt.algorithm .. (pt.params ~= "" and " " .. pt.params or "")
  return kept[pt.collective][name] == true
end
-- With LUMI's eager_limit on, every eager send is a detached SimGrid comm, and SimGrid 3.32
-- slows down quadratically with the detached comms in flight (a list scan in its kernel):
-- the 256-node points of the algorithms with ~50,000 messages or more (allgather and
-- reduce_scatter bine: 49,024; alltoall linear: 65,280) did not finish in 600 s (the
-- network-only ones take seconds). They are left out of the eager variants
-- (results/bine/README.md, "Endpoint costs on").
local heavy = {["allgather bine"] = true, ["reduce_scatter bine"] = true,
               ["alltoall linear"] = true}
local function filter_eager(pt)
  return filter(pt) and not (pt.ranks >= 256 and pt.params == "" and
                             heavy[pt.collective .. " " .. pt.algorithm])
end

-- Bine's allgather / reduce-scatter also with strategy=permute: one message per step after
-- a local permutation (the default, block, sends one message per contiguous run: 49,024
-- messages at 256 nodes, each paying the per-message costs; the paper's Table 3 leaves
-- out the variants sending many non-contiguous blocks)
local permute = collsim.algorithm("bine", {strategy = "permute"})
local extra = {allgather = {permute}, reduce_scatter = {permute}}

local variants = {
  {machine = collsim.machine("platforms/lumi.yaml", {endpoint = "none"})},
  {machine = collsim.machine("platforms/lumi.yaml"), filter = filter_eager},
  {machine = collsim.machine("platforms/lumi.yaml"), filter = filter_eager,
   endpoint = {send_overhead = "625ns", recv_overhead = "625ns"}},
  {machine = collsim.machine("platforms/leonardo.yaml", {endpoint = "none"})},
  {machine = collsim.machine("platforms/leonardo.yaml")},
  -- why linear still wins at large vectors: a rank's messages take any of its node's
  -- nic_ports (4 on LUMI), so linear's P-1 messages share 4 NICs where a tree's one large
  -- message uses one; here each node has one NIC (rooted / linear collectives only)
  {machine = collsim.machine("platforms/lumi.yaml", {nic_ports = 1}), filter = filter_eager,
   endpoint = {send_overhead = "625ns", recv_overhead = "625ns"},
   collectives = {"gather", "scatter", "alltoall"}},
}
for _, v in ipairs(variants) do
  BINE_LUMI = {ranks = {16, 64, 256}, sizes = {"32B", "2KiB", "128KiB", "8MiB"},
               machine = v.machine, endpoint = v.endpoint, filter = v.filter or filter,
               collectives = v.collectives, extra = extra, plot = false}
  dofile(collsim.info.dir .. "/bine_lumi.lua")
end
