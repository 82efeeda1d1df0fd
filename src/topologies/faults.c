/* faults.c - reading fail_links / degrade_links / fault_seed and applying them to a
 * topology (faults.h). Rerouting and reachability are in fault_route.c. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "topologies/faults.h"
#include "topologies/topology.h"

/* Folded into the platform cache key of faulty topologies (cache.c): bump it when
 * fault_emit.c or the rerouting changes what is emitted. */
#define TOPO_FAULT_PLATFORM_FORMAT "collsim-faults-2"

#define ITEMS_HELP "l<id>, A-B (nodes h<id>/s<id>), torus_link_from_A_to_B, CLASS:N or " \
                   "CLASS:N%% (CLASS host, local, global or random), seed=S"

int topo_is_fault_key(const char *key)
{
    return strcmp(key, "fail_links") == 0 || strcmp(key, "degrade_links") == 0 ||
           strcmp(key, "fault_seed") == 0;
}

static int parse_seed(const char *text, const char *key, uint64_t *out, cs_error *err)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (!*text || *end || errno || text[0] == '-')
        return cs_fail(err, "%s: bad seed '%s' (allowed: an integer 0..2^64-1)", key, text);
    *out = v;
    return 0;
}

int topo_fault_keys_take(kv_list *kv, topo_fault_spec *fs, cs_error *err)
{
    memset(fs, 0, sizeof *fs);
    fs->seed = 1;
    int j = 0;
    for (int i = 0; i < kv->n; i++) {
        const kv_item *it = &kv->items[i];
        if (strcmp(it->key, "fail_links") == 0)
            snprintf(fs->fail, sizeof fs->fail, "%s", it->value);
        else if (strcmp(it->key, "degrade_links") == 0)
            snprintf(fs->degrade, sizeof fs->degrade, "%s", it->value);
        else if (strcmp(it->key, "fault_seed") == 0) {
            if (parse_seed(it->value, "fault_seed", &fs->seed, err) < 0)
                return -1;
            fs->seed_set = 1;
        } else
            kv->items[j++] = *it;
    }
    kv->n = j;
    if (strcmp(fs->fail, "none") == 0) /* sweeps list "none" beside real specs */
        fs->fail[0] = '\0';
    if (strcmp(fs->degrade, "none") == 0)
        fs->degrade[0] = '\0';
    return 0;
}

int topo_fault_spec_active(const topo_fault_spec *fs)
{
    return fs->fail[0] || fs->degrade[0];
}

void topo_faults_free(topo_faults *f)
{
    if (!f)
        return;
    free(f->failed);
    free(f->factor);
    free(f->comp);
    for (int32_t v = 0; f->tree && v < f->ntree; v++)
        free(f->tree[v]);
    free(f->tree);
    for (int32_t v = 0; f->hops_dist && v < f->hops_nv; v++)
        free(f->hops_dist[v]);
    free(f->hops_dist);
    free(f);
}

int topo_fault_table(const topology *t)
{
    return t->faults && t->faults->table;
}

int topo_link_failed(const topology *t, int64_t l)
{
    return t->faults && t->faults->failed[l];
}

double topo_link_factor(const topology *t, int64_t l)
{
    return t->faults && !t->faults->failed[l] ? t->faults->factor[l] : 1.0;
}

/* ---- one item ------------------------------------------------------------------------------ */

/* "h12" / "s40" (draw's node names: node ids) -> node id, or -1. */
static int32_t node_by_name(const topology *t, const char *s, size_t n)
{
    if (n < 2 || (s[0] != 'h' && s[0] != 's'))
        return -1;
    int64_t v = 0;
    for (size_t i = 1; i < n; i++) {
        if (!isdigit((unsigned char)s[i]) || v > INT32_MAX / 10)
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    if (v >= topo_nnodes(t) || (s[0] == 'h') != topo_is_host(t, (int32_t)v))
        return -1;
    return (int32_t)v;
}

/* The link between nodes a and b (either direction), or -1. */
static int64_t link_between(const topology *t, int32_t a, int32_t b)
{
    for (int64_t k = t->inc_first[a]; k < t->inc_first[a + 1]; k++)
        if (t->inc_node[k] == b)
            return t->inc_link[k];
    return -1;
}

/* Strips a trailing _UP / _DOWN (a direction of the link: the whole link is meant). */
static size_t strip_dir(const char *s, size_t n)
{
    if (n > 3 && strncmp(s + n - 3, "_UP", 3) == 0)
        return n - 3;
    if (n > 5 && strncmp(s + n - 5, "_DOWN", 5) == 0)
        return n - 5;
    return n;
}

/* A named link: l<id>, A-B, torus_link_from_A_to_B. Returns its id or -1. */
static int64_t named_link(const topology *t, const char *item)
{
    size_t n = strip_dir(item, strlen(item));
    char buf[160];
    snprintf(buf, sizeof buf, "%.*s", (int)n, item);
    int a, b, used = 0;
    if (sscanf(buf, "torus_link_from_%d_to_%d%n", &a, &b, &used) == 2 && (size_t)used == n) {
        if (a < 0 || b < 0 || a >= topo_nnodes(t) || b >= topo_nnodes(t))
            return -1;
        return link_between(t, a, b);
    }
    if (buf[0] == 'l' && n > 1) {
        char *end;
        long long id = strtoll(buf + 1, &end, 10);
        if (*end == '\0' && isdigit((unsigned char)buf[1]))
            return id >= 0 && id < t->nlinks ? id : -1;
    }
    const char *dash = strchr(buf, '-');
    if (!dash)
        return -1;
    int32_t u = node_by_name(t, buf, (size_t)(dash - buf));
    int32_t v = node_by_name(t, dash + 1, strlen(dash + 1));
    return u < 0 || v < 0 ? -1 : link_between(t, u, v);
}

/* CLASS:N or CLASS:N%: how many of `count` candidates. */
static int parse_count(const char *key, const char *item, const char *num, int64_t count,
                       int64_t *n, cs_error *err)
{
    char *end;
    errno = 0;
    double v = strtod(num, &end);
    int pct = *end == '%';
    if (end == num || errno || (pct ? end[1] != '\0' : *end != '\0') || !(v > 0) ||
        v > 1e15 || (!pct && v != floor(v)))
        return cs_fail(err, "%s: bad count in '%s' (allowed: N, a whole number of links, or "
                            "N%%, a percentage in (0, 100])", key, item);
    if (pct && v > 100)
        return cs_fail(err, "%s: '%s' asks for more than 100%% of the links", key, item);
    *n = pct ? (int64_t)floor(v / 100.0 * (double)count + 0.5) : (int64_t)v;
    if (pct && *n < 1)
        *n = 1;
    if (count == 0)
        return cs_fail(err, "%s: '%s': this network has no such links", key, item);
    if (*n > count)
        return cs_fail(err, "%s: '%s' asks for %lld links but the network has %lld of that "
                            "class (allowed: 1..%lld, or a percentage)",
                       key, item, (long long)*n, (long long)count, (long long)count);
    return 0;
}

/* CLASS:N[%]: marks N links of the class (random: network links) drawn by a seeded
 * shuffle of the candidates in id order. */
static int pick_class(const topology *t, const char *key, const char *item, uint64_t seed,
                      int salt, uint8_t *mark, cs_error *err)
{
    const char *colon = strchr(item, ':');
    char cls[16];
    snprintf(cls, sizeof cls, "%.*s", (int)(colon - item < 15 ? colon - item : 15), item);
    int want = -1, random_any = strcmp(cls, "random") == 0;
    for (int c = 0; c < LINK__COUNT; c++)
        if (strcmp(cls, link_class_name((link_class)c)) == 0)
            want = c;
    if (want < 0 && !random_any)
        return cs_fail(err, "%s: unknown class '%s' in '%s' (allowed: host, local, global, "
                            "random)", key, cls, item);
    int64_t *cand = xmalloc((size_t)(t->nlinks ? t->nlinks : 1) * sizeof *cand), count = 0, n;
    for (int64_t i = 0; i < t->nlinks; i++)
        if (random_any ? t->links[i].cls != LINK_HOST : t->links[i].cls == want)
            cand[count++] = i;
    if (parse_count(key, item, colon + 1, count, &n, err) < 0) {
        free(cand);
        return -1;
    }
    uint64_t state = mix64(seed ^ ((uint64_t)salt * 0x9E3779B97F4A7C15ULL));
    for (int64_t i = 0; i < n; i++) {
        state = mix64(state + 0x9E3779B97F4A7C15ULL);
        int64_t j = i + (int64_t)(state % (uint64_t)(count - i));
        int64_t tmp = cand[i];
        cand[i] = cand[j];
        cand[j] = tmp;
        mark[cand[i]] = 1;
    }
    free(cand);
    return 0;
}

/* Marks every link a SPEC names (comma list). `salt` separates the random streams of
 * fail_links and degrade_links. */
static int select_links(const topology *t, const char *key, const char *spec, uint64_t seed,
                        int salt, uint8_t *mark, cs_error *err)
{
    char buf[160];
    snprintf(buf, sizeof buf, "%s", spec);
    char *save = NULL;
    int items = 0;
    for (char *it = strtok_r(buf, ",", &save); it; it = strtok_r(NULL, ",", &save), salt += 7) {
        if (strncmp(it, "seed=", 5) == 0)
            continue; /* read by topo_faults_apply */
        items++;
        if (strchr(it, ':')) {
            if (pick_class(t, key, it, seed, salt, mark, err) < 0)
                return -1;
            continue;
        }
        int64_t id = named_link(t, it);
        if (id < 0)
            return cs_fail(err, "%s: no link '%s' in this network (links l0..l%lld; allowed "
                                "items: " ITEMS_HELP ")",
                           key, it, (long long)t->nlinks - 1);
        mark[id] = 1;
    }
    if (items == 0)
        return cs_fail(err, "%s: no link given in '%s' (allowed items: " ITEMS_HELP ")", key,
                       spec);
    return 0;
}

/* seed=S items of a spec override fault_seed (the same value twice is fine). */
static int spec_seed(const char *key, const char *spec, const topo_fault_spec *fs,
                     uint64_t *seed, int *set, cs_error *err)
{
    char buf[160];
    snprintf(buf, sizeof buf, "%s", spec);
    char *save = NULL;
    for (char *it = strtok_r(buf, ",", &save); it; it = strtok_r(NULL, ",", &save)) {
        if (strncmp(it, "seed=", 5) != 0)
            continue;
        uint64_t s;
        if (parse_seed(it + 5, key, &s, err) < 0)
            return -1;
        if ((fs->seed_set || *set) && s != *seed)
            return cs_fail(err, "%s: seed=%s differs from fault_seed=%llu (give one seed)", key,
                           it + 5, (unsigned long long)*seed);
        *seed = s;
        *set = 1;
    }
    return 0;
}

/* ---- applying ----------------------------------------------------------------------------- */

/* "SPEC:FACTOR" -> SPEC (in spec) and FACTOR. */
static int split_degrade(const char *text, char *spec, size_t n, double *factor, cs_error *err)
{
    const char *colon = strrchr(text, ':');
    char *end;
    if (colon) {
        errno = 0;
        *factor = strtod(colon + 1, &end);
    }
    if (!colon || colon == text || end == colon + 1 || *end || errno)
        return cs_fail(err, "degrade_links: expected SPEC:FACTOR in '%s' (e.g. "
                            "degrade_links=global:10%%:0.5 or l3:0.25; FACTOR in (0, 1])",
                       text);
    if (!(*factor > 0 && *factor <= 1))
        return cs_fail(err, "degrade_links: factor %s in '%s' is out of range (allowed: "
                            "0 < FACTOR <= 1: the bandwidth is multiplied by it)",
                       colon + 1, text);
    snprintf(spec, n, "%.*s", (int)(colon - text), text);
    return 0;
}

/* " degrade_links=.. fail_links=.. fault_seed=.." into the canonical params and hash. */
static void fold_params(topology *t, const topo_fault_spec *fs, uint64_t seed)
{
    char extra[600] = "";
    size_t len = 0;
    if (fs->degrade[0])
        len += (size_t)snprintf(extra + len, sizeof extra - len, " degrade_links=%s", fs->degrade);
    if (fs->fail[0])
        len += (size_t)snprintf(extra + len, sizeof extra - len, " fail_links=%s", fs->fail);
    snprintf(extra + len, sizeof extra - len, " fault_seed=%llu", (unsigned long long)seed);
    size_t plen = strlen(t->params);
    snprintf(t->params + plen, sizeof t->params - plen, "%s", extra);
    uint64_t h = t->params_hash;
    /* the layout of fault platforms has its own tag: a new layout never reuses a file */
    char tag[64];
    snprintf(tag, sizeof tag, "%s %d", TOPO_FAULT_PLATFORM_FORMAT, t->faults->table);
    for (const char *c = tag; *c; c++)
        h = (h ^ (uint8_t)*c) * 0x100000001b3ULL;
    for (const char *c = extra; *c; c++)
        h = (h ^ (uint8_t)*c) * 0x100000001b3ULL;
    t->params_hash = mix64(h);
}

int topo_faults_apply(topology *t, const topo_fault_spec *fs, cs_error *err)
{
    if (!topo_fault_spec_active(fs))
        return 0;
    if (t->ext)
        return cs_fail(err, "fail_links / degrade_links apply to generated topologies and "
                            "presets, not to an external platform");
    uint64_t seed = fs->seed;
    int set = 0;
    if (spec_seed("fail_links", fs->fail, fs, &seed, &set, err) < 0 ||
        spec_seed("degrade_links", fs->degrade, fs, &seed, &set, err) < 0)
        return -1;
    size_t L = (size_t)(t->nlinks ? t->nlinks : 1);
    topo_faults *f = xcalloc(1, sizeof *f);
    f->failed = xcalloc(L, 1);
    f->factor = xmalloc(L * sizeof *f->factor);
    f->base_routing = t->routing;
    f->ncomp = 1;
    for (size_t i = 0; i < L; i++)
        f->factor[i] = 1.0;
    uint8_t *mark = xcalloc(L, 1);
    double factor = 1;
    char dspec[160];
    int rc = 0;
    if (fs->fail[0])
        rc = select_links(t, "fail_links", fs->fail, seed, 1, f->failed, err);
    if (rc == 0 && fs->degrade[0])
        rc = split_degrade(fs->degrade, dspec, sizeof dspec, &factor, err) < 0
                 ? -1 : select_links(t, "degrade_links", dspec, seed, 2, mark, err);
    for (int64_t i = 0; rc == 0 && i < t->nlinks; i++) {
        f->nfailed += f->failed[i];
        if (mark[i] && !f->failed[i]) {
            f->factor[i] = factor;
            t->links[i].bw *= factor;
            f->ndegraded++;
        }
    }
    free(mark);
    t->faults = f; /* topo_free frees it from now on */
    if (rc < 0)
        return -1;
    if (topo_fault_reroute(t, err) < 0)
        return -1;
    fold_params(t, fs, seed);
    return 0;
}
