/* hyperx.c - HyperX (Ahn, Binkert, Davis, McLaren, Schreiber, SC 2009).
 *
 * Keys (the paper's symbols): dims = S_0 x S_1 x ... (switches per dimension), T hosts
 * per switch (T=0: a direct network, the hosts are the switches), K link multiplicity
 * (one value, or one per dimension like 2x1: parallel links folded into one link of K
 * times the bandwidth). Switches differing in exactly one coordinate are linked.
 * Groups: the lines along dimension 0 (switches sharing every other coordinate); links
 * along dimension 0 are local, the others global.
 *
 * Node ids: switch coordinates (c_0, c_1, ...) have index sum c_j * stride_j (dimension 0
 * fastest); host x is on switch x / T. Routing: DijkstraCache, with grid.h's link order,
 * so the route is the closed form "sign-ordered dimension order" (grid.h).
 */
#include "topologies/families.h"
#include "topologies/grid.h"

/* K: one multiplicity for every dimension, or one per dimension. */
static int read_multiplicity(kv_list *kv, int nd, int32_t *mult, cs_error *err)
{
    int nk;
    if (kv_dims(kv, "K", "1", mult, TOPO_MAX_DIMS, &nk, err) < 0)
        return -1;
    if (nk == 1)
        for (int j = 1; j < nd; j++)
            mult[j] = mult[0];
    else if (nk != nd)
        return cs_fail(err, "K: give one multiplicity or one per dimension (%d)", nd);
    for (int j = 0; j < nd; j++)
        if (mult[j] > 1024)
            return cs_fail(err, "K: multiplicity %d is more than 1024", mult[j]);
    return 0;
}

int topo_size_hamming(int nd, const int32_t *dims, int64_t T, topo_size *s, cs_error *err)
{
    int64_t S = 1;
    for (int j = 0; j < nd; j++) {
        S *= dims[j];
        if (S * (T ? T : 1) > (1 << 26))
            return cs_fail(err, "more than 2^26 hosts");
    }
    if (S < 2)
        return cs_fail(err, "at least 2 switches are needed");
    double H = (double)(T ? S * T : S);
    *s = (topo_size){.hosts = H, .switches = T ? (double)S : 0, .links = T ? H : 0};
    for (int j = 0; j < nd; j++) /* each line of dims[j] switches is a clique */
        s->links += (double)S * (dims[j] - 1) / 2;
    return 0;
}

int topo_build_hamming(const char *family, int nd, const int32_t *dims, int64_t T,
                       const int32_t *mult, const topo_link_params *lp, topology **out,
                       cs_error *err)
{
    topo_size size;
    if (topo_size_hamming(nd, dims, T, &size, err) < 0)
        return -1;
    int64_t S = T ? (int64_t)size.switches : (int64_t)size.hosts;
    int32_t H = (int32_t)(T ? S * T : S), first = T ? H : 0;
    topology *t = topo_new(family, H, T ? (int32_t)S : 0);
    t->direct = T == 0;
    for (int32_t x = 0; T && x < H; x++)
        topo_attach_host(t, x, H + x / (int32_t)T, LINK_FULL_DUPLEX, 0, 0);
    link_class cls[TOPO_MAX_DIMS];
    for (int j = 0; j < nd; j++)
        cls[j] = j == 0 ? LINK_LOCAL : LINK_GLOBAL;
    grid_set_routing(t, GRID_HAMMING, first, nd, dims);
    if (nd + (T > 1) <= TOPO_MAX_DIMS) { /* the hosts' grid: the T hosts of a switch first */
        if (T > 1)
            t->host_dims[t->host_ndims++] = (int32_t)T;
        for (int j = 0; j < nd; j++)
            t->host_dims[t->host_ndims++] = dims[j];
    }
    grid_add_links(t, GRID_HAMMING, first, cls, mult, LINK_FULL_DUPLEX);
    t->ngroups = (int32_t)(S / dims[0]);
    for (int32_t v = 0; v < S; v++) {
        int32_t g = v / dims[0];
        t->group[first + v] = g;
        for (int32_t x = 0; T && x < T; x++)
            t->group[v * (int32_t)T + x] = g;
    }
    topo_apply_link_params(t, lp);
    *out = t;
    return 0;
}

typedef struct hyperx_params {
    int32_t dims[TOPO_MAX_DIMS], mult[TOPO_MAX_DIMS];
    int nd;
    int64_t T;
    topo_link_params lp;
} hyperx_params;

static int read_hyperx(kv_list *kv, hyperx_params *h, cs_error *err)
{
    if (kv_dims(kv, "dims", "4x4", h->dims, TOPO_MAX_DIMS, &h->nd, err) < 0 ||
        kv_int(kv, "T", 1, 0, 4096, &h->T, err) < 0 ||
        read_multiplicity(kv, h->nd, h->mult, err) < 0)
        return -1;
    unsigned classes = TOPO_CLASS_BIT(LINK_LOCAL) | (h->nd > 1 ? TOPO_CLASS_BIT(LINK_GLOBAL) : 0) |
                       (h->T > 0 ? TOPO_CLASS_BIT(LINK_HOST) : 0);
    return topo_link_params_read_for(kv, classes, LINK_FULL_DUPLEX, &h->lp, err);
}

int topo_size_hyperx(kv_list *kv, topo_size *s, cs_error *err)
{
    hyperx_params h;
    if (read_hyperx(kv, &h, err) < 0)
        return -1;
    return topo_size_hamming(h.nd, h.dims, h.T, s, err);
}

int topo_build_hyperx(kv_list *kv, topology **out, cs_error *err)
{
    hyperx_params h;
    if (read_hyperx(kv, &h, err) < 0)
        return -1;
    return topo_build_hamming("hyperx", h.nd, h.dims, h.T, h.mult, &h.lp, out, err);
}
