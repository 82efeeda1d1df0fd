/* test_algorithms.c - every registered algorithm verifies for every P in 2..64 and every
 * power of two up to 4096 (and with a root that is not 0 for rooted collectives).
 *
 * The full engine (exact matching, deadlock simulation, exactly-once reductions) runs up
 * to P = 512; from 1024 on the stream engine checks matching, step alignment, holding and
 * the final blocks (exactly-once reductions only in the full engine; see verify.h).
 * COLLSIM_TEST_MAX_P lowers the largest P (the sanitizer build sets it).
 *
 * The cases are independent verifications and the verifier keeps no global state, so they
 * run on all CPUs at once (one thread each, the largest first so that no long case starts
 * last); the CUnit assertions are made afterwards, on the main thread.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "algorithms/registry.h"
#include "testutil.h"

static int32_t max_p(void)
{
    const char *e = getenv("COLLSIM_TEST_MAX_P");
    return e ? (int32_t)atoi(e) : 4096;
}

/* One verification and its outcome. */
typedef struct vcase {
    const alg_desc *alg;
    int32_t P, root;
    int64_t bytes;
    int supported; /* 0: prepare refused P (a declared constraint) */
    int rc, ok, deadlock_checked;
    char error[CS_ERROR_MAX];
} vcase;

typedef struct case_list {
    vcase *v;
    size_t n, cap;
    size_t next; /* the next case to run (shared by the workers, under lock) */
    pthread_mutex_t lock;
} case_list;

static void add_case(case_list *l, const alg_desc *a, int32_t P, int32_t root, int64_t bytes)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 256;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
    }
    vcase *c = &l->v[l->n++];
    memset(c, 0, sizeof *c);
    c->alg = a;
    c->P = P;
    c->root = coll_has_root(a->coll) ? root : 0;
    c->bytes = bytes;
}

static void run_case(vcase *c)
{
    coll_spec spec;
    coll_spec_init(&spec, c->alg->coll, c->P, c->bytes);
    spec.root = c->root;
    alg_run run;
    cs_error err;
    if (alg_run_prepare(&run, c->alg, &spec, &err) < 0)
        return; /* a declared constraint: test_constraints checks its message */
    c->supported = 1;
    verify_options opt;
    verify_options_default(&opt);
    opt.mode = c->P <= 512 ? VERIFY_FULL : VERIFY_STREAM;
    opt.threads = 1; /* the cases themselves use the CPUs */
    verify_result res;
    c->rc = verify_run(&run, &opt, &res, &err);
    alg_run_release(&run);
    c->ok = res.ok;
    c->deadlock_checked = res.deadlock_checked;
    snprintf(c->error, sizeof c->error, "%s", c->rc == 0 ? res.error : err.msg);
}

static void *worker(void *arg)
{
    case_list *l = arg;
    for (;;) {
        pthread_mutex_lock(&l->lock);
        size_t i = l->next++;
        pthread_mutex_unlock(&l->lock);
        if (i >= l->n)
            return NULL;
        run_case(&l->v[i]);
    }
}

static int by_size_desc(const void *a, const void *b)
{
    const vcase *x = a, *y = b;
    return (y->P > x->P) - (y->P < x->P);
}

/* Runs every case on all CPUs, then asserts each outcome. Returns how many were supported. */
static size_t run_all(case_list *l)
{
    qsort(l->v, l->n, sizeof *l->v, by_size_desc);
    pthread_mutex_init(&l->lock, NULL);
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    int nthreads = ncpu < 1 ? 1 : ncpu > 16 ? 16 : (int)ncpu;
    pthread_t tid[16];
    for (int t = 1; t < nthreads; t++)
        pthread_create(&tid[t], NULL, worker, l);
    worker(l);
    for (int t = 1; t < nthreads; t++)
        pthread_join(tid[t], NULL);
    pthread_mutex_destroy(&l->lock);
    size_t supported = 0;
    for (size_t i = 0; i < l->n; i++) {
        const vcase *c = &l->v[i];
        if (!c->supported)
            continue;
        supported++;
        CU_ASSERT_EQUAL(c->rc, 0);
        if (c->rc != 0 || !c->ok)
            fprintf(stderr, "\n  %s %s P=%d root=%d: %s\n", coll_name(c->alg->coll),
                    c->alg->name, c->P, c->root, c->error);
        CU_ASSERT_TRUE(c->ok);
        CU_ASSERT_TRUE(c->deadlock_checked);
    }
    free(l->v);
    return supported;
}

static void test_small_p(void)
{
    case_list l = {0};
    for (size_t i = 0; i < registry_builtin_count(); i++) {
        const alg_desc *a = registry_builtin_at(i);
        for (int32_t P = 2; P <= 64; P++) {
            add_case(&l, a, P, 0, 1 << 20);
            if (coll_has_root(a->coll))
                add_case(&l, a, P, P / 3, 1000); /* odd sizes: uneven blocks */
        }
    }
    CU_ASSERT(run_all(&l) > 1000);
}

/* Whether the algorithm takes P = 64 without a logical shape; the ones that do not are
 * bound to one (Kautz: P = d(d+1); 2dfc: dims) and have their own suites. */
static int takes_plain_pow2(const alg_desc *a)
{
    coll_spec spec;
    coll_spec_init(&spec, a->coll, 64, 1 << 20);
    alg_run run;
    cs_error err;
    if (alg_run_prepare(&run, a, &spec, &err) < 0)
        return 0;
    alg_run_release(&run);
    return 1;
}

static void test_powers_of_two(void)
{
    case_list l = {0};
    for (size_t i = 0; i < registry_builtin_count(); i++) {
        const alg_desc *a = registry_builtin_at(i);
        if (!takes_plain_pow2(a))
            continue;
        if (a->coll == COLL_ALLTOALLV)
            continue; /* tests/test_alltoallv.c: large P with workloads and ranks per node */
        /* above 512 ranks run_case uses the stream engine, which verifies step schedules
         * only: algorithms with dependencies (ALG_DEPS) go up to 512, full engine */
        int32_t top = (a->flags & ALG_DEPS) && max_p() > 512 ? 512 : max_p();
        for (int32_t P = 128; P <= top; P *= 2)
            add_case(&l, a, P, P - 1, 1 << 20);
    }
    size_t n = l.n;
    CU_ASSERT_EQUAL(run_all(&l), n); /* every algorithm supports powers of two */
}

/* An unsupported P is refused with a message naming the algorithm and the violated
 * constraint, and only by algorithms whose declared constraints are not "any P". */
static void test_constraints(void)
{
    size_t refused = 0;
    for (size_t i = 0; i < registry_builtin_count(); i++) {
        const alg_desc *a = registry_builtin_at(i);
        char prefix[128];
        snprintf(prefix, sizeof prefix, "%s %s: requires ", coll_name(a->coll), a->name);
        for (int32_t P = 2; P <= 64; P++) {
            coll_spec spec;
            coll_spec_init(&spec, a->coll, P, 1 << 20);
            alg_run run;
            cs_error err;
            if (alg_run_prepare(&run, a, &spec, &err) == 0) {
                alg_run_release(&run);
                continue;
            }
            refused++;
            if (strncmp(err.msg, prefix, strlen(prefix)) != 0)
                fprintf(stderr, "\n  P=%d: '%s' does not start with '%s'\n", P, err.msg, prefix);
            CU_ASSERT_EQUAL(strncmp(err.msg, prefix, strlen(prefix)), 0);
            CU_ASSERT_NOT_EQUAL(strncmp(a->constraints, "any P", 5), 0);
        }
    }
    CU_ASSERT(refused > 0); /* alltoall xor: P a power of two */
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {{"unsupported P names the constraint", test_constraints},
                                      {"every algorithm, P = 2..64", test_small_p},
                                      {"every algorithm, P = 128..4096 powers of two",
                                       test_powers_of_two},
                                      {NULL, NULL}};
    test_add_suite("algorithms verify", cases);
    return test_run_suites();
}
