/* check_spec.c - the YAML file of `collsim check` (see check.h and docs/check.md):
 *
 *   collective: allreduce
 *   algorithm: recursive_doubling      # or  import: my_allreduce.goal
 *   lua: my_algorithms.lua             # where `algorithm` may be defined (optional)
 *   ranks: "2..1024,pow2:..1048576"
 *   sizes: [1KiB, 1MiB]                # a list or one size
 *   full_up_to: 65536
 *   params: {radix: 4}
 *   topologies: ["torus dims=8x8", "platforms/lumi.yaml"]
 *   sim_ranks: [64]
 *   model: traffic
 *
 * Errors name path:line:column and the allowed keys.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <yaml.h>

#include "common/yaml_file.h"

#include "check/check.h"
#include "cli/cli.h" /* cli_parse_dims */
#include "common/units.h"

#define SPEC_KEYS "collective, algorithm, import, lua, ranks, sizes, full_up_to, params, dims, " \
                  "root, dst, ranks_per_node, topologies, sim_ranks, model"

void check_spec_init(check_spec *s)
{
    memset(s, 0, sizeof *s);
    coll_spec_init(&s->base, COLL_ALLREDUCE, 2, 1 << 20);
    s->full_up_to = 65536;
    snprintf(s->model, sizeof s->model, "traffic");
}

typedef struct spec_reader {
    yaml_document_t *doc;
    const char *path;
    cs_error *err;
    check_spec *s;
} spec_reader;

static int fail_node(spec_reader *r, yaml_node_t *n, const char *what)
{
    return cs_fail(r->err, "%s:%zu:%zu: %s", r->path, n->start_mark.line + 1,
                   n->start_mark.column + 1, what);
}

/* Prefixes an error from a parser with the node's position. */
static int fail_at(spec_reader *r, yaml_node_t *n, const char *key)
{
    cs_error_prefix(r->err, "%s:%zu:%zu: %s", r->path, n->start_mark.line + 1,
                    n->start_mark.column + 1, key);
    return -1;
}

static const char *scalar(yaml_node_t *n)
{
    return n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* A scalar or a sequence of scalars: calls fn on each. */
static int each_scalar(spec_reader *r, yaml_node_t *v, const char *key,
                       int (*fn)(spec_reader *, const char *, cs_error *))
{
    if (v->type == YAML_SCALAR_NODE)
        return fn(r, scalar(v), r->err) < 0 ? fail_at(r, v, key) : 0;
    if (v->type != YAML_SEQUENCE_NODE)
        return fail_node(r, v, "expected a value or a list of values");
    for (yaml_node_item_t *i = v->data.sequence.items.start; i < v->data.sequence.items.top; i++) {
        yaml_node_t *x = yaml_document_get_node(r->doc, *i);
        if (!scalar(x))
            return fail_node(r, x, "expected a value");
        if (fn(r, scalar(x), r->err) < 0)
            return fail_at(r, x, key);
    }
    return 0;
}

static int add_size(spec_reader *r, const char *text, cs_error *err)
{
    if (r->s->nsizes == CHECK_MAX_SIZES)
        return cs_fail(err, "at most %d sizes", CHECK_MAX_SIZES);
    r->s->have_size = 1;
    return parse_size(text, &r->s->sizes[r->s->nsizes++], err);
}

static int add_topology(spec_reader *r, const char *text, cs_error *err)
{
    if (r->s->ntopologies == CHECK_MAX_TOPOS)
        return cs_fail(err, "at most %d topologies", CHECK_MAX_TOPOS);
    snprintf(r->s->topologies[r->s->ntopologies++], sizeof r->s->topologies[0], "%s", text);
    return 0;
}

static int add_sim_ranks(spec_reader *r, const char *text, cs_error *err)
{
    if (r->s->nsim_ranks == CHECK_MAX_SIM_RANKS)
        return cs_fail(err, "at most %d rank counts", CHECK_MAX_SIM_RANKS);
    return parse_int_in(text, 2, INT32_MAX, "sim_ranks", &r->s->sim_ranks[r->s->nsim_ranks++],
                        err);
}

static int read_params(spec_reader *r, yaml_node_t *v)
{
    if (v->type != YAML_MAPPING_NODE)
        return fail_node(r, v, "params: expected a mapping name: value");
    for (yaml_node_pair_t *p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(r->doc, p->key);
        yaml_node_t *x = yaml_document_get_node(r->doc, p->value);
        if (!scalar(k) || !scalar(x))
            return fail_node(r, k, "params: expected name: value");
        if (coll_spec_set_param(&r->s->base, scalar(k), scalar(x), r->err) < 0)
            return fail_at(r, k, "params");
    }
    return 0;
}

/* One top-level key with a scalar value. */
static int read_scalar_key(spec_reader *r, const char *key, yaml_node_t *v)
{
    const char *val = scalar(v);
    check_spec *s = r->s;
    int64_t x;
    int rc = 0;
    if (!val)
        return fail_node(r, v, "expected a single value");
    if (strcmp(key, "collective") == 0) {
        rc = coll_from_name(val, &s->base.coll, r->err);
        s->have_coll = 1;
    } else if (strcmp(key, "algorithm") == 0) {
        snprintf(s->algorithm, sizeof s->algorithm, "%s", val);
    } else if (strcmp(key, "import") == 0) {
        snprintf(s->import, sizeof s->import, "%s", val);
    } else if (strcmp(key, "lua") == 0) {
        snprintf(s->lua, sizeof s->lua, "%s", val);
    } else if (strcmp(key, "ranks") == 0) {
        snprintf(s->ranks, sizeof s->ranks, "%s", val);
    } else if (strcmp(key, "full_up_to") == 0) {
        rc = parse_int_in(val, 0, INT32_MAX, "full_up_to", &s->full_up_to, r->err);
    } else if (strcmp(key, "dims") == 0) {
        s->base.ndims = 0;
        rc = cli_parse_dims(val, &s->base, r->err);
    } else if (strcmp(key, "root") == 0 || strcmp(key, "dst") == 0 ||
               strcmp(key, "ranks_per_node") == 0) {
        rc = parse_int_in(val, key[0] == 'r' && key[1] == 'a' ? 1 : 0, INT32_MAX, key, &x, r->err);
        int32_t *dst = key[0] == 'd' ? &s->base.dst
                       : key[1] == 'o' ? &s->base.root : &s->base.ranks_per_node;
        *dst = (int32_t)x;
    } else if (strcmp(key, "model") == 0) {
        snprintf(s->model, sizeof s->model, "%s", val);
    } else {
        return fail_node(r, v, "unknown key (allowed: " SPEC_KEYS ")");
    }
    return rc < 0 ? fail_at(r, v, key) : 0;
}

static int read_root(spec_reader *r)
{
    yaml_node_t *root = yaml_document_get_root_node(r->doc);
    if (!root || root->type != YAML_MAPPING_NODE)
        return cs_fail(r->err, "%s: expected a mapping with the keys " SPEC_KEYS, r->path);
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top;
         p++) {
        yaml_node_t *k = yaml_document_get_node(r->doc, p->key);
        yaml_node_t *v = yaml_document_get_node(r->doc, p->value);
        const char *key = scalar(k);
        int rc;
        if (!key)
            return fail_node(r, k, "expected a key");
        if (strcmp(key, "sizes") == 0) {
            r->s->nsizes = 0;
            rc = each_scalar(r, v, key, add_size);
        } else if (strcmp(key, "topologies") == 0) {
            r->s->ntopologies = 0;
            rc = each_scalar(r, v, key, add_topology);
        } else if (strcmp(key, "sim_ranks") == 0) {
            r->s->nsim_ranks = 0;
            rc = each_scalar(r, v, key, add_sim_ranks);
        } else if (strcmp(key, "params") == 0) {
            rc = read_params(r, v);
        } else if (v->type == YAML_SCALAR_NODE) {
            rc = read_scalar_key(r, key, v);
        } else {
            rc = fail_node(r, k, "unknown key or not a single value (allowed: " SPEC_KEYS ")");
        }
        if (rc < 0)
            return -1;
    }
    return 0;
}

int check_spec_load(const char *path, check_spec *s, cs_error *err)
{
    yaml_document_t doc;
    if (yaml_file_load(path, "the check spec", &doc, err) < 0)
        return -1;
    spec_reader r = {&doc, path, err, s};
    int rc = read_root(&r);
    yaml_document_delete(&doc);
    return rc;
}
