-- bine_lumi_endpoint.lua - Bine against the classic algorithms on LUMI and Leonardo with the
-- presets' endpoint costs on and off, same points (issue 24, deliverable 5; the Bine paper's
-- Tables 3 and 4). The algorithms and sweeps are bine_lumi.lua's (dofile with BINE_LUMI),
-- reduced to the paper's Table 3 / 4 pairs plus the linear gather, scatter and alltoall:
--
--   allreduce      bine_latency, bine_bandwidth vs recursive_doubling, rabenseifner order=nearest
--   allgather      bine vs recursive_doubling      reduce_scatter  bine vs recursive_halving
--   alltoall       bine vs bruck, linear           bcast  bine, bine_scatter_allgather vs
--   reduce         bine, bine_rs_gather vs              binomial_halving, scatter_allgather
--                  binomial, rabenseifner         gather, scatter  bine vs binomial, linear
--
-- 16, 64 and 256 nodes (one rank per node, linear placement) x 32 B, 2 KiB, 128 KiB, 8 MiB
-- (every other x8 step of bine_lumi's 32 B .. 512 MiB), flow model cm02, five variants:
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
--
-- scripts/bine_endpoint_stats.py turns results.csv into the tables of results/bine/README.md
-- ("Endpoint costs"); scripts/claims_spec/bine.py gives the Table 3 / 4 claims their
-- endpoint-on verdicts from it.

local keep = {
  allreduce      = {"bine_latency", "bine_bandwidth", "recursive_doubling",
                    "rabenseifner order=nearest"},
  allgather      = {"bine", "recursive_doubling"},
  reduce_scatter = {"bine", "recursive_halving"},
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

local variants = {
  {machine = collsim.machine("platforms/lumi.yaml", {endpoint = "none"})},
  {machine = collsim.machine("platforms/lumi.yaml")},
  {machine = collsim.machine("platforms/lumi.yaml"),
   endpoint = {send_overhead = "625ns", recv_overhead = "625ns"}},
  {machine = collsim.machine("platforms/leonardo.yaml", {endpoint = "none"})},
  {machine = collsim.machine("platforms/leonardo.yaml")},
}
for _, v in ipairs(variants) do
  BINE_LUMI = {ranks = {16, 64, 256}, sizes = {"32B", "2KiB", "128KiB", "8MiB"},
               machine = v.machine, endpoint = v.endpoint, filter = filter, plot = false}
  dofile(collsim.info.dir .. "/bine_lumi.lua")
end
