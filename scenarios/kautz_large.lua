-- kautz_large.lua - Kautz K(32,2) (1,056 nodes) and K(64,2) (4,160 nodes) against the
-- thesis' DF-C of equal node count and per-node bandwidth (issue 23, deliverable 6; the
-- dissertation's Fig. 3.3 "similar result for 1,056 nodes" and 4,160 nodes, and Fig. 3.9,
-- point-to-point on K(64,2); digest /work/shared/reference/kautz-2dfc.md sections 1.3, 4.1).
--
-- Machines: platforms/kautz-16-2.yaml with d = 32 / 64 (one-way 12.5 GB/s links, 1 us);
-- the DF-C is the thesis generator's 32 x 33 and 64 x 65 2dfc at 6.35 / 6.3 GB/s
-- (= d x 12.5 / (2d - 1): equal bandwidth per node), full-duplex links (sharing=full),
-- the "default" configuration of results/kautz-2dfc/README.md.
-- size = P x b for a block b, as in kautz_dfc.lua. Local copies are free (copy_rate =
-- "free"): Fig. 3.3 is the thesis' Table 3.2 cost model, which has no memcpy term.
--
-- Parts and models:
--   flow32   flow (cm02), K(32,2): allgather, alltoall; kautz_c, kautz_m vs df_c (allgather
--            only: see below); blocks 1 KB, 100 KB (the thesis' "Kautz-C > 20x Kautz-M"
--            point), 64 MB.
--   traffic  traffic model, K(32,2) and K(64,2), 64 MB blocks (bytes scale with b): the
--            flow model is too slow at 4,160 nodes (a kautz_c allgather point ran > 3 min
--            of wall time without finishing on the shared machine; kautz_m posts
--            17 million messages).
--   p2p      flow (cm02), rank 0 to 4 sampled destinations, 512 MB, shortest vs multi-path
--            (Fig. 3.9: the speed-up tends to (2d^2+d-2)/(3(d+1))).
-- scripts/kautz_large_stats.py prints the tables of results/kautz-2dfc/kautz_large/README.md.

local function kautz(d) return collsim.machine("platforms/kautz-16-2.yaml", {d = d}) end
local function dfc(d, bw)
  return collsim.machine("platforms/dragonfly-16x17.yaml", {m2 = d, m1 = d + 1, sharing = "full",
                         local_bw = bw, global_bw = bw})
end
local machines = {
  [32] = {kautz = kautz(32), dfc = dfc(32, "6.35GBps")},
  [64] = {kautz = kautz(64), dfc = dfc(64, "6.3GBps")},
}

local function sizes(P, blocks)
  local out = {}
  for i, b in ipairs(blocks) do out[i] = math.tointeger(P * b) end
  return out
end

local function compare(d, model, blocks)
  local P = d * (d + 1)
  for _, coll in ipairs{"allgather", "alltoall"} do
    collsim.sweep{topology = machines[d].kautz, collective = coll, model = model, ranks = P,
                  algorithms = {"kautz_c", "kautz_m"}, sizes = sizes(P, blocks),
                  copy_rate = "free"}
    -- DF-C's alltoall forwards single blocks, about a million at once on 1,056 nodes:
    -- a flow point ran 11 minutes without finishing, so it is in the traffic part only
    if model == "traffic" or coll ~= "alltoall" then
      collsim.sweep{topology = machines[d].dfc, collective = coll, model = model, ranks = P,
                    algorithm = "df_c", dims = (d + 1) .. "x" .. d, sizes = sizes(P, blocks),
                    copy_rate = "free"}
    end
  end
end

compare(32, "cm02", {1e3, 100e3, 64e6})
compare(32, "traffic", {64e6})
compare(64, "traffic", {64e6})

for _, d in ipairs{32, 64} do
  local P = d * (d + 1)
  local dsts = {}
  for dst = P // 8, P - 1, P // 4 do dsts[#dsts + 1] = dst end   -- 4 sampled destinations
  collsim.sweep{topology = machines[d].kautz, collective = "p2p", model = "cm02", ranks = P,
                dst = dsts, algorithms = {"kautz_shortest", "kautz_multipath"},
                size = math.tointeger(512e6)}
end
