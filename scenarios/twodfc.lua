-- twodfc.lua - issue 9: 2dfc 4x4, 8x8, 16x16 (dissertation chapter 4): alltoall,
-- allgather, allreduce with DO, MD, MULTITREE and the classic algorithms (Bruck,
-- pairwise, ring, recursive doubling, binomial = reduce_bcast for allreduce), per-node
-- block b = 1 KB .. 64 MB (x4); plus the 8x8 bandwidth sweep 100 / 200 / 400 Gb/s.
-- Two configurations: cm02 with full-duplex links, and the thesis' SMPI-like model with
-- SHARED links (the presets' default). size = P*b (every collective here).
-- `python3 scripts/kautz2dfc_stats.py twodfc <dir>/results.csv` prints MD over DO per shape / size / bandwidth.
-- COLLSIM_QUICK=1: 4x4 and 8x8, b = 1 KB and 32 MB.
-- TWODFC_ONLY=m: only the m x m shape at 100 Gb/s (no 8x8 bandwidth sweep); its own -o
-- directory, e.g. COLLSIM_QUICK=1 TWODFC_ONLY=16 ... -o results/kautz-2dfc/twodfc_16x16.

local quick = os.getenv("COLLSIM_QUICK") == "1"
local blocks = quick and {1e3, 32e6}
                      or {1e3, 4e3, 16e3, 64e3, 256e3, 1e6, 2e6, 4e6, 16e6, 32e6, 64e6}
local shapes = quick and {4, 8} or {4, 8, 16}
local only = os.getenv("TWODFC_ONLY") and math.tointeger(tonumber(os.getenv("TWODFC_ONLY")))
if os.getenv("TWODFC_ONLY") and not only then
  error("TWODFC_ONLY must be a shape size m (4, 8 or 16), got " .. os.getenv("TWODFC_ONLY"))
end
if only then shapes = {only} end
local algs = {
  allgather = {"2dfc_do", "2dfc_md", "2dfc_multitree", "bruck", "ring", "recursive_doubling"},
  alltoall  = {"2dfc_do", "2dfc_md", "2dfc_multitree", "bruck", "pairwise", "linear"},
  allreduce = {"2dfc_do", "2dfc_md", "2dfc_md_both", "2dfc_multitree", "ring",
               "recursive_doubling", "rabenseifner", "reduce_bcast"},
}
local function sizes(P)
  local s = {}
  for i, b in ipairs(blocks) do s[i] = math.tointeger(b * P) end
  return s
end
local sharing = {cm02 = "full", smpi = "shared"}

local function run(m, bw, model)
  local t = collsim.machine(string.format("platforms/2dfc-%dx%d.yaml", m, m),
                            {sharing = sharing[model], local_bw = bw, global_bw = bw})
  for _, coll in ipairs({"alltoall", "allgather", "allreduce"}) do
    collsim.sweep{topology = t, collective = coll, model = model, ranks = m * m,
                  algorithms = algs[coll], dims = string.format("%dx%d", m, m),
                  sizes = sizes(m * m)}
  end
end
for _, model in ipairs({"cm02", "smpi"}) do
  for _, m in ipairs(shapes) do run(m, "100Gbps", model) end
  if not only then
    for _, bw in ipairs({"200Gbps", "400Gbps"}) do run(8, bw, model) end  -- 8x8 sweep
  end
end
