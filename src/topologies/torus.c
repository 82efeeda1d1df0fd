/* torus.c - the torus family: any number of dimensions, wrap-around, one host per node.
 *
 * Emitted as SimGrid's TORUS cluster, whose dimension-order routing route.c reproduces.
 * Node i has coordinates (i mod d0, (i / d0) mod d1, ...): dimension 0 varies fastest.
 * Link i*ndims + j goes from node i to its +1 neighbour in dimension j.
 */
#include "topologies/families.h"

int topo_build_torus(kv_list *kv, topology **out, cs_error *err)
{
    int32_t dims[TOPO_MAX_DIMS];
    int nd;
    topo_link_params lp;
    if (kv_dims(kv, "dims", "4x4", dims, TOPO_MAX_DIMS, &nd, err) < 0 ||
        topo_link_params_read(kv, &lp, err) < 0)
        return -1;
    int64_t n = 1;
    for (int d = 0; d < nd; d++) {
        n *= dims[d];
        if (n > (1 << 26))
            return cs_fail(err, "dims: more than 2^26 nodes");
    }
    topology *t = topo_new("torus", (int32_t)n, 0);
    t->routing = TOPO_ROUTE_TORUS;
    t->ndims = nd;
    for (int d = 0; d < nd; d++)
        t->dims[d] = dims[d];
    for (int64_t i = 0; i < n; i++) {
        int64_t prod = 1;
        for (int j = 0; j < nd; j++) {
            int64_t c = (i / prod) % dims[j];
            int64_t nb = c == dims[j] - 1 ? i - (dims[j] - 1) * prod : i + prod;
            topo_add_link(t, (int32_t)i, (int32_t)nb, LINK_LOCAL, LINK_FULL_DUPLEX, 0, 0);
            prod *= dims[j];
        }
    }
    topo_apply_link_params(t, &lp);
    *out = t;
    return 0;
}
