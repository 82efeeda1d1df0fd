/* fuzz_topology.h - the topology check shared by fuzz_topo_spec.c and fuzz_preset.c.
 *
 * A spec (a family with keys, or a preset file) is sized first (topo_size_spec, with which
 * commands refuse huge topologies before building them, sim/estimate.h); a legal topology
 * estimated over FUZZ_TOPO_MEMORY (up to 2^26 hosts are legal) is not built. Checks: when
 * sizing fails, building fails with the same message; a failed build hands out no
 * topology; a built topology has exactly the size computed. */
#ifndef COLLSIM_FUZZ_TOPOLOGY_H
#define COLLSIM_FUZZ_TOPOLOGY_H

#include <stdlib.h>
#include <string.h>

#include "sim/estimate.h"
#include "topologies/topology.h"

#define FUZZ_TOPO_MEMORY ((int64_t)48 << 20)

static inline void fuzz_topology(const char *spec)
{
    topo_size s;
    run_estimate e;
    cs_error size_err, err;
    int sized = topo_size_spec(spec, &s, &size_err) == 0;
    if (sized) {
        estimate_topology(&s, &e);
        if (estimate_check(&e, FUZZ_TOPO_MEMORY, &err) < 0)
            return;
    }
    topology *t = NULL;
    if (topo_build_spec(spec, &t, &err) == 0) {
        if (!sized || !t || t->nhosts < 1 || s.hosts != t->nhosts ||
            s.switches != t->nswitches || s.links != (double)t->nlinks)
            abort();
        topo_free(t);
    } else if (t || (!sized && strcmp(err.msg, size_err.msg) != 0)) {
        abort();
    }
}

#endif
