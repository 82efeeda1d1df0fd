-- twodfc_endpoint.lua - issue 24: the 2dfc MD / DO comparisons (dissertation chapter 4,
-- Figures 4.11-4.13) again, with endpoint costs off and on (same points otherwise).
--
-- The thesis' configuration (the `smpi` model, SHARED links: platforms/2dfc-MxM.yaml):
-- the 8x8 bandwidth sweep (100 / 200 / 400 Gb/s) of alltoall and allgather at 16 MB
-- blocks with DO, MD and MULTITREE (Fig. 4.13-4.14), and allreduce at 32 MB blocks on
-- 4x4, 8x8, 16x16 at 100 Gb/s with DO, MD (DO reduce-scatter + MD allgather) and pure MD
-- (Fig. 4.11-4.12). size = P x block, as in twodfc.lua.
-- Endpoint settings: lib/kautz2dfc_endpoint.lua (off = the thesis' own smpi/os = or = 0;
-- calibrated = results/calibrate-smpi's fit; heavy = 3.16 us a side).
-- `python3 scripts/kautz2dfc_stats.py twodfc-md <dir>/results.csv` prints DO over MD.

local settings = dofile(collsim.info.dir .. "/lib/kautz2dfc_endpoint.lua")
local function machine(m, bw)
  return collsim.machine(string.format("platforms/2dfc-%dx%d.yaml", m, m),
                         {sharing = "shared", local_bw = bw, global_bw = bw})
end
for _, set in ipairs(settings) do
  local ep = set.keys
  local function sweep(m, bw, coll, algs, block)
    collsim.sweep{topology = machine(m, bw), collective = coll, model = "smpi", ranks = m * m,
                  algorithms = algs, dims = string.format("%dx%d", m, m),
                  size = math.tointeger(block * m * m),
                  send_overhead = ep.send_overhead, recv_overhead = ep.recv_overhead,
                  msg_gap = ep.msg_gap, envelope = ep.envelope}
  end
  for _, bw in ipairs({"100Gbps", "200Gbps", "400Gbps"}) do
    sweep(8, bw, "alltoall", {"2dfc_do", "2dfc_md", "2dfc_multitree"}, 16e6)
    sweep(8, bw, "allgather", {"2dfc_do", "2dfc_md"}, 16e6)
  end
  for _, m in ipairs({4, 8, 16}) do
    sweep(m, "100Gbps", "allreduce", {"2dfc_do", "2dfc_md", "2dfc_md_both"}, 32e6)
  end
end
