/* dims_check.c - a point's dims against its rank-to-node mapping before it runs (see
 * dims_check.h). */
#include "sim/dims_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/registry.h"
#include "sim/placement.h"
#include "sim/rank_shape.h"
#include "sim/sim_external.h"

void dims_checker_init(dims_checker *d)
{
    d->t = NULL;
    d->spec[0] = '\0';
}

void dims_checker_free(dims_checker *d)
{
    if (d->t)
        topo_free(d->t);
    dims_checker_init(d);
}

/* The topology of spec, built unless it is the one kept. */
static const topology *topology_of(dims_checker *d, const char *spec, cs_error *err)
{
    if (d->t && strcmp(d->spec, spec) == 0)
        return d->t;
    dims_checker_free(d);
    if (topo_build_spec(spec, &d->t, err) < 0) {
        d->t = NULL;
        return NULL;
    }
    snprintf(d->spec, sizeof d->spec, "%s", spec);
    return d->t;
}

int dims_check(dims_checker *d, const sim_config *c, cs_error *err)
{
    const alg_desc *alg = registry_find(c->algorithms, c->spec.coll, c->algorithm, err);
    if (!alg)
        return -1;
    if (!(alg->flags & ALG_READS_DIMS) || c->spec.ndims == 0 ||
        sim_is_external_platform(c->topology))
        return 0;
    const topology *t = topology_of(d, c->topology, err);
    if (!t)
        return -1;
    int32_t P = c->spec.P;
    int32_t *host_of_rank = malloc((size_t)(P > 0 ? P : 1) * sizeof *host_of_rank);
    if (!host_of_rank)
        return cs_fail(err, "out of memory placing %d ranks", P);
    coll_spec spec = c->spec;
    int rc = placement_compute(&c->placement, t, P, spec.ranks_per_node, host_of_rank, err);
    if (rc == 0)
        rc = rank_shape_resolve(alg, &spec, t, host_of_rank, err);
    free(host_of_rank);
    return rc;
}
