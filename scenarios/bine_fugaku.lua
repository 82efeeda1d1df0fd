-- bine_fugaku.lua - Bine on the Fugaku job shapes (issue 6, deliverable 4; the paper's
-- Sec. 5.4): 3D sub-tori 2x2x2, 4x4x4, 8x8x8 and 2D 64x64, 32x256 (8 .. 8,192 nodes) of
-- platforms/fugaku.yaml, torus-optimised Bine (App. D) with one port and the multiport
-- version (2D concurrent collectives, each starting in its own direction) against the
-- torus baselines (bucket, Swing, recursive doubling / Rabenseifner, ring).
--
-- Two parts:
--   traffic model, every shape, 8 MiB: bytes_local = bytes x torus hops, max_link_bytes
--     (the hottest link). On a torus every link counts as "oversubscribed".
--   flow model (cm02): time and goodput on 2x2x2 and 4x4x4 (32 B, 16 KiB, 1 MiB, 64 MiB)
--     and 8x8x8 (8 MiB). A multiport flow point on 64x64 takes minutes (measured 160 s
--     for bine_torus, 260 s for bucket on 2 shared cores), so the two large shapes are
--     traffic-only here; set BINE_FUGAKU_FLOW_ALL = true before dofile to time them too.

local shapes = {"2x2x2", "4x4x4", "8x8x8", "64x64", "32x256"}

local function product(dims)
  local n = 1
  for d in dims:gmatch("%d+") do n = n * tonumber(d) end
  return n
end

local ports = {"1", "multi"}
local allreduce = {
  collsim.algorithm("bine_torus", {ports = ports}),
  collsim.algorithm("bine_torus_latency", {ports = ports}),
  collsim.algorithm("bucket", {ports = ports}),
  collsim.algorithm("swing_bandwidth", {ports = ports}),
  "rabenseifner_torus", "rabenseifner", "recursive_doubling",
}
local with_ring = {table.unpack(allreduce)}
with_ring[#with_ring + 1] = "ring"
local rooted_and_gathers = {
  bcast     = {collsim.algorithm("bine_torus", {ports = ports}), "binomial_halving",
               "scatter_allgather", "bine"},
  allgather = {collsim.algorithm("bine_torus", {ports = ports}), "recursive_doubling",
               "bruck", "bine"},
}

local flow_sizes = {
  ["2x2x2"] = {"32B", "16KiB", "1MiB", "64MiB"},
  ["4x4x4"] = {"32B", "16KiB", "1MiB", "64MiB"},
  ["8x8x8"] = {"8MiB"},
}
if BINE_FUGAKU_FLOW_ALL then
  flow_sizes["64x64"] = {"8MiB"}
  flow_sizes["32x256"] = {"8MiB"}
end

for _, shape in ipairs(shapes) do
  -- endpoint=none: the network alone, as the shipped results (same point ids)
  local torus = collsim.machine("platforms/fugaku.yaml", {dims = shape, endpoint = "none"})
  local p = product(shape)
  local models = {{model = "traffic", sizes = {"8MiB"}}}
  if flow_sizes[shape] then models[#models + 1] = {model = "cm02", sizes = flow_sizes[shape]} end
  for _, m in ipairs(models) do
    local small = p <= 64
    collsim.sweep{
      topology = torus, collective = "allreduce", ranks = p, dims = shape,
      algorithms = small and with_ring or allreduce,
      sizes = m.sizes, model = m.model,
    }
    for _, coll in ipairs{"bcast", "allgather"} do
      collsim.sweep{
        topology = torus, collective = coll, ranks = p, dims = shape,
        algorithms = rooted_and_gathers[coll], sizes = m.sizes, model = m.model,
      }
    end
  end
end

collsim.plot{baseline = {"bucket", "swing_bandwidth", "rabenseifner_torus", "rabenseifner",
                         "recursive_doubling", "ring", "binomial_halving",
                         "scatter_allgather", "bruck"}}
