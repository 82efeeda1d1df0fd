-- bine_lumi.lua - time and goodput of all eight collectives on the LUMI preset: Bine
-- against the classic algorithms (issue 6, deliverable 4; the paper's Sec. 5.1, Table 3
-- and Fig. 9). Flow model (cm02), one rank per node, linear placement.
--
-- Full size: 32 B .. 512 MiB in x8 steps (9 sizes) x 16..1024 nodes (7 counts) x 33
-- algorithms = 2,079 points (hours on 2 cores; the 63 of allreduce rabenseifner
-- order=nearest were added later with --resume). A reduced run uses the same file through
-- scenarios/bine_lumi_small.lua, which sets the global BINE_LUMI (a table with `ranks`,
-- `sizes` and optionally `collectives` and `filter`, a sweep filter) and then runs this file with dofile: no
-- environment variables needed.
--
-- The machine is LUMI's network alone (`endpoint=none`: the preset's endpoint costs, on
-- since 27 Nov 2026, are dropped, so the shipped results keep their point ids). A caller
-- may set BINE_LUMI.machine (a topology, e.g. another preset or LUMI with its costs),
-- BINE_LUMI.model (default "cm02"), BINE_LUMI.endpoint (a table of endpoint sweep keys,
-- e.g. {send_overhead = {0, "625ns"}}), BINE_LUMI.keys (more sweep keys, e.g. the packet
-- model's {routing = "ugal"}: scenarios/bine_lumi_ugal.lua), BINE_LUMI.extra (more
-- algorithms per collective, after Bine's) and BINE_LUMI.plot = false
-- (scenarios/bine_lumi_endpoint.lua does).

local config = BINE_LUMI or {}
local ranks = config.ranks or collsim.ranks.pow2(16, 1024)
local sizes = config.sizes or collsim.sizes.geometric("32B", "512MiB", 8)

local lumi = config.machine or collsim.machine("platforms/lumi.yaml", {endpoint = "none"})

-- per collective: the classic algorithms (the plot's baselines), then Bine's
-- (lib/bine_algorithms.lua, as bine_mn5.lua). `vendor`:
-- the libraries' own order of an algorithm whose collsim default differs (allreduce
-- rabenseifner: collsim's default is farthest-first, Cray MPICH and Open MPI, which the
-- paper ran, are nearest-first; results/bine/rabenseifner_order). Its rows have the
-- algorithm name "rabenseifner" (params order=nearest), so the plots count it among the
-- baselines.
local algorithms, all_collectives = dofile(collsim.info.dir .. "/lib/bine_algorithms.lua")
algorithms.allreduce.vendor = {collsim.algorithm("rabenseifner", {order = "nearest"})}
local order = config.collectives or all_collectives

local baselines = {}
for _, coll in ipairs(order) do
  local list = {}
  for _, a in ipairs(algorithms[coll].classic) do
    list[#list + 1] = a
    baselines[#baselines + 1] = a
  end
  for _, a in ipairs(algorithms[coll].vendor or {}) do list[#list + 1] = a end
  for _, a in ipairs(algorithms[coll].bine) do list[#list + 1] = a end
  for _, a in ipairs((config.extra or {})[coll] or {}) do list[#list + 1] = a end
  local sweep = {
    topology   = lumi,
    collective = coll,
    algorithms = list,
    ranks      = ranks,
    sizes      = sizes,
    model      = config.model or "cm02",
    filter     = config.filter,
  }
  for key, value in pairs(config.endpoint or {}) do sweep[key] = value end
  for key, value in pairs(config.keys or {}) do sweep[key] = value end
  collsim.sweep(sweep)
end

if config.plot ~= false then collsim.plot{baseline = baselines} end
