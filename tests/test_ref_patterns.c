/* test_ref_patterns.c - the reference algorithms behind PICO's tracer and libbine that
 * collsim builds from its butterfly engine (issue 23):
 *
 *   allgather recursive_doubling order=halving   the tracer's distance-halving allgather
 *   allreduce rabenseifner order=nearest         Open MPI's / libbine's Rabenseifner
 *   reduce_scatter swing, allgather swing        the halves of Swing's allreduce
 *
 * Every message (peer, bytes, blocks) of every rank at every step is pinned for P = 8 and
 * 16 against vectors derived by hand from the sources (the derivations are in the
 * comments; the peer tables are typed in, not computed by collsim's peer functions); the
 * verifier accepts each over P = 2..64 and powers of two up to 1024; and a planted bug
 * (the right peers with a wrong block rule) is rejected by the verifier.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/butterfly.h"
#include "algorithms/registry.h"
#include "testutil.h"

#define MAXP 16
#define MAXSTEPS 16
#define MAXMSG 4

/* One message as seen by the test: peer, bytes, blocks as a bitmap (< 64 blocks). */
typedef struct msg {
    int32_t peer;
    int64_t bytes;
    uint64_t blocks;
    int combine;
} msg;

typedef struct trace {
    int nsteps[MAXP];
    int nsend[MAXP][MAXSTEPS], nrecv[MAXP][MAXSTEPS];
    msg send[MAXP][MAXSTEPS][MAXMSG], recv[MAXP][MAXSTEPS][MAXMSG];
    int64_t copy[MAXP][MAXSTEPS]; /* bytes of local copies */
    int overflow;
} trace;

static void collect(void *ctx, int32_t rank, uint32_t step, const sched_op *op,
                    const blk_range *ranges)
{
    trace *t = ctx;
    if (rank >= MAXP || step >= MAXSTEPS) {
        t->overflow = 1;
        return;
    }
    if ((int)step + 1 > t->nsteps[rank])
        t->nsteps[rank] = (int)step + 1;
    if (op->kind == OP_COPY)
        t->copy[rank][step] += op->bytes;
    if (!op_is_comm(op))
        return;
    int *n = op->kind == OP_SEND ? &t->nsend[rank][step] : &t->nrecv[rank][step];
    msg *m = op->kind == OP_SEND ? t->send[rank][step] : t->recv[rank][step];
    if (*n >= MAXMSG) {
        t->overflow = 1;
        return;
    }
    msg *x = &m[(*n)++];
    *x = (msg){op->peer, op->bytes, 0, (op->flags & OPF_COMBINE) != 0};
    for (uint32_t k = 0; k < op->nranges; k++)
        for (int64_t b = ranges[k].lo; b < ranges[k].hi; b++)
            x->blocks |= b < 64 ? (uint64_t)1 << b : 0;
}

/* The schedule of `name` for (coll, P, bytes, params); asserts that it prepares. */
static void trace_of(coll_kind coll, const char *name, int32_t P, int64_t bytes,
                     const char *params, trace *t)
{
    cs_error err;
    const alg_desc *a = registry_find(NULL, coll, name, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    coll_spec spec;
    coll_spec_init(&spec, coll, P, bytes);
    CU_ASSERT_EQUAL_FATAL(coll_spec_set_params(&spec, params, &err), 0);
    alg_run run;
    int rc = alg_run_prepare(&run, a, &spec, &err);
    if (rc < 0)
        fprintf(stderr, "\n  %s\n", err.msg);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    memset(t, 0, sizeof *t);
    test_walk_ops(&run, collect, t);
    alg_run_release(&run);
    CU_ASSERT_FALSE(t->overflow);
}

static uint64_t range_bits(int lo, int hi)
{
    uint64_t x = 0;
    for (int b = lo; b < hi; b++)
        x |= (uint64_t)1 << b;
    return x;
}

static int popcount64(uint64_t x)
{
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

/* Asserts that rank r's step holds exactly one send and one receive with these values;
 * prints the difference. */
static void expect_exchange(const trace *t, int32_t r, int step, int32_t peer, uint64_t out,
                            uint64_t in, int64_t block_bytes, int combine)
{
    int ok = t->nsend[r][step] == 1 && t->nrecv[r][step] == 1;
    const msg *s = &t->send[r][step][0], *v = &t->recv[r][step][0];
    ok = ok && s->peer == peer && v->peer == peer && s->blocks == out && v->blocks == in;
    ok = ok && s->bytes == popcount64(out) * block_bytes && v->bytes == popcount64(in) * block_bytes;
    ok = ok && v->combine == combine;
    if (!ok)
        fprintf(stderr, "\n  rank %d step %d: want peer %d send %#llx recv %#llx; got %d sends "
                "(peer %d, %#llx, %lld B) %d recvs (peer %d, %#llx)\n", r, step, peer,
                (unsigned long long)out, (unsigned long long)in, t->nsend[r][step], s->peer,
                (unsigned long long)s->blocks, (long long)s->bytes, t->nrecv[r][step], v->peer,
                (unsigned long long)v->blocks);
    CU_ASSERT_TRUE(ok);
}

static int log2i(int32_t p)
{
    int k = 0;
    while ((1 << (k + 1)) <= p)
        k++;
    return k;
}

/* ---- allgather recursive_doubling order=halving ------------------------------------------- */

/* PICO tracer/algo_patterns.json, ALLGATHER distance_halving: step s of k = log2 P sends to
 * r ^ 2^(k-s-1) a message of n / 2^(k-s) bytes. Which blocks (derived by hand): rank r
 * starts with block r; at step s it has met the peers r ^ 2^(k-1), ..., r ^ 2^(k-s), so it
 * holds the 2^s blocks that agree with r on the k-s low bits, b = r (mod 2^(k-s)), and
 * sends them; it receives those of the peer, b = peer (mod 2^(k-s)). The blocks are
 * strided (stride 2^(k-s)), not contiguous as in the distance-doubling order. */
static uint64_t congruent(int32_t P, int32_t r, int32_t mod)
{
    uint64_t x = 0;
    for (int32_t b = 0; b < P; b++)
        if (b % mod == r % mod)
            x |= (uint64_t)1 << b;
    return x;
}

static void test_allgather_halving(void)
{
    for (int32_t P = 8; P <= 16; P *= 2) {
        int k = log2i(P);
        trace t;
        trace_of(COLL_ALLGATHER, "recursive_doubling", P, P * 1024, "order=halving", &t);
        for (int32_t r = 0; r < P; r++) {
            CU_ASSERT_EQUAL(t.nsteps[r], k);
            for (int s = 0; s < k; s++) {
                int32_t peer = r ^ (1 << (k - s - 1)), mod = 1 << (k - s);
                expect_exchange(&t, r, s, peer, congruent(P, r, mod), congruent(P, peer, mod),
                                1024, 0);
                CU_ASSERT_EQUAL(t.send[r][s][0].bytes, (int64_t)P * 1024 / (1 << (k - s)));
            }
        }
        if (P == 8) { /* by hand: rank 5 sends {5} to 1, {1,5} to 7, {1,3,5,7} to 4 */
            static const int32_t peer[3] = {1, 7, 4};
            static const uint64_t out[3] = {0x20, 0x22, 0xaa};
            for (int s = 0; s < 3; s++) {
                CU_ASSERT_EQUAL(t.send[5][s][0].peer, peer[s]);
                CU_ASSERT_EQUAL(t.send[5][s][0].blocks, out[s]);
            }
        }
    }
}

/* ---- allreduce rabenseifner order=nearest --------------------------------------------------- */

/* Open MPI coll_base_allreduce.c, ompi_coll_base_allreduce_intra_redscat_allgather (libbine's
 * allreduce_rabenseifner is the same code), for P' = P a power of two, in blocks of n/P:
 * step 2 (reduce-scatter): the window starts as [0, P); for mask = 1, 2, 4, ..., dest =
 * r ^ mask; if r < dest, r keeps (receives into) the lower half of its window and sends
 * the upper one, else the reverse; the window becomes the kept half. Step 3 (allgather):
 * the masks backwards, r sends the half it kept and receives the half it sent at that
 * mask. This function replays that window arithmetic for one rank. */
static void ompi_windows(int32_t P, int32_t r, uint64_t sent[], uint64_t kept[])
{
    int lo = 0, w = P;
    for (int step = 0, mask = 1; mask < P; mask <<= 1, step++) {
        int32_t dest = r ^ mask;
        int half = w / 2;
        if (r < dest) {
            sent[step] = range_bits(lo + half, lo + w);
            kept[step] = range_bits(lo, lo + half);
        } else {
            sent[step] = range_bits(lo, lo + half);
            kept[step] = range_bits(lo + half, lo + w);
            lo += half;
        }
        w = half;
    }
}

static void test_rabenseifner_nearest(void)
{
    for (int32_t P = 8; P <= 16; P *= 2) {
        int k = log2i(P);
        trace t;
        trace_of(COLL_ALLREDUCE, "rabenseifner", P, P * 1024, "order=nearest", &t);
        for (int32_t r = 0; r < P; r++) {
            uint64_t sent[MAXSTEPS], kept[MAXSTEPS];
            ompi_windows(P, r, sent, kept);
            CU_ASSERT_EQUAL(t.nsteps[r], 2 * k);
            for (int s = 0; s < k; s++) /* reduce-scatter: r ^ 2^s, n / 2^(s+1) bytes */
                expect_exchange(&t, r, s, r ^ (1 << s), sent[s], kept[s], 1024, 1);
            for (int s = 0; s < k; s++) { /* allgather: r ^ 2^(k-s-1), n / 2^(k-s) bytes */
                int m = k - 1 - s;
                expect_exchange(&t, r, k + s, r ^ (1 << m), kept[m], sent[m], 1024, 0);
                CU_ASSERT_EQUAL(t.send[r][k + s][0].bytes, (int64_t)P * 1024 >> (k - s));
            }
        }
        if (P == 8) { /* by hand: rank 5 = 101b meets 4 (keeps the upper half [4,8)), 7
                         * (keeps the lower [4,6)), 1 (keeps the upper [5,6)): block 5 */
            static const uint64_t out5[3] = {0x0f, 0xc0, 0x10};
            for (int s = 0; s < 3; s++)
                CU_ASSERT_EQUAL(t.send[5][s][0].blocks, out5[s]);
            CU_ASSERT_EQUAL(t.send[5][3][0].blocks, 0x20); /* allgather: block 5 to rank 1 */
            CU_ASSERT_EQUAL(t.send[5][3][0].peer, 1);
        }
    }
}

/* P = 6 (P' = 4, rem = 2): Open MPI's fold. Pairs (0, 1), (2, 3): the odd rank sends the
 * lower half (blocks 0-1 of 4) and receives the upper one, the even rank the reverse,
 * both reduce; then the odd rank sends its reduced upper half to the even one. vranks:
 * 0 -> 0, 2 -> 1, 4 -> 2, 5 -> 3. At the end the even rank sends the whole vector back. */
static void test_rabenseifner_nearest_fold(void)
{
    trace t;
    trace_of(COLL_ALLREDUCE, "rabenseifner", 6, 6 * 1024, "order=nearest", &t);
    int64_t bb = 6 * 1024 / 4; /* 4 blocks */
    CU_ASSERT_EQUAL(t.nsteps[0], 2 + 2 * 2 + 1);
    expect_exchange(&t, 1, 0, 0, 0x3, 0xc, bb, 1);
    expect_exchange(&t, 0, 0, 1, 0xc, 0x3, bb, 1);
    CU_ASSERT_EQUAL(t.nsend[1][1], 1);
    CU_ASSERT_EQUAL(t.send[1][1][0].peer, 0);
    CU_ASSERT_EQUAL(t.send[1][1][0].blocks, 0xc);
    CU_ASSERT_EQUAL(t.nrecv[0][1], 1);
    CU_ASSERT_FALSE(t.recv[0][1][0].combine);
    CU_ASSERT_EQUAL(t.nsend[4][0] + t.nsend[4][1] + t.nsend[1][2], 0);
    /* core: vrank 2 (rank 4) talks to vrank 3 (rank 5) and keeps the lower half [0,2),
     * then to vrank 0 (rank 0) and keeps the upper half of that, [1,2) */
    expect_exchange(&t, 4, 2, 5, 0xc, 0x3, bb, 1);
    expect_exchange(&t, 4, 3, 0, 0x1, 0x2, bb, 1);
    CU_ASSERT_EQUAL(t.send[2][6][0].peer, 3); /* fold out: whole vector, even to odd */
    CU_ASSERT_EQUAL(t.send[2][6][0].blocks, 0xf);
    CU_ASSERT_EQUAL(t.recv[3][6][0].peer, 2);
}

/* ---- Swing reduce-scatter and allgather ------------------------------------------------------- */

/* Swing peers pi(r, s) = r + rho(s) (r even) or r - rho(s) (r odd), rho = 1, -1, 3, -5.
 * P = 16: the Swing digest's table (Fig. 1). P = 8 by hand: even r: r+1, r-1, r+3; odd r:
 * r-1, r+1, r-3 (mod 8). */
static const int32_t swing8[8][3] = {{1, 7, 3}, {0, 2, 6}, {3, 1, 5}, {2, 4, 0},
                                     {5, 3, 7}, {4, 6, 2}, {7, 5, 1}, {6, 0, 4}};
static const int32_t swing16[16][4] = {
    {1, 15, 3, 11}, {0, 2, 14, 6},  {3, 1, 5, 13},  {2, 4, 0, 8},   {5, 3, 7, 15},  {4, 6, 2, 10},
    {7, 5, 9, 1},   {6, 8, 4, 12},  {9, 7, 11, 3},  {8, 10, 6, 14}, {11, 9, 13, 5}, {10, 12, 8, 0},
    {13, 11, 15, 7}, {12, 14, 10, 2}, {15, 13, 1, 9}, {14, 0, 12, 4}};

static int32_t swing_peer_of(int32_t P, int32_t r, int s)
{
    return P == 8 ? swing8[r][s] : swing16[r][s];
}

/* Every node x reaches from step s on (the digest's reach(x, s), Sec. 1.3), over the typed
 * table. */
static uint64_t reach(int32_t P, int32_t x, int s, int L)
{
    uint64_t set = 0;
    for (int t = s; t < L; t++) {
        int32_t q = swing_peer_of(P, x, t);
        set |= (uint64_t)1 << q | reach(P, q, t + 1, L);
    }
    return set;
}

/* SEND_RS(r, s) = {q} u reach(q, s+1), q = pi(r, s) (digest Sec. 1.3, the corrected rule). */
static uint64_t swing_send(int32_t P, int32_t r, int s, int L)
{
    int32_t q = swing_peer_of(P, r, s);
    return (uint64_t)1 << q | reach(P, q, s + 1, L);
}

static void test_swing_vectors(void)
{
    /* the digest's worked example, P = 16 rank 0: {1,2,5,6,9,10,13,14}, {4,7,12,15},
     * {3,8}, {11}; P = 8 rank 0 by hand: {1,2,5,6}, {4,7}, {3} */
    CU_ASSERT_EQUAL(swing_send(16, 0, 0, 4), 0x6666);
    CU_ASSERT_EQUAL(swing_send(16, 0, 1, 4), 0x9090);
    CU_ASSERT_EQUAL(swing_send(16, 0, 2, 4), 0x0108);
    CU_ASSERT_EQUAL(swing_send(16, 0, 3, 4), 0x0800);
    CU_ASSERT_EQUAL(swing_send(8, 0, 0, 3), 0x66);
    CU_ASSERT_EQUAL(swing_send(8, 0, 1, 3), 0x90);
    CU_ASSERT_EQUAL(swing_send(8, 0, 2, 3), 0x08);
}

/* ports=1, strategy=datatype (no copy): reduce-scatter step s sends SEND_RS(r, s), n / 2^(s+1)
 * bytes, and receives SEND_RS(q, s) combined; the allgather step j (s = L-1-j) sends
 * SEND_RS(q, s) and receives SEND_RS(r, s), n / 2^(L-j) bytes. */
static void test_swing_pinned(void)
{
    for (int32_t P = 8; P <= 16; P *= 2) {
        int L = log2i(P);
        trace rs, ag;
        trace_of(COLL_REDUCE_SCATTER, "swing", P, P * 1024, "ports=1 strategy=datatype", &rs);
        trace_of(COLL_ALLGATHER, "swing", P, P * 1024, "ports=1 strategy=datatype", &ag);
        for (int32_t r = 0; r < P; r++) {
            CU_ASSERT_EQUAL(rs.nsteps[r], L);
            CU_ASSERT_EQUAL(ag.nsteps[r], L);
            for (int s = 0; s < L; s++) {
                int32_t q = swing_peer_of(P, r, s);
                uint64_t mine = swing_send(P, r, s, L), theirs = swing_send(P, q, s, L);
                CU_ASSERT_EQUAL(popcount64(mine), P >> (s + 1));
                expect_exchange(&rs, r, s, q, mine, theirs, 1024, 1);
                expect_exchange(&ag, r, L - 1 - s, q, theirs, mine, 1024, 0);
            }
        }
    }
}

/* strategy=permute (default) adds one copy of the whole vector, before the reduce-scatter
 * and after the allgather; ports=multi (default) on a ring runs the plain collective and
 * the mirrored one (offsets negated: rank 0 talks to 1 and 15 at step 0) on n/2 each. */
static void test_swing_permute_ports(void)
{
    int64_t n = 16 * 2048;
    trace rs, ag;
    trace_of(COLL_REDUCE_SCATTER, "swing", 16, n, "", &rs);
    trace_of(COLL_ALLGATHER, "swing", 16, n, "", &ag);
    CU_ASSERT_EQUAL(rs.nsteps[0], 5);
    CU_ASSERT_EQUAL(rs.copy[0][0], n);
    CU_ASSERT_EQUAL(rs.nsend[0][0], 0);
    CU_ASSERT_EQUAL(ag.copy[0][4], n);
    CU_ASSERT_EQUAL(rs.nsend[0][1], 2);
    int32_t a = rs.send[0][1][0].peer, b = rs.send[0][1][1].peer;
    CU_ASSERT_TRUE((a == 1 && b == 15) || (a == 15 && b == 1));
    CU_ASSERT_EQUAL(rs.send[0][1][0].bytes, n / 4);
    CU_ASSERT_EQUAL(rs.send[0][1][1].bytes, n / 4);
    /* 4x4 torus, 4 ports (Swing paper Fig. 4): rank 0's first peers are 4, 1, 12, 3 */
    cs_error err;
    const alg_desc *alg = registry_find(NULL, COLL_REDUCE_SCATTER, "swing", &err);
    coll_spec spec;
    coll_spec_init(&spec, COLL_REDUCE_SCATTER, 16, n);
    spec.ndims = 2;
    spec.dims[0] = spec.dims[1] = 4;
    alg_run run;
    CU_ASSERT_EQUAL_FATAL(alg_run_prepare(&run, alg, &spec, &err), 0);
    trace *t = calloc(1, sizeof *t);
    test_walk_ops(&run, collect, t);
    alg_run_release(&run);
    CU_ASSERT_EQUAL(t->nsend[0][1], 4);
    int seen = 0;
    for (int i = 0; i < t->nsend[0][1] && i < MAXMSG; i++) {
        int32_t p = t->send[0][1][i].peer;
        seen |= (p == 4) << 0 | (p == 1) << 1 | (p == 12) << 2 | (p == 3) << 3;
        CU_ASSERT_EQUAL(t->send[0][1][i].bytes, n / 8);
    }
    CU_ASSERT_EQUAL(seen, 0xf);
    free(t);
}

static int contiguous(uint64_t x)
{
    return x && ((x >> __builtin_ctzll(x)) & ((x >> __builtin_ctzll(x)) + 1)) == 0;
}

/* strategy=send: the same peers and sizes, every message one contiguous range of
 * positions (Swing's contiguous remapping), then one exchange that puts each block at
 * its owner (rank 0 keeps position 0: it stays idle). */
static void test_swing_send(void)
{
    for (int32_t P = 8; P <= 16; P *= 2) {
        int L = log2i(P);
        trace rs;
        trace_of(COLL_REDUCE_SCATTER, "swing", P, P * 1024, "ports=1 strategy=send", &rs);
        int remapped = 0;
        for (int32_t r = 0; r < P; r++) {
            /* the exchange step is empty (and not seen) where the block is already home */
            CU_ASSERT(rs.nsteps[r] == L + (rs.nsend[r][L] == 1));
            remapped += rs.nsend[r][L];
            for (int s = 0; s < L; s++) {
                CU_ASSERT_EQUAL(rs.nsend[r][s], 1);
                CU_ASSERT_EQUAL(rs.send[r][s][0].peer, swing_peer_of(P, r, s));
                CU_ASSERT_EQUAL(rs.send[r][s][0].bytes, (int64_t)P * 1024 >> (s + 1));
                CU_ASSERT_TRUE(contiguous(rs.send[r][s][0].blocks));
            }
            CU_ASSERT(rs.nsend[r][L] <= 1);
        }
        CU_ASSERT_EQUAL(rs.nsend[0][L], 0);
        CU_ASSERT(remapped >= P / 2);
    }
}

/* ---- the verifier over many P ---------------------------------------------------------------- */

typedef struct sweep_case {
    coll_kind coll;
    const char *name, *params;
} sweep_case;

static const sweep_case sweep_cases[] = {
    {COLL_ALLGATHER, "recursive_doubling", "order=halving"},
    {COLL_ALLREDUCE, "rabenseifner", "order=nearest"},
    {COLL_REDUCE_SCATTER, "swing", "ports=1 strategy=datatype"},
    {COLL_REDUCE_SCATTER, "swing", "ports=multi strategy=permute"},
    {COLL_ALLGATHER, "swing", "ports=1 strategy=datatype"},
    {COLL_ALLGATHER, "swing", "ports=multi strategy=permute"},
    {COLL_ALLGATHER, "swing", "ports=multi strategy=send"}, /* (tori only: powers of two) */
};

static int verify_one(const sweep_case *c, int32_t P, int ndims, const int32_t *dims,
                      int64_t bytes)
{
    cs_error err;
    const alg_desc *a = registry_find(NULL, c->coll, c->name, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    coll_spec spec;
    coll_spec_init(&spec, c->coll, P, bytes);
    CU_ASSERT_EQUAL_FATAL(coll_spec_set_params(&spec, c->params, &err), 0);
    spec.ndims = ndims;
    for (int k = 0; k < ndims; k++)
        spec.dims[k] = dims[k];
    verify_result res;
    int rc = test_verify(a, &spec, P <= 512 ? VERIFY_FULL : VERIFY_STREAM, &res, &err);
    int ok = rc == 0 && res.ok && res.deadlock_checked;
    if (!ok)
        fprintf(stderr, "\n  %s %s %s P=%d: %s\n", coll_name(c->coll), c->name, c->params, P,
                rc == 0 ? res.error : err.msg);
    return ok;
}

static void test_verify_sweep(void)
{
    int32_t top = test_max_p(1024);
    for (size_t i = 0; i + 1 < sizeof sweep_cases / sizeof sweep_cases[0]; i++) {
        for (int32_t P = 2; P <= 64; P++) {
            CU_ASSERT_TRUE(verify_one(&sweep_cases[i], P, 0, NULL, 1 << 20));
            CU_ASSERT_TRUE(verify_one(&sweep_cases[i], P, 0, NULL, 1000 + P)); /* uneven */
        }
        for (int32_t P = 128; P <= top; P *= 2)
            CU_ASSERT_TRUE(verify_one(&sweep_cases[i], P, 0, NULL, 1 << 20));
    }
}

/* strategy=send: powers of two and odd P (folded onto a power of two) verify, other
 * even P are refused with a message naming the constraint. */
static void test_verify_swing_send(void)
{
    static const sweep_case send[2] = {{COLL_REDUCE_SCATTER, "swing", "strategy=send"},
                                       {COLL_ALLGATHER, "swing", "strategy=send"}};
    for (int i = 0; i < 2; i++)
        for (int32_t P = 2; P <= 64; P++) {
            if ((P & (P - 1)) == 0 || P % 2) {
                CU_ASSERT_TRUE(verify_one(&send[i], P, 0, NULL, 1000 + P));
                continue;
            }
            cs_error err;
            coll_spec spec;
            coll_spec_init(&spec, send[i].coll, P, 1 << 20);
            CU_ASSERT_EQUAL_FATAL(coll_spec_set_params(&spec, send[i].params, &err), 0);
            alg_run run;
            CU_ASSERT_EQUAL(alg_run_prepare(&run, registry_find(NULL, send[i].coll, "swing", &err),
                                            &spec, &err), -1);
            CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "swing: requires every torus dimension to "
                                                   "be a power of two with strategy=send"));
        }
}

/* Swing on tori: powers of two, even sizes (the last-step rule), rectangles, 3D. */
static void test_verify_swing_tori(void)
{
    static const int32_t shapes[][4] = {{2, 4, 4}, {2, 8, 8}, {2, 2, 4}, {2, 6, 6},
                                        {2, 10, 4}, {3, 2, 8, 8}, {3, 4, 4, 4}, {2, 6, 10}};
    for (size_t i = 2; i < sizeof sweep_cases / sizeof sweep_cases[0]; i++)
        for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
            int nd = shapes[k][0];
            int32_t P = 1;
            for (int d = 0; d < nd; d++)
                P *= shapes[k][1 + d];
            if (strstr(sweep_cases[i].params, "send") && (P & (P - 1)) != 0)
                continue; /* strategy=send: powers of two */
            CU_ASSERT_TRUE(verify_one(&sweep_cases[i], P, nd, &shapes[k][1], 1 << 20));
        }
}

/* A torus dimension of odd size is refused with a message naming it. */
static void test_swing_odd_dims(void)
{
    cs_error err;
    const alg_desc *a = registry_find(NULL, COLL_ALLGATHER, "swing", &err);
    coll_spec spec;
    coll_spec_init(&spec, COLL_ALLGATHER, 12, 1 << 20);
    spec.ndims = 2;
    spec.dims[0] = 4;
    spec.dims[1] = 3;
    alg_run run;
    CU_ASSERT_EQUAL(alg_run_prepare(&run, a, &spec, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "allgather swing: requires every torus dimension to "
                                           "be even or 1 (dimension 1 has size 3)"));
}

/* ---- planted bugs: the right peers with a wrong block rule ------------------------------------ */

/* A pattern taking its peers from one butterfly and its block rule from another. */
typedef struct mixed {
    rd_pattern_ctx pc_peer, pc_rule;
    bfly_pattern peer_of, rule_of, pat;
    chunk_map map;
    coll_kind coll;
} mixed;

static int32_t mixed_peer(const void *ctx, int32_t v, int i)
{
    const mixed *m = ctx;
    return m->peer_of.peer(m->peer_of.ctx, v, i);
}

static void mixed_rs_send(const void *ctx, int32_t v, int i, range_list *out)
{
    const mixed *m = ctx;
    m->rule_of.rs_send(m->rule_of.ctx, v, i, out);
}

typedef void (*pattern_fn)(bfly_pattern *, rd_pattern_ctx *, int32_t);
static pattern_fn g_peers, g_rule; /* set by each planted-bug test before preparing */

static int mixed_prepare(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    (void)err;
    mixed *m = calloc(1, sizeof *m);
    m->coll = s->coll;
    if (s->coll == COLL_ALLREDUCE)
        layout_init(l, s->coll, s->P, s->root, s->bytes, s->P);
    chunk_map_plain(&m->map, s->P, 0, 0, 1);
    g_peers(&m->peer_of, &m->pc_peer, s->P);
    g_rule(&m->rule_of, &m->pc_rule, s->P);
    m->pat = (bfly_pattern){.nsteps = m->peer_of.nsteps, .peer = mixed_peer,
                            .rs_send = mixed_rs_send, .ctx = m};
    *ctx = m;
    return 0;
}

static void mixed_gen(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)s;
    const mixed *m = ctx;
    if (m->coll != COLL_ALLGATHER)
        bfly_rs_core(b, &m->pat, &m->map, r);
    if (m->coll != COLL_REDUCE_SCATTER)
        bfly_ag_core(b, &m->pat, &m->map, r);
}

/* Verifies the mixed pattern for coll at P = 8; returns the verifier's message or NULL. */
static const char *verify_mixed(coll_kind coll, pattern_fn peers, pattern_fn rule)
{
    static verify_result res;
    static const alg_desc mixed_alg = {COLL_ALLREDUCE, "mixed", "", "", NULL, mixed_prepare,
                                       mixed_gen, free, 0};
    alg_desc a = mixed_alg;
    a.coll = coll;
    g_peers = peers;
    g_rule = rule;
    coll_spec spec;
    coll_spec_init(&spec, coll, 8, 1 << 20);
    cs_error err;
    CU_ASSERT_EQUAL_FATAL(test_verify(&a, &spec, VERIFY_FULL, &res, &err), 0);
    return res.ok ? NULL : res.error;
}

static void test_planted_bugs(void)
{
    /* the engine with matching peers and rules is correct (the harness works) */
    CU_ASSERT_PTR_NULL(verify_mixed(COLL_ALLREDUCE, rd_doubling_pattern, rd_nearest_pattern));
    CU_ASSERT_PTR_NULL(verify_mixed(COLL_ALLGATHER, rd_doubling_pattern, rd_doubling_pattern));
    /* Rabenseifner nearest-first keeping the farthest-first halves (upper/lower by the
     * high bit at distance 1): a block is reduced twice or never */
    CU_ASSERT_PTR_NOT_NULL(verify_mixed(COLL_ALLREDUCE, rd_doubling_pattern, rd_halving_pattern));
    CU_ASSERT_PTR_NOT_NULL(verify_mixed(COLL_REDUCE_SCATTER, rd_doubling_pattern,
                                        rd_halving_pattern));
    /* the distance-halving allgather with contiguous blocks: a rank sends blocks it does
     * not hold yet */
    CU_ASSERT_PTR_NOT_NULL(verify_mixed(COLL_ALLGATHER, rd_doubling_pattern, rd_halving_pattern));
    /* the nearest-first halves with distance-halving peers */
    CU_ASSERT_PTR_NOT_NULL(verify_mixed(COLL_ALLREDUCE, rd_halving_pattern, rd_nearest_pattern));
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {
        {"allgather distance-halving: every message, P = 8, 16", test_allgather_halving},
        {"rabenseifner nearest: every message, P = 8, 16", test_rabenseifner_nearest},
        {"rabenseifner nearest: Open MPI's fold, P = 6", test_rabenseifner_nearest_fold},
        {"swing: the digest's send sets", test_swing_vectors},
        {"swing reduce-scatter, allgather: every message, P = 8, 16", test_swing_pinned},
        {"swing: permute copies and ports", test_swing_permute_ports},
        {"swing: strategy=send, contiguous messages", test_swing_send},
        {"verifier: swing strategy=send", test_verify_swing_send},
        {"verifier: P = 2..64 and powers of two", test_verify_sweep},
        {"verifier: swing on tori", test_verify_swing_tori},
        {"swing: odd torus dimension refused", test_swing_odd_dims},
        {"planted bugs: wrong block rules are rejected", test_planted_bugs},
        {NULL, NULL}};
    test_add_suite("reference patterns", cases);
    return test_run_suites();
}
