/* testutil.h - shared helpers for the CUnit suites. */
#ifndef COLLSIM_TESTUTIL_H
#define COLLSIM_TESTUTIL_H

#include <CUnit/Basic.h>

#include "algorithms/algorithm.h"
#include "algorithms/verify.h"

/* Runs the registered suites; returns the process exit status (non-zero on failure). */
int test_run_suites(void);

/* Adds a suite with NULL-terminated (name, function) pairs. */
typedef struct test_case {
    const char *name;
    void (*fn)(void);
} test_case;
void test_add_suite(const char *name, const test_case *cases);

/* Prepares `alg` for spec and verifies it with the given engine; fills res. Returns the
 * alg_run_prepare/verify_run status (0 = the verification ran). */
int test_verify(const alg_desc *alg, const coll_spec *spec, verify_mode mode, verify_result *res,
                cs_error *err);

/* Verifies with the full engine and asserts success; on failure prints the algorithm,
 * P, root, dst, dims and the verifier's message. Returns 1 when it passed. */
int test_verify_expect_ok(const alg_desc *alg, const coll_spec *spec);

/* A private platform cache: creates a fresh directory under /tmp (dir, n >= 64) and points
 * COLLSIM_CACHE_DIR at it, so that platforms are emitted by the code under test and
 * nothing is left in the tree; test_cache_dir_remove() deletes it. Returns 0 or -1. */
int test_cache_dir_create(char *dir, size_t n);
void test_cache_dir_remove(const char *dir);

/* The main() of suites that run simulations: the suites (a list ending with a NULL name)
 * run in a private platform cache (test_cache_dir_create), removed after; returns the
 * exit status. */
typedef struct test_suite {
    const char *name;
    const test_case *cases;
} test_suite;
int test_main_cached(const test_suite *suites);

/* Places P ranks (Q per node) on t with a placement text (placement.h); -1 and err on
 * failure. */
struct topology;
int test_place(const char *text, const struct topology *t, int32_t P, int32_t Q, int32_t *hosts,
               cs_error *err);

/* Loads a scenario from its text (written to a temporary file, path: n >= 64, removed
 * again) with the given seed; the plan, or NULL with err. */
struct sweep_plan;
struct sweep_plan *test_load_scenario(const char *text, uint64_t seed, cs_error *err, char *path,
                                      size_t n);

/* sim_config_init, then the topology spec, the algorithm and the collective (P ranks, a
 * vector of `bytes`): what every simulation test starts from. */
struct sim_config;
void test_sim_config(struct sim_config *c, const char *topology, const char *alg, coll_kind coll,
                     int32_t P, int64_t bytes);

/* |got - want| <= rel x |want|; otherwise prints both (and the relative error) and
 * returns 0. */
int test_close_rel(double got, double want, double rel);

/* Path of the collsim binary under test (COLLSIM_BIN, set by ctest). */
const char *test_collsim_bin(void);

/* Minimal distances to host dst over the links that have not failed (faults.h), by
 * Bellman-Ford relaxation (independent of src/topologies/fault_hops.c's search), for
 * every node: dist[v] = links of the path, plus (global links << 32) when global_first
 * (fewest global links first, then fewest links); INT64_MAX when v cannot reach dst.
 * Paths never pass through a host of an indirect network. test_link_weight is one link's
 * term of that sum. */
int64_t test_link_weight(const struct topology *t, int64_t l, int global_first);
void test_remaining_distances(const struct topology *t, int32_t dst, int global_first,
                              int64_t *dist);

/* The papers number a rows x cols torus row-major (rank = row * cols + col, dimension 0 =
 * the rows, slowest); collsim's dims vary dimension 0 fastest (torus_shape.h), so node
 * (row, col) of dims {rows, cols} is rank row + rows * col. Converts a paper's rank. */
int32_t test_from_row_major(int32_t x, int32_t rows, int32_t cols);

/* The largest P a sweep may use: COLLSIM_TEST_MAX_P (the sanitizer build sets it) or def. */
int32_t test_max_p(int32_t def);

/* Generates every rank of a prepared run and calls fn for each of its operations. */
typedef void (*test_op_fn)(void *ctx, int32_t rank, uint32_t step, const sched_op *op,
                           const blk_range *ranges);
void test_walk_ops(const alg_run *run, test_op_fn fn, void *ctx);

#endif
