/* algorithm.c - collective specs, algorithm parameters and the prepare/generate wrapper. */
#include "algorithms/algorithm.h"

#include <stdio.h>
#include <string.h>

#include "common/units.h"
#include "traffic/workload.h"

void coll_spec_init(coll_spec *s, coll_kind coll, int32_t P, int64_t bytes)
{
    memset(s, 0, sizeof *s);
    s->coll = coll;
    s->P = P;
    s->bytes = bytes;
    s->dst = 1;
    s->ranks_per_node = 1;
}

int coll_spec_set_param(coll_spec *s, const char *name, const char *value, cs_error *err)
{
    if (strlen(name) >= SPEC_PARAM_LEN || strlen(value) >= SPEC_PARAM_LEN)
        return cs_fail(err, "parameter '%s' or its value is longer than %d characters", name,
                       SPEC_PARAM_LEN - 1);
    for (int i = 0; i < s->nparams; i++) {
        if (strcmp(s->params[i].name, name) == 0) {
            strcpy(s->params[i].value, value);
            return 0;
        }
    }
    if (s->nparams >= SPEC_MAX_PARAMS)
        return cs_fail(err, "too many algorithm parameters (at most %d)", SPEC_MAX_PARAMS);
    strcpy(s->params[s->nparams].name, name);
    strcpy(s->params[s->nparams].value, value);
    s->nparams++;
    return 0;
}

int coll_spec_set_params(coll_spec *s, const char *text, cs_error *err)
{
    char buf[SPEC_MAX_PARAMS * 2 * SPEC_PARAM_LEN + 1];
    if (strlen(text) >= sizeof buf)
        return cs_fail(err, "algorithm parameters '%.40s...' are too long", text);
    snprintf(buf, sizeof buf, "%s", text);
    for (char *save = NULL, *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq)
            return cs_fail(err, "algorithm parameter '%s' is not name=value", tok);
        *eq = '\0';
        if (coll_spec_set_param(s, tok, eq + 1, err) < 0)
            return -1;
    }
    return 0;
}

const char *coll_spec_param(const coll_spec *s, const char *name)
{
    for (int i = 0; i < s->nparams; i++)
        if (strcmp(s->params[i].name, name) == 0)
            return s->params[i].value;
    return NULL;
}

static const alg_param_desc *find_param(const alg_param_desc *params, const char *name)
{
    for (const alg_param_desc *p = params; p && p->name; p++)
        if (strcmp(p->name, name) == 0)
            return p;
    return NULL;
}

static void list_params(const alg_desc *a, char *buf, size_t n)
{
    buf[0] = '\0';
    for (const alg_param_desc *p = a->params; p && p->name; p++) {
        size_t len = strlen(buf);
        snprintf(buf + len, n - len, "%s%s", len ? ", " : "", p->name);
    }
    if (!buf[0])
        snprintf(buf, n, "none");
}

/* The text value of a declared parameter (given or default). */
static const char *param_text(const alg_param_desc *params, const coll_spec *s,
                              const char *name, const alg_param_desc **desc, cs_error *err)
{
    *desc = find_param(params, name);
    if (!*desc) {
        cs_fail(err, "internal: reads undeclared parameter '%s'", name);
        return NULL;
    }
    const char *v = coll_spec_param(s, name);
    return v ? v : (*desc)->def;
}

int alg_param_int(const alg_param_desc *params, const coll_spec *s, const char *name, int64_t *out,
                  cs_error *err)
{
    const alg_param_desc *d;
    const char *v = param_text(params, s, name, &d, err);
    if (!v)
        return -1;
    long long lo = INT64_MIN, hi = INT64_MAX;
    if (d->choices && sscanf(d->choices, "%lld..%lld", &lo, &hi) != 2) {
        lo = INT64_MIN;
        hi = INT64_MAX;
    }
    return parse_int_in(v, lo, hi, name, out, err);
}

int alg_param_size(const alg_param_desc *params, const coll_spec *s, const char *name, int64_t *out,
                   cs_error *err)
{
    const alg_param_desc *d;
    const char *v = param_text(params, s, name, &d, err);
    if (!v)
        return -1;
    if (parse_size(v, out, err) < 0) {
        cs_error_prefix(err, "parameter %s", name);
        return -1;
    }
    return 0;
}

int alg_param_choice(const alg_param_desc *params, const coll_spec *s, const char *name, int *out,
                     cs_error *err)
{
    const alg_param_desc *d;
    const char *v = param_text(params, s, name, &d, err);
    if (!v)
        return -1;
    const char *c = d->choices;
    for (int i = 0; c && *c; i++) {
        const char *bar = strchr(c, '|');
        size_t len = bar ? (size_t)(bar - c) : strlen(c);
        if (strlen(v) == len && strncmp(v, c, len) == 0) {
            *out = i;
            return 0;
        }
        c = bar ? bar + 1 : c + len;
    }
    return cs_fail(err, "parameter %s: '%s' is not allowed (allowed: %s)", name, v,
                   d->choices ? d->choices : "");
}

int alg_check_params(const alg_desc *a, const coll_spec *s, cs_error *err)
{
    for (int i = 0; i < s->nparams; i++) {
        const alg_param_desc *d = find_param(a->params, s->params[i].name);
        if (!d) {
            char allowed[512];
            list_params(a, allowed, sizeof allowed);
            return cs_fail(err, "unknown parameter '%s' (allowed: %s)", s->params[i].name,
                           allowed);
        }
        int64_t iv;
        int ci;
        int rc = d->type == PARAM_INT    ? alg_param_int(a->params, s, d->name, &iv, err)
                 : d->type == PARAM_SIZE ? alg_param_size(a->params, s, d->name, &iv, err)
                                         : alg_param_choice(a->params, s, d->name, &ci, err);
        if (rc < 0)
            return -1;
    }
    return 0;
}

int alg_run_prepare(alg_run *run, const alg_desc *alg, const coll_spec *spec, cs_error *err)
{
    memset(run, 0, sizeof *run);
    run->alg = alg;
    run->spec = *spec;
    int rc = 0;
    if (spec->coll != alg->coll)
        rc = cs_fail(err, "is an algorithm for %s, not %s", coll_name(alg->coll),
                     coll_name(spec->coll));
    else if (spec->P < ((alg->flags & ALG_ANY_P) ? 1 : 2))
        rc = cs_fail(err, "needs P >= %d ranks (got P=%d)", (alg->flags & ALG_ANY_P) ? 1 : 2,
                     spec->P);
    else if (coll_has_root(spec->coll) && (spec->root < 0 || spec->root >= spec->P))
        rc = cs_fail(err, "root %d is not a rank (allowed: 0..%d)", spec->root, spec->P - 1);
    else if (spec->coll == COLL_P2P &&
             (spec->dst < 0 || spec->dst >= spec->P || spec->dst == spec->root))
        rc = cs_fail(err, "p2p destination %d must be a rank in 0..%d other than the source %d",
                     spec->dst, spec->P - 1, spec->root);
    else if (spec->bytes < 0)
        rc = cs_fail(err, "negative vector size");
    else if (spec->ranks_per_node < 1 || spec->P % spec->ranks_per_node != 0)
        rc = cs_fail(err, "ranks per node %d must divide P=%d", spec->ranks_per_node, spec->P);
    else if (alg_check_params(alg, spec, err) < 0)
        rc = -1;
    else if (spec->workload && spec->coll != COLL_ALLTOALLV)
        rc = cs_fail(err, "a workload (block sizes per source and destination) is for alltoallv "
                          "only");
    else if (spec->workload && workload_ranks(spec->workload) != spec->P)
        rc = cs_fail(err, "the workload was made for P=%d ranks, not P=%d",
                     workload_ranks(spec->workload), spec->P);
    else {
        layout_init(&run->layout, spec->coll, spec->P, spec->root, spec->bytes, 1);
        if (spec->workload) { /* alltoallv: bytes of block s*P+d from the workload */
            run->layout.block_bytes_fn = workload_block_bytes;
            run->layout.bytes_ctx = spec->workload;
        }
        /* prepare() finds its own descriptor in *ctx on entry (see algorithm.h) */
        run->ctx = (void *)alg;
        rc = alg->prepare(&run->spec, &run->layout, &run->ctx, err);
        if (run->ctx == (void *)alg)
            run->ctx = NULL; /* no context set: NULL, as release() expects */
        run->layout.dst = spec->dst; /* prepare may have re-initialized the layout */
    }
    if (rc < 0) {
        cs_error_prefix(err, "%s %s", coll_name(alg->coll), alg->name);
        return -1;
    }
    return 0;
}

void alg_run_gen(const alg_run *run, int32_t rank, sched_builder *b)
{
    sb_begin_rank(b, rank);
    if (run->barrier) {
        sb_dissemination(b, run->spec.P, rank, 0);
        b->step_open = 0; /* the algorithm's first op opens a step of its own */
    }
    run->alg->gen_rank(&run->spec, run->ctx, rank, b);
    sb_end_rank(b);
}

void alg_run_release(alg_run *run)
{
    if (run->alg && run->alg->release && run->ctx)
        run->alg->release(run->ctx);
    run->ctx = NULL;
}

int require_pow2(const coll_spec *s, cs_error *err)
{
    if ((s->P & (s->P - 1)) != 0)
        return cs_fail(err, "requires P to be a power of two (got P=%d)", s->P);
    return 0;
}

int require_even(const coll_spec *s, cs_error *err)
{
    if (s->P % 2 != 0)
        return cs_fail(err, "requires an even P (got P=%d)", s->P);
    return 0;
}

int require_dims(const coll_spec *s, cs_error *err)
{
    if (s->ndims < 1)
        return cs_fail(err, "requires torus dimensions (dims=AxB..., product = P)");
    int64_t prod = 1;
    for (int i = 0; i < s->ndims; i++) {
        if (s->dims[i] < 1)
            return cs_fail(err, "dimension %d has size %d (must be >= 1)", i, s->dims[i]);
        prod *= s->dims[i];
    }
    if (prod != s->P)
        return cs_fail(err, "requires the product of the dimensions (%lld) to equal P=%d",
                       (long long)prod, s->P);
    return 0;
}
