-- swing_square.lua - the Swing paper's square tori of 1,024 and 16,384 nodes (De Sensi et
-- al., NSDI '24, Fig. 7; digest shared/reference/swing.md sections 3.3 and 5.3), the two
-- sizes swing_tori.lua leaves out.
--
--   traffic model, 32x32 and 128x128, 32 MiB: the most bytes on one link of each
--     algorithm; Swing-B's against bucket's (whose congestion deficiency is 1) is Swing's
--     congestion deficiency Xi, which the digest computes as 1.169 (32x32) and 1.192
--     (128x128). The flow model is too slow at 16,384 nodes (a 4,096-node point already
--     costs minutes, results/swing/README.md), so 128x128 is traffic-only.
--   flow model (cm02), 32x32, 32 KiB .. 32 MiB: Swing against the paper's baselines
--     (torus recursive doubling L / B on one port and mirrored, bucket, Hamiltonian rings
--     from 2 MiB), Fig. 7's "Swing beats the state of the art ... up to 32 MiB".
-- Same platform and cost model as swing_tori.lua: 400 Gb/s links, free reductions/copies.

local function torus(dims)
  return collsim.machine("platforms/swing-torus.yaml", {dims = dims})
end
local multi = function(name) return collsim.algorithm(name, {ports = "multi"}) end
local one = function(name) return collsim.algorithm(name, {ports = "1"}) end

local traffic_algorithms = {
  multi("swing_bandwidth"), one("swing_bandwidth"), multi("swing_latency"),
  multi("bucket"), one("bucket"), "rabenseifner_torus", multi("rabenseifner_torus"),
}
for _, shape in ipairs({"32x32", "128x128"}) do
  local t = torus(shape)
  collsim.sweep{topology = t, collective = "allreduce", ranks = t.hosts,
                algorithms = traffic_algorithms, size = "32MiB", model = "traffic",
                reduce_rate = "free", copy_rate = "free"}
end

local t32 = torus("32x32")
collsim.sweep{
  topology = t32, collective = "allreduce", ranks = t32.hosts, model = "cm02",
  algorithms = {"swing_latency", "swing_bandwidth", "recursive_doubling_torus",
                "rabenseifner_torus", multi("recursive_doubling_torus"),
                multi("rabenseifner_torus"), "bucket", "hamiltonian_rings"},
  sizes = {"32KiB", "2MiB", "32MiB"}, reduce_rate = "free", copy_rate = "free",
  -- latency-optimal ones up to 32 KiB, bandwidth-optimal ones from 2 MiB, Hamiltonian
  -- rings (2(P-1) steps) at 32 MiB only, as swing_tori.lua's pruned plan does
  filter = function(pt)
    local latency = pt.algorithm == "swing_latency" or pt.algorithm == "recursive_doubling_torus"
    if pt.algorithm == "hamiltonian_rings" then return pt.size >= 32 * 1024 * 1024 end
    if latency then return pt.size <= 32 * 1024 end
    return pt.size >= 2 * 1024 * 1024 or pt.algorithm == "swing_bandwidth"
  end,
}
