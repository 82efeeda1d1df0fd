/* torus.c - tori and meshes: any number of dimensions, one host per node.
 *
 * Keys: dims (e.g. 8x8x8, dimension 0 first), mesh (1: no wrap-around), ports (parallel
 * links per direction, folded into one link of that many times local_bw), group (a block
 * shape like 2x2x2 dividing dims: hosts of one block form a group and the links leaving a
 * block are global; default: no groups, every link local). Every link has the same
 * bandwidth and latency (local_bw, local_lat).
 *
 * Node i has coordinates (i mod d0, (i / d0) mod d1, ...): dimension 0 varies fastest.
 * The hosts are the nodes (a direct network).
 *   torus: SimGrid's TORUS cluster, whose dimension-order routing route.c reproduces.
 *          Link i*ndims + j goes from node i to its +1 neighbour in dimension j.
 *   mesh:  a DijkstraCache zone; links and routes as in grid.h (sign-ordered dimension
 *          order: decreasing coordinates first, highest dimension first, then increasing
 *          coordinates, lowest dimension first).
 */
#include "topologies/families.h"
#include "topologies/grid.h"

static int32_t block_of(int64_t node, int nd, const int32_t *dims, const int32_t *blk)
{
    int64_t id = 0, scale = 1;
    for (int j = 0; j < nd; j++) {
        int64_t c = node % dims[j];
        node /= dims[j];
        id += (c / blk[j]) * scale;
        scale *= dims[j] / blk[j];
    }
    return (int32_t)id;
}

static void add_torus_links(topology *t, int nd, const int32_t *dims, int32_t ports)
{
    for (int64_t i = 0; i < t->nhosts; i++) {
        int64_t prod = 1;
        for (int j = 0; j < nd; j++) {
            int64_t c = (i / prod) % dims[j];
            int64_t nb = c == dims[j] - 1 ? i - (dims[j] - 1) * prod : i + prod;
            int64_t id = topo_add_link(t, (int32_t)i, (int32_t)nb, LINK_LOCAL, LINK_FULL_DUPLEX, 0, 0);
            t->links[id].mult = (uint16_t)ports;
            prod *= dims[j];
        }
    }
}

static int read_blocks(kv_list *kv, int nd, const int32_t *dims, int32_t *blk, int *has,
                       cs_error *err)
{
    int nb;
    *has = kv_get(kv, "group") != NULL;
    if (!*has)
        return 0;
    if (kv_dims(kv, "group", "1", blk, TOPO_MAX_DIMS, &nb, err) < 0)
        return -1;
    if (nb != nd)
        return cs_fail(err, "group: %d sizes for %d dimensions", nb, nd);
    for (int j = 0; j < nd; j++)
        if (dims[j] % blk[j])
            return cs_fail(err, "group: block size %d does not divide dimension %d (%d)", blk[j],
                           j, dims[j]);
    return 0;
}

/* Minimal next hops (topology.h): in every dimension whose coordinate differs, the
 * shorter direction, both at exactly half an even ring. The deterministic hop is the
 * first differing dimension in SimGrid's direction (route.c). Link i*ndims + j goes from
 * node i to its +1 neighbour in dimension j. */
static int torus_next_hops(const topology *t, int32_t at, int32_t dst, topo_hop *hops, int max)
{
    int n = 0, det = -1;
    int64_t prod = 1;
    for (int j = 0; j < t->ndims; j++) {
        int64_t d = t->dims[j], c = (at / prod) % d, g = (dst / prod) % d;
        if (c != g) {
            int64_t up = mod_i64(g - c, d), down = d - up;
            int det_up = torus_goes_up(c, g, d);
            for (int dir = 1; dir >= 0; dir--) {
                if (dir ? up > down : down > up)
                    continue; /* not the shorter way */
                if (n >= max)
                    return -1;
                int64_t below = c == 0 ? at + (d - 1) * prod : at - prod;
                hops[n] = dir ? (topo_hop){(int64_t)at * t->ndims + j, 0}
                              : (topo_hop){below * t->ndims + j, 1};
                if (det < 0 && dir == det_up)
                    det = n;
                n++;
            }
        }
        prod *= d;
    }
    return next_hops_put_first(hops, n, det);
}

typedef struct torus_params {
    int32_t dims[TOPO_MAX_DIMS], blk[TOPO_MAX_DIMS];
    int nd, mesh, has_groups;
    int64_t ports, n; /* n: nodes */
    topo_link_params lp;
} torus_params;

static int read_torus(kv_list *kv, torus_params *p, cs_error *err)
{
    if (kv_dims(kv, "dims", "4x4", p->dims, TOPO_MAX_DIMS, &p->nd, err) < 0 ||
        kv_bool(kv, "mesh", 0, &p->mesh, err) < 0 ||
        kv_int(kv, "ports", 1, 1, 64, &p->ports, err) < 0 ||
        read_blocks(kv, p->nd, p->dims, p->blk, &p->has_groups, err) < 0 ||
        topo_link_params_read_for(kv, TOPO_CLASS_BIT(LINK_LOCAL), LINK_FULL_DUPLEX, &p->lp, err) < 0)
        return -1;
    p->n = 1;
    for (int d = 0; d < p->nd; d++) {
        if (p->dims[d] < 2)
            return cs_fail(err, "dims: every size must be at least 2 (drop the dimension)");
        p->n *= p->dims[d];
        if (p->n > (1 << 26))
            return cs_fail(err, "dims: more than 2^26 nodes");
    }
    return 0;
}

int topo_size_torus(kv_list *kv, topo_size *s, cs_error *err)
{
    torus_params p;
    if (read_torus(kv, &p, err) < 0)
        return -1;
    *s = (topo_size){.hosts = (double)p.n};
    for (int d = 0; d < p.nd; d++) /* a mesh lacks the wrap-around link of every ring */
        s->links += (double)p.n * (p.mesh ? (p.dims[d] - 1.0) / p.dims[d] : 1.0);
    return 0;
}

int topo_build_torus(kv_list *kv, topology **out, cs_error *err)
{
    torus_params p;
    if (read_torus(kv, &p, err) < 0)
        return -1;
    const int32_t *dims = p.dims, *blk = p.blk;
    int nd = p.nd;
    int64_t n = p.n, ports = p.ports;
    topo_link_params lp = p.lp;
    topology *t = topo_new("torus", (int32_t)n, 0);
    t->direct = 1;
    if (p.mesh) {
        link_class cls[TOPO_MAX_DIMS];
        int32_t mult[TOPO_MAX_DIMS];
        for (int j = 0; j < nd; j++) {
            cls[j] = LINK_LOCAL;
            mult[j] = (int32_t)ports;
        }
        grid_set_routing(t, GRID_MESH, 0, nd, dims);
        grid_add_links(t, GRID_MESH, 0, cls, mult, LINK_FULL_DUPLEX);
    } else {
        t->routing = TOPO_ROUTE_TORUS;
        t->next_hops = torus_next_hops;
        t->ndims = nd;
        for (int d = 0; d < nd; d++)
            t->dims[d] = dims[d];
        add_torus_links(t, nd, dims, (int32_t)ports);
    }
    t->host_ndims = nd;
    for (int d = 0; d < nd; d++)
        t->host_dims[d] = dims[d];
    if (p.has_groups) {
        t->ngroups = block_of(n - 1, nd, dims, blk) + 1; /* the last node is in the last block */
        for (int64_t i = 0; i < n; i++)
            t->group[i] = block_of(i, nd, dims, blk);
        for (int64_t i = 0; i < t->nlinks; i++)
            if (t->group[t->links[i].a] != t->group[t->links[i].b])
                t->links[i].cls = LINK_GLOBAL;
    }
    lp.bw[LINK_GLOBAL] = lp.bw[LINK_LOCAL]; /* one bandwidth for every torus link */
    lp.lat[LINK_GLOBAL] = lp.lat[LINK_LOCAL];
    topo_apply_link_params(t, &lp);
    *out = t;
    return 0;
}
