-- bine_placements.lua - the placements of the Bine traffic studies on the LUMI and
-- Leonardo presets, shared by bine_traffic.lua and bine_rabenseifner_order.lua:
--   linear            ranks on hosts 0..P-1
--   fragmented:K:S    K contiguous chunks at random positions, K = 4, 8, 16, seeds 1..8
--   file:...          aligned power-of-two groups (first 16 / 64 hosts of every group),
--                     written by scripts/bine_alloc_files.py
-- and the sweep filter that keeps a file placement only on its own preset and when it
-- holds P ranks:
--   local placements, fits = dofile(collsim.info.dir .. "/lib/bine_placements.lua")
-- The files are named relative to the scenario (looked up next to it): results.csv
-- records "scenarios/bine_alloc/...", the same in every checkout (an absolute path built
-- from collsim.info.dir would put the checkout's location into every point id).
local alloc = {}
for _, name in ipairs{"lumi", "leonardo"} do
  local groups = (name == "lumi") and 24 or 22 -- Leonardo: 22 of its 23 groups hold nodes
  for _, g in ipairs{16, 64} do
    alloc[#alloc + 1] = {preset = name, capacity = g * groups, placement =
      collsim.placement.file("bine_alloc/" .. name .. "_aligned" .. g .. ".txt")}
  end
end

local function fits(pt)
  for _, a in ipairs(alloc) do
    if pt.placement == a.placement then
      return pt.topology:find(a.preset, 1, true) ~= nil and pt.ranks <= a.capacity
    end
  end
  return true
end

local placements = {"linear"}
for _, k in ipairs{4, 8, 16} do
  for s = 1, 8 do placements[#placements + 1] = collsim.placement.fragmented(k, s) end
end
for _, a in ipairs(alloc) do placements[#placements + 1] = a.placement end
return placements, fits
