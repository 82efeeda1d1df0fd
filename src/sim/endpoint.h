/* endpoint.h - endpoint costs of a message (LogGP-style; docs/simulator.md "Endpoint
 * costs"), the same in every network model:
 *
 *   send_overhead o_s  CPU time of the sending rank per message, before it is injected;
 *                      the rank is busy (its overheads are serial, a step's sends one
 *                      after the other);
 *   recv_overhead o_r  CPU time of the receiving rank per message, once it has arrived
 *                      (serial too: messages arriving together are processed in turn);
 *   msg_gap g          minimum time between two injections on one NIC port; a host has
 *                      as many ports as network links (direct networks: its links;
 *                      indirect: nic_ports), its ranks share them and a message takes the
 *                      port free first; the rank waits for it (LogGP's stall); messages
 *                      between ranks of one host (loopback) have no gap;
 *   envelope           bytes added to every message on the wire;
 *   eager_limit        when set, a send of at most that many bytes is eager (complete for
 *                      the sender once injected), a larger one a rendezvous: a request of
 *                      `envelope` bytes to the receiver, a reply of `envelope` bytes once
 *                      the receive is posted, then the data (the sender waits for it).
 *                      Unset: today's rule (a send completes when its data has arrived;
 *                      under smpi, sends below 64 KiB are detached).
 *
 * Everything 0 and eager_limit unset (endpoint_active() = 0) is the simulator without
 * endpoint costs, exactly. The values come from, in increasing precedence: a machine
 * preset's fields (and its include), the topology spec's keys, the CLI options / sweep
 * keys (endpoint_resolve).
 */
#ifndef COLLSIM_ENDPOINT_H
#define COLLSIM_ENDPOINT_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/* Bits of endpoint_config.given: the keys set explicitly. */
enum {
    EP_SEND_OVERHEAD = 1, EP_RECV_OVERHEAD = 2, EP_MSG_GAP = 4, EP_ENVELOPE = 8,
    EP_EAGER_LIMIT = 16
};

typedef struct endpoint_config {
    double send_overhead_s, recv_overhead_s, msg_gap_s;
    int64_t envelope_B, eager_limit_B;
    int eager_set;  /* eager_limit given (0 is a limit: every non-empty send rendezvous) */
    unsigned given; /* EP_* bits of the keys set (for precedence) */
} endpoint_config;

#define ENDPOINT_MAX_TIME_S 1.0              /* a per-message cost above a second is a typo */
#define ENDPOINT_MAX_ENVELOPE_B (1LL << 20)  /* 1 MiB */

void endpoint_config_init(endpoint_config *c);
/* 1 if any cost is non-zero or eager_limit is set. */
int endpoint_active(const endpoint_config *c);
/* Sets one key (send_overhead, recv_overhead, msg_gap: times "1.2us", "0"; envelope,
 * eager_limit: sizes "64B", "8KiB"); errors name the value and what is allowed (the
 * caller prefixes the key or option).
 * An unknown key is an error listing the keys. */
int endpoint_set(endpoint_config *c, const char *key, const char *value, cs_error *err);
/* Copies into base the keys `over` has set. */
void endpoint_merge(endpoint_config *base, const endpoint_config *over);
/* The effective configuration of a point: the topology spec's keys (its preset's, then
 * its own words; topologies/endpoint_keys.h) overridden by `over` (CLI / sweep keys).
 * Errors name where a bad value came from (file:line:col or "topology spec"). */
int endpoint_resolve(const char *topology, const endpoint_config *over, endpoint_config *out,
                     cs_error *err);
/* Appends the active keys to a model description: " send_overhead=1200ns msg_gap=50ns
 * envelope=64 eager_limit=8192" (times in ns, sizes in bytes; nothing when inactive). */
void endpoint_describe(const endpoint_config *c, char *buf, size_t n);

/* The keys given (c->given), one "key=value\n" line each, exact (%.17g seconds, bytes),
 * given zeros included: a sweep point's identity (sweep/plan.c). */
void endpoint_canonical_text(const endpoint_config *c, char *buf, size_t n);

/* ---- costs (pure; the SimGrid side is sim_exec.c) ------------------------------------ */

/* NIC ports of every host: when each may inject next. */
typedef struct endpoint_ports {
    int64_t *first;  /* per host: index of its first port in free_at (nhosts + 1) */
    double *free_at; /* per port */
} endpoint_ports;

struct topology;
/* One port per network link of the host in direct networks, nic_ports in indirect ones. */
void endpoint_ports_init(endpoint_ports *p, const struct topology *t);
void endpoint_ports_free(endpoint_ports *p);
/* A message leaves src_host for dst_host, its send overhead having ended at `ready`: the
 * injection time (the earliest free port's next slot, at least ready) and the port
 * reserved until then + msg_gap. Same host: ready (no port). */
double endpoint_inject_at(const endpoint_config *c, endpoint_ports *p, int32_t src_host,
                          int32_t dst_host, double ready);
/* Bytes on the wire of a message of `bytes`. */
static inline int64_t endpoint_wire_bytes(const endpoint_config *c, int64_t bytes)
{
    return bytes + c->envelope_B;
}
/* 1 if a send of `bytes` does a rendezvous first. */
static inline int endpoint_rendezvous(const endpoint_config *c, int64_t bytes)
{
    return c->eager_set && bytes > c->eager_limit_B;
}

#endif
