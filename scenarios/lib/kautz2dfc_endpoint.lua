-- lib/kautz2dfc_endpoint.lua - the endpoint costs of the Kautz / 2dfc endpoint scenarios
-- (not a scenario: they load it with dofile). Returns the list of settings {name, keys};
-- every endpoint key is given explicitly, so no preset value leaks in.
--
-- The dissertation's machines are simulated ones (SimGrid SMPI); its own configuration has
-- smpi/os = smpi/or = smpi/ois = 0 (/work/shared/reference/kautz-2dfc.md section 3.2), so
-- its numbers carry no per-message software cost: that is the setting "off". With costs:
--   "calibrated"  results/calibrate-smpi/fit.csv: o_s = 200 ns, o_r = 150 ns, envelope
--                 16 B, the fit of SMPI ping-pong / message-rate tables (an MPI stack
--                 with SMPI's example overheads): what a real MPI would add.
--   "heavy"       o_s = o_r = 3.16 us: the largest public per-message cost of the seed
--                 papers (the alltoallv paper's Polaris vendor alltoallv, alltoallv.md
--                 section 8.2), to see whether any per-message cost can move the ratios.
-- msg_gap 0 (no source). eager_limit not given: the smpi model keeps SMPI's 64 KiB
-- detached-send rule of the thesis' configuration.
return {
  {name = "off", keys = {send_overhead = 0, recv_overhead = 0, msg_gap = 0, envelope = 0}},
  {name = "calibrated", keys = {send_overhead = "200ns", recv_overhead = "150ns", msg_gap = 0,
                                envelope = "16B"}},
  {name = "heavy", keys = {send_overhead = "3.16us", recv_overhead = "3.16us", msg_gap = 0,
                           envelope = 0}},
}
