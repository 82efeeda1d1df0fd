-- point_cost.lua - the points whose wall times fit the constants of collsim run's per-point
-- time estimate (src/sweep/point_cost.c; scripts/bench/point_cost.sh runs it and fits).
--
-- A few algorithms of different message counts (ring: 2(P-1) steps of one message;
-- recursive doubling: log2 P steps; linear alltoall: P-1 messages in one step), P from 16
-- to 512 (packet: to 128), each on every model the estimate distinguishes.
local torus = collsim.topology.torus{dims = "16x32"}
local function sweep(collective, algorithms, ranks, models, sizes)
  collsim.sweep{topology = torus, collective = collective, ranks = ranks,
                algorithms = algorithms, model = models, sizes = sizes}
end
sweep("allreduce", {"ring", "recursive_doubling"}, {16, 64, 256, 512},
      {"cm02", "analytic", "traffic"}, {"1KiB", "1MiB"})
sweep("alltoall", {"linear"}, {16, 64, 256}, {"cm02", "analytic", "traffic"}, {"1KiB"})
sweep("allreduce", {"ring", "recursive_doubling"}, {16, 64, 128}, {"packet"},
      {"16KiB", "1MiB"})
sweep("alltoall", {"linear"}, {16, 64}, {"packet"}, {"64KiB"})

-- larger points (seconds to about a minute each), on a 4096-host torus
local big = collsim.topology.torus{dims = "64x64"}
local function sweep_big(collective, algorithms, ranks, models, sizes)
  collsim.sweep{topology = big, collective = collective, ranks = ranks,
                algorithms = algorithms, model = models, sizes = sizes}
end
sweep_big("allreduce", {"ring"}, {1024}, {"cm02"}, {"1MiB"})
sweep_big("allreduce", {"recursive_doubling", "rabenseifner", "bine_bandwidth"}, {1024, 4096},
          {"cm02"}, {"1MiB"})
sweep_big("alltoall", {"linear"}, {128}, {"cm02"}, {"1KiB"})
sweep_big("allreduce", {"ring"}, {2048, 4096}, {"analytic", "traffic"}, {"1MiB"})
sweep_big("alltoall", {"linear"}, {1024}, {"analytic", "traffic"}, {"1KiB"})
sweep_big("allreduce", {"recursive_doubling", "rabenseifner"}, {256, 1024}, {"packet"},
          {"4MiB"})
sweep_big("alltoall", {"linear"}, {128}, {"packet"}, {"64KiB"})
