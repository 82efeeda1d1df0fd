-- lua_clash.lua: a Lua algorithm may not take a built-in's name (tests/cli/lua_alg.sh)
collsim.define_algorithm{
  name = "ring", collective = "allreduce",
  rank = function(r, P, size) return {} end,
}
