/* endpoint_exec.h - the rank executor's side of endpoint costs (endpoint.h) in SimGrid:
 * a step's messages with send / receive overheads, NIC gaps, envelopes and rendezvous
 * (not a public header; used by sim_actors.c, state in sim_internal.h).
 *
 * The executor, for a step, posts every receive (endpoint_step_recv), queues every send
 * (endpoint_step_send), then runs the step's messages (endpoint_step_run): the sends in
 * order, each after the rank's send overhead and its port's gap, then it waits for every
 * message, paying the receive overhead as each one arrives.
 *
 * Mailboxes (flow models): a message from a to b is matched on "a>b", as without endpoint
 * costs: an eager send puts its data there, a rendezvous send its request (envelope
 * bytes, marked as such), so the k-th send a -> b still meets the k-th receive at b from a.
 * The receiver answers a request with a reply on "a>b:c" and takes the data from "a>b:d";
 * these two mailboxes carry nothing else, so control messages never disturb the data's
 * matching.
 */
#ifndef COLLSIM_ENDPOINT_EXEC_H
#define COLLSIM_ENDPOINT_EXEC_H

#include <simgrid/forward.h>

#include "sim/endpoint.h"

struct sim_state;

/* Shared by the actors of one run (sim_state.ep; NULL when endpoint costs are off). */
typedef struct endpoint_sim {
    endpoint_config cfg;
    endpoint_ports ports;
    char request_tag; /* its address marks a rendezvous request's payload */
} endpoint_sim;

/* One message of the current step. */
typedef struct endpoint_msg {
    sg_comm_t comm;
    int kind;      /* endpoint_exec.c: what the pending communication is */
    int32_t peer;
    int64_t bytes; /* payload */
    void *payload; /* where a receive stores the sender's payload pointer */
} endpoint_msg;

/* A rank's messages of the current step (reused from step to step). */
typedef struct endpoint_step {
    endpoint_msg *msgs;
    size_t n, cap;
    int32_t *sends; /* indices of queued sends in msgs */
    size_t nsends, cap_sends;
    sg_comm_t *comms; /* scratch for sg_comm_wait_any */
    size_t *slot;
} endpoint_step;

void endpoint_step_free(endpoint_step *s);
/* Posts a receive from peer (the message may be eager data or a rendezvous request). */
void endpoint_step_recv(struct sim_state *st, int32_t rank, endpoint_step *s, int32_t peer);
/* Queues a send of `bytes` to peer for endpoint_step_run. */
void endpoint_step_send(endpoint_step *s, int32_t peer, int64_t bytes);
/* Injects the queued sends and waits for every message of the step (route: a scratch
 * dynar of sg_link_t for traffic counting). */
void endpoint_step_run(struct sim_state *st, int32_t rank, endpoint_step *s, void *route);

#endif
