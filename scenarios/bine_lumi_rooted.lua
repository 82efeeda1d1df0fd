-- bine_lumi_rooted.lua - the rooted collectives of bine_lumi.lua only (bcast, reduce,
-- gather, scatter: 945 points, ~7 min on one core), with the same point ids, so that
-- their rows can join a bine_lumi output directory (results/bine/README.md tells how the
-- reference bine_lumi/ was assembled).
BINE_LUMI = {collectives = {"bcast", "reduce", "gather", "scatter"}}
dofile(collsim.info.dir .. "/bine_lumi.lua")
