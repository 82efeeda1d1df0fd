-- two_jobs.lua - several jobs in a scenario (docs/scenarios.md "Several jobs"): a ring
-- allreduce "victim" beside an alltoall "bully" pattern on the same Dragonfly routers
-- (the victim on host 0 of every router of groups 0-3, the bully on host 1), the victim
-- with two algorithms and two sizes: 4 points, 2 rows each.
local even, odd = {}, {}
for h = 0, 30, 2 do
  even[#even + 1] = h
  odd[#odd + 1] = h + 1
end

collsim.sweep{
  topology = "dragonfly p=2 a=4 h=2",
  jobs = {
    {name = "victim", coll = "allreduce", alg = {"ring", "bine_bandwidth"}, ranks = 16,
     hosts = even, size = {"64KiB", "256KiB"}, start = "20us"},
    {name = "bully", pattern = "alltoall", ranks = 16, hosts = odd, size = "4KiB",
     load = 0.5, duration = "200us"},
  },
}
