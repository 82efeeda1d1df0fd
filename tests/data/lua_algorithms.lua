-- lua_algorithms.lua: algorithms written in Lua that must give the same schedules as the
-- built-ins they copy (tests/cli/lua_alg.sh compares `collsim dump` and `collsim sim`).

-- Participants of a butterfly on P ranks (MPICH fold): the largest power of two n <= P;
-- relative rank 2v+1 < 2*rem hands its data to 2v and takes no part.
local function fold(P)
  local n = 1
  while n * 2 <= P do n = n * 2 end
  return n, P - n
end

-- allreduce recursive_doubling, steps form, any P
collsim.define_algorithm{
  name = "lua_recursive_doubling", collective = "allreduce",
  summary = "recursive doubling written in Lua (steps form)",
  rank = function(r, P, size)
    local n, rem = fold(P)
    local all, steps = {0, 1}, {}
    local odd, folded = r % 2 == 1, r < 2 * rem
    if rem > 0 then                                    -- fold in
      if folded and odd then
        steps[#steps + 1] = {{op = "send", peer = r - 1, blocks = all}}
      elseif folded then
        steps[#steps + 1] = {{op = "recv", peer = r + 1, blocks = all, combine = true},
                             {op = "reduce", bytes = size}}
      else
        steps[#steps + 1] = {}
      end
    end
    local v = folded and (not odd and r // 2 or nil) or (not folded and r - rem or nil)
    local d = 1
    while d < n do
      if v then
        local q = v ~ d
        local peer = q < rem and 2 * q or q + rem
        steps[#steps + 1] = {{op = "send", peer = peer, blocks = all},
                             {op = "recv", peer = peer, blocks = all, combine = true},
                             {op = "reduce", bytes = size}}
      else
        steps[#steps + 1] = {}                          -- folded out: stay in step
      end
      d = d * 2
    end
    if rem > 0 then                                    -- fold out
      if folded and odd then
        steps[#steps + 1] = {{op = "recv", peer = r - 1, blocks = all}}
      elseif folded then
        steps[#steps + 1] = {{op = "send", peer = r + 1, blocks = all}}
      else
        steps[#steps + 1] = {}
      end
    end
    return steps
  end,
}

-- the same through the butterfly engine: only the peer function
collsim.define_algorithm{
  name = "lua_rd_butterfly", collective = "allreduce", kind = "latency",
  butterfly = {peer = function(v, step, n) return v ~ (1 << step) end},
}

-- Rabenseifner: distance-halving peers, contiguous blocks (the default block rule)
collsim.define_algorithm{
  name = "lua_rabenseifner", collective = "allreduce", kind = "bandwidth",
  butterfly = {peer = function(v, step, n) return v ~ (n >> (step + 1)) end},
}

-- reduce_scatter recursive_doubling: distance-doubling peers and its strided block rule
collsim.define_algorithm{
  name = "lua_rs_doubling", collective = "reduce_scatter",
  butterfly = {
    peer = function(v, step) return v ~ (1 << step) end,
    -- the chunks agreeing with v on the bits below `step` and with the peer on bit `step`
    blocks = function(v, step, n)
      local out = {}
      local low = (v & ((1 << step) - 1)) | ((v ~ (1 << step)) & (1 << step))
      for x = low, n - 1, 2 << step do out[#out + 1] = {x, x + 1} end
      return out
    end,
  },
}

-- allgather recursive_doubling: distance-halving peers, contiguous blocks
collsim.define_algorithm{
  name = "lua_ag_doubling", collective = "allgather",
  butterfly = {peer = function(v, step, n) return v ~ (n >> (step + 1)) end},
}

-- distance-doubling peers with contiguous blocks: positions are a bit reversal, so the
-- reduce-scatter ends with a remap exchange (no built-in twin; verified only)
collsim.define_algorithm{
  name = "lua_rs_near_first", collective = "reduce_scatter",
  butterfly = {peer = function(v, step) return v ~ (1 << step) end},
}

-- a sweep in the same file is fine: `--lua` skips it, `collsim run` runs it
collsim.sweep{topology = "torus dims=4x4", collective = "allreduce",
              algorithm = {"lua_recursive_doubling", "recursive_doubling"}, ranks = 16,
              sizes = {"1KiB"}, model = "traffic"}
