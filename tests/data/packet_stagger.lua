-- packet_stagger.lua: test data for tests/cli/packet_stagger.sh (docs/packet-model.md,
-- "Packet vs flow: staggered completions"). Written for collsim, no outside source.
-- `steps` butterfly exchanges: at step k rank r exchanges size / 2^k (halve = 1) or size
-- with r xor d, where d = P / 2^k (same = 0: another partner, so on a fat tree another
-- uplink, every step) or d = P / 2 at every step (same = 1: the same partner and links).
collsim.define_algorithm{
  name = "stagger", collective = "bcast",
  summary = "butterfly exchanges between the halves, quarters, ... (packet vs flow test)",
  units = function(P) return 1024 end,
  params = {steps = {type = "int", default = 3, range = "1..20", doc = "exchanges"},
            halve = {type = "int", default = 1, range = "0..1", doc = "halve the size per step"},
            same = {type = "int", default = 0, range = "0..1", doc = "the same partner every step"}},
  rank = function(r, P, size, params)
    local steps, n, d = {}, 1024, P // 2
    for k = 1, params.steps do
      if params.halve == 1 then n = n // 2 end
      steps[#steps + 1] = {{op = "send", peer = r ~ d, blocks = {0, n}},
                           {op = "recv", peer = r ~ d, blocks = {0, n}}}
      if params.same == 0 then d = d // 2 end
    end
    return steps
  end,
}
