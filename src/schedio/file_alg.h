/* file_alg.h - an algorithm read from a schedule file ("algorithm from file").
 *
 * file_alg_load reads a GOAL file (goal.h) and wraps the schedule in an alg_desc that
 * every consumer of algorithms takes as it takes a built-in one: the verifier
 * (verify_run), the simulator (sim_config.algorithms), the traffic counter, the exporters.
 * Its generator replays the stored ranks. The descriptor's name is "file:<basename>",
 * its collective the file's (or the reader options' for a byte-only file).
 *
 * The schedule is fixed: prepare() accepts only the file's P, collective, root and vector
 * size (file_alg_spec fills a coll_spec with them) and fails naming what differs.
 *
 * The same pattern (a descriptor embedded in its definition, see algorithm.h)
 * serves run-time algorithms of any origin; user_alg.h does it for Lua (src/sweep/lua_alg.h).
 */
#ifndef COLLSIM_FILE_ALG_H
#define COLLSIM_FILE_ALG_H

#include "algorithms/registry.h"
#include "schedio/goal.h"

typedef struct file_alg {
    alg_desc desc;    /* first member: prepare() finds the file_alg from it (algorithm.h) */
    sched_file sched;
    char name[96];
    char summary[160];
} file_alg;

/* Reads the file; *out is allocated (free with file_alg_free). */
int file_alg_load(const char *path, const goal_read_options *opt, file_alg **out,
                  cs_error *err);
void file_alg_free(file_alg *a);

/* The spec the schedule was made for: collective, P, root, dst, vector size. */
void file_alg_spec(const file_alg *a, coll_spec *spec);

#endif
