/* cli_lua.c - `--lua FILE`: the algorithms a Lua file defines with
 * collsim.define_algorithm, for verify, dump, sim, check and draw (see cli.h and
 * docs/custom-algorithms.md). */
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "common/units.h"
#include "sweep/sweep.h"

int cli_lua_limit_option(int c, const char *arg, cli_lua_limits *lim, cs_error *err)
{
    if (c == CLI_OPT_LUA_TIMEOUT) {
        lim->have_timeout = 1;
        return cli_parse_timeout(arg, &lim->timeout_s, err);
    }
    lim->have_memory = 1;
    return parse_size(arg, &lim->memory, err);
}

int cli_lua_load(const char *path, const cli_lua_limits *lim, struct sweep_plan **plan,
                 const alg_registry **algs, cs_error *err)
{
    scenario_opts o;
    memset(&o, 0, sizeof o);
    o.algorithms_only = 1; /* sweeps and pictures in the file are not made */
    o.lua_timeout_s = lim && lim->have_timeout ? lim->timeout_s : SCENARIO_LUA_TIMEOUT_S;
    o.lua_memory = lim && lim->have_memory ? (size_t)lim->memory : SCENARIO_LUA_MEMORY;
    if (scenario_load(path, &o, plan, err) < 0)
        return -1;
    *algs = sweep_plan_algorithms(*plan);
    if (!*algs) {
        sweep_plan_free(*plan);
        *plan = NULL;
        return cs_fail(err, "%s defines no algorithm (call collsim.define_algorithm{...}, see "
                            "docs/custom-algorithms.md)", path);
    }
    return 0;
}

void cli_lua_free(struct sweep_plan *plan)
{
    sweep_plan_free(plan);
}
