-- lib/alltoallv_endpoint.lua - the endpoint costs of the alltoallv endpoint scenarios (not a
-- scenario: they load it with dofile). Returns a function settings(machine_name) -> a list
-- of {name, keys} where keys are the five endpoint sweep keys, all given explicitly so
-- that no preset value (platforms/endpoint/*.yaml, once the presets include them) leaks in.
--
-- Sources (results/alltoallv/README.md, "Endpoint costs"):
--   "off"    all zero: the network-only simulator of the shipped results (the switch off).
--   "paper"  the paper's own measured per-message cost, /work/shared/reference/alltoallv.md
--            section 8.2: the vendor MPI_Alltoallv at P = 8,192, 32 ranks per node,
--            S = 16 B takes 51.8 ms on Polaris and 408.33 ms on Fugaku, i.e. per message of
--            a rank (8,191 messages) 6.32 us and 49.85 us. At S = 16 B the bytes are
--            negligible (8,191 x 8 B x 32 ranks = 2.1 MB a node, ~42 us at Polaris' 2 x 25
--            GB/s), so the whole time is per-message cost; split evenly between the sending
--            and the receiving rank: o_s = o_r = 3.16 us (Polaris), 24.9 us (Fugaku). It is
--            measured at P = 8,192 (long match queues): an upper bound at smaller P.
--   "third"  (Polaris, radix sweep only) o_s = o_r = 1 us, about a third of "paper": the
--            middle point of the switch sweep 0 / 1 us / 3.16 us, since "paper" is measured
--            at P = 8,192 and is an upper bound at P = 512 (no source of its own).
-- Not run (CPU time): the public hardware value of platforms/endpoint/fugaku.yaml, uTofu's
-- put latency 0.49 us minus the preset's hop, o_s = o_r = 145 ns (Ajima et al., Cluster
-- 2018), 170 times below "paper".
-- msg_gap and envelope: 0 in every setting (no public or paper value: the fragments leave
-- them unset). eager_limit: not given, and the scenarios drop the presets' own endpoint values
-- (endpoint=none): the rows were made with the five keys below only.
local values = {
  polaris = {{"off", 0}, {"third", "1us"}, {"paper", "3.16us"}},
  fugaku = {{"off", 0}, {"paper", "24.9us"}},
}

return function(machine)
  local v = values[machine]
  if not v then
    error("alltoallv_endpoint: no endpoint values for machine '" .. tostring(machine) ..
          "' (allowed: polaris, fugaku)", 2)
  end
  local out = {}
  for _, s in ipairs(v) do
    out[#out + 1] = {name = s[1], keys = {send_overhead = s[2], recv_overhead = s[2],
                                          msg_gap = 0, envelope = 0}}
  end
  return out
end
