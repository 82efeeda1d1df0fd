-- kautz_dfc.lua - issue 9: Kautz(16,2) against the thesis' DF-C on the 16 x 17 2dfc
-- (dissertation chapter 3, Figures 3.7-3.9): allgather, alltoall, allreduce, blocks
-- 1 KB .. 64 MB (x4), Kautz one-way links of 12.5 GB/s, DF-C links of 6.45 GB/s, 1 us.
-- Two configurations: the default model (cm02) with full-duplex DF-C links, and the
-- thesis' setting: SMPI-like model with SHARED 2dfc links (platforms/dragonfly-16x17.yaml).
-- size = the block b: allgather/alltoall vectors are P*b (P = 272), allreduce P*b too.
-- `python3 scripts/kautz2dfc_stats.py dfc <dir>/results.csv` prints the best Kautz over DF-C per size.
-- COLLSIM_QUICK=1: blocks 1 KB, 64 KB, 4 MB only, without kautz_congestion.

local quick = os.getenv("COLLSIM_QUICK") == "1"
local P = 272
local blocks = quick and {1e3, 64e3, 4e6}
                      or {1e3, 4e3, 16e3, 64e3, 256e3, 1e6, 4e6, 16e6, 64e6}
local sizes = {}
for i, b in ipairs(blocks) do sizes[i] = math.tointeger(b * P) end

local kautz = collsim.machine("platforms/kautz-16-2.yaml")
local dfc = {
  cm02 = collsim.machine("platforms/dragonfly-16x17.yaml", {sharing = "full"}),
  smpi = collsim.machine("platforms/dragonfly-16x17.yaml"),        -- SHARED (thesis)
}
local kautz_algs = {"kautz_c", "kautz_m", "kautz_congestion", "kautz_multitree"}
-- kautz_congestion posts all P(P-1) forwards at once: about a minute per point on a
-- loaded 2-core machine, so the quick run leaves it out
if quick then kautz_algs = {"kautz_c", "kautz_m", "kautz_multitree"} end
for _, model in ipairs({"cm02", "smpi"}) do
  for _, coll in ipairs({"allgather", "alltoall", "allreduce"}) do
    collsim.sweep{topology = kautz, collective = coll, model = model, ranks = P,
                  algorithms = kautz_algs, sizes = sizes}
    collsim.sweep{topology = dfc[model], collective = coll, model = model, ranks = P,
                  algorithm = "df_c", dims = "17x16", sizes = sizes}
  end
end
