/* scenario.c - running a scenario file into a plan, and calling its on_result callbacks
 * (sweep.h).
 *
 * The file is loaded as text only (a precompiled chunk is refused) with the chunk name
 * "@<path as given>", so every Lua error message starts with "<path>:<line>:" (errors
 * raised without one get it from lua_limits_pcall's message handler). The Lua state runs
 * under the limits of lua_limits.c and stays open with the plan: on_result callbacks
 * run in it while the sweep runs.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "common/util.h"
#include "sim/jobs.h"
#include "sweep/sweep_internal.h"

void scenario_name_of(const char *path, char *name, size_t n)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t len = strlen(base);
    if (len > 4 && strcmp(base + len - 4, ".lua") == 0)
        len -= 4;
    snprintf(name, n, "%.*s", (int)len, base);
}

static int run_file(sweep_plan *p, const char *path, cs_error *err)
{
    lua_State *L = p->L;
    if (luaL_loadfilex(L, path, "t") != LUA_OK) {
        /* syntax errors come as "path:line: message"; an unreadable file "cannot open" */
        const char *msg = lua_tostring(L, -1);
        cs_fail(err, "%s", msg ? msg : "cannot load the scenario");
        lua_pop(L, 1);
        return -1;
    }
    return lua_limits_pcall(L, 0, "scenario evaluation", err);
}

static int init_facts(sweep_plan *p, const char *path, const scenario_opts *o, cs_error *err)
{
    scenario_facts *f = &p->facts;
    snprintf(f->path, sizeof f->path, "%s", path);
    scenario_name_of(path, f->name, sizeof f->name);
    if (sha256_file_hex(path, f->sha256, err) < 0)
        return -1;
    f->seed = o->have_seed ? o->seed : 1;
    p->seed_from_cli = o->have_seed;
    p->max_memory = o->max_memory;
    f->unsafe_lua = o->unsafe_lua;
    p->have_model = o->have_model;
    p->model = o->model;
    snprintf(f->model_override, sizeof f->model_override, "%s",
             o->have_model ? sweep_model_name((int)o->model) : "");
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", path);
    if (!realpath(dirname(copy), p->dir))
        return cs_fail(err, "%s: cannot resolve its directory: %s", path, strerror(errno));
    snprintf(p->outdir, sizeof p->outdir, "%s", o->outdir ? o->outdir : "");
    return 0;
}

int scenario_load(const char *path, const scenario_opts *o, sweep_plan **out, cs_error *err)
{
    *out = NULL;
    sweep_plan *p = plan_new();
    if (init_facts(p, path, o, err) < 0) {
        sweep_plan_free(p);
        return -1;
    }
    p->L = lua_limits_newstate(&p->limits, p->facts.path, o->lua_timeout_s, o->lua_memory);
    if (!p->L) {
        cs_fail(err, "%s: cannot create a Lua state (out of memory)", path);
        sweep_plan_free(p);
        return -1;
    }
    p->algorithms_only = o->algorithms_only;
    p->dry_run = o->dry_run;
    scenario_open_libs(p->L, p);
    scenario_open_collsim(p->L, p);
    lua_pop(p->L, 1);
    if (run_file(p, path, err) < 0) {
        sweep_plan_free(p);
        return -1;
    }
    if (p->nsweeps == 0 && !p->algorithms_only) {
        cs_fail(err, "%s: the scenario defines no points (call collsim.sweep{...}, see "
                     "docs/scenarios.md)", path);
        sweep_plan_free(p);
        return -1;
    }
    *out = p;
    return 0;
}

/* ---- on_result -------------------------------------------------------------------------- */

/* The row as a table: column name -> number (numeric columns; absent when empty) or
 * string, built from the CSV text so that it holds exactly what results.csv holds. */
static void push_row(lua_State *L, const sweep_fields *f, const sim_row *row,
                     const job_result *job)
{
    size_t len;
    char *line = csv_row_text(f, row, job, job != NULL, &len);
    char **fields;
    int n = csv_split(line, len, &fields);
    lua_createtable(L, 0, n);
    for (int i = 0; i < n && i < csv_ncolumns(job != NULL); i++) {
        int is_text;
        const char *name = csv_column_name(i, job != NULL, &is_text);
        if (is_text)
            lua_pushstring(L, fields[i]);
        else if (!fields[i][0] || lua_stringtonumber(L, fields[i]) == 0)
            continue;
        lua_setfield(L, -2, name);
    }
    free(fields);
    free(line);
}

int sweep_plan_on_result(sweep_plan *p, const sweep_point *pt, const sweep_fields *f,
                         const sim_row *row, const job_result *job, cs_error *err)
{
    int ref = p->on_result[pt->sweep];
    if (ref == LUA_NOREF)
        return 0;
    lua_State *L = p->L;
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
    push_row(L, f, row, job);
    if (lua_limits_pcall(L, 1, "on_result", err) < 0) {
        char msg[sizeof err->msg], label[512];
        snprintf(msg, sizeof msg, "%s", err->msg);
        sweep_point_label(p, pt, label, sizeof label);
        return cs_fail(err, "%s (in on_result, point %lld: %s)", msg, (long long)pt->index,
                       label);
    }
    return 0;
}
