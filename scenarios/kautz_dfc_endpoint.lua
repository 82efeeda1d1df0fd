-- kautz_dfc_endpoint.lua - issue 24: Kautz(16,2) against the thesis' DF-C on the 16 x 17
-- 2dfc (dissertation chapter 3, Figure 3.4) again, with endpoint costs off and on (same
-- points otherwise).
--
-- The thesis' configuration only (the `smpi` model, SHARED DF-C links: the presets
-- platforms/kautz-16-2.yaml and platforms/dragonfly-16x17.yaml), allgather and alltoall,
-- the claims' sizes: allgather at 1 KB and 64 MB blocks, alltoall at 64 MB (the 1 KB DF-C
-- alltoall takes SMPI over 10 minutes on the loaded 2-core machine, and no claim uses it),
-- the four Kautz variants (three at 1 KB) and DF-C.
-- Endpoint settings: lib/kautz2dfc_endpoint.lua (off = the thesis' own smpi/os = or = 0;
-- calibrated = results/calibrate-smpi's fit; heavy = 3.16 us a side, the 1 KB allgather
-- only: at 64 MB a message's bytes take milliseconds).
-- `python3 scripts/kautz2dfc_stats.py dfc-md <dir>/results.csv` prints DF-C over Kautz.

local P = 272
local settings = dofile(collsim.info.dir .. "/lib/kautz2dfc_endpoint.lua")
local kautz = collsim.machine("platforms/kautz-16-2.yaml")
local dfc = collsim.machine("platforms/dragonfly-16x17.yaml")   -- SHARED (thesis)
-- kautz_congestion (every forward posted at once) runs at 64 MB only: at 1 KB one point
-- takes SMPI's solver over 10 minutes on the loaded 2-core machine
local all = {"kautz_c", "kautz_m", "kautz_congestion", "kautz_multitree"}
local small = {"kautz_c", "kautz_m", "kautz_multitree"}
for _, set in ipairs(settings) do
  local sizes = {{math.tointeger(1e3 * P), small}, {math.tointeger(64e6 * P), all}}
  if set.name == "heavy" then sizes = {sizes[1]} end
  for _, coll in ipairs({"allgather", "alltoall"}) do
    for _, sz in ipairs(coll == "alltoall" and {sizes[2]} or sizes) do
      for _, t in ipairs({{kautz, sz[2]}, {dfc, {"df_c"}}}) do
        collsim.sweep{topology = t[1], collective = coll, model = "smpi", ranks = P,
                      algorithms = t[2], size = sz[1],
                      dims = t[1] == dfc and "17x16" or nil,
                      send_overhead = set.keys.send_overhead, recv_overhead = set.keys.recv_overhead,
                      msg_gap = set.keys.msg_gap, envelope = set.keys.envelope}
      end
    end
  end
end
