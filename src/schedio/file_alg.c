/* file_alg.c - a schedule file as an algorithm (see file_alg.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "schedio/file_alg.h"

static int file_prepare(const coll_spec *spec, sched_layout *layout, void **ctx, cs_error *err)
{
    const file_alg *a = *ctx; /* alg_run_prepare passes the descriptor, a's first member */
    const sched_layout *l = &a->sched.layout;
    if (spec->P != l->P)
        return cs_fail(err, "the schedule file has P=%d ranks, not P=%d", l->P, spec->P);
    if (coll_has_root(spec->coll) && spec->root != l->root)
        return cs_fail(err, "the schedule file's root is %d, not %d", l->root, spec->root);
    if (a->sched.has_blocks && spec->bytes != a->sched.bytes)
        return cs_fail(err, "the schedule file is for a vector of %" PRId64 " bytes, not %" PRId64,
                       a->sched.bytes, spec->bytes);
    *layout = *l;
    *ctx = (void *)&a->sched;
    return 0;
}

static void file_gen_rank(const coll_spec *spec, const void *ctx, int32_t rank, sched_builder *b)
{
    (void)spec;
    const sched_file *f = ctx;
    sb_replay(b, &f->ranks[rank]);
}

static void file_release(void *ctx)
{
    (void)ctx; /* the schedule belongs to the file_alg */
}

int file_alg_load(const char *path, const goal_read_options *opt, file_alg **out,
                  cs_error *err)
{
    file_alg *a = xcalloc(1, sizeof *a);
    if (goal_read_path(path, opt, &a->sched, err) < 0) {
        free(a);
        return -1;
    }
    const char *base = strrchr(path, '/');
    snprintf(a->name, sizeof a->name, "file:%s", base ? base + 1 : path);
    snprintf(a->summary, sizeof a->summary, "schedule read from %s (%s%s%s)", path,
             a->sched.has_blocks ? "with blocks" : "byte-only",
             a->sched.algorithm[0] ? ", written from " : "", a->sched.algorithm);
    a->desc.coll = a->sched.layout.coll;
    a->desc.name = a->name;
    a->desc.summary = a->summary;
    a->desc.constraints = "the file's P, root and size";
    a->desc.prepare = file_prepare;
    a->desc.gen_rank = file_gen_rank;
    a->desc.release = file_release;
    a->desc.flags = ALG_ANY_P | (a->sched.has_deps ? ALG_DEPS : 0);
    *out = a;
    return 0;
}

void file_alg_free(file_alg *a)
{
    if (!a)
        return;
    sched_file_free(&a->sched);
    free(a);
}

void file_alg_spec(const file_alg *a, coll_spec *spec)
{
    const sched_layout *l = &a->sched.layout;
    coll_spec_init(spec, l->coll, l->P, a->sched.bytes);
    spec->root = l->root;
    if (l->coll == COLL_P2P)
        spec->dst = l->dst;
}
