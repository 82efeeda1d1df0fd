-- swing_bandwidth.lua - the Swing paper's link-bandwidth sweep (NSDI '24 Sec. 5.1.2, Fig. 8;
-- digest shared/reference/swing.md 4.1): allreduce on the 8x8 torus with links of
-- 100 Gb/s .. 3.2 Tb/s (x2 steps; the paper states only the end points), 100 ns per link,
-- 300 ns per hop, 32 B .. 512 MiB in x4 steps. Same algorithms and free reductions as
-- swing_tori.lua (network-only comparison).

local algorithms = {
  "swing_latency", "swing_bandwidth",
  "recursive_doubling", "rabenseifner",
  "recursive_doubling_torus", "rabenseifner_torus",
  collsim.algorithm("recursive_doubling_torus", {ports = "multi"}),
  collsim.algorithm("rabenseifner_torus", {ports = "multi"}),
  "bucket", "hamiltonian_rings", "ring",
}

local topologies = {}
for _, bw in ipairs({"100Gbps", "200Gbps", "400Gbps", "800Gbps", "1600Gbps", "3200Gbps"}) do
  topologies[#topologies + 1] =
    collsim.machine("platforms/swing-torus.yaml", {dims = "8x8", local_bw = bw})
end

collsim.sweep{
  topologies  = topologies,
  collective  = "allreduce",
  ranks       = 64,
  dims        = "8x8",
  algorithms  = algorithms,
  sizes       = collsim.sizes.geometric("32B", "512MiB", 4),
  reduce_rate = "free",
  copy_rate   = "free",
}

collsim.plot{baseline = {"recursive_doubling_torus", "rabenseifner_torus", "bucket",
                         "hamiltonian_rings", "ring"}}
