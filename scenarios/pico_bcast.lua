-- pico_bcast.lua - PICO's broadcast case study on 128-node Leonardo allocations (issue 23,
-- deliverable 6; the PICO paper's Fig. 9 (tracer: internal / external bytes per bcast
-- algorithm) and Fig. 10 (bcast time, Open MPI 4.1.6, 128 nodes x 4 ranks per node);
-- digest /work/shared/reference/pico.md section 4, anchors 4 and 5).
--
-- Allocations: the four node lists of scenarios/pico_alloc/ (scripts/pico_alloc_files.py):
-- chunks4 (the shape Fig. 9's numbers imply), cells5, frag7, frag16.
-- Algorithms: binomial_doubling (Open MPI's binomial, the paper's "distance-doubling"),
-- binomial_halving (MPICH's, "distance-halving"), Bine's tree and the three
-- scatter + allgather broadcasts (MPICH's large-vector one, its ring variant, Bine's).
--
-- Parts:
--   tracer  traffic model, 1 rank per node (Fig. 9's totals of 127n mean 128 ranks), 1 MiB
--   time    flow model (cm02), 32 B .. 512 MiB (x8), 1 and 4 ranks per node
-- scripts/pico_stats.py turns results.csv into the tables of results/pico/README.md.

-- endpoint=none: the network alone, as the shipped results were made (the preset's
-- endpoint costs, on since 27 Nov 2026, would change every timed point; same point ids).
local leonardo = collsim.machine("platforms/leonardo.yaml", {endpoint = "none"})
local algorithms = {"binomial_doubling", "binomial_halving", "bine", "scatter_allgather",
                    "scatter_ring_allgather", "bine_scatter_allgather"}
local allocations = {}
for _, key in ipairs{"chunks4", "cells5", "frag7", "frag16"} do
  -- named relative to this file: the rows hold "alloc:scenarios/pico_alloc/..."
  allocations[#allocations + 1] = collsim.placement.alloc("pico_alloc/leonardo_128_" .. key .. ".txt")
end

collsim.sweep{topology = leonardo, collective = "bcast", algorithms = algorithms,
              ranks = 128, size = "1MiB", placements = allocations, model = "traffic"}

for _, q in ipairs{1, 4} do
  collsim.sweep{topology = leonardo, collective = "bcast", algorithms = algorithms,
                ranks = 128 * q, ranks_per_node = q,
                sizes = collsim.sizes.geometric("32B", "512MiB", 8),
                placements = allocations, model = "cm02"}
end
