/* fuzz_goal.c - fuzz harness: importing GOAL schedule files (src/schedio: goal_read,
 * the collsim header and annotations, dependency layers; file_alg), then using what was
 * imported as every command does.
 *
 * The first byte picks the reader options a plain GOAL file needs (collective, vector
 * size, root); the rest is the file. A file that imports is then
 *   - verified with the full engine when it is small (P <= 64, at most 4096 operations):
 *     the verifier must give a verdict, never crash, whatever the schedule;
 *   - exported again (goal_write, annotated) and re-imported: what collsim read, it must
 *     be able to write and read back, with the same P and the same number of operations.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "algorithms/verify.h"
#include "fuzz_input.h"
#include "schedio/file_alg.h"

static const coll_kind COLLS[] = {COLL_ALLREDUCE, COLL_BCAST, COLL_ALLTOALL, COLL_REDUCE,
                                  COLL_ALLGATHER, COLL_P2P, COLL_GATHER, COLL_REDUCE_SCATTER};

static int64_t total_ops(const sched_file *f)
{
    int64_t n = 0;
    for (int32_t r = 0; r < f->layout.P; r++)
        n += f->ranks[r].nops;
    return n;
}

/* Exports the run and imports the text again; aborts when that fails or differs in size. */
static void round_trip(const alg_run *run, const sched_file *orig)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    goal_write_options wo;
    goal_write_options_default(&wo);
    cs_error err;
    if (!f || goal_write(f, run, &wo, &err) < 0)
        abort();
    fclose(f);
    FILE *in = fmemopen(text, len, "r");
    goal_read_options ro;
    goal_read_options_default(&ro);
    sched_file again;
    if (!in || goal_read(in, "roundtrip.goal", &ro, &again, &err) < 0) {
        fprintf(stderr, "re-import failed: %s\n", err.msg);
        abort();
    }
    fclose(in);
    if (again.layout.P != orig->layout.P || total_ops(&again) != total_ops(orig))
        abort();
    sched_file_free(&again);
    free(text);
}

static void use_schedule(const file_alg *a)
{
    coll_spec spec;
    file_alg_spec(a, &spec);
    alg_run run;
    cs_error err;
    if (alg_run_prepare(&run, &a->desc, &spec, &err) < 0)
        abort(); /* the file's own spec must be accepted */
    if (spec.P <= 64 && total_ops(&a->sched) <= 4096) {
        verify_options opt;
        verify_options_default(&opt);
        opt.mode = VERIFY_FULL;
        opt.threads = 1;
        verify_result res;
        verify_run(&run, &opt, &res, &err);
        round_trip(&run, &a->sched);
    }
    alg_run_release(&run);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 16384)
        return 0;
    char path[64];
    fuzz_write_file("goal", ".goal", data + 1, size - 1, path, sizeof path);
    goal_read_options ro;
    goal_read_options_default(&ro);
    ro.coll = COLLS[data[0] % 8];
    ro.bytes = (data[0] >> 3) & 1 ? 4096 : 0;
    ro.root = (data[0] >> 4) & 3;
    file_alg *a;
    cs_error err;
    if (file_alg_load(path, &ro, &a, &err) == 0) {
        use_schedule(a);
        file_alg_free(a);
    }
    unlink(path);
    return 0;
}
