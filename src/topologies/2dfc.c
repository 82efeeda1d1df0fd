/* 2dfc.c - the two-dimensional fully connected network (m2 x m1) of the Kautz / 2dfc
 * dissertation (seed 003, reference/kautz-2dfc.md section 1.2).
 *
 * Keys (the thesis' symbols): m1 (X size, nodes per row), m2 (Y size, rows), T hosts per
 * node (T=0, the default: a direct network, one host per node, as in the thesis'
 * simulations), sharing (shared, the default: both directions of a link share one
 * capacity, as the thesis' SimGrid platforms did; full: full duplex).
 * Node (a2, a1) has rank a2*m1 + a1 and is linked to every node of its row and of its
 * column: degree m1 + m2 - 2, diameter 2. Groups: the rows (m1 nodes each), so that a
 * 16 x 17 2dfc is the thesis' "Dragonfly 16x17" (DF-C): row links local, column links
 * global.
 *
 * It is a 2-dimensional HyperX (hyperx.c) with other defaults; routing is the same
 * sign-ordered dimension order (grid.h).
 */
#include "topologies/families.h"

typedef struct twodfc_params {
    int32_t dims[2];
    int64_t T;
    topo_link_params lp;
} twodfc_params;

static int read_2dfc(kv_list *kv, twodfc_params *p, cs_error *err)
{
    int64_t m1, m2;
    if (kv_int(kv, "m1", 4, 1, 1 << 16, &m1, err) < 0 ||
        kv_int(kv, "m2", 4, 1, 1 << 16, &m2, err) < 0 || kv_int(kv, "T", 0, 0, 4096, &p->T, err) < 0)
        return -1;
    unsigned classes = TOPO_CLASS_BIT(LINK_LOCAL) | TOPO_CLASS_BIT(LINK_GLOBAL) |
                       (p->T > 0 ? TOPO_CLASS_BIT(LINK_HOST) : 0);
    p->dims[0] = (int32_t)m1;
    p->dims[1] = (int32_t)m2;
    return topo_link_params_read_for(kv, classes, LINK_SHARED, &p->lp, err);
}

int topo_size_2dfc(kv_list *kv, topo_size *s, cs_error *err)
{
    twodfc_params p;
    if (read_2dfc(kv, &p, err) < 0)
        return -1;
    return topo_size_hamming(2, p.dims, p.T, s, err);
}

int topo_build_2dfc(kv_list *kv, topology **out, cs_error *err)
{
    twodfc_params p;
    if (read_2dfc(kv, &p, err) < 0)
        return -1;
    int32_t mult[2] = {1, 1};
    return topo_build_hamming("2dfc", 2, p.dims, p.T, mult, &p.lp, out, err);
}
