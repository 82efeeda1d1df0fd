-- lib/alltoallv_machines.lua - the machines of the alltoallv scenarios (not a scenario:
-- they load it with dofile). Returns a function: machines(default_names) -> the list of
-- collsim.machine presets named by the environment variable ALLTOALLV_MACHINES
-- ("polaris", "fugaku" or "polaris,fugaku"), or by default_names when it is unset, and
-- the list of their names; by name, the table of both (machine = by_name[name]).
local allowed = {polaris = "platforms/polaris.yaml", fugaku = "platforms/fugaku.yaml"}

return function(default_names)
  local names = os.getenv("ALLTOALLV_MACHINES") or table.concat(default_names, ",")
  local list, named, by_name = {}, {}, {}
  for name in names:gmatch("[^,]+") do
    if not allowed[name] then
      error("ALLTOALLV_MACHINES: '" .. name .. "' is not a machine of these scenarios " ..
            "(allowed: polaris, fugaku, comma-separated)", 2)
    end
    -- endpoint=none: the network alone, as the shipped results were made (same point ids)
    list[#list + 1] = collsim.machine(allowed[name], {endpoint = "none"})
    named[#named + 1] = name
    by_name[name] = list[#list]
  end
  if #list == 0 then error("ALLTOALLV_MACHINES: no machine named (allowed: polaris, fugaku)", 2) end
  return list, named, by_name
end
