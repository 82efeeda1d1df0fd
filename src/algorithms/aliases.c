/* aliases.c - the alias table (reference variants under their authors' names) and the
 * alg_desc that runs an alias as its target algorithm (aliases.h).
 *
 * Sources are files of the PICO repository (github.com/HLC-Lab/pico, read at its July
 * 2025 snapshot): the tracer's patterns (tracer/algo_patterns.json), the patterns its
 * tracer/trace_communications.py writes in code (BCAST, REDUCE, SCATTER), and the libbine library
 * (the libbine/ sources, whose bcast_scatter_allgather is a port of Open MPI's). Each row was
 * derived by reading that source; tests/test_aliases.c pins every row's peers and bytes
 * at P = 8 and 16 against vectors written from the same source. The mpich: rows are MPICH's
 * intra-communicator algorithms (github.com/pmodels/mpich, src/mpi/coll/, read at commit
 * 6a79bf6575), named as its MPIR_CVAR_*_INTRA_ALGORITHM values; the vectors are for root
 * 0 and P a power of two (MPICH folds other P its own way, and roots its reduce's gather
 * by xor, not rotation).
 */
#include "algorithms/aliases.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/registry.h"
#include "common/util.h"

/* An alias run: the target, the spec with the alias's parameters, the target's context. */
typedef struct alias_run {
    const alg_desc *target;
    coll_spec spec;
    void *ctx;
} alias_run;

/* The target of a, and spec s with a's parameters set (a parameter the user set to
 * another value is an error). */
static int alias_target(const alg_alias *a, const coll_spec *s, const alg_desc **target,
                        coll_spec *out, cs_error *err)
{
    cs_error e2;
    if (!(*target = registry_find(NULL, a->desc.coll, a->algorithm, &e2)))
        return cs_fail(err, "alias %s is missing in this build: %s", a->desc.name, e2.msg);
    *out = *s;
    if (coll_spec_set_params(out, a->params, err) < 0)
        return -1;
    if (alg_check_params(*target, out, &e2) < 0)
        return cs_fail(err, "alias %s is missing in this build: %s %s %s: %s", a->desc.name,
                       coll_name(a->desc.coll), a->algorithm, a->params, e2.msg);
    return 0;
}

static int alias_prepare(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    const alg_alias *a = *ctx; /* alg_run_prepare passes the descriptor (algorithm.h) */
    alias_run *w = xcalloc(1, sizeof *w);
    if (alias_target(a, s, &w->target, &w->spec, err) < 0) {
        free(w);
        return -1;
    }
    w->ctx = (void *)w->target;
    if (w->target->prepare(&w->spec, l, &w->ctx, err) < 0) {
        cs_error_prefix(err, "%s %s", a->algorithm, a->params);
        free(w);
        return -1;
    }
    if (w->ctx == (void *)w->target)
        w->ctx = NULL;
    *ctx = w;
    return 0;
}

static void alias_gen(const coll_spec *s, const void *ctx, int32_t rank, sched_builder *b)
{
    (void)s;
    const alias_run *w = ctx;
    w->target->gen_rank(&w->spec, w->ctx, rank, b);
}

static void alias_release(void *ctx)
{
    alias_run *w = ctx;
    if (w->target->release && w->ctx)
        w->target->release(w->ctx);
    free(w);
}

#define ALIAS(coll, name, alg, params, source)                                               \
    {{coll, name, "alias of " alg " " params, "as " alg, NULL, alias_prepare, alias_gen,       \
      alias_release, 0},                                                                      \
     alg, params, source}

#define PICO_JSON "HLC-Lab/pico tracer/algo_patterns.json"
#define PICO_PY "HLC-Lab/pico tracer/trace_communications.py"
#define LIBBINE_BCAST "HLC-Lab/pico libbine/libbine_bcast.c"
#define LIBBINE_ALLREDUCE "HLC-Lab/pico libbine/libbine_allreduce.c"
#define MPICH(file) "pmodels/mpich src/mpi/coll/" file

static const alg_alias table[] = {
    /* ALLREDUCE: algo_patterns.json. ring: the json's allgather sends to r-1, libbine's
     * allreduce_ring to r+1 in both phases (collsim ring): the same pairs of ranks. */
    ALIAS(COLL_ALLREDUCE, "pico:ring", "ring", "", PICO_JSON),
    ALIAS(COLL_ALLREDUCE, "pico:recursive_doubling", "recursive_doubling", "", PICO_JSON),
    ALIAS(COLL_ALLREDUCE, "pico:bine_latency", "bine_latency", "", PICO_JSON),
    ALIAS(COLL_ALLREDUCE, "pico:rabenseifner", "rabenseifner", "order=nearest", PICO_JSON),
    ALIAS(COLL_ALLREDUCE, "pico:bine_bandwidth", "bine_bandwidth", "", PICO_JSON),
    ALIAS(COLL_ALLREDUCE, "libbine:allreduce_rabenseifner", "rabenseifner", "order=nearest",
          LIBBINE_ALLREDUCE),
    /* ALLTOALL */
    ALIAS(COLL_ALLTOALL, "pico:bruck", "bruck", "", PICO_JSON),
    ALIAS(COLL_ALLTOALL, "pico:bine", "bine", "", PICO_JSON),
    /* REDUCE_SCATTER */
    ALIAS(COLL_REDUCE_SCATTER, "pico:ring", "ring", "", PICO_JSON),
    ALIAS(COLL_REDUCE_SCATTER, "pico:distance_doubling", "recursive_doubling", "", PICO_JSON),
    ALIAS(COLL_REDUCE_SCATTER, "pico:bine_doubling", "bine", "strategy=permute", PICO_JSON),
    ALIAS(COLL_REDUCE_SCATTER, "pico:distance_halving", "recursive_halving", "", PICO_JSON),
    ALIAS(COLL_REDUCE_SCATTER, "pico:bine_halving", "bine", "strategy=two", PICO_JSON),
    /* ALLGATHER; ring as for allreduce (libbine's allgather_ring sends to r+1) */
    ALIAS(COLL_ALLGATHER, "pico:ring", "ring", "", PICO_JSON),
    ALIAS(COLL_ALLGATHER, "pico:distance_doubling", "recursive_doubling", "", PICO_JSON),
    ALIAS(COLL_ALLGATHER, "pico:bine_doubling", "bine", "strategy=two", PICO_JSON),
    ALIAS(COLL_ALLGATHER, "pico:distance_halving", "recursive_doubling", "order=halving",
          PICO_JSON),
    ALIAS(COLL_ALLGATHER, "pico:bine_halving", "bine", "strategy=permute", PICO_JSON),
    /* BCAST: the tracer's code (tree_coll_lat, coll_bdw: every bdw variant skips the send
     * back to the scattering parent) and libbine */
    ALIAS(COLL_BCAST, "pico:binomial_doubling", "binomial_doubling", "", PICO_PY),
    ALIAS(COLL_BCAST, "pico:binomial_halving", "binomial_halving", "", PICO_PY),
    ALIAS(COLL_BCAST, "pico:bine_doubling", "bine_doubling", "", PICO_PY),
    ALIAS(COLL_BCAST, "pico:bine_halving", "bine", "", PICO_PY),
    ALIAS(COLL_BCAST, "pico:bine_bdw_doubling_halving", "bine_scatter_allgather",
          "send_back=no", PICO_PY),
    ALIAS(COLL_BCAST, "pico:bine_bdw_halving_doubling", "bine_scatter_allgather",
          "scatter=halving send_back=no", PICO_PY),
    ALIAS(COLL_BCAST, "pico:binomial_bdw_doubling_halving", "scatter_allgather",
          "scatter=doubling send_back=no", PICO_PY),
    ALIAS(COLL_BCAST, "pico:binomial_bdw_halving_doubling", "scatter_allgather",
          "send_back=no", PICO_PY),
    /* REDUCE: the tracer's code, the BCAST trees and bdw pairs run backwards (every rank
     * sends in the reduce-scatter); its reduce names put the reduce-scatter's order first:
     * bdw_halving_doubling = coll_bdw(first_halving=False) = distance-doubling
     * reduce-scatter (1/2 to the nearest peer) + gather over the distance-doubling tree */
    ALIAS(COLL_REDUCE, "pico:binomial_doubling", "binomial_doubling", "", PICO_PY),
    ALIAS(COLL_REDUCE, "pico:binomial_halving", "binomial", "", PICO_PY),
    ALIAS(COLL_REDUCE, "pico:bine_doubling", "bine_doubling", "", PICO_PY),
    ALIAS(COLL_REDUCE, "pico:bine_halving", "bine", "", PICO_PY),
    ALIAS(COLL_REDUCE, "pico:bine_bdw_halving_doubling", "bine_rs_gather", "", PICO_PY),
    ALIAS(COLL_REDUCE, "pico:bine_bdw_doubling_halving", "bine_rs_gather", "order=halving",
          PICO_PY),
    ALIAS(COLL_REDUCE, "pico:binomial_bdw_halving_doubling", "rabenseifner", "order=nearest",
          PICO_PY),
    ALIAS(COLL_REDUCE, "pico:binomial_bdw_doubling_halving", "rabenseifner", "", PICO_PY),
    /* SCATTER: the tracer's code (scatter: the BCAST trees, 1/2^(s+1) of n at step s) */
    ALIAS(COLL_SCATTER, "pico:binomial_doubling", "binomial_doubling", "", PICO_PY),
    ALIAS(COLL_SCATTER, "pico:binomial_halving", "binomial", "", PICO_PY),
    ALIAS(COLL_SCATTER, "pico:bine_doubling", "bine_doubling", "", PICO_PY),
    ALIAS(COLL_SCATTER, "pico:bine_halving", "bine", "", PICO_PY),
    ALIAS(COLL_BCAST, "libbine:bcast_bine_lat", "bine_doubling", "", LIBBINE_BCAST),
    ALIAS(COLL_BCAST, "libbine:bcast_bine_lat_reversed", "bine", "", LIBBINE_BCAST),
    ALIAS(COLL_BCAST, "libbine:bcast_bine_bdw_static", "bine_scatter_allgather", "send_back=no",
          LIBBINE_BCAST),
    ALIAS(COLL_BCAST, "libbine:bcast_scatter_allgather", "scatter_allgather", "",
          LIBBINE_BCAST),
    ALIAS(COLL_BCAST, "ompi:scatter_allgather", "scatter_allgather", "",
          LIBBINE_BCAST " (port of Open MPI's ompi_coll_base_bcast_intra_scatter_allgather)"),
    /* MPICH */
    ALIAS(COLL_ALLREDUCE, "mpich:recursive_doubling", "recursive_doubling", "",
          MPICH("allreduce/allreduce_intra_recursive_doubling.c")),
    ALIAS(COLL_ALLREDUCE, "mpich:reduce_scatter_allgather", "rabenseifner", "order=nearest",
          MPICH("allreduce/allreduce_intra_reduce_scatter_allgather.c")),
    ALIAS(COLL_ALLREDUCE, "mpich:ring", "ring", "", MPICH("allreduce/allreduce_intra_ring.c")),
    ALIAS(COLL_ALLGATHER, "mpich:recursive_doubling", "recursive_doubling", "",
          MPICH("allgather/allgather_intra_recursive_doubling.c")),
    ALIAS(COLL_ALLGATHER, "mpich:ring", "ring", "", MPICH("allgather/allgather_intra_ring.c")),
    ALIAS(COLL_ALLGATHER, "mpich:brucks", "bruck", "", MPICH("allgather/allgather_intra_brucks.c")),
    ALIAS(COLL_ALLTOALL, "mpich:brucks", "bruck", "", MPICH("alltoall/alltoall_intra_brucks.c")),
    ALIAS(COLL_ALLTOALL, "mpich:pairwise", "xor", "", /* P a power of two; else r+i (pairwise) */
          MPICH("alltoall/alltoall_intra_pairwise.c")),
    ALIAS(COLL_REDUCE_SCATTER, "mpich:recursive_halving", "recursive_halving", "",
          MPICH("reduce_scatter/reduce_scatter_intra_recursive_halving.c")),
    ALIAS(COLL_REDUCE_SCATTER, "mpich:pairwise", "pairwise", "",
          MPICH("reduce_scatter/reduce_scatter_intra_pairwise.c")),
    ALIAS(COLL_BCAST, "mpich:binomial", "binomial_halving", "",
          MPICH("bcast/bcast_intra_binomial.c")),
    ALIAS(COLL_BCAST, "mpich:scatter_recursive_doubling_allgather", "scatter_allgather", "",
          MPICH("bcast/bcast_intra_scatter_recursive_doubling_allgather.c")),
    ALIAS(COLL_BCAST, "mpich:scatter_ring_allgather", "scatter_ring_allgather", "",
          MPICH("bcast/bcast_intra_scatter_ring_allgather.c")),
    ALIAS(COLL_REDUCE, "mpich:binomial", "binomial", "", MPICH("reduce/reduce_intra_binomial.c")),
    ALIAS(COLL_REDUCE, "mpich:reduce_scatter_gather", "rabenseifner", "order=nearest",
          MPICH("reduce/reduce_intra_reduce_scatter_gather.c")),
    ALIAS(COLL_GATHER, "mpich:binomial", "binomial", "", MPICH("gather/gather_intra_binomial.c")),
    ALIAS(COLL_SCATTER, "mpich:binomial", "binomial", "", MPICH("scatter/scatter_intra_binomial.c")),
    /* Swing (De Sensi et al., NSDI'24; shared/reference/swing.md): the allgather and
     * reduce-scatter halves of its bandwidth-optimal allreduce, one port (one ring) */
    ALIAS(COLL_ALLGATHER, "swing:allgather", "swing", "ports=1",
          "Swing paper (NSDI'24), Sec. 3.1.1"),
    ALIAS(COLL_REDUCE_SCATTER, "swing:reduce_scatter", "swing", "ports=1",
          "Swing paper (NSDI'24), Sec. 3.1.1"),
};

enum { NALIASES = sizeof table / sizeof table[0] };

static const char *const prefixes[] = {"pico:", "libbine:", "mpich:", "ompi:", "swing:"};

int alias_is_name(const char *name)
{
    for (size_t i = 0; name && i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0)
            return 1;
    return 0;
}

size_t alias_count(void)
{
    return NALIASES;
}

const alg_alias *alias_at(size_t i)
{
    return i < NALIASES ? &table[i] : NULL;
}

int alias_check(const alg_alias *a, cs_error *err)
{
    coll_spec s, out;
    const alg_desc *target;
    coll_spec_init(&s, a->desc.coll, 2, 0);
    return alias_target(a, &s, &target, &out, err);
}

const alg_alias *alias_find(coll_kind coll, const char *name, cs_error *err)
{
    char list[2048] = "";
    for (size_t i = 0; i < NALIASES; i++) {
        const alg_alias *a = &table[i];
        if (a->desc.coll != coll)
            continue;
        if (strcmp(a->desc.name, name) == 0)
            return alias_check(a, err) < 0 ? NULL : a;
        size_t len = strlen(list);
        snprintf(list + len, sizeof list - len, "%s%s", len ? ", " : "", a->desc.name);
    }
    cs_fail(err, "unknown %s alias '%s' (allowed: %s; collsim list --aliases)", coll_name(coll),
            name, list[0] ? list : "none");
    return NULL;
}
