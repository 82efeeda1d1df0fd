/* registry.c - the table of built-in algorithm families and name lookup. */
#include "algorithms/registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/aliases.h"
#include "algorithms/families.h"
#include "common/util.h"

/* Every family table, in the order `collsim list` prints them. */
static const alg_desc *const families[] = {
    alg_family_binomial,
    alg_family_linear,
    alg_family_butterfly,
    alg_family_ring,
    alg_family_ring_ahead,
    alg_family_chain_pipeline,
    alg_family_bruck,
    alg_family_pairwise,
    alg_family_composite,
    alg_family_bcast_sag,
    alg_family_kautz,
    alg_family_twodfc,
    alg_family_p2p,
    alg_family_parlogna,
    alg_family_parlinna,
    alg_family_bine_tree,
    alg_family_bine_butterfly,
    alg_family_bine_alltoall,
    alg_family_bine_torus,
    alg_family_swing,
    alg_family_swing_partitioned,
    alg_family_rd_torus,
    alg_family_bucket,
    alg_family_hamiltonian,
};

enum { NFAMILIES = sizeof families / sizeof families[0] };

size_t registry_builtin_count(void)
{
    size_t n = 0;
    for (size_t f = 0; f < NFAMILIES; f++)
        for (const alg_desc *a = families[f]; a->name; a++)
            n++;
    return n;
}

const alg_desc *registry_builtin_at(size_t i)
{
    for (size_t f = 0; f < NFAMILIES; f++)
        for (const alg_desc *a = families[f]; a->name; a++)
            if (i-- == 0)
                return a;
    return NULL;
}

void alg_registry_init(alg_registry *r)
{
    memset(r, 0, sizeof *r);
}

void alg_registry_free(alg_registry *r)
{
    free(r->algs);
    memset(r, 0, sizeof *r);
}

static const alg_desc *find_in(const alg_registry *user, coll_kind coll, const char *name)
{
    if (user)
        for (size_t i = 0; i < user->n; i++)
            if (user->algs[i]->coll == coll && strcmp(user->algs[i]->name, name) == 0)
                return user->algs[i];
    size_t n = registry_builtin_count();
    for (size_t i = 0; i < n; i++) {
        const alg_desc *a = registry_builtin_at(i);
        if (a->coll == coll && strcmp(a->name, name) == 0)
            return a;
    }
    return NULL;
}

int alg_registry_add(alg_registry *r, const alg_desc *alg, cs_error *err)
{
    if (find_in(r, alg->coll, alg->name))
        return cs_fail(err, "algorithm '%s' for %s already exists", alg->name,
                       coll_name(alg->coll));
    VEC_RESERVE(r->algs, r->cap, r->n + 1);
    r->algs[r->n++] = alg;
    return 0;
}

const alg_desc *registry_find(const alg_registry *user, coll_kind coll, const char *name,
                              cs_error *err)
{
    if (alias_is_name(name)) { /* pico:NAME, libbine:NAME, ... (aliases.h) */
        const alg_alias *al = alias_find(coll, name, err);
        return al ? &al->desc : NULL;
    }
    const alg_desc *a = find_in(user, coll, name ? name : "");
    if (a)
        return a;
    char list[2048] = "";
    size_t n = registry_builtin_count();
    for (size_t i = 0; i < n; i++) {
        const alg_desc *b = registry_builtin_at(i);
        if (b->coll != coll)
            continue;
        size_t len = strlen(list);
        snprintf(list + len, sizeof list - len, "%s%s", len ? ", " : "", b->name);
    }
    if (user)
        for (size_t i = 0; i < user->n; i++) {
            if (user->algs[i]->coll != coll)
                continue;
            size_t len = strlen(list);
            snprintf(list + len, sizeof list - len, "%s%s", len ? ", " : "", user->algs[i]->name);
        }
    cs_fail(err, "unknown %s algorithm '%s' (allowed: %s)", coll_name(coll), name ? name : "",
            list[0] ? list : "none");
    return NULL;
}
