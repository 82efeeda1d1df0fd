-- my_allreduce_lumi.lua: the Lua allreduce of my_allreduce.lua (both orders) against
-- Rabenseifner, recursive doubling and Bine on the LUMI preset, flow model, one rank per
-- node, linear placement (docs/custom-algorithms.md quotes the results).
--   collsim run scenarios/examples/my_allreduce_lumi.lua -j 2
dofile(collsim.info.dir .. "/my_allreduce.lua")

collsim.sweep{
  topology   = collsim.machine("platforms/lumi.yaml"),
  collective = "allreduce",
  algorithms = {collsim.algorithm("my_allreduce", {order = {"near", "far"}}),
                "rabenseifner", "recursive_doubling", "bine_bandwidth", "bine_latency"},
  ranks      = {256, 1024},
  sizes      = {"1KiB", "1MiB", "64MiB"},
  model      = "cm02",
}
