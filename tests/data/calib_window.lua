-- calib_window.lua - osu_bw's window as a collsim schedule, for tests/cli/calibrate.sh: rank 0
-- sends `window` messages of --size bytes at once (one step), rank 1 receives them, then
-- answers with a 4-byte acknowledgement (OSU's loop). `collsim sim` of this schedule with
-- endpoint costs gives the time of one window: a bandwidth table collsim itself makes.
collsim.define_algorithm{
  name = "osu_window", collective = "p2p",
  summary = "osu_bw's window: W back-to-back sends of --size bytes, then a 4-byte acknowledgement",
  params = {window = {type = "int", default = 8, range = "1..4096", doc = "messages per window"}},
  check = function(P) if P ~= 2 then return "needs P = 2 (one sender, one receiver)" end end,
  rank = function(r, P, size, params)
    local window, ack = {}, {}
    for i = 1, params.window do
      window[i] = r == 0 and {op = "send", peer = 1, bytes = size}
                          or {op = "recv", peer = 0, bytes = size}
    end
    ack[1] = r == 0 and {op = "recv", peer = 1, bytes = 4} or {op = "send", peer = 0, bytes = 4}
    return {window, ack}
  end,
}
