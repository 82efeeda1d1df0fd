/* test_aliases.c - every alias (`collsim list --aliases`) against its source: for P = 8
 * and 16, the peer and bytes of every send of every rank at every communication step
 * equal vectors written here by hand from the PICO / libbine source the alias names;
 * then the alias mechanism (lookup, errors, missing targets) and a planted bug.
 *
 * A "communication step" is a step of the schedule in which some rank sends (local copy
 * steps, e.g. Bine's permutation or Bruck's rotation, carry no message); bytes to the same
 * peer in one step are summed (a strategy may cut one exchange into several messages).
 * n is the vector size, k = log2 P, rank r, step s. fi(r, s) is the tracer's peer
 * function (tracer/trace_communications.py: rhos = 1, -1, 3, -5, 11, ...; an even rank
 * adds rho[s], an odd one subtracts it, modulo P), the same as libbine's pi().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/aliases.h"
#include "algorithms/registry.h"
#include "testutil.h"

/* ---- message lists ---------------------------------------------------------------- */

typedef struct msg {
    int k, r, peer; /* communication step, sender, receiver */
    int64_t bytes;
} msg;

typedef struct msgs {
    msg *m;
    size_t n, cap;
} msgs;

static void add(msgs *l, int k, int r, int peer, int64_t bytes)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 256;
        l->m = realloc(l->m, l->cap * sizeof *l->m);
    }
    l->m[l->n++] = (msg){k, r, peer, bytes};
}

static int cmp_msg(const void *a, const void *b)
{
    const msg *x = a, *y = b;
    if (x->k != y->k)
        return x->k < y->k ? -1 : 1;
    if (x->r != y->r)
        return x->r < y->r ? -1 : 1;
    return x->peer < y->peer ? -1 : x->peer > y->peer;
}

/* Sorts and sums the bytes of equal (k, r, peer). */
static void normalize(msgs *l)
{
    qsort(l->m, l->n, sizeof *l->m, cmp_msg);
    size_t o = 0;
    for (size_t i = 0; i < l->n; i++) {
        if (o > 0 && cmp_msg(&l->m[o - 1], &l->m[i]) == 0)
            l->m[o - 1].bytes += l->m[i].bytes;
        else
            l->m[o++] = l->m[i];
    }
    l->n = o;
}

/* ---- the schedule's sends ------------------------------------------------------------ */

typedef struct walk {
    msgs raw;      /* k = schedule step */
    int used[512]; /* steps with a send */
} walk;

static void on_op(void *ctx, int32_t rank, uint32_t step, const sched_op *op,
                  const blk_range *ranges)
{
    (void)ranges;
    walk *w = ctx;
    if (op->kind != OP_SEND || step >= 512)
        return;
    w->used[step] = 1;
    add(&w->raw, (int)step, rank, op->peer, op->bytes);
}

/* The sends of `name` (an alias or an algorithm) for P ranks, n bytes, root 0; steps
 * renumbered over the communication steps. Returns -1 when it does not prepare. */
static int actual(coll_kind coll, const char *name, int P, int64_t n, msgs *out)
{
    cs_error err;
    const alg_desc *a = registry_find(NULL, coll, name, &err);
    if (!a)
        return -1;
    coll_spec s;
    coll_spec_init(&s, coll, P, n);
    alg_run run;
    if (alg_run_prepare(&run, a, &s, &err) < 0) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    walk w = {0};
    test_walk_ops(&run, on_op, &w);
    alg_run_release(&run);
    int renum[512], k = 0;
    for (int i = 0; i < 512; i++)
        renum[i] = w.used[i] ? k++ : -1;
    for (size_t i = 0; i < w.raw.n; i++)
        add(out, renum[w.raw.m[i].k], w.raw.m[i].r, w.raw.m[i].peer, w.raw.m[i].bytes);
    free(w.raw.m);
    normalize(out);
    return 0;
}

/* ---- peer and size rules, as the sources write them ----------------------------------- */

static const int rhos[] = {1, -1, 3, -5, 11, -21, 43, -85, 171, -341}; /* tracer's list */

static int fi(int r, int s, int P)
{
    return r % 2 == 0 ? ((r + rhos[s]) % P + P) % P : ((r - rhos[s]) % P + P) % P;
}

typedef int (*peer_rule)(int r, int s, int k, int P);
static int xor_dd(int r, int s, int k, int P) { (void)k; (void)P; return r ^ (1 << s); }
static int xor_dh(int r, int s, int k, int P) { (void)P; return r ^ (1 << (k - s - 1)); }
static int fi_dd(int r, int s, int k, int P) { (void)k; return fi(r, s, P); }
static int fi_dh(int r, int s, int k, int P) { return fi(r, k - s - 1, P); }
static int ring_next(int r, int s, int k, int P) { (void)s; (void)k; return (r + 1) % P; }
static int bruck_next(int r, int s, int k, int P) { (void)k; return (r + (1 << s)) % P; }

typedef int64_t (*size_rule)(int s, int k, int P, int64_t n);
static int64_t whole(int s, int k, int P, int64_t n) { (void)s; (void)k; (void)P; return n; }
static int64_t half(int s, int k, int P, int64_t n) { (void)s; (void)k; (void)P; return n / 2; }
static int64_t per_rank(int s, int k, int P, int64_t n) { (void)s; (void)k; return n / P; }
static int64_t rs_size(int s, int k, int P, int64_t n) { (void)k; (void)P; return n >> (s + 1); }
static int64_t ag_size(int s, int k, int P, int64_t n) { (void)P; return n >> (k - s); }

static int log2i(int P)
{
    int k = 0;
    while ((1 << k) < P)
        k++;
    return k;
}

/* A phase of algo_patterns.json: `steps` steps from step k0, every rank sends to peer(r, s)
 * message_size(s) (trace_communications.py: count_inter_cell_bytes). Returns the next k. */
static int phase(msgs *e, int P, int64_t n, int k0, int steps, peer_rule peer, size_rule size)
{
    int k = log2i(P);
    for (int s = 0; s < steps; s++)
        for (int r = 0; r < P; r++)
            add(e, k0 + s, r, peer(r, s, k, P), size(s, k, P, n));
    return k0 + steps;
}

/* The step at which each rank receives in the tree where every rank holding the data at
 * step s sends to f(r, s) (tracer: create_recv_step_array; libbine: the `received` loop
 * of bcast_bine_lat). recv[0] = -1. */
static void recv_steps(int P, peer_rule f, int *recv)
{
    int k = log2i(P), have[64] = {0}, next[64] = {0};
    have[0] = next[0] = 1;
    recv[0] = -1;
    for (int s = 0; s < k; s++) {
        for (int r = 0; r < P; r++)
            if (have[r]) {
                int q = f(r, s, k, P);
                if (!next[q])
                    recv[q] = s;
                next[q] = 1;
            }
        memcpy(have, next, sizeof have);
    }
}

/* Tree bcast (tracer: tree_coll_lat): at step s each rank that has the vector sends it to
 * f(r, s). */
static void tree(msgs *e, int P, int64_t n, peer_rule f)
{
    int k = log2i(P), recv[64];
    recv_steps(P, f, recv);
    for (int s = 0; s < k; s++)
        for (int r = 0; r < P; r++)
            if (recv[r] < s)
                add(e, s, r, f(r, s, k, P), n);
}

/* Scatter + allgather bcast (tracer: coll_bdw with reduce=False; libbine
 * bcast_bine_bdw_static): scatter step s, a rank holding data sends n/2^(s+1) to f(r, s);
 * allgather step j, every rank sends n/2^(k-j) to g(r, j) unless it received from that
 * rank at scatter step k-j-1 (skip = 1; Open MPI's scatter_allgather sends anyway). */
static void bdw(msgs *e, int P, int64_t n, peer_rule f, peer_rule g, int skip)
{
    int k = log2i(P), recv[64];
    recv_steps(P, f, recv);
    for (int s = 0; s < k; s++)
        for (int r = 0; r < P; r++)
            if (recv[r] < s)
                add(e, s, r, f(r, s, k, P), n >> (s + 1));
    for (int j = 0; j < k; j++)
        for (int r = 0; r < P; r++)
            if (!skip || recv[r] != k - j - 1)
                add(e, k + j, r, g(r, j, k, P), n >> (k - j));
}

/* ---- the vectors, one per alias --------------------------------------------------------- */

/* allreduce ring: libbine allreduce_ring sends to (r+1) % P in both phases, P-1 steps of
 * n/P each (algo_patterns.json writes the allgather towards r-1: the same pairs). */
static void v_ar_ring(msgs *e, int P, int64_t n)
{
    int k = phase(e, P, n, 0, P - 1, ring_next, per_rank);
    phase(e, P, n, k, P - 1, ring_next, per_rank);
}
/* recursive_doubling: "r ^ (2 ** s)", "n", log(p, 2) steps */
static void v_ar_rd(msgs *e, int P, int64_t n) { phase(e, P, n, 0, log2i(P), xor_dd, whole); }
/* bine_latency: "fi(r, s, p)", "n" */
static void v_ar_bine_lat(msgs *e, int P, int64_t n) { phase(e, P, n, 0, log2i(P), fi_dd, whole); }
/* rabenseifner (json; libbine allreduce_rabenseifner: vrank ^ mask, mask = 1, 2, ..., the
 * window halving): "r ^ (2 ** s)", "n / (2 ** (s + 1))", then "r ^ (2 ** (k - s - 1))",
 * "n / (2 ** (k - s))" */
static void v_ar_rabenseifner(msgs *e, int P, int64_t n)
{
    int k = phase(e, P, n, 0, log2i(P), xor_dd, rs_size);
    phase(e, P, n, k, log2i(P), xor_dh, ag_size);
}
/* bine_bandwidth: "fi(r, s, p)", "n / (2 ** (s + 1))", then "fi(r, (k - s - 1), p)",
 * "n / (2 ** (k - s))" */
static void v_ar_bine_bdw(msgs *e, int P, int64_t n)
{
    int k = phase(e, P, n, 0, log2i(P), fi_dd, rs_size);
    phase(e, P, n, k, log2i(P), fi_dh, ag_size);
}
/* alltoall bruck: "(r + (2 ** s)) % p", "n / 2"; bine: "fi(r, s, p)", "n / 2" */
static void v_a2a_bruck(msgs *e, int P, int64_t n) { phase(e, P, n, 0, log2i(P), bruck_next, half); }
static void v_a2a_bine(msgs *e, int P, int64_t n) { phase(e, P, n, 0, log2i(P), fi_dd, half); }
/* reduce_scatter: ring "(r + 1) % p", "n / p"; distance_doubling "r ^ (2 ** s)"; bine_doubling
 * "fi(r, s, p)"; distance_halving "r ^ (2 ** (k - s - 1))"; bine_halving "fi(r, (k - s - 1),
 * p)"; all "n / (2 ** (s + 1))". Swing's reduce-scatter (Sec. 3.1.1): step s to pi(r, s),
 * halving the data: the same as bine_doubling. */
static void v_rs_ring(msgs *e, int P, int64_t n) { phase(e, P, n, 0, P - 1, ring_next, per_rank); }
static void v_rs_dd(msgs *e, int P, int64_t n) { phase(e, P, n, 0, log2i(P), xor_dd, rs_size); }
static void v_rs_bine_dd(msgs *e, int P, int64_t n) { phase(e, P, n, 0, log2i(P), fi_dd, rs_size); }
static void v_rs_dh(msgs *e, int P, int64_t n) { phase(e, P, n, 0, log2i(P), xor_dh, rs_size); }
static void v_rs_bine_dh(msgs *e, int P, int64_t n) { phase(e, P, n, 0, log2i(P), fi_dh, rs_size); }
/* allgather: ring (libbine allgather_ring: sendto = (rank + 1) % size), n / p; the others
 * "n / (2 ** (k - s))" with the reduce-scatter's peers. Swing's allgather: peers in the
 * reverse order (most distant first), doubling the data: bine_halving. */
static void v_ag_ring(msgs *e, int P, int64_t n) { phase(e, P, n, 0, P - 1, ring_next, per_rank); }
static void v_ag_dd(msgs *e, int P, int64_t n) { phase(e, P, n, 0, log2i(P), xor_dd, ag_size); }
static void v_ag_bine_dd(msgs *e, int P, int64_t n) { phase(e, P, n, 0, log2i(P), fi_dd, ag_size); }
static void v_ag_dh(msgs *e, int P, int64_t n) { phase(e, P, n, 0, log2i(P), xor_dh, ag_size); }
static void v_ag_bine_dh(msgs *e, int P, int64_t n) { phase(e, P, n, 0, log2i(P), fi_dh, ag_size); }
/* bcast trees (tree_coll_lat): binomial doubling "rank ^ (1 << step)", halving
 * "rank ^ (1 << (steps - step - 1))", bine doubling "fi(rank, step)" (libbine
 * bcast_bine_lat: pi(proc, step)), bine halving "fi(rank, steps - step - 1)" (libbine
 * bcast_bine_lat_reversed) */
static void v_bc_binomial_dd(msgs *e, int P, int64_t n) { tree(e, P, n, xor_dd); }
static void v_bc_binomial_dh(msgs *e, int P, int64_t n) { tree(e, P, n, xor_dh); }
static void v_bc_bine_dd(msgs *e, int P, int64_t n) { tree(e, P, n, fi_dd); }
static void v_bc_bine_dh(msgs *e, int P, int64_t n) { tree(e, P, n, fi_dh); }
/* bdw bcasts (coll_bdw): first_halving=False scatters on fi(r, s) / r ^ 2^s and gathers
 * on fi(r, k-j-1) / r ^ 2^(k-j-1); first_halving=True the other way round */
static void v_bc_bine_bdw_dh(msgs *e, int P, int64_t n) { bdw(e, P, n, fi_dd, fi_dh, 1); }
static void v_bc_bine_bdw_hd(msgs *e, int P, int64_t n) { bdw(e, P, n, fi_dh, fi_dd, 1); }
static void v_bc_binomial_bdw_dh(msgs *e, int P, int64_t n) { bdw(e, P, n, xor_dd, xor_dh, 1); }
static void v_bc_binomial_bdw_hd(msgs *e, int P, int64_t n) { bdw(e, P, n, xor_dh, xor_dd, 1); }
/* libbine bcast_scatter_allgather (Open MPI's): scatter to vrank + mask, mask = P/2, P/4..
 * (n/2^(s+1)); allgather Sendrecv with vrank ^ mask, mask = 1, 2, .. (curr_count = mask
 * blocks = n/2^(k-j)), every rank both ways */
static void v_bc_ompi_sag(msgs *e, int P, int64_t n) { bdw(e, P, n, xor_dh, xor_dd, 0); }

/* Reduce tree (tracer: tree_coll_lat under REDUCE): the bcast tree of f run backwards:
 * at step k-1-s the rank that bcast step s reached sends the (partial) vector back. */
static void rtree(msgs *e, int P, int64_t n, peer_rule f)
{
    int k = log2i(P), recv[64];
    recv_steps(P, f, recv);
    for (int s = 0; s < k; s++)
        for (int r = 0; r < P; r++)
            if (recv[r] < s)
                add(e, k - 1 - s, f(r, s, k, P), r, n);
}

/* Scatter tree (tracer: scatter): bcast step s of the tree of f carries n/2^(s+1), the
 * blocks of the child's subtree. */
static void stree(msgs *e, int P, int64_t n, peer_rule f)
{
    int k = log2i(P), recv[64];
    recv_steps(P, f, recv);
    for (int s = 0; s < k; s++)
        for (int r = 0; r < P; r++)
            if (recv[r] < s)
                add(e, s, r, f(r, s, k, P), n >> (s + 1));
}

/* Reduce-scatter + gather reduce (tracer: coll_bdw with reduce=True, which counts every
 * rank's butterfly send): reduce-scatter step i, every rank sends n/2^(i+1) to rs(r, i);
 * then the scatter tree of f backwards: at step k + k-1-s the rank that scatter step s
 * reached sends its n/2^(s+1) to its parent. coll_bdw(first_halving=False) pairs the
 * butterfly peer f(r, k-1-j) with n/2^(k-j), i.e. rs = the tree's own order. */
static void rs_gather(msgs *e, int P, int64_t n, peer_rule rs, peer_rule f)
{
    int k = phase(e, P, n, 0, log2i(P), rs, rs_size), recv[64];
    recv_steps(P, f, recv);
    for (int s = 0; s < k; s++)
        for (int r = 0; r < P; r++)
            if (recv[r] < s)
                add(e, k + k - 1 - s, f(r, s, k, P), r, n >> (s + 1));
}

/* REDUCE (the tracer's names; bdw_X_Y = coll_bdw(first_halving = (X == doubling))) */
static void v_re_binomial_dd(msgs *e, int P, int64_t n) { rtree(e, P, n, xor_dd); }
static void v_re_binomial_dh(msgs *e, int P, int64_t n) { rtree(e, P, n, xor_dh); }
static void v_re_bine_dd(msgs *e, int P, int64_t n) { rtree(e, P, n, fi_dd); }
static void v_re_bine_dh(msgs *e, int P, int64_t n) { rtree(e, P, n, fi_dh); }
static void v_re_bine_bdw_hd(msgs *e, int P, int64_t n) { rs_gather(e, P, n, fi_dd, fi_dd); }
static void v_re_bine_bdw_dh(msgs *e, int P, int64_t n) { rs_gather(e, P, n, fi_dh, fi_dh); }
static void v_re_binomial_bdw_hd(msgs *e, int P, int64_t n) { rs_gather(e, P, n, xor_dd, xor_dd); }
static void v_re_binomial_bdw_dh(msgs *e, int P, int64_t n) { rs_gather(e, P, n, xor_dh, xor_dh); }
/* SCATTER: "binomial_doubling" rank ^ (1 << step), "binomial_halving" rank ^ (1 << (steps -
 * step - 1)), "bine_doubling" fi(rank, step), "bine_halving" fi(rank, steps - step - 1) */
static void v_sc_binomial_dd(msgs *e, int P, int64_t n) { stree(e, P, n, xor_dd); }
static void v_sc_binomial_dh(msgs *e, int P, int64_t n) { stree(e, P, n, xor_dh); }
static void v_sc_bine_dd(msgs *e, int P, int64_t n) { stree(e, P, n, fi_dd); }
static void v_sc_bine_dh(msgs *e, int P, int64_t n) { stree(e, P, n, fi_dh); }

/* ---- MPICH (src/mpi/coll/, root 0, P a power of two) ---------------------------------- */

/* Gather tree: the scatter tree of f backwards (gather_intra_binomial: a rank whose
 * relative_rank has bit mask set sends its subtree's mask blocks to rank - mask). */
static void gtree(msgs *e, int P, int64_t n, peer_rule f)
{
    int k = log2i(P), recv[64];
    recv_steps(P, f, recv);
    for (int s = 0; s < k; s++)
        for (int r = 0; r < P; r++)
            if (recv[r] < s)
                add(e, k - 1 - s, f(r, s, k, P), r, n >> (s + 1));
}
static int ring_prev_2t(int r, int s, int k, int P) { (void)k; return ((r - (1 << s)) % P + P) % P; }
static int xor_i(int r, int s, int k, int P) { (void)k; (void)P; return r ^ (s + 1); }
static int plus_i(int r, int s, int k, int P) { (void)k; return (r + s + 1) % P; }
static int64_t doubling_blocks(int s, int k, int P, int64_t n) { (void)k; return (n / P) << s; }

/* allgather_intra_brucks: pof2 = 1, 2, ..: Sendrecv curr_cnt (= pof2 blocks) to
 * dst = rank - pof2 */
static void v_mpich_ag_brucks(msgs *e, int P, int64_t n)
{
    phase(e, P, n, 0, log2i(P), ring_prev_2t, doubling_blocks);
}
/* alltoall_intra_pairwise, is_pof2: i = 1..P-1, src = dst = rank ^ i, one block (n/P) */
static void v_mpich_a2a_pairwise(msgs *e, int P, int64_t n) { phase(e, P, n, 0, P - 1, xor_i, per_rank); }
/* reduce_scatter_intra_pairwise: i = 1..P-1, dst = (rank + i) % P, recvcounts[dst] */
static void v_mpich_rs_pairwise(msgs *e, int P, int64_t n) { phase(e, P, n, 0, P - 1, plus_i, per_rank); }
/* bcast_intra_scatter_ring_allgather: MPII_Scatter_for_bcast (the binomial scatter: rank +
 * mask, mask = P/2, P/4, .., the subtree's mask blocks), then P-1 Sendrecv of one
 * scatter_size block to right = rank + 1 */
static void v_mpich_bc_scatter_ring(msgs *e, int P, int64_t n)
{
    stree(e, P, n, xor_dh);
    phase(e, P, n, log2i(P), P - 1, ring_next, per_rank);
}
/* gather_intra_binomial: the subtree of relative_rank has mask blocks */
static void v_mpich_gather_binomial(msgs *e, int P, int64_t n) { gtree(e, P, n, xor_dh); }

typedef struct vector_row {
    coll_kind coll;
    const char *alias;
    void (*gen)(msgs *e, int P, int64_t n);
} vector_row;

static const vector_row vectors[] = {
    {COLL_ALLREDUCE, "pico:ring", v_ar_ring},
    {COLL_ALLREDUCE, "pico:recursive_doubling", v_ar_rd},
    {COLL_ALLREDUCE, "pico:bine_latency", v_ar_bine_lat},
    {COLL_ALLREDUCE, "pico:rabenseifner", v_ar_rabenseifner},
    {COLL_ALLREDUCE, "pico:bine_bandwidth", v_ar_bine_bdw},
    {COLL_ALLREDUCE, "libbine:allreduce_rabenseifner", v_ar_rabenseifner},
    {COLL_ALLTOALL, "pico:bruck", v_a2a_bruck},
    {COLL_ALLTOALL, "pico:bine", v_a2a_bine},
    {COLL_REDUCE_SCATTER, "pico:ring", v_rs_ring},
    {COLL_REDUCE_SCATTER, "pico:distance_doubling", v_rs_dd},
    {COLL_REDUCE_SCATTER, "pico:bine_doubling", v_rs_bine_dd},
    {COLL_REDUCE_SCATTER, "pico:distance_halving", v_rs_dh},
    {COLL_REDUCE_SCATTER, "pico:bine_halving", v_rs_bine_dh},
    {COLL_REDUCE_SCATTER, "swing:reduce_scatter", v_rs_bine_dd},
    {COLL_ALLGATHER, "pico:ring", v_ag_ring},
    {COLL_ALLGATHER, "pico:distance_doubling", v_ag_dd},
    {COLL_ALLGATHER, "pico:bine_doubling", v_ag_bine_dd},
    {COLL_ALLGATHER, "pico:distance_halving", v_ag_dh},
    {COLL_ALLGATHER, "pico:bine_halving", v_ag_bine_dh},
    {COLL_ALLGATHER, "swing:allgather", v_ag_bine_dh},
    {COLL_BCAST, "pico:binomial_doubling", v_bc_binomial_dd},
    {COLL_BCAST, "pico:binomial_halving", v_bc_binomial_dh},
    {COLL_BCAST, "pico:bine_doubling", v_bc_bine_dd},
    {COLL_BCAST, "pico:bine_halving", v_bc_bine_dh},
    {COLL_BCAST, "pico:bine_bdw_doubling_halving", v_bc_bine_bdw_dh},
    {COLL_BCAST, "pico:bine_bdw_halving_doubling", v_bc_bine_bdw_hd},
    {COLL_BCAST, "pico:binomial_bdw_doubling_halving", v_bc_binomial_bdw_dh},
    {COLL_BCAST, "pico:binomial_bdw_halving_doubling", v_bc_binomial_bdw_hd},
    {COLL_REDUCE, "pico:binomial_doubling", v_re_binomial_dd},
    {COLL_REDUCE, "pico:binomial_halving", v_re_binomial_dh},
    {COLL_REDUCE, "pico:bine_doubling", v_re_bine_dd},
    {COLL_REDUCE, "pico:bine_halving", v_re_bine_dh},
    {COLL_REDUCE, "pico:bine_bdw_halving_doubling", v_re_bine_bdw_hd},
    {COLL_REDUCE, "pico:bine_bdw_doubling_halving", v_re_bine_bdw_dh},
    {COLL_REDUCE, "pico:binomial_bdw_halving_doubling", v_re_binomial_bdw_hd},
    {COLL_REDUCE, "pico:binomial_bdw_doubling_halving", v_re_binomial_bdw_dh},
    {COLL_SCATTER, "pico:binomial_doubling", v_sc_binomial_dd},
    {COLL_SCATTER, "pico:binomial_halving", v_sc_binomial_dh},
    {COLL_SCATTER, "pico:bine_doubling", v_sc_bine_dd},
    {COLL_SCATTER, "pico:bine_halving", v_sc_bine_dh},
    {COLL_BCAST, "libbine:bcast_bine_lat", v_bc_bine_dd},
    /* MPICH: allreduce_intra_recursive_doubling (mask = 1, 2, ..: rank ^ mask, count);
     * _reduce_scatter_allgather (mask = 1 up: newrank ^ mask, the window halving; then mask
     * = pof2/2 down); _ring (dst = rank + 1, cnts[i] = count/P, 2(P-1) steps) */
    {COLL_ALLREDUCE, "mpich:recursive_doubling", v_ar_rd},
    {COLL_ALLREDUCE, "mpich:reduce_scatter_allgather", v_ar_rabenseifner},
    {COLL_ALLREDUCE, "mpich:ring", v_ar_ring},
    /* allgather_intra_recursive_doubling: rank ^ mask, mask = 1 up, curr_cnt doubling;
     * _ring: right = rank + 1, one block */
    {COLL_ALLGATHER, "mpich:recursive_doubling", v_ag_dd},
    {COLL_ALLGATHER, "mpich:ring", v_ag_ring},
    {COLL_ALLGATHER, "mpich:brucks", v_mpich_ag_brucks},
    /* alltoall_intra_brucks: dst = rank + pof2, the blocks with bit pof2 set (P/2 of them) */
    {COLL_ALLTOALL, "mpich:brucks", v_a2a_bruck},
    {COLL_ALLTOALL, "mpich:pairwise", v_mpich_a2a_pairwise},
    /* reduce_scatter_intra_recursive_halving: mask = pof2/2 down, newrank ^ mask, mask blocks */
    {COLL_REDUCE_SCATTER, "mpich:recursive_halving", v_rs_dh},
    {COLL_REDUCE_SCATTER, "mpich:pairwise", v_mpich_rs_pairwise},
    /* bcast_intra_binomial: relative_rank + mask, mask = P/2 down; scatter_recursive_doubling
     * _allgather: the binomial scatter, then relative_rank ^ mask, mask = 1 up, every rank
     * both ways (curr_size doubling) */
    {COLL_BCAST, "mpich:binomial", v_bc_binomial_dh},
    {COLL_BCAST, "mpich:scatter_recursive_doubling_allgather", v_bc_ompi_sag},
    {COLL_BCAST, "mpich:scatter_ring_allgather", v_mpich_bc_scatter_ring},
    /* reduce_intra_binomial: mask = 1 up; a rank with relrank & mask sends the vector to
     * relrank & ~mask; reduce_scatter_gather: newrank ^ mask, mask = 1 up, the window
     * halving, then the gather mask = pof2/2 down, sending when newdst's half holds the
     * root: the distance-doubling tree (binomial_bdw_halving_doubling's pattern) */
    {COLL_REDUCE, "mpich:binomial", v_re_binomial_dh},
    {COLL_REDUCE, "mpich:reduce_scatter_gather", v_re_binomial_bdw_hd},
    {COLL_GATHER, "mpich:binomial", v_mpich_gather_binomial},
    /* scatter_intra_binomial: rank + mask, mask = P/2 down, the subtree's mask blocks */
    {COLL_SCATTER, "mpich:binomial", v_sc_binomial_dh},
    {COLL_BCAST, "libbine:bcast_bine_lat_reversed", v_bc_bine_dh},
    {COLL_BCAST, "libbine:bcast_bine_bdw_static", v_bc_bine_bdw_dh},
    {COLL_BCAST, "libbine:bcast_scatter_allgather", v_bc_ompi_sag},
    {COLL_BCAST, "ompi:scatter_allgather", v_bc_ompi_sag},
};

/* Aliases whose target another branch adds (allowed to be missing in this build). */
static const char *const may_be_missing[] = {"pico:rabenseifner", "libbine:allreduce_rabenseifner",
                                             "pico:distance_halving", "swing:allgather",
                                             "swing:reduce_scatter"};

static const vector_row *vector_of(const alg_alias *a)
{
    for (size_t i = 0; i < sizeof vectors / sizeof vectors[0]; i++)
        if (vectors[i].coll == a->desc.coll && strcmp(vectors[i].alias, a->desc.name) == 0)
            return &vectors[i];
    return NULL;
}

/* 0 when the lists are equal; else prints the first difference and returns -1. */
static int compare(const char *what, int P, const msgs *want, const msgs *got)
{
    for (size_t i = 0; i < want->n || i < got->n; i++) {
        const msg *w = i < want->n ? &want->m[i] : NULL, *g = i < got->n ? &got->m[i] : NULL;
        if (w && g && cmp_msg(w, g) == 0 && w->bytes == g->bytes)
            continue;
        fprintf(stderr, "\n%s P=%d: message %zu: expected ", what, P, i);
        if (w)
            fprintf(stderr, "step %d %d->%d %lld bytes", w->k, w->r, w->peer, (long long)w->bytes);
        fprintf(stderr, ", got ");
        if (g)
            fprintf(stderr, "step %d %d->%d %lld bytes", g->k, g->r, g->peer, (long long)g->bytes);
        fprintf(stderr, "\n");
        return -1;
    }
    return 0;
}

static int check_pattern(coll_kind coll, const char *name, const vector_row *v, int P)
{
    const int64_t n = 1 << 20;
    msgs want = {0}, got = {0};
    v->gen(&want, P, n);
    normalize(&want);
    int rc = actual(coll, name, P, n, &got) < 0 ? -1 : compare(name, P, &want, &got);
    free(want.m);
    free(got.m);
    return rc;
}

static int allowed_missing(const char *name)
{
    for (size_t i = 0; i < sizeof may_be_missing / sizeof may_be_missing[0]; i++)
        if (strcmp(may_be_missing[i], name) == 0)
            return 1;
    return 0;
}

static void test_every_alias_pattern(void)
{
    size_t checked = 0;
    for (size_t i = 0; i < alias_count(); i++) {
        const alg_alias *a = alias_at(i);
        const vector_row *v = vector_of(a);
        CU_ASSERT_PTR_NOT_NULL(v); /* every alias has a hand-derived vector */
        if (!v) {
            fprintf(stderr, "\nno vector for %s %s\n", coll_name(a->desc.coll), a->desc.name);
            continue;
        }
        cs_error err;
        if (alias_check(a, &err) < 0) {
            CU_ASSERT(allowed_missing(a->desc.name));
            fprintf(stderr, "\n(missing in this build: %s)\n", err.msg);
            continue;
        }
        for (int P = 8; P <= 16; P *= 2)
            CU_ASSERT_EQUAL(check_pattern(a->desc.coll, a->desc.name, v, P), 0);
        checked++;
    }
    CU_ASSERT(checked >= 58);
}

/* Planted bugs: the vectors tell distance-doubling from distance-halving, and the send back
 * of a bdw bcast from its absence. */
static void test_planted_wrong_pattern(void)
{
    vector_row halving = {COLL_BCAST, "x", v_bc_binomial_dh};
    CU_ASSERT_EQUAL(check_pattern(COLL_BCAST, "pico:binomial_doubling", &halving, 8), -1);
    vector_row no_skip = {COLL_BCAST, "x", v_bc_ompi_sag};
    CU_ASSERT_EQUAL(check_pattern(COLL_BCAST, "pico:binomial_bdw_halving_doubling", &no_skip, 16),
                    -1);
    vector_row dh_tree = {COLL_REDUCE, "x", v_re_binomial_bdw_dh};
    CU_ASSERT_EQUAL(check_pattern(COLL_REDUCE, "pico:binomial_bdw_halving_doubling", &dh_tree, 8),
                    -1);
    vector_row rs_r_plus_i = {COLL_ALLTOALL, "x", v_mpich_rs_pairwise}; /* r+i, not r xor i */
    CU_ASSERT_EQUAL(check_pattern(COLL_ALLTOALL, "mpich:pairwise", &rs_r_plus_i, 8), -1);
    vector_row bine_dh = {COLL_SCATTER, "x", v_sc_bine_dh};
    CU_ASSERT_EQUAL(check_pattern(COLL_SCATTER, "pico:bine_doubling", &bine_dh, 16), -1);
    vector_row doubling = {COLL_ALLGATHER, "x", v_ag_bine_dd};
    CU_ASSERT_EQUAL(check_pattern(COLL_ALLGATHER, "pico:bine_halving", &doubling, 16), -1);
}

/* ---- the mechanism -------------------------------------------------------------------- */

static void test_lookup_and_errors(void)
{
    cs_error err;
    const alg_desc *a = registry_find(NULL, COLL_BCAST, "pico:bine_halving", &err);
    CU_ASSERT_PTR_NOT_NULL(a);
    /* the same name is another alias for another collective */
    CU_ASSERT_PTR_NULL(registry_find(NULL, COLL_BCAST, "pico:ring", &err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "unknown bcast alias 'pico:ring'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "pico:bine_bdw_halving_doubling"));
    CU_ASSERT_PTR_NULL(strstr(err.msg, "pico:distance_doubling")); /* only bcast's */
    CU_ASSERT_PTR_NOT_NULL(registry_find(NULL, COLL_ALLGATHER, "pico:ring", &err));
    /* a target that is not registered is "missing" */
    alg_alias ghost = {{COLL_BCAST, "pico:ghost", "", "", NULL, NULL, NULL, NULL, 0},
                       "no_such_algorithm", "", "nowhere"};
    CU_ASSERT_EQUAL(alias_check(&ghost, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "missing"));
    alg_alias badparam = {{COLL_BCAST, "pico:badparam", "", "", NULL, NULL, NULL, NULL, 0},
                          "bine", "order=sideways", "nowhere"};
    CU_ASSERT_EQUAL(alias_check(&badparam, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "order"));
    /* an alias takes no parameters of its own */
    coll_spec s;
    coll_spec_init(&s, COLL_BCAST, 8, 1 << 20);
    CU_ASSERT_EQUAL(coll_spec_set_param(&s, "send_back", "yes", &err), 0);
    alg_run run;
    a = registry_find(NULL, COLL_BCAST, "pico:bine_bdw_doubling_halving", &err);
    CU_ASSERT_EQUAL(alg_run_prepare(&run, a, &s, &err), -1);
    /* the target's constraints still apply: send_back=no needs a power of two */
    coll_spec_init(&s, COLL_BCAST, 12, 1 << 20);
    CU_ASSERT_EQUAL(alg_run_prepare(&run, a, &s, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "power of two"));
    CU_ASSERT(alias_is_name("libbine:x") && !alias_is_name("bine") && !alias_is_name("foo:x"));
}

/* Every bcast alias verifies (data semantics) at the powers of two and a root != 0. */
/* Rooted aliases (bcast, reduce, gather, scatter) are correct collectives: P = 2..64 (and, for
 * reduce, gather and scatter, the non-powers of two 3, 6, 12, 24) with root P-1 */
static void test_rooted_aliases_verify(void)
{
    static const int Ps[] = {2, 3, 4, 6, 8, 12, 16, 24, 32, 64};
    for (size_t i = 0; i < alias_count(); i++) {
        const alg_alias *a = alias_at(i);
        coll_kind c = a->desc.coll;
        cs_error err;
        if ((c != COLL_BCAST && c != COLL_REDUCE && c != COLL_SCATTER && c != COLL_GATHER) ||
            alias_check(a, &err) < 0)
            continue;
        for (size_t j = 0; j < sizeof Ps / sizeof Ps[0]; j++) {
            int P = Ps[j];
            if (c == COLL_BCAST && (P & (P - 1)))
                continue; /* send_back=no needs a power of two */
            coll_spec s;
            coll_spec_init(&s, c, P, 1 << 20);
            s.root = P - 1;
            CU_ASSERT(test_verify_expect_ok(&a->desc, &s));
        }
    }
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {
        {"every alias: peers and bytes at P = 8, 16", test_every_alias_pattern},
        {"planted wrong vectors are caught", test_planted_wrong_pattern},
        {"lookup, unknown and missing aliases", test_lookup_and_errors},
        {"rooted aliases verify, P = 2..64, root P-1", test_rooted_aliases_verify},
        {NULL, NULL},
    };
    test_add_suite("aliases", cases);
    return test_run_suites();
}
