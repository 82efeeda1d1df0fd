/* fuzz_scenario.c - fuzz harness: loading a Lua scenario (src/sweep: the sandbox, the
 * collsim module, collsim.sweep's axes and expansion into points), without simulating.
 *
 * The input is the scenario text, run as scenario_load runs a file (same libraries, same
 * sandbox, chunk name "@fuzz.lua"), with the bounds a fuzzer needs and a user does not:
 *
 *   - no file can be written: the plan has no output directory, so the sandbox refuses
 *     every write (io.open "w"/"a"/"+", io.output, collsim.draw), and the scenario
 *     directory does not exist, so dofile / loadfile / require load nothing;
 *   - no endless loop: a count hook stops the script after FUZZ_INSTRUCTIONS VM
 *     instructions and then at every instruction (a pcall cannot swallow the stop);
 *     Lua's pattern matcher (string.find, match, gmatch, gsub) is removed, since a
 *     pattern like ".-.-.-.-b" runs exponentially long in C where no hook reaches it
 *     (Lua's code, not collsim's);
 *   - bounded memory: the Lua state is made by lua_limits_newstate, as collsim run's
 *     (--lua-memory FUZZ_LUA_MEMORY, no wall-time limit: the instruction count bounds it), and the plan's max_memory (FUZZ_MAX_MEMORY) refuses topologies
 *     and sweeps estimated to need more (sim/estimate.h), as --max-memory does;
 *   - standard input is /dev/null (io.read would wait for it).
 *
 * Checks beyond "no crash, no leak": a loaded plan's points have ids that sweep_plan_find
 * finds again, in plan order, with topologies the plan knows.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lauxlib.h>

#include "fuzz_input.h"
#include "sweep/sweep_internal.h"

#define FUZZ_INSTRUCTIONS 1000000
#define FUZZ_LUA_MEMORY ((size_t)64 << 20)
#define FUZZ_MAX_MEMORY ((int64_t)40 << 20)
#define FUZZ_DIR "/nonexistent-collsim-fuzz"

/* Stops the script, then every instruction after (so that no pcall can go on). */
static void stop_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    lua_sethook(L, stop_hook, LUA_MASKCOUNT, 1);
    luaL_error(L, "fuzz: instruction limit");
}

static void remove_patterns(lua_State *L)
{
    static const char *const fns[] = {"find", "match", "gmatch", "gsub", NULL};
    lua_getglobal(L, "string");
    for (const char *const *f = fns; *f; f++) {
        lua_pushnil(L);
        lua_setfield(L, -2, *f);
    }
    lua_pop(L, 1);
}

static void check_plan(const sweep_plan *p)
{
    for (size_t i = 0; i < sweep_plan_count(p); i++) {
        const sweep_point *pt = sweep_plan_point(p, i);
        if (pt->index != (int64_t)i || sweep_plan_find(p, pt->id) != (int64_t)i ||
            pt->topology < 0 || !sweep_plan_str(p, pt->topology)[0])
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 16384)
        return 0;
    int null = open("/dev/null", O_RDONLY);
    if (null >= 0) {
        dup2(null, 0);
        close(null);
    }
    sweep_plan *p = plan_new();
    snprintf(p->facts.path, sizeof p->facts.path, "%s/fuzz.lua", FUZZ_DIR);
    snprintf(p->facts.name, sizeof p->facts.name, "fuzz");
    snprintf(p->dir, sizeof p->dir, "%s", FUZZ_DIR);
    p->facts.seed = 1;
    p->max_memory = FUZZ_MAX_MEMORY;
    p->L = lua_limits_newstate(&p->limits, p->facts.path, 0, FUZZ_LUA_MEMORY);
    if (!p->L)
        abort();
    scenario_open_libs(p->L, p);
    scenario_open_collsim(p->L, p);
    lua_pop(p->L, 1);
    remove_patterns(p->L);
    lua_sethook(p->L, stop_hook, LUA_MASKCOUNT, FUZZ_INSTRUCTIONS); /* replaces lua_limits' hook */
    if (luaL_loadbufferx(p->L, (const char *)data, size, "@fuzz.lua", "t") == LUA_OK &&
        lua_pcall(p->L, 0, 0, 0) == LUA_OK)
        check_plan(p);
    sweep_plan_free(p); /* lua_close: __gc metamethods run under the hook too */
    return 0;
}
