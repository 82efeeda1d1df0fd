/* jobs_spec.c - parsing one job spec "coll=allreduce,alg=ring,ranks=64,..." (see jobs.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/kv.h"
#include "common/units.h"
#include "sim/jobs.h"

#define JOB_KEYS "name, coll, alg, pattern, ranks, size, root, dst, q, dims, params, hosts, " \
                 "order, shared, start, reps, load, rounds, duration, seed"

static const char *const pattern_names[] = {"", "uniform", "permutation", "incast", "alltoall"};

const char *job_pattern_name(job_pattern p)
{
    return (unsigned)p < sizeof pattern_names / sizeof pattern_names[0] ? pattern_names[p] : "?";
}

/* Splits "k=v,k=v" at commas outside brackets into kv (a key given twice is an error).
 * The value of hosts= (a hostlist may be long) goes to hosts, kv holding "*" for it. */
static int split_items(const char *text, kv_list *kv, char *hosts, size_t nhosts, cs_error *err)
{
    kv_init(kv);
    const char *p = text;
    while (*p) {
        const char *end = p;
        for (int depth = 0; *end && (*end != ',' || depth > 0); end++)
            depth += *end == '[' ? 1 : *end == ']' ? -1 : 0;
        char item[1100];
        size_t n = (size_t)(end - p);
        if (n >= sizeof item)
            return cs_fail(err, "item '%.40s...' is too long (at most %zu characters)", p,
                           sizeof item - 1);
        memcpy(item, p, n);
        item[n] = '\0';
        char *eq = strchr(item, '=');
        if (n == 0 || !eq || eq == item)
            return cs_fail(err, "expected key=value, got '%s' (keys: %s)", item, JOB_KEYS);
        *eq = '\0';
        if (kv_get(kv, item))
            return cs_fail(err, "key '%s' given twice", item);
        int is_hosts = strcmp(item, "hosts") == 0;
        if (is_hosts && strlen(eq + 1) >= nhosts)
            return cs_fail(err, "hosts: the value is too long (at most %zu characters)",
                           nhosts - 1);
        if (is_hosts)
            snprintf(hosts, nhosts, "%s", eq + 1);
        if (kv_set(kv, item, is_hosts ? "*" : eq + 1, 0, err) < 0)
            return -1;
        p = *end ? end + 1 : end;
    }
    for (int i = 0; i < kv->n; i++)
        kv->items[i].used = 0; /* the duplicate check above marked them */
    return 0;
}

/* hosts=: host indices "A-B" / "[A-B,C]" (alloc:h[...]) or a placement. */
static int parse_hosts(const char *v, job_spec *j, cs_error *err)
{
    char text[1100];
    if (strspn(v, "0123456789-") == strlen(v))
        snprintf(text, sizeof text, "alloc:h[%s]", v);
    else if (v[0] == '[' && strspn(v, "[]0123456789-,") == strlen(v))
        snprintf(text, sizeof text, "alloc:h%s", v);
    else
        snprintf(text, sizeof text, "%s", v);
    if (placement_parse(text, &j->hosts, err) < 0) {
        cs_error_prefix(err, "hosts (host indices A-B or [A-B,C], or a placement)");
        return -1;
    }
    return 0;
}

/* The collective or pattern, its ranks and size. */
static int parse_what(kv_list *kv, job_spec *j, cs_error *err)
{
    const char *coll = kv_get(kv, "coll"), *alg = kv_get(kv, "alg"), *pat = kv_get(kv, "pattern");
    if (pat && (coll || alg))
        return cs_fail(err, "give either pattern= or coll= and alg=, not both");
    if (!pat && (!coll || !alg))
        return cs_fail(err, "coll= and alg= (a collective job) or pattern= (a traffic job: "
                            "uniform, permutation, incast, alltoall) are required");
    if (!kv_get(kv, "ranks"))
        return cs_fail(err, "ranks= is required");
    int64_t P, x;
    if (kv_int(kv, "ranks", 0, 2, INT32_MAX, &P, err) < 0)
        return -1;
    coll_kind ck = COLL_ALLTOALL;
    if (coll && coll_from_name(coll, &ck, err) < 0)
        return -1;
    coll_spec_init(&j->spec, ck, (int32_t)P, 1 << 20);
    if (kv_size(kv, "size", "1MiB", &j->spec.bytes, err) < 0)
        return -1;
    if (pat) {
        int k;
        if (kv_choice(kv, "pattern", NULL, "uniform|permutation|incast|alltoall", &k, err) < 0)
            return -1;
        j->pattern = (job_pattern)(k + 1);
    } else {
        snprintf(j->algorithm, sizeof j->algorithm, "%s", alg);
    }
    if (kv_int(kv, "root", 0, 0, P - 1, &x, err) < 0)
        return -1;
    j->spec.root = (int32_t)x;
    if (kv_int(kv, "dst", 1, 0, P - 1, &x, err) < 0)
        return -1;
    j->spec.dst = (int32_t)x;
    if (kv_int(kv, "q", 1, 1, INT32_MAX, &x, err) < 0)
        return -1;
    j->spec.ranks_per_node = (int32_t)x;
    const char *params = kv_get(kv, "params");
    if (params && (pat || coll_spec_set_params(&j->spec, params, err) < 0))
        return pat ? cs_fail(err, "params: a pattern job has no algorithm parameters") : -1;
    if (kv_get(kv, "dims"))
        return kv_dims(kv, "dims", NULL, j->spec.dims, SPEC_MAX_DIMS, &j->spec.ndims, err) < 0
                   ? -1 : 0;
    return 0;
}

/* The pattern keys (refused for collective jobs). */
static int parse_pattern(kv_list *kv, job_spec *j, cs_error *err)
{
    static const char *const keys[] = {"load", "rounds", "duration", "seed"};
    if (j->pattern == JOB_PATTERN_NONE) {
        for (int i = 0; i < 4; i++)
            if (kv_get(kv, keys[i]))
                return cs_fail(err, "%s= applies to pattern jobs only", keys[i]);
        return 0;
    }
    int64_t x;
    if (kv_double(kv, "load", 1.0, 1e-6, 1.0, &j->load, err) < 0 ||
        kv_int(kv, "rounds", 1, 1, 1000000, &j->rounds, err) < 0 ||
        kv_time(kv, "duration", "0s", &j->duration_s, err) < 0 ||
        kv_int(kv, "seed", 1, 0, INT64_MAX, &x, err) < 0)
        return -1;
    j->seed = (uint64_t)x;
    if (kv_get(kv, "rounds") && kv_get(kv, "duration"))
        return cs_fail(err, "give rounds= or duration=, not both");
    return 0;
}

/* Where and when: hosts (its value), order, shared, start, reps. */
static int parse_where(kv_list *kv, const char *hosts, job_spec *j, cs_error *err)
{
    j->hosts.kind = PLACE_LINEAR;
    j->hosts_auto = kv_get(kv, "hosts") == NULL;
    if (!j->hosts_auto && parse_hosts(hosts, j, err) < 0)
        return -1;
    if (kv_get(kv, "order")) {
        int k;
        if (kv_choice(kv, "order", NULL, "block|cyclic", &k, err) < 0)
            return -1;
        j->hosts.order = k ? ALLOC_ORDER_CYCLIC : ALLOC_ORDER_BLOCK;
    }
    int64_t reps;
    if (kv_bool(kv, "shared", 0, &j->shared, err) < 0 ||
        kv_time(kv, "start", "0s", &j->start_s, err) < 0 ||
        kv_int(kv, "reps", 1, 1, 1000000, &reps, err) < 0)
        return -1;
    j->reps = (int32_t)reps;
    if (j->pattern != JOB_PATTERN_NONE && j->reps != 1)
        return cs_fail(err, "reps= applies to collective jobs (a pattern job has rounds= or "
                            "duration=)");
    return 0;
}

int job_spec_parse_bare(const char *text, int index, job_spec *out, cs_error *err)
{
    memset(out, 0, sizeof *out);
    snprintf(out->text, sizeof out->text, "%s", text);
    snprintf(out->name, sizeof out->name, "%d", index);
    kv_list kv;
    char hosts[1024] = "";
    int rc = split_items(text, &kv, hosts, sizeof hosts, err);
    const char *name = rc == 0 ? kv_get(&kv, "name") : NULL;
    if (name && (!name[0] || strlen(name) >= sizeof out->name || strpbrk(name, ",\"\n")))
        rc = cs_fail(err, "name: '%s' must be 1 to %zu characters without commas or quotes",
                     name, sizeof out->name - 1);
    else if (name)
        snprintf(out->name, sizeof out->name, "%s", name);
    if (rc == 0)
        rc = parse_what(&kv, out, err);
    if (rc == 0)
        rc = parse_pattern(&kv, out, err);
    if (rc == 0)
        rc = parse_where(&kv, hosts, out, err);
    if (rc == 0)
        rc = kv_check_unused(&kv, JOB_KEYS, err);
    return rc;
}

int job_spec_parse(const char *text, int index, job_spec *out, cs_error *err)
{
    int rc = job_spec_parse_bare(text, index, out, err);
    if (rc < 0)
        cs_error_prefix(err, "--job %d ('%s')", index, text);
    return rc;
}
