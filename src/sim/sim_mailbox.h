/* sim_mailbox.h - the SimGrid mailbox of each (from, to, tag) channel, looked up once.
 *
 * Rank a's messages to rank b with tag t go through mailbox "a>b" (t = 0) or "a>b#t"
 * (sim_actors.c), prefixed "Jk:" for job k > 0 of several (jobs.h). Finding it by name costs a snprintf and SimGrid's string map per
 * message; this cache keeps the mailbox of every channel seen, keyed by the numbers.
 * It lives in the point's sim_state (actors run one at a time: no locks). */
#ifndef COLLSIM_SIM_MAILBOX_H
#define COLLSIM_SIM_MAILBOX_H

#include <stddef.h>
#include <stdint.h>

#include <simgrid/forward.h>

#include "common/u64map.h"

typedef struct sim_mailboxes {
    u64map first;        /* (from, to) -> its first entry */
    sg_mailbox_t *mb;    /* per entry */
    int64_t *tag;        /* per entry: tag x 4 + kind */
    int64_t *next;       /* per entry: the next entry of the same (from, to), or -1 */
    size_t n, cap;
} sim_mailboxes;

/* The mailbox of channel (from, to, tag, kind) of job `job` (0: a single job), found by
 * name on first use; kind 0 is the data (or a rendezvous request), 1 a rendezvous reply
 * (":c" appended), 2 rendezvous data (":d"), as exec_net.c's channels. A zeroed struct is
 * an empty cache; one cache serves one job. */
sg_mailbox_t sim_mailbox(sim_mailboxes *m, int32_t job, int32_t from, int32_t to, int32_t tag,
                         int kind);
void sim_mailboxes_free(sim_mailboxes *m);

#endif
