-- my.lua - the small scenario the examples of docs/scenarios.md and docs/cli.md run
-- (`collsim run docs/examples/my.lua`): allreduce on a 4x2 torus, 8 ranks, two classic
-- algorithms, 1 KiB, 32 KiB and 1 MiB: 6 points, a few seconds. Its picture and link
-- table (links.csv) go to the output directory.

local torus = collsim.topology.torus{dims = "4x2"}

collsim.sweep{
  topology   = torus,
  collective = "allreduce",
  ranks      = 8,
  algorithms = {"ring", "recursive_doubling"},
  sizes      = collsim.sizes.geometric("1KiB", "1MiB", 32),    -- 1 KiB, 32 KiB, 1 MiB
}

collsim.draw{topology = torus, out = "ring-vs-rd.svg", collective = "allreduce",
             compare = {"ring", "recursive_doubling"}, link_csv = "links.csv"}
collsim.plot{baseline = "ring"}
