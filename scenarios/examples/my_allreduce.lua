-- my_allreduce.lua: a bandwidth-optimal allreduce written in Lua (docs/custom-algorithms.md).
-- Reduce-scatter by halving a window of blocks, then allgather by the same exchanges
-- backwards. order = "near" pairs the nearest ranks first, so the big halves stay close
-- (on a Dragonfly: inside a group); order = "far" is Rabenseifner's order.
collsim.define_algorithm{
  name = "my_allreduce", collective = "allreduce",
  summary = "window-halving reduce-scatter + allgather, nearest peers first (Lua)",
  constraints = "P power of two",
  params = {order = {type = "choice", choices = {"near", "far"}, default = "near",
                     doc = "near: distance 1, 2, 4.. (big messages to near ranks); far: P/2 first"}},
  units = function(P) return P end,                    -- P blocks: one per rank
  check = function(P) if P & (P - 1) ~= 0 then return "needs a power-of-two P" end end,
  rank = function(r, P, size, params)
    local steps, done, lo, hi = {}, {}, 0, P           -- [lo, hi): the blocks r reduces
    for i = 0, math.log(P, 2) - 1 do
      local d = params.order == "near" and 1 << i or P >> (i + 1)
      local peer, mid = r ~ d, (lo + hi) // 2
      local keep, give = {lo, mid}, {mid, hi}
      if r & d ~= 0 then keep, give = give, keep end   -- r keeps the half on its side
      steps[#steps + 1] = {{op = "send", peer = peer, blocks = give},
                           {op = "recv", peer = peer, blocks = keep, combine = true},
                           {op = "reduce", blocks = keep}}
      done[#done + 1] = {peer, keep, give}
      lo, hi = keep[1], keep[2]
    end
    for i = #done, 1, -1 do                            -- allgather: undo each step
      local peer, keep, give = table.unpack(done[i])
      steps[#steps + 1] = {{op = "send", peer = peer, blocks = keep},
                           {op = "recv", peer = peer, blocks = give}}
    end
    return steps
  end,
}
