/* grid.c - links and closed-form routes of grid-shaped families (see grid.h). */
#include "topologies/grid.h"

#include "topologies/families.h"

static void coords_of(const topology *t, int64_t v, int32_t *c)
{
    for (int j = 0; j < t->ndims; j++) {
        c[j] = (int32_t)(v % t->dims[j]);
        v /= t->dims[j];
    }
}

void grid_add_links(topology *t, int kind, int32_t first, const link_class *cls,
                    const int32_t *mult, link_sharing sharing)
{
    int64_t nv = 1, stride[TOPO_MAX_DIMS];
    for (int j = 0; j < t->ndims; j++) {
        stride[j] = nv;
        nv *= t->dims[j];
    }
    int32_t c[TOPO_MAX_DIMS];
    for (int64_t v = 1; v < nv; v++) {
        coords_of(t, v, c);
        for (int j = t->ndims - 1; j >= 0; j--) { /* smaller neighbours, ascending */
            int32_t lo = kind == GRID_MESH ? c[j] - 1 : 0;
            for (int32_t x = lo < 0 ? 0 : lo; x < c[j]; x++) {
                int64_t w = v - (int64_t)(c[j] - x) * stride[j];
                int64_t id = topo_add_link(t, first + (int32_t)w, first + (int32_t)v, cls[j],
                                           sharing, 0, 0);
                t->links[id].mult = (uint16_t)(mult ? mult[j] : 1);
            }
        }
    }
}

void grid_set_routing(topology *t, int kind, int32_t first, int ndims, const int32_t *dims)
{
    t->routing = TOPO_ROUTE_SHORTEST;
    t->ndims = ndims;
    for (int j = 0; j < ndims; j++)
        t->dims[j] = dims[j];
    t->fam[0] = kind;
    t->fam[1] = first;
    t->route_fn = grid_route;
    t->next_hops = grid_next_hops;
    t->next_hops_by_switch = grid_next_hops; /* indirect: topo_host_switch(dst) only */
}

static int step(const topology *t, int32_t *cur, int32_t next, topo_hop *hops, int *n, int max)
{
    if (*n >= max || topo_hop_between(t, *cur, next, &hops[*n]) < 0)
        return -1;
    (*n)++;
    *cur = next;
    return 0;
}

int grid_route(const topology *t, int32_t src, int32_t dst, topo_hop *hops, int max)
{
    int kind = t->fam[0];
    int32_t first = t->fam[1];
    int32_t u = t->direct ? src : topo_host_switch(t, src);
    int32_t v = t->direct ? dst : topo_host_switch(t, dst);
    int32_t cu[TOPO_MAX_DIMS], cv[TOPO_MAX_DIMS];
    int64_t stride[TOPO_MAX_DIMS], s = 1;
    for (int j = 0; j < t->ndims; j++) {
        stride[j] = s;
        s *= t->dims[j];
    }
    coords_of(t, u - first, cu);
    coords_of(t, v - first, cv);
    int n = 0;
    if (!t->direct) {
        if (max < 2)
            return -1;
        hops[n++] = (topo_hop){t->host_link[src], 0};
    }
    int32_t cur = u;
    for (int j = t->ndims - 1; j >= 0; j--) /* decreasing coordinates, highest dim first */
        while (cu[j] > cv[j]) {
            int32_t to = kind == GRID_MESH ? cu[j] - 1 : cv[j];
            if (step(t, &cur, cur - (int32_t)((cu[j] - to) * stride[j]), hops, &n, max) < 0)
                return -1;
            cu[j] = to;
        }
    for (int j = 0; j < t->ndims; j++) /* increasing coordinates, lowest dim first */
        while (cu[j] < cv[j]) {
            int32_t to = kind == GRID_MESH ? cu[j] + 1 : cv[j];
            if (step(t, &cur, cur + (int32_t)((to - cu[j]) * stride[j]), hops, &n, max) < 0)
                return -1;
            cu[j] = to;
        }
    if (!t->direct) {
        if (n >= max)
            return -1;
        hops[n++] = (topo_hop){t->host_link[dst], 1};
    }
    return n;
}

int grid_next_hops(const topology *t, int32_t at, int32_t dst, topo_hop *hops, int max)
{
    if (!t->direct) {
        int n = next_hop_host_link(t, at, dst, hops, max);
        if (n != 0)
            return n;
    }
    int32_t first = t->fam[1], v = t->direct ? dst : topo_host_switch(t, dst);
    int32_t cu[TOPO_MAX_DIMS], cv[TOPO_MAX_DIMS];
    coords_of(t, at - first, cu);
    coords_of(t, v - first, cv);
    int n = 0, det = -1, det_dim = -1;
    for (int j = t->ndims - 1; j >= 0 && det_dim < 0; j--) /* sign-ordered: see grid.h */
        if (cu[j] > cv[j])
            det_dim = j;
    for (int j = 0; j < t->ndims && det_dim < 0; j++)
        if (cu[j] < cv[j])
            det_dim = j;
    int64_t stride = 1;
    for (int j = 0; j < t->ndims; j++) {
        if (cu[j] != cv[j]) {
            int32_t to = t->fam[0] == GRID_MESH ? cu[j] + (cu[j] < cv[j] ? 1 : -1) : cv[j];
            if (j == det_dim)
                det = n;
            if (next_hop_add(t, at, at + (int32_t)((to - cu[j]) * stride), hops, &n, max) < 0)
                return -1;
        }
        stride *= t->dims[j];
    }
    return next_hops_put_first(hops, n, det);
}
