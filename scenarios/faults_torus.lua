-- faults_torus.lua - allreduce on a torus with failed links (issue 29, study 2;
-- results/faults-torus/README.md).
--
-- The Swing paper's 8x8 torus (platforms/swing-torus.yaml: 400 Gb/s, 100 ns per link,
-- 300 ns per hop), 64 ranks, one per node, linear placement, reductions free (the
-- network-only comparison of scenarios/swing_tori.lua). Swing (latency- and
-- bandwidth-optimal) against ring, bucket and recursive doubling, first on the intact
-- torus, then with 1, 2 and 4 links failed, each drawn at random with three seeds
-- (fail_links=random:N, fault_seed 1..3; docs/topologies.md "Faults": the routes become
-- the shortest remaining paths, so the messages that crossed a failed link go around it
-- and share links with others). The algorithms still see an 8x8 torus: they do not know
-- about the faults.
--
-- Then the same on the packet model (docs/packet-model.md) at 64 KiB and 2 MiB, with
-- minimal routing (the rerouted routes) and adaptive routing (among the next hops of the
-- minimal remaining paths: docs/topologies.md "Next hops"), intact and with the same
-- failed links.
--
-- The reference output was made with
--   collsim run scenarios/faults_torus.lua -o results/faults-torus/run -j 2

local torus = collsim.machine("platforms/swing-torus.yaml", {dims = "8x8"})
local common = {
  topology     = torus,
  collective   = "allreduce",
  ranks        = 64,
  algorithms   = {"swing_latency", "swing_bandwidth", "ring", "bucket", "recursive_doubling"},
  sizes        = {"2KiB", "64KiB", "2MiB", "64MiB"},
  reduce_rate  = "free",
  copy_rate    = "free",
}

collsim.sweep(common) -- intact

local faulty = {}
for k, v in pairs(common) do faulty[k] = v end
faulty.fail_links = {"random:1", "random:2", "random:4"}
faulty.fault_seed = {1, 2, 3}
collsim.sweep(faulty)

-- the packet model, minimal and adaptive routing
local packet = {}
for k, v in pairs(common) do packet[k] = v end
packet.sizes = {"64KiB", "2MiB"}
packet.model = "packet"
packet.routings = {"minimal", "adaptive"}
collsim.sweep(packet) -- intact
local packet_faulty = {}
for k, v in pairs(packet) do packet_faulty[k] = v end
packet_faulty.fail_links = faulty.fail_links
packet_faulty.fault_seed = faulty.fault_seed
collsim.sweep(packet_faulty)
