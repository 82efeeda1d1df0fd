/* manifest.c - OUTDIR/manifest.json: what was run, with what, where, when, and how long
 * each point took (docs/results.md describes every field). Written to a temporary file
 * and renamed, so a reader never sees half a manifest. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <lua.h>
#include <simgrid/engine.h> /* xbt/base.h first: version.h needs its macros */
#include <simgrid/version.h>

#include "common/atomic_file.h"
#include "common/json.h"
#include "sweep/sweep_internal.h"
#include "version.h"

void utc_now(char *buf, size_t n)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void key(FILE *f, const char *indent, const char *name)
{
    fprintf(f, ",\n%s", indent);
    json_write_string(f, name);
    fputs(": ", f);
}

static void key_str(FILE *f, const char *indent, const char *name, const char *value)
{
    key(f, indent, name);
    json_write_string(f, value);
}

/* One point: its resolved parameters, status and wall time, on one line. */
static void write_point(FILE *f, const sweep_plan *p, const sweep_point *pt,
                        const point_record *r)
{
    fprintf(f, "    {\"point\": %" PRId64 ", \"id\": \"%s\", \"status\": ", pt->index, pt->id);
    json_write_string(f, r->status[0] ? r->status : "pending");
    fputs(", \"wall_s\": ", f);
    json_write_number(f, r->wall_s);
    fprintf(f, ", \"peak_rss_kb\": %ld, \"topology\": ", r->peak_rss_kb);
    json_write_string(f, sweep_plan_str(p, pt->topology));
    if (*sweep_plan_str(p, pt->groups)) {
        fputs(", \"groups\": ", f);
        json_write_string(f, sweep_plan_str(p, pt->groups));
    }
    fprintf(f, ", \"collective\": \"%s\", \"algorithm\": ", coll_name(pt->coll));
    json_write_string(f, sweep_plan_str(p, pt->algorithm));
    fputs(", \"params\": ", f);
    json_write_string(f, sweep_plan_str(p, pt->params));
    fprintf(f, ", \"ranks\": %" PRId32 ", \"ranks_per_node\": %" PRId32 ", \"size_bytes\": %" PRId64
               ", \"root\": %" PRId32 ", \"dst\": %" PRId32 ", \"dims\": ",
            pt->ranks, pt->ranks_per_node, pt->bytes, pt->root, pt->dst);
    json_write_string(f, sweep_plan_str(p, pt->dims));
    fputs(", \"placement\": ", f);
    json_write_string(f, sweep_plan_str(p, pt->placement));
    fprintf(f, ", \"model\": \"%s\", ", sim_model_name(pt->model));
    if (pt->model == SIM_MODEL_PACKET)
        fprintf(f, "\"routing\": \"%s\", \"mtu\": %" PRId64 ", \"buffer\": %" PRId64 ", ",
                pk_routing_name(pt->routing), pt->mtu, pt->buffer);
    if (pt->model == SIM_MODEL_PACKET && pt->engine != PK_ENGINE_LOOP)
        fprintf(f, "\"packet_engine\": \"%s\", ", pk_engine_name(pt->engine));
    if (pt->flow_engine != FLOW_ENGINE_SIMGRID)
        fprintf(f, "\"flow_engine\": \"%s\", ", flow_engine_name(pt->flow_engine));
    if (pt->barrier)
        fputs("\"barrier\": true, ", f);
    if (pt->endpoint.given) {
        char text[256] = "";
        endpoint_canonical_text(&pt->endpoint, text, sizeof text);
        for (char *c = text; *c; c++) /* "k=v\nk=v\n" -> "k=v k=v" */
            *c = *c == '\n' ? (c[1] ? ' ' : '\0') : *c;
        fputs("\"endpoint\": ", f);
        json_write_string(f, text);
        fputs(", ", f);
    }
    if (sweep_point_has_jobs(p, pt)) { /* the --job spec of every job (sim/jobs.h) */
        fputs("\"jobs\": [", f);
        const char *jobs = sweep_plan_str(p, pt->jobs);
        for (int k = 0; *jobs; k++) {
            size_t len = strcspn(jobs, "\n");
            char text[1500];
            snprintf(text, sizeof text, "%.*s", (int)len, jobs);
            fputs(k ? ", " : "", f);
            json_write_string(f, text);
            jobs += len + (jobs[len] == '\n');
        }
        fputs("], ", f);
    }
    fputs("\"workload\": ", f);
    json_write_string(f, sweep_plan_str(p, pt->workload));
    fputs(", \"reduce_Bps\": ", f);
    json_write_number(f, pt->reduce_Bps);
    fputs(", \"copy_Bps\": ", f);
    json_write_number(f, pt->copy_Bps);
    fprintf(f, ", \"rep\": %" PRId32 ", \"seed\": %" PRIu64 "}", pt->rep, pt->seed);
}

static void write_header(FILE *f, const sweep_plan *p, const manifest_run *m)
{
    const scenario_facts *sf = sweep_plan_facts(p);
    const char *in = "  ";
    char host[256] = "", now[32], sg[32];
    gethostname(host, sizeof host - 1);
    utc_now(now, sizeof now);
    int maj, min, patch;
    sg_version_get(&maj, &min, &patch);
    snprintf(sg, sizeof sg, "%d.%d.%d", maj, min, patch);
    fputs("{\n  \"manifest\": \"collsim-run-1\"", f);
    key_str(f, in, "state", m->state);
    if (m->error)
        key_str(f, in, "error", m->error);
    key_str(f, in, "scenario", sf->path);
    key_str(f, in, "scenario_name", sf->name);
    key_str(f, in, "scenario_sha256", sf->sha256);
    key(f, in, "seed");
    fprintf(f, "%" PRIu64, sf->seed);
    key(f, in, "unsafe_lua");
    fputs(sf->unsafe_lua ? "true" : "false", f);
    key_str(f, in, "model_override", sf->model_override);
    key_str(f, in, "collsim_version", COLLSIM_VERSION);
    key_str(f, in, "git_revision", COLLSIM_GIT_REV);
    key_str(f, in, "simgrid_version", sg);
    key_str(f, in, "lua_version", LUA_RELEASE);
    key_str(f, in, "host", host);
    key_str(f, in, "command", m->opts->command ? m->opts->command : "");
    key_str(f, in, "started", m->started);
    key_str(f, in, "updated", now);
    key(f, in, "wall_s");
    json_write_number(f, m->wall_s);
    key(f, in, "jobs");
    fprintf(f, "%d", m->opts->jobs);
    key(f, in, "shard");
    fprintf(f, "\"%d/%d\"", m->opts->shard_k, m->opts->shard_n);
    key(f, in, "points_total");
    fprintf(f, "%zu", sweep_plan_count(p));
    key(f, in, "duplicates_dropped");
    fprintf(f, "%zu", sf->duplicates);
}

int manifest_write(const sweep_plan *p, const manifest_run *m, cs_error *err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/manifest.json", m->opts->outdir);
    atomic_file out;
    if (atomic_file_open(&out, path, err) < 0)
        return -1;
    FILE *f = out.f;
    write_header(f, p, m);
    fputs(",\n  \"points\": [\n", f);
    for (size_t i = 0; i < m->n; i++) {
        write_point(f, p, sweep_plan_point(p, m->indices[i]), &m->records[i]);
        fputs(i + 1 < m->n ? ",\n" : "\n", f);
    }
    fputs("  ]\n}\n", f);
    return atomic_file_commit(&out, 1, err);
}

int manifest_value(const char *text, const char *key, char *buf, size_t n, size_t *where)
{
    return json_top_member(text, strlen(text), key, buf, n, where);
}
