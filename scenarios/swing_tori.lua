-- swing_tori.lua - the Swing paper's goodput-vs-size study (De Sensi et al., NSDI '24,
-- Fig. 6, 7, 10, 11, 12, 13, 14; digest shared/reference/swing.md section 4).
--
-- Allreduce of 32 B .. 512 MiB (x4 steps; to 2 GiB on the 3D / 4D tori) on the paper's
-- tori and torus-like networks, 400 Gb/s links, 100 ns per link, 300 ns per hop
-- (platforms/swing-*.yaml). One rank per node, linear placement; the algorithms see the
-- network as a logical torus (`dims`). Reductions and copies are free (reduce_rate /
-- copy_rate = "free"): the paper does not give its aggregation cost, so this is the
-- network-only comparison. results/swing/README.md compares the output with the paper.
--
-- Subsets (the 4,096-node networks take hours on 2 cores): the environment variable
-- SWING_SHAPES lists the shapes to run (comma-separated names from `shapes` below, default
-- all) and SWING_MAX caps the sizes (e.g. 2MiB). A subset is a different plan: give each
-- subset its own output directory (--resume continues the same subset after an
-- interruption). The reference outputs were made with
--   SWING_SHAPES=8x8,16x16,8x8x8 collsim run scenarios/swing_tori.lua -o results/swing/swing_tori -j 2
--   SWING_SHAPES=64x64,hyperx,8x8x8x8 SWING_PLAN=pruned \
--       collsim run scenarios/swing_tori.lua -o results/swing/swing_large -j 2
--   SWING_SHAPES=64x16,128x8,256x4 SWING_PLAN=pruned \
--       collsim run scenarios/swing_tori.lua -o results/swing/swing_rect -j 2
-- (--resume with a larger SWING_SHAPES keeps the rows already there)
--
-- SWING_PLAN=pruned keeps, on networks of 1,024 nodes or more, the points that decide the
-- paper's comparisons and drops the rest (a 4,096-node ring point alone costs ~15 min):
-- latency-optimal algorithms up to 128 KiB, bandwidth-optimal ones from 8 KiB (bucket from
-- 128 KiB), the torus-optimized and mirrored recursive doubling but not the plain one, and
-- no Hamiltonian rings and no ring (2(P-1) steps) except on the rectangular tori from 32 MiB
-- (the paper's "ring beats Swing on 256x4 at 512 MiB": its RING is the Hamiltonian rings).
-- Smaller networks run the whole plan.
--
-- Another scenario may reuse these shapes and algorithms by setting the global SWING_TORI
-- (a table) and then running this file with dofile (scenarios/swing_torus_packet.lua does):
-- `shapes` (as SWING_SHAPES), `model` (default cm02), `keys` (more sweep keys, e.g. the
-- packet model's {routing = {"minimal", "adaptive"}}), `sizes` (a list: replaces each
-- shape's 32 B .. max; SWING_MAX still caps it), `filter` (function(point, shape):
-- replaces the pruned / full plan's rule; Hamiltonian rings stay 2D-torus only) and
-- `plot = false`. Without SWING_TORI the plan and its point ids are unchanged.

local config = SWING_TORI or {}
local only = config.shapes or os.getenv("SWING_SHAPES")
local cap = os.getenv("SWING_MAX") and collsim.size(os.getenv("SWING_MAX"))
local pruned = os.getenv("SWING_PLAN") == "pruned"

local latency_optimal = {swing_latency = true, recursive_doubling = true,
                         recursive_doubling_torus = true}
local dropped = {recursive_doubling = true, rabenseifner = true}

-- The pruned plan's rule for one point of shape s.
local function in_pruned_plan(pt, s)
  if s.topo.hosts < 1024 then return true end
  if dropped[pt.algorithm] then return false end
  -- the paper's RING is the Hamiltonian rings (4 rings on 2 edge-disjoint cycles); the
  -- plain ring is kept beside it on the rectangular tori
  if pt.algorithm == "ring" or pt.algorithm == "hamiltonian_rings" then
    return s.rectangular and pt.size >= 32 * 1024 * 1024
  end
  if latency_optimal[pt.algorithm] then return pt.size <= 128 * 1024 end
  -- bucket's 2D(d-1)-ish steps make it latency-bound below ~128 KiB, where the
  -- latency-optimal baselines beat it by far; a 4,096-node point there costs 10-15 min
  if pt.algorithm == "bucket" then return pt.size >= 128 * 1024 end
  return pt.size >= 8 * 1024
end

-- Every shape: a name, the topology and the logical dims the algorithms use (the same
-- shape: dimension 0 varies fastest in both, docs/topologies.md "Dimension order"), and
-- the largest size.
local function torus(dims)
  return collsim.machine("platforms/swing-torus.yaml", {dims = dims})
end

local shapes = {
  {name = "8x8",     topo = torus("8x8"),     dims = "8x8",     max = "512MiB"},
  {name = "16x16",   topo = torus("16x16"),   dims = "16x16",   max = "512MiB"},
  {name = "64x64",   topo = torus("64x64"),   dims = "64x64",   max = "512MiB"},
  {name = "64x16",   topo = torus("64x16"),   dims = "64x16",   max = "512MiB", rectangular = true},
  {name = "128x8",   topo = torus("128x8"),   dims = "128x8",   max = "512MiB", rectangular = true},
  {name = "256x4",   topo = torus("256x4"),   dims = "256x4",   max = "512MiB", rectangular = true},
  {name = "8x8x8",   topo = torus("8x8x8"),   dims = "8x8x8",   max = "2GiB"},
  {name = "8x8x8x8", topo = torus("8x8x8x8"), dims = "8x8x8x8", max = "2GiB"},
  {name = "hx2mesh", topo = collsim.machine("platforms/swing-hx2mesh.yaml"), dims = "64x64", max = "512MiB"},
  {name = "hx4mesh", topo = collsim.machine("platforms/swing-hx4mesh.yaml"), dims = "64x64", max = "512MiB"},
  {name = "hyperx",  topo = collsim.machine("platforms/swing-hyperx.yaml"),  dims = "64x64", max = "512MiB"},
}

-- The paper's algorithms (swing.md section 2): Swing L / B on 2D ports, recursive doubling
-- L / B (plain, torus-optimized single port, and mirrored = ports=multi), bucket on 2D
-- ports, the 4 Hamiltonian rings (2D tori only), the plain ring.
local algorithms = {
  "swing_latency", "swing_bandwidth",
  "recursive_doubling", "rabenseifner",
  "recursive_doubling_torus", "rabenseifner_torus",
  collsim.algorithm("recursive_doubling_torus", {ports = "multi"}),
  collsim.algorithm("rabenseifner_torus", {ports = "multi"}),
  "bucket", "hamiltonian_rings", "ring",
}

local function wanted(name)
  if not only or only == "" then return true end
  for n in only:gmatch("[^,]+") do if n == name then return true end end
  return false
end

local function sizes(max)
  if config.sizes then
    local out = {}
    for _, sz in ipairs(config.sizes) do
      if not cap or collsim.size(sz) <= cap then out[#out + 1] = sz end
    end
    return out
  end
  local top = collsim.size(max)
  if cap and cap < top then top = cap end
  return collsim.sizes.geometric("32B", top, 4)
end

for _, s in ipairs(shapes) do
  if wanted(s.name) then
    local is_2d_torus = s.topo.family == "torus" and select(2, s.dims:gsub("x", "")) == 1
    local sweep = {
      topology    = s.topo,
      collective  = "allreduce",
      ranks       = s.topo.hosts,
      dims        = s.dims,
      algorithms  = algorithms,
      sizes       = sizes(s.max),
      reduce_rate = "free",
      copy_rate   = "free",
      model       = config.model,
      -- Hamiltonian rings exist on 2D tori only (swing.md 2.5)
      filter      = function(pt)
        if pt.algorithm == "hamiltonian_rings" and not is_2d_torus then return false end
        if config.filter then return config.filter(pt, s) end
        return not pruned or in_pruned_plan(pt, s)
      end,
    }
    for key, value in pairs(config.keys or {}) do sweep[key] = value end
    collsim.sweep(sweep)
  end
end

if config.plot ~= false then
  collsim.plot{baseline = {"recursive_doubling_torus", "rabenseifner_torus", "bucket",
                           "hamiltonian_rings", "ring"}}
end
