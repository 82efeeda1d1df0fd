-- lua_bad.lua: broken algorithms written in Lua, for the error messages
-- (tests/cli/lua_alg.sh). Each loads fine; the errors show when a run calls them.

-- A planted bug in recursive doubling: at its second step (step 1), rank 3 overwrites
-- the block with its peer's instead of combining them.
collsim.define_algorithm{
  name = "lua_rd_bug", collective = "allreduce",
  check = function(P) if P & (P - 1) ~= 0 then return "needs a power-of-two P" end end,
  rank = function(r, P, size)
    local steps, d = {}, 1
    while d < P do
      local peer, ok = r ~ d, not (r == 3 and d == 2)
      steps[#steps + 1] = {{op = "send", peer = peer, blocks = {0, 1}},
                           {op = "recv", peer = peer, blocks = {0, 1}, combine = ok},
                           {op = ok and "reduce" or "copy", bytes = size}}
      d = d * 2
    end
    return steps
  end,
}

-- Bad table shapes and a run-time error, chosen by the parameter `bug`.
collsim.define_algorithm{
  name = "lua_shape", collective = "allreduce",
  params = {bug = {type = "choice", default = "none",
                   choices = {"none", "op", "peer", "key", "blocks", "steps", "error"}}},
  rank = function(r, P, size, params)
    local peer = r ~ 1
    if params.bug == "error" and r == 1 then
      local t = nil
      return t.steps                                -- line 31: indexes nil
    end
    local send = {op = "send", peer = peer, blocks = {0, 1}}
    if params.bug == "op" then send.op = "sned" end
    if params.bug == "peer" then send.peer = nil end
    if params.bug == "key" then send.peers = 4 end
    if params.bug == "blocks" then send.blocks = {0, 9} end
    if params.bug == "steps" then return 42 end
    return {{send, {op = "recv", peer = peer, blocks = {0, 1}, combine = true},
             {op = "reduce", bytes = size}}}
  end,
  check = function(P) if P ~= 2 then return "P = 2 only" end end,
}

-- A butterfly whose peer function does not pair the participants.
collsim.define_algorithm{
  name = "lua_bad_peer", collective = "allreduce", kind = "latency",
  butterfly = {peer = function(v, step, n) return (v + 1) % n end},
}
