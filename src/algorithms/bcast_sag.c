/* bcast_sag.c - broadcasts as a scatter followed by an allgather (large vectors), binomial
 * and Bine, in both orders, with or without the send back to the scattering parent.
 *
 *   bcast scatter_allgather       binomial scatter + recursive doubling allgather
 *     scatter=halving (default)   root sends to P/2 first (contiguous subtrees), allgather
 *                                 distance-doubling (peer v xor 2^j): MPICH, Open MPI
 *     scatter=doubling            root sends to 1 first (strided subtrees), allgather
 *                                 distance-halving (peer v xor 2^(s-1-j))
 *   bcast bine_scatter_allgather  Bine scatter + Bine allgather
 *     scatter=doubling (default)  distance-doubling Bine tree on nu-positions, allgather
 *                                 distance-halving (peer pi(v, s-1-j))
 *     scatter=halving             distance-halving Bine tree (circular ranges), allgather
 *                                 distance-doubling (peer pi(v, j))
 *
 *   send_back=yes (default)       every allgather step is an exchange both ways
 *   send_back=no                  allgather step j mirrors scatter step t = s-1-j: a rank
 *                                 that received from its peer at step t sends nothing back
 *                                 (the peer held those blocks before scattering them), and
 *                                 the peer receives nothing; libbine's
 *                                 bcast_bine_bdw_static, and how PICO's tracer counts all
 *                                 four of its bdw broadcasts. P must be a power of two.
 *
 * The scatter's tree and the allgather's butterfly use the same peer at scatter step t and
 * reduce-scatter step t, so the allgather undoes the scatter step by step. The vector is
 * cut into P pieces. P not a power of two folds (butterfly.h): the binomial scatter runs
 * over every rank and the odd rank of each pair hands its piece in; the Bine tree runs
 * over the participants and the result goes out to the odd ranks at the end.
 */
#include <stdlib.h>

#include "algorithms/bine_patterns.h"
#include "algorithms/families.h"
#include "common/util.h"

typedef struct sag_ctx {
    int bine;      /* Bine trees and butterflies (else binomial / recursive doubling) */
    int send_back; /* 0: libbine's static variant (see above) */
    binomial_tree bt;
    bine_tree tree;
    tree_pattern tp;
    chunk_map plain;  /* binomial scatter: every rank */
    chunk_map folded; /* the butterfly's participants (and the Bine tree's) */
    rd_pattern_ctx rc;
    bine_bfly bf;
    bfly_pattern pat;
    bfly_remap rm;
} sag_ctx;

static const alg_param_desc binomial_params[] = {
    {"scatter", PARAM_CHOICE, "halving", "halving|doubling",
     "binomial scatter order: root sends to P/2 first (halving) or to 1 first (doubling)"},
    {"send_back", PARAM_CHOICE, "yes", "yes|no",
     "no: the allgather sends nothing back to the scattering parent (P power of two)"},
    {NULL, 0, NULL, NULL, NULL},
};

static const alg_param_desc bine_params[] = {
    {"scatter", PARAM_CHOICE, "doubling", "doubling|halving",
     "Bine scatter order: distance-doubling (nu-positions) or distance-halving tree"},
    {"send_back", PARAM_CHOICE, "yes", "yes|no",
     "no: the allgather sends nothing back to the scattering parent (libbine "
     "bcast_bine_bdw_static; P power of two)"},
    {NULL, 0, NULL, NULL, NULL},
};

static void release(void *ctx)
{
    sag_ctx *c = ctx;
    bine_tree_free(&c->tree);
    bine_bfly_free(&c->bf);
    free(c);
}

/* Reads scatter (0 = the family's default order) and send_back; checks P for send_back=no. */
static int read_params(const alg_param_desc *params, const coll_spec *s, int *scatter,
                       int *send_back, cs_error *err)
{
    int sb;
    if (alg_param_choice(params, s, "scatter", scatter, err) < 0 ||
        alg_param_choice(params, s, "send_back", &sb, err) < 0)
        return -1;
    *send_back = sb == 0;
    if (!*send_back && (s->P & (s->P - 1)) != 0)
        return cs_fail(err, "send_back=no needs P a power of two (P = %d): the skipped "
                            "sends are those of libbine's power-of-two schedule", (int)s->P);
    return 0;
}

static sag_ctx *new_ctx(const coll_spec *s, sched_layout *l, int bine, int send_back)
{
    sag_ctx *c = xcalloc(1, sizeof *c);
    c->bine = bine;
    c->send_back = send_back;
    layout_init(l, s->coll, s->P, s->root, s->bytes, s->P);
    chunk_map_plain(&c->plain, s->P, s->root, 0, 1);
    chunk_map_folded(&c->folded, s->P, s->root, 0, 1);
    return c;
}

static int prepare_binomial(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    int doubling, send_back;
    if (read_params(binomial_params, s, &doubling, &send_back, err) < 0)
        return -1;
    sag_ctx *c = new_ctx(s, l, 0, send_back);
    binomial_tree_init(&c->bt, s->P);
    int32_t n = chunk_map_participants(&c->folded);
    if (doubling) {
        binomial_doubling_pattern(&c->tp, &c->bt);
        rd_doubling_pattern(&c->pat, &c->rc, n);
    } else {
        binomial_halving_pattern(&c->tp, &c->bt);
        rd_halving_pattern(&c->pat, &c->rc, n);
    }
    *ctx = c;
    return 0;
}

static int prepare_bine(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    int halving, send_back;
    if (read_params(bine_params, s, &halving, &send_back, err) < 0)
        return -1;
    sag_ctx *c = new_ctx(s, l, 1, send_back);
    int32_t n = chunk_map_participants(&c->folded);
    if (halving) {
        bine_dh_tree_init(&c->tree, n);
        bine_dh_tree_pattern(&c->tp, &c->tree);
        bine_halving_bfly(&c->pat, &c->bf, n);
    } else {
        bine_dd_tree_init(&c->tree, n);
        bine_dd_tree_pattern(&c->tp, &c->tree);
        bine_remap_bfly(&c->pat, &c->rm, &c->bf, n);
    }
    *ctx = c;
    return 0;
}


/* 1 when v received from q at scatter step i. */
static int scattered_to(const tree_pattern *tp, int32_t v, int32_t q, int i)
{
    return tp->recv_step(tp->ctx, v) == i && tp->parent(tp->ctx, v) == q;
}

/* The allgather of send_back=no (P a power of two: every rank is a participant). */
static void allgather_static(sched_builder *b, const sag_ctx *c, int32_t r)
{
    const bfly_pattern *p = &c->pat;
    const chunk_map *m = &c->folded;
    int32_t v = chunk_map_participant(m, r);
    range_list parts = {0}, blocks = {0};
    for (int j = 0; j < p->nsteps; j++) {
        int i = p->nsteps - 1 - j; /* the scatter step this one mirrors */
        int32_t q = p->peer(p->ctx, v, i);
        sb_step(b);
        if (!scattered_to(&c->tp, v, q, i)) { /* what v kept: q's reduce-scatter set */
            bfly_rule_blocks(p, m, q, i, &parts, &blocks);
            sb_send(b, chunk_map_rank(m, q), blocks.r, (uint32_t)blocks.n);
        }
        if (!scattered_to(&c->tp, q, v, i)) {
            bfly_rule_blocks(p, m, v, i, &parts, &blocks);
            sb_recv(b, chunk_map_rank(m, q), blocks.r, (uint32_t)blocks.n, 0);
        }
    }
    rl_free(&parts);
    rl_free(&blocks);
}

static void gen_bcast(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)s;
    const sag_ctx *c = ctx;
    if (!c->send_back) { /* P a power of two: no folds */
        tree_scatter(b, &c->tp, &c->folded, r);
        allgather_static(b, c, r);
        return;
    }
    if (c->bine) {
        tree_scatter(b, &c->tp, &c->folded, r);
        bfly_ag_core(b, &c->pat, &c->folded, r);
        bfly_fold_out(b, &c->folded, r, FOLD_OUT_WHOLE);
        return;
    }
    tree_scatter(b, &c->tp, &c->plain, r);
    bfly_fold_in(b, &c->folded, r, FOLD_IN_OWN);
    bfly_ag_core(b, &c->pat, &c->folded, r);
    bfly_fold_out(b, &c->folded, r, FOLD_OUT_ALL_CHUNKS);
}

const alg_desc alg_family_bcast_sag[] = {
    {COLL_BCAST, "scatter_allgather",
     "binomial scatter + recursive doubling allgather (MPICH large vectors)",
     "any P >= 2 (the allgather folds to a power of two; send_back=no: P power of two)",
     binomial_params, prepare_binomial, gen_bcast, release, 0},
    {COLL_BCAST, "bine_scatter_allgather",
     "Bine distance-doubling scatter + distance-halving allgather (large vectors)",
     "any P >= 2 (folds to a power of two; send_back=no: P power of two)", bine_params,
     prepare_bine, gen_bcast, release, 0},
    {0},
};
