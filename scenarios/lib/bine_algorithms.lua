-- bine_algorithms.lua - the algorithms of the Bine paper's machine studies, shared by
-- bine_lumi.lua and bine_mn5.lua: per collective the classic algorithms (the plots'
-- baselines), then Bine's; and the collectives in the paper's order.
--   local algorithms, order = dofile(collsim.info.dir .. "/lib/bine_algorithms.lua")
-- Each dofile returns new tables, which the caller may extend.
local algorithms = {
  allreduce      = {classic = {"recursive_doubling", "rabenseifner", "ring", "reduce_bcast"},
                    bine    = {"bine_latency", "bine_bandwidth"}},
  allgather      = {classic = {"recursive_doubling", "ring", "bruck"}, bine = {"bine"}},
  reduce_scatter = {classic = {"recursive_halving", "recursive_doubling", "ring"},
                    bine    = {"bine"}},
  alltoall       = {classic = {"linear", "bruck"}, bine = {"bine"}},
  bcast          = {classic = {"binomial_halving", "binomial_doubling", "scatter_allgather"},
                    bine    = {"bine", "bine_scatter_allgather"}},
  reduce         = {classic = {"binomial", "rabenseifner"}, bine = {"bine", "bine_rs_gather"}},
  gather         = {classic = {"binomial", "linear"}, bine = {"bine"}},
  scatter        = {classic = {"binomial", "linear"}, bine = {"bine"}},
}
local order = {"allreduce", "allgather", "reduce_scatter", "alltoall", "bcast", "reduce",
               "gather", "scatter"}
return algorithms, order
