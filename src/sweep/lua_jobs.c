/* lua_jobs.c - the `jobs` key of collsim.sweep{...} (issue 29, docs/scenarios.md "Several
 * jobs"): a list of job tables, each with the keys of `collsim sim --job` (sim/jobs.h),
 * read into the sweep's jobs axis (AX_JOBS).
 *
 * A job table becomes the text of a --job spec ("key=value,..." with the keys sorted) that
 * job_spec_parse reads: there is one parser of jobs. A key whose value is a list sweeps:
 * every combination of the listed values of every job is one value of the axis (the first
 * job's first key turns slowest), whose text is the jobs' specs joined by '\n'. Values:
 *   - name: a string (never a list: it names the job's rows);
 *   - hosts: a string (host indices "A-B", "[A-B,C]" or a placement), or a list of host
 *     indices {0, 2, 4} (one host list); a list of such values sweeps;
 *   - params: a string "k=v k=v" or a table {k = v}; a list of them sweeps;
 *   - every other key: a string, number or boolean, or a list of them.
 * Errors name the job: "collsim.sweep: jobs[2] (bully): unknown key 'colour' (...)".
 */
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "common/util.h"
#include "sim/jobs.h"
#include "sweep/sweep_internal.h"

#define JOB_TEXT_MAX 1400 /* a spec: its hosts value alone may take 1 KiB */

/* The values of one key of one job: texts (malloc'ed). */
typedef struct key_values {
    char key[32];
    char **v;
    size_t n, cap;
} key_values;

/* One job: its keys, sorted. */
typedef struct job_keys {
    key_values *k;
    size_t n;
    char label[64]; /* "jobs[2] (bully)" */
} job_keys;

/* Frees every job's values; a userdata's __gc, so that a Lua error frees them too. */
typedef struct jobs_read {
    job_keys jobs[JOBS_MAX];
    int njobs;
} jobs_read;

static void jobs_read_free(jobs_read *r)
{
    for (int j = 0; j < r->njobs; j++) {
        for (size_t k = 0; k < r->jobs[j].n; k++) {
            for (size_t i = 0; i < r->jobs[j].k[k].n; i++)
                free(r->jobs[j].k[k].v[i]);
            free(r->jobs[j].k[k].v);
        }
        free(r->jobs[j].k);
    }
    r->njobs = 0;
}

static int jobs_read_gc(lua_State *L)
{
    jobs_read_free(lua_touserdata(L, 1));
    return 0;
}

static void add_text(key_values *kv, const char *text)
{
    VEC_RESERVE(kv->v, kv->cap, kv->n + 1);
    kv->v[kv->n++] = xstrdup(text);
}

/* A list of host indices {0, 2, 3, 4} as "[0,2-4]" (runs of consecutive hosts joined). */
static int host_list_text(lua_State *L, int idx, char *buf, size_t n)
{
    lua_Integer len = (lua_Integer)lua_rawlen(L, idx);
    if (len == 0)
        return 0;
    for (lua_Integer i = 1; i <= len; i++) {
        int isint = lua_rawgeti(L, idx, i) == LUA_TNUMBER && lua_isinteger(L, -1);
        lua_pop(L, 1);
        if (!isint)
            return 0;
    }
    size_t at = (size_t)snprintf(buf, n, "[");
    for (lua_Integer i = 1; i <= len && at < n; i++) {
        lua_rawgeti(L, idx, i);
        lua_Integer lo = lua_tointeger(L, -1), hi = lo;
        lua_pop(L, 1);
        while (i < len) {
            lua_rawgeti(L, idx, i + 1);
            int next = lua_tointeger(L, -1) == hi + 1;
            lua_pop(L, 1);
            if (!next)
                break;
            hi++;
            i++;
        }
        at += (size_t)snprintf(buf + at, n - at, hi > lo ? "%s%lld-%lld" : "%s%lld",
                               at > 1 ? "," : "", (long long)lo, (long long)hi);
    }
    if (at + 2 > n)
        luaL_error(L, "hosts: the host list is too long (at most %zu characters)", n - 2);
    snprintf(buf + at, n - at, "]");
    return 1;
}

/* One value of key (on top of the stack) as spec text into buf. */
static void value_text(lua_State *L, const job_keys *j, const char *key, char *buf, size_t n)
{
    char what[128];
    snprintf(what, sizeof what, "collsim.sweep: %s: %s", j->label, key);
    buf[0] = '\0';
    if (strcmp(key, "hosts") == 0 && lua_type(L, -1) == LUA_TTABLE) {
        if (!host_list_text(L, lua_gettop(L), buf, n))
            luaL_error(L, "%s: expected a list of host indices, a string, or a list of those",
                       what);
    } else if (strcmp(key, "params") == 0 && lua_type(L, -1) == LUA_TTABLE) {
        scenario_append_sorted_kv(L, -1, what, buf, n, " ");
    } else if (strcmp(key, "params") == 0 && lua_type(L, -1) == LUA_TSTRING) {
        snprintf(buf, n, "%s", lua_tostring(L, -1));
    } else if (strcmp(key, "hosts") == 0 && lua_type(L, -1) == LUA_TSTRING &&
               strncmp(lua_tostring(L, -1), "file:", 5) == 0) {
        char path[1024]; /* an allocation file: as given, else next to the scenario */
        scenario_find_file(L, lua_tostring(L, -1) + 5, path, sizeof path);
        snprintf(buf, n, "file:%s", path);
    } else {
        scenario_value_text(L, -1, what, buf, n);
    }
    int depth = 0; /* a comma outside [...] would end the item */
    for (const char *c = buf; *c; c++) {
        depth += *c == '[' ? 1 : *c == ']' ? -1 : 0;
        if (*c == ',' && depth == 0)
            luaL_error(L, "%s: '%s' holds a comma", what, buf);
    }
}

/* Is the value on top of the stack a list of values of key (a sweep), not one value? */
static int is_sweep_list(lua_State *L, const char *key)
{
    if (lua_type(L, -1) != LUA_TTABLE)
        return 0;
    if (strcmp(key, "params") == 0) /* {k = v}: one value; {"k=v", {...}}: a list */
        return lua_rawlen(L, -1) > 0;
    if (strcmp(key, "hosts") == 0) { /* {0, 2}: one host list; {"0-3", {4, 5}}: a list */
        lua_rawgeti(L, -1, 1);
        int first_int = lua_isinteger(L, -1);
        lua_pop(L, 1);
        return !first_int;
    }
    return 1;
}

/* The values of key (its value on top of the stack; popped). */
static void read_key(lua_State *L, job_keys *j, key_values *kv)
{
    if (!is_sweep_list(L, kv->key)) {
        char text[JOB_TEXT_MAX];
        value_text(L, j, kv->key, text, sizeof text);
        add_text(kv, text);
    } else {
        lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
        if (n == 0 || strcmp(kv->key, "name") == 0)
            luaL_error(L, "collsim.sweep: %s: %s: %s", j->label, kv->key,
                       n == 0 ? "an empty list" : "a job's name is one string, not a list");
        for (lua_Integer i = 1; i <= n; i++) {
            char text[JOB_TEXT_MAX];
            lua_rawgeti(L, -1, i);
            value_text(L, j, kv->key, text, sizeof text);
            add_text(kv, text);
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
}

/* jobs[i], the table on top of the stack, into j. */
static void read_job(lua_State *L, int i, job_keys *j)
{
    snprintf(j->label, sizeof j->label, "jobs[%d]", i);
    if (lua_type(L, -1) != LUA_TTABLE)
        luaL_error(L, "collsim.sweep: %s: expected a table of --job keys (coll, alg, ranks, "
                      "hosts, ...), got %s", j->label, luaL_typename(L, -1));
    if (lua_getfield(L, -1, "name") == LUA_TSTRING)
        snprintf(j->label, sizeof j->label, "jobs[%d] (%.40s)", i, lua_tostring(L, -1));
    lua_pop(L, 1);
    int tbl = lua_gettop(L);
    char what[96];
    snprintf(what, sizeof what, "collsim.sweep: %s", j->label);
    int nkeys = scenario_push_sorted_keys(L, tbl, what, 64);
    j->k = xcalloc((size_t)nkeys + 1, sizeof *j->k);
    for (int k = 1; k <= nkeys; k++) {
        lua_rawgeti(L, -1, k);
        key_values *kv = &j->k[j->n++];
        snprintf(kv->key, sizeof kv->key, "%.31s", lua_tostring(L, -1));
        lua_gettable(L, tbl);
        read_key(L, j, kv);
    }
    lua_pop(L, 1); /* the key list */
}

/* The spec text of job j for the value indices idx[] of its keys. */
static void job_text(const job_keys *j, const size_t *idx, char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = '\0';
    for (size_t k = 0; k < j->n && at < n; k++)
        at += (size_t)snprintf(buf + at, n - at, "%s%s=%s", k ? "," : "", j->k[k].key,
                               j->k[k].v[idx[k]]);
}

/* Checks one job's spec with the --job parser, and a collective job's algorithm and its
 * parameters (built-in or collsim.define_algorithm); raises the error naming the job. */
static void check_job(lua_State *L, const sweep_plan *p, const job_keys *j, int index,
                      const char *text)
{
    job_spec spec;
    cs_error err;
    int rc = job_spec_parse_bare(text, index, &spec, &err);
    if (rc == 0 && !spec.pattern) {
        const alg_desc *d = registry_find(p->algorithms.n ? &p->algorithms : NULL,
                                          spec.spec.coll, spec.algorithm, &err);
        rc = d ? alg_check_params(d, &spec.spec, &err) : -1;
    }
    if (rc < 0)
        luaL_error(L, "collsim.sweep: %s: %s", j->label, err.msg);
}

/* Every combination of every job's values, as odometer positions over all keys of all
 * jobs (the last key of the last job turns fastest), into the axis. */
static void add_combinations(lua_State *L, sweep_plan *p, const jobs_read *r, sweep_axes *ax)
{
    size_t nkeys = 0;
    for (int j = 0; j < r->njobs; j++)
        nkeys += r->jobs[j].n;
    /* Lua-owned buffers: a Lua error below frees them with the state */
    size_t *pos = lua_newuserdatauv(L, (nkeys + 1) * sizeof *pos, 0);
    memset(pos, 0, (nkeys + 1) * sizeof *pos);
    size_t total = (size_t)r->njobs * JOB_TEXT_MAX + 1;
    char *all = lua_newuserdatauv(L, total, 0);
    for (;;) {
        size_t at = 0, off = 0;
        all[0] = '\0';
        for (int j = 0; j < r->njobs; j++) {
            char text[JOB_TEXT_MAX];
            job_text(&r->jobs[j], pos + off, text, sizeof text);
            check_job(L, p, &r->jobs[j], j, text);
            at += (size_t)snprintf(all + at, total - at, "%s%s", j ? "\n" : "", text);
            off += r->jobs[j].n;
        }
        sweep_axes_add(ax, AX_JOBS, plan_intern(p, all), 0);
        size_t k = nkeys; /* odometer */
        int carry = 1;
        while (carry && k > 0) {
            k--;
            size_t base = 0;
            int j = 0;
            while (base + r->jobs[j].n <= k)
                base += r->jobs[j++].n;
            if (++pos[k] < r->jobs[j].k[k - base].n)
                carry = 0;
            else
                pos[k] = 0;
        }
        if (carry)
            break;
    }
    lua_pop(L, 2);
}

void sweep_read_jobs(lua_State *L, sweep_plan *p, sweep_axes *ax)
{
    if (lua_getfield(L, 1, "jobs") == LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    luaL_checkstack(L, 24, "collsim.sweep: jobs");
    int list = lua_gettop(L);
    lua_Integer n = lua_type(L, list) == LUA_TTABLE ? (lua_Integer)lua_rawlen(L, list) : 0;
    if (n < 1 || n > JOBS_MAX)
        luaL_error(L, "collsim.sweep: jobs: expected a list of 1 to %d job tables, got %s",
                   JOBS_MAX, lua_type(L, list) == LUA_TTABLE ? "an empty or larger list"
                                                              : luaL_typename(L, list));
    jobs_read *r = lua_newuserdatauv(L, sizeof *r, 0);
    memset(r, 0, sizeof *r);
    if (luaL_newmetatable(L, "collsim.jobs_read")) {
        lua_pushcfunction(L, jobs_read_gc);
        lua_setfield(L, -2, "__gc");
    }
    lua_setmetatable(L, -2);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, list, i);
        r->njobs++;
        read_job(L, (int)i, &r->jobs[i - 1]);
        lua_pop(L, 1);
    }
    add_combinations(L, p, r, ax);
    jobs_read_free(r); /* now; __gc then finds nothing */
    lua_settop(L, list - 1);
}
