/* endpoint_keys.h - the endpoint-cost keys a topology spec or a machine preset may carry
 * (send_overhead, recv_overhead, msg_gap, envelope, eager_limit; their meaning and units
 * belong to the simulator: src/sim/endpoint.h, docs/simulator.md "Endpoint costs").
 *
 * The topology layer only collects their text and where it came from: a spec's words
 * ("torus dims=4x4 send_overhead=1us"), a preset's top-level fields and a preset's
 * `include: FRAGMENT.yaml` (a calibration fragment, path relative to the preset, holding
 * just these keys). Precedence: spec word > preset field > included fragment. The keys
 * never reach the family generators nor the platform cache key: a topology with and
 * without endpoint costs is the same platform.
 *
 * The spec word `endpoint=none` drops the preset's keys (its fields and its include): the
 * machine's network alone, as results made before the presets carried endpoint costs
 * ("platforms/lumi.yaml endpoint=none"); the spec's own endpoint words still apply.
 */
#ifndef COLLSIM_ENDPOINT_KEYS_H
#define COLLSIM_ENDPOINT_KEYS_H

#include "common/error.h"
#include "common/kv.h"

#define TOPO_ENDPOINT_KEYS "send_overhead, recv_overhead, msg_gap, envelope, eager_limit"
#define TOPO_ENDPOINT_NKEYS 5
#define TOPO_ENDPOINT_OFF "endpoint" /* the spec word endpoint=none */
#define TOPO_ENDPOINT_OFF_VALUES "none (drops the preset's endpoint keys)"

typedef struct topo_endpoint_key {
    char key[32];
    char value[160];
    char where[600]; /* "platforms/x.yaml:12:3" or "topology spec" */
} topo_endpoint_key;

typedef struct topo_endpoint_keys {
    topo_endpoint_key items[TOPO_ENDPOINT_NKEYS];
    int n;
} topo_endpoint_keys;

/* 1 if key is one of TOPO_ENDPOINT_KEYS. */
int topo_is_endpoint_key(const char *key);
/* Adds or replaces a key (later calls win: call in increasing precedence). */
void topo_endpoint_keys_set(topo_endpoint_keys *k, const char *key, const char *value,
                            const char *where);
/* Moves the endpoint keys out of a spec's key=value list into k (where "topology spec"),
 * and the word endpoint=none (*off = 1). Error: endpoint= with another value. */
int topo_endpoint_keys_take(kv_list *kv, topo_endpoint_keys *k, int *off, cs_error *err);
/* The endpoint keys of a whole spec ("family k=v ..." or "preset.yaml k=v ..."): the
 * preset's (with its include) overridden by the spec's words. Errors: those of reading
 * the preset and the fragment (file:line:col). An external platform (.xml) has none. */
int topo_spec_endpoint_keys(const char *spec, topo_endpoint_keys *k, cs_error *err);
/* What a spec takes from its preset file (fields and include; none with endpoint=none or
 * without a preset), one "preset_key=value" line each ("preset_send_overhead=625ns\n"),
 * in buf ("" when none): a sweep point's identity must change when they do (sweep/plan.c). */
int topo_spec_preset_endpoint_text(const char *spec, char *buf, size_t n, cs_error *err);
/* The spec without its words endpoint=none (buf): the same words the sweep ids knew before
 * presets carried endpoint costs, so that a network-only point keeps its id. */
void topo_spec_without_endpoint_off(const char *spec, char *buf, size_t n);

#endif
