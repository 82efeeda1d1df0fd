-- kautz_p2p.lua - issue 9: multi-path against single-path point-to-point on K(d,2),
-- d = 4, 8, 16 (dissertation section 3.3.4): message 64 KB, 1 MB, 2 MB (the thesis' 6.1x anchor), 64 MB, 512 MB, from rank 0 to
-- every destination and the thesis' 12.5 GB/s,
-- 1 us links. Expected for large messages on K(16,2): about (2d^2+d-2)/(3(d+1)) = 10.3x
-- averaged over destinations. Both the default (cm02) and the SMPI-like model.
-- `python3 scripts/kautz2dfc_stats.py p2p <dir>/results.csv` prints the speedup per d and size.
-- COLLSIM_QUICK=1: 1 MB and 64 MB only, d = 4, 16.

local quick = os.getenv("COLLSIM_QUICK") == "1"
local sizes = quick and {1e6, 64e6}
                     or {64e3, 1e6, 2e6, 64e6, 512e6}
for i, s in ipairs(sizes) do sizes[i] = math.tointeger(s) end
for _, d in ipairs(quick and {4, 16} or {4, 8, 16}) do
  local P = d * (d + 1)
  local dsts = {}
  local step = quick and (P // 8) or 1                -- quick: 8 sampled destinations
  for dst = 1, P - 1, step do dsts[#dsts + 1] = dst end -- every destination of rank 0
  collsim.sweep{
    topology   = collsim.machine("platforms/kautz-16-2.yaml", {d = d}),
    collective = "p2p",
    models     = {"cm02", "smpi"},
    ranks      = P,
    dst        = dsts,
    algorithms = {"kautz_shortest", "kautz_multipath"},
    sizes      = sizes,
  }
end
