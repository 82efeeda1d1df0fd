/* sim_actors.c - one SimGrid actor per rank, executing the rank's schedule.
 *
 * The actor generates its schedule through a streaming builder that hands over every
 * finished step at once (flush_every = 1; a rank with dependencies or tags comes whole,
 * schedule.h), and executes each chunk inside that callback with the rank executor
 * (sim_exec.c): the actor's stack holds the generator, so only the current step is in
 * memory (alg_run_gen is re-entrant per rank and the prepared context is read-only, so
 * actors interleaving inside generators is safe).
 *
 * Rank a's messages to rank b with tag t use mailbox "a>b" (t = 0) or "a>b#t": SimGrid
 * matches a mailbox's puts and gets in FIFO order, which is the IR's rule (the k-th send
 * a->b with tag t meets the k-th receive at b from a with tag t). Sends of at most
 * eager_limit bytes are detached: the sender does not wait for them (the receiver does).
 * The packet model matches them the same way on its channels (exec_net.c). The executor
 * is the same in every timed model, with or without endpoint costs.
 */
#include <stdio.h>
#include <stdlib.h>

#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/mailbox.h>
#include <xbt/dynar.h>

#include "common/util.h"
#include "sim/sim_internal.h"

typedef struct rank_actor {
    sim_state *st;
    int32_t rank;
    int stuck;             /* the executor found ops that can never start */
    sim_exec_scratch x;
} rank_actor;

/* Streaming sink: runs the steps as the generator finishes them. */
static void exec_chunk(void *ctx, const rank_sched *chunk, uint32_t first_step)
{
    rank_actor *a = ctx;
    if (a->stuck)
        return;
    if (sim_exec_chunk(a->st, a->rank, &a->x, chunk, first_step) < 0) {
        a->stuck = 1;
        return;
    }
    traffic_tally_steps(&a->st->tally, (int32_t)(first_step + chunk->nsteps));
}

static void rank_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    rank_actor *a = sg_actor_self_get_data();
    sim_state *st = a->st;
    a->x.route = xbt_dynar_new(sizeof(sg_link_t), NULL);
    sched_builder b;
    sb_init_streaming(&b, &st->run->layout, exec_chunk, a);
    b.flush_every = 1;
    alg_run_gen(st->run, a->rank, &b);
    sb_free(&b);
    if (!a->stuck)
        st->finish[a->rank] = sim_clock(st);
    if (st->net)
        pk_rank_exit(st->net, st->rank0 + a->rank);
    xbt_dynar_t route = a->x.route;
    xbt_dynar_free(&route);
    sim_exec_scratch_free(&a->x);
    free(a);
}

void sim_actors_start(sim_state *st)
{
    for (int32_t r = 0; r < st->run->spec.P; r++) {
        rank_actor *a = xcalloc(1, sizeof *a);
        a->st = st;
        a->rank = r;
        st->finish[r] = -1;
        char name[32];
        snprintf(name, sizeof name, "rank%d", r);
        sg_actor_t actor = sg_actor_init(name, st->rank_host[r]);
        sg_actor_set_data(actor, a);
        sg_actor_start_(actor, rank_main, 0, NULL);
    }
}

/* "send to 3 (rank 3 in step 2), recv from 1 (finished)": the messages of rank r's step s
 * and where their peers stopped, from the rank's schedule generated again. */
static void describe_blocked(const sim_state *st, int32_t r, char *buf, size_t n)
{
    sched_builder b;
    sb_init(&b, &st->run->layout);
    alg_run_gen(st->run, r, &b);
    const rank_sched *rs = &b.rs;
    uint32_t s = st->step[r];
    size_t len = 0;
    int shown = 0;
    for (uint32_t i = s < rs->nsteps ? rs_step_begin(rs, s) : 0;
         s < rs->nsteps && i < rs_step_end(rs, s) && len < n; i++) {
        const sched_op *o = &rs->ops[i];
        if (o->kind != OP_SEND && o->kind != OP_RECV)
            continue;
        if (shown++ == 4) {
            len += (size_t)snprintf(buf + len, n - len, ", ...");
            break;
        }
        char where[48];
        if (st->finish[o->peer] >= 0)
            snprintf(where, sizeof where, "finished");
        else
            snprintf(where, sizeof where, "rank %d in step %u", o->peer, st->step[o->peer]);
        len += (size_t)snprintf(buf + len, n - len, "%s%s %d (%s)", shown > 1 ? ", " : "",
                                o->kind == OP_SEND ? "send to" : "recv from", o->peer, where);
    }
    if (shown == 0)
        snprintf(buf, n, "no message in that step");
    sb_free(&b);
}

int sim_actors_check_finished(const sim_state *st, cs_error *err)
{
    int32_t P = st->run->spec.P, stuck = 0;
    for (int32_t r = 0; r < P; r++)
        stuck += st->finish[r] < 0;
    if (stuck == 0)
        return 0;
    /* SimGrid ends the run when every remaining actor waits for a communication that no
     * actor can match (it logs "Deadlock or code not perfectly clean" and kills them): name
     * the first blocked ranks, their step and the messages they wait for. */
    char detail[CS_ERROR_MAX] = "";
    size_t len = 0;
    int listed = 0;
    for (int32_t r = 0; r < P && listed < 3 && len < sizeof detail; r++) {
        if (st->finish[r] >= 0)
            continue;
        char what[384];
        describe_blocked(st, r, what, sizeof what);
        len += (size_t)snprintf(detail + len, sizeof detail - len, "%srank %d in step %u: %s",
                                listed++ ? "; " : "", r, st->step[r], what);
    }
    return cs_fail(err, "deadlock: %d of %d rank(s) never finished, blocked on messages "
                        "without a match: %s%s", stuck, P, detail, stuck > listed ? "; ..." : "");
}
