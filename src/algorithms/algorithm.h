/* algorithm.h - what an algorithm is: a described generator of schedules.
 *
 * An algorithm family file (src/algorithms/<family>.c) defines one or more alg_desc:
 *
 *   prepare(spec, layout, &ctx, err)   checks the constraints (power-of-two P, even P,
 *                                      dimensions, ranks per node, parameters), chooses
 *                                      the block layout, precomputes what every rank
 *                                      needs into ctx; returns -1 with a message naming
 *                                      the violated constraint
 *   gen_rank(spec, ctx, rank, builder)  writes one rank's schedule (any rank, any order,
 *                                      from several threads at once: ctx is read-only)
 *   release(ctx)                        frees ctx
 *
 * On entry to prepare, *ctx holds the algorithm's own descriptor (a prepare that sets no
 * context leaves NULL behind, as before): run-time algorithms (a schedule file, a Lua
 * function; see src/schedio/file_alg.h) embed their alg_desc in a larger struct and find
 * their definition from it, so that one prepare() serves many descriptors.
 *
 * Algorithms see only the collective spec: P, root, vector size, ranks per node, the
 * logical dimensions of a torus/grid if the algorithm is topology-aware, and their own
 * parameters. They know nothing about SimGrid or topologies (DESIGN.md).
 */
#ifndef COLLSIM_ALGORITHM_H
#define COLLSIM_ALGORITHM_H

#include <stdint.h>

#include "algorithms/schedule.h"
#include "common/error.h"

#define SPEC_MAX_DIMS 8
#define SPEC_MAX_PARAMS 16
#define SPEC_PARAM_LEN 64

struct workload; /* src/traffic/workload.h: bytes per (src, dst) for alltoallv */

typedef struct spec_param {
    char name[SPEC_PARAM_LEN];
    char value[SPEC_PARAM_LEN];
} spec_param;

/* One collective call to generate a schedule for. */
typedef struct coll_spec {
    coll_kind coll;
    int32_t P;              /* ranks */
    int32_t root;           /* rooted collectives; p2p: the source */
    int32_t dst;            /* p2p: the destination (default 1) */
    int64_t bytes;          /* vector size n (see docs/collectives.md for each collective) */
    int32_t ranks_per_node; /* Q: ranks r*Q .. r*Q+Q-1 share a node (block placement) */
    int ndims;              /* logical shape, for topology-aware algorithms; 0 = none */
    int32_t dims[SPEC_MAX_DIMS];
    int nparams;
    spec_param params[SPEC_MAX_PARAMS];
    const struct workload *workload; /* alltoallv */
} coll_spec;

/* Fills the defaults: root 0, p2p destination 1, one rank per node, no dims, no params. */
void coll_spec_init(coll_spec *s, coll_kind coll, int32_t P, int64_t bytes);
/* Sets (or replaces) a parameter; -1 if there are too many or they are too long. */
int coll_spec_set_param(coll_spec *s, const char *name, const char *value, cs_error *err);
/* Sets every "name=value" of a list separated by spaces ("" sets none); -1 on a word
 * without '=' or as coll_spec_set_param. */
int coll_spec_set_params(coll_spec *s, const char *text, cs_error *err);
/* The value of a parameter, or NULL. */
const char *coll_spec_param(const coll_spec *s, const char *name);

/* A parameter an algorithm accepts. */
typedef enum { PARAM_INT, PARAM_SIZE, PARAM_CHOICE } param_type;
typedef struct alg_param_desc {
    const char *name;
    param_type type;
    const char *def;     /* default value as text */
    const char *choices; /* PARAM_CHOICE: "a|b|c"; PARAM_INT: "min..max" or NULL */
    const char *doc;
} alg_param_desc;

typedef struct alg_desc {
    coll_kind coll;
    const char *name;
    const char *summary;     /* one line for `collsim list` */
    const char *constraints; /* e.g. "P power of two", "any P >= 2" */
    const alg_param_desc *params; /* terminated by {NULL}; may be NULL */
    int (*prepare)(const coll_spec *spec, sched_layout *layout, void **ctx, cs_error *err);
    void (*gen_rank)(const coll_spec *spec, const void *ctx, int32_t rank, sched_builder *b);
    void (*release)(void *ctx);
    /* ALG_READS_DIMS: a topology-aware algorithm that reads coll_spec.dims (dimension 0
     * fastest, torus_shape.h); the simulator gives it the placed ranks' shape as default
     * dims and refuses dims that contradict it (src/sim/rank_shape.h). */
    unsigned flags;
} alg_desc;

#define ALG_READS_DIMS 1u
/* ALG_DEPS: some ranks have explicit dependencies or tags (schedule.h): the verifier uses
 * its full engine (the streaming one proves deadlock freedom for step schedules only),
 * the analytic model refuses the schedule (it estimates step by step). */
#define ALG_DEPS 2u
/* ALG_ANY_P: P = 1 is allowed (a schedule file of one rank, GOAL's `num_ranks 1`). */
#define ALG_ANY_P 4u

/* Parameter access for prepare(): the value given in the spec, else the default from
 * the algorithm's parameter table; validated against the declared type and range/choices. */
int alg_param_int(const alg_param_desc *params, const coll_spec *s, const char *name,
                  int64_t *out, cs_error *err);
int alg_param_size(const alg_param_desc *params, const coll_spec *s, const char *name,
                   int64_t *out, cs_error *err);
/* Returns the index of the chosen value in the "a|b|c" list. */
int alg_param_choice(const alg_param_desc *params, const coll_spec *s, const char *name,
                     int *out, cs_error *err);

/* Every parameter given in the spec is declared by the algorithm and parses as its type
 * (alg_run_prepare does this too; scenarios check their parameters before any run). */
int alg_check_params(const alg_desc *a, const coll_spec *s, cs_error *err);

/* An algorithm ready to generate: descriptor + spec + layout + context.
 *
 * barrier: every rank's schedule starts with a dissemination barrier (sb_dissemination
 * with 0 bytes: ceil(log2 P) steps of 0-byte messages) before the algorithm's own steps,
 * so a simulation times barrier + collective (`collsim sim --barrier`). The algorithm
 * never sees it; whoever generates from the run (SimGrid actors, the traffic model, the
 * estimates) gets the same prefixed schedule. alg_run_prepare leaves it 0. */
typedef struct alg_run {
    const alg_desc *alg;
    coll_spec spec;
    sched_layout layout;
    void *ctx;
    int barrier;
} alg_run;

/* Validates the spec (P >= 2, root in range, p2p destination in range and not the root,
 * parameters declared and well-formed), then calls prepare. Errors start with
 * "<collective> <algorithm>: ". */
int alg_run_prepare(alg_run *run, const alg_desc *alg, const coll_spec *spec, cs_error *err);
/* Generates one rank into b (sb_begin_rank .. sb_end_rank included), after the barrier
 * steps when run->barrier is set. */
void alg_run_gen(const alg_run *run, int32_t rank, sched_builder *b);
void alg_run_release(alg_run *run);

/* Common constraint checks for prepare(); each names the constraint in its message. */
int require_pow2(const coll_spec *s, cs_error *err);
int require_even(const coll_spec *s, cs_error *err);
int require_dims(const coll_spec *s, cs_error *err); /* ndims >= 1 and product == P */

#endif
