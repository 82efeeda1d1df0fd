/* kautz.c - the Kautz graph K(d, k) (reference/kautz-2dfc.md section 1.1).
 *
 * Keys (the paper's symbols): d (degree), k (word length = diameter), T hosts per vertex
 * (T=0, the default: a direct network, the hosts are the vertices, as in the thesis).
 * Vertices are the words x1..xk over {0..d} with x_i != x_{i+1}: (d+1) d^(k-1) of them,
 * numbered in lexicographic order (for k = 2: rank of xy = d*x + y - [y > x], the
 * thesis' numbering). Links are one-way, x1..xk -> x2..xk z for every z != xk: d per
 * vertex, (d+1) d^k in all, all of class local (no groups).
 *
 * Routing: DijkstraCache over the one-way links. Shortest paths in a Kautz graph are
 * unique (take the longest suffix of the source that is a prefix of the destination and
 * shift in the remaining letters), so the route is that path whatever the tie-break;
 * kautz_route() computes it in closed form.
 *
 * t->fam: [0] d, [1] k, [2] first vertex node id.
 */
#include "topologies/families.h"

static void word_of(int64_t rank, int32_t d, int32_t k, int32_t *w)
{
    int64_t pw = 1;
    for (int32_t i = 1; i < k; i++)
        pw *= d;
    w[0] = (int32_t)(rank / pw);
    rank %= pw;
    for (int32_t i = 1; i < k; i++) {
        pw /= d;
        int32_t digit = (int32_t)(rank / pw);
        rank %= pw;
        w[i] = digit + (digit >= w[i - 1]); /* skip the previous letter */
    }
}

static int64_t rank_of(const int32_t *w, int32_t d, int32_t k)
{
    int64_t r = w[0];
    for (int32_t i = 1; i < k; i++)
        r = r * d + (w[i] - (w[i] > w[i - 1]));
    return r;
}

#define KAUTZ_MAX_K 16

static int kautz_route(const topology *t, int32_t src, int32_t dst, topo_hop *hops, int max)
{
    int32_t d = t->fam[0], k = t->fam[1], first = t->fam[2];
    int32_t u = t->direct ? src : topo_host_switch(t, src);
    int32_t v = t->direct ? dst : topo_host_switch(t, dst);
    int32_t x[KAUTZ_MAX_K], y[KAUTZ_MAX_K];
    word_of(u - first, d, k, x);
    word_of(v - first, d, k, y);
    int32_t overlap = k; /* longest suffix of x that is a prefix of y (k when x == y) */
    while (overlap > 0) {
        int32_t i = 0;
        while (i < overlap && x[k - overlap + i] == y[i])
            i++;
        if (i == overlap)
            break;
        overlap--;
    }
    int n = 0;
    if (!t->direct)
        hops[n++] = (topo_hop){t->host_link[src], 0};
    int32_t cur = u;
    for (int32_t j = overlap; j < k; j++) { /* shift in y[j] */
        for (int32_t i = 0; i + 1 < k; i++)
            x[i] = x[i + 1];
        x[k - 1] = y[j];
        int32_t next = first + (int32_t)rank_of(x, d, k);
        if (n >= max || topo_hop_between(t, cur, next, &hops[n]) < 0)
            return -1;
        n++;
        cur = next;
    }
    if (!t->direct) {
        if (n >= max)
            return -1;
        hops[n++] = (topo_hop){t->host_link[dst], 1};
    }
    return n;
}

typedef struct kautz_params {
    int64_t d, k, T, V; /* V: vertices */
    topo_link_params lp;
} kautz_params;

static int read_kautz(kv_list *kv, kautz_params *p, cs_error *err)
{
    if (kv_int(kv, "d", 2, 1, 4096, &p->d, err) < 0 ||
        kv_int(kv, "k", 2, 1, KAUTZ_MAX_K, &p->k, err) < 0 || kv_int(kv, "T", 0, 0, 4096, &p->T, err) < 0)
        return -1;
    unsigned classes = TOPO_CLASS_BIT(LINK_LOCAL) | (p->T > 0 ? TOPO_CLASS_BIT(LINK_HOST) : 0);
    if (topo_link_params_read_for(kv, classes, LINK_FULL_DUPLEX, &p->lp, err) < 0)
        return -1;
    p->V = p->d + 1;
    for (int64_t i = 1; i < p->k; i++) {
        p->V *= p->d;
        if (p->V * (p->T ? p->T : 1) > (1 << 26) || p->V * p->d > (1LL << 31))
            return cs_fail(err, "K(%lld,%lld) is too large (more than 2^26 hosts or 2^31 links)",
                           (long long)p->d, (long long)p->k);
    }
    if (p->V < 2)
        return cs_fail(err, "K(%lld,%lld) has fewer than 2 vertices", (long long)p->d,
                       (long long)p->k);
    return 0;
}

int topo_size_kautz(kv_list *kv, topo_size *s, cs_error *err)
{
    kautz_params p;
    if (read_kautz(kv, &p, err) < 0)
        return -1;
    double V = (double)p.V, H = p.T ? V * p.T : V;
    *s = (topo_size){.hosts = H, .switches = p.T ? V : 0, .links = V * p.d + (p.T ? H : 0)};
    return 0;
}

int topo_build_kautz(kv_list *kv, topology **out, cs_error *err)
{
    kautz_params p;
    if (read_kautz(kv, &p, err) < 0)
        return -1;
    int64_t d = p.d, k = p.k, T = p.T, V = p.V;
    topo_link_params lp = p.lp;
    int32_t H = (int32_t)(T ? V * T : V), first = T ? H : 0;
    topology *t = topo_new("kautz", H, T ? (int32_t)V : 0);
    t->direct = T == 0;
    for (int32_t x = 0; T && x < H; x++)
        topo_attach_host(t, x, H + x / (int32_t)T, LINK_FULL_DUPLEX, 0, 0);
    int32_t w[KAUTZ_MAX_K];
    for (int64_t v = 0; v < V; v++) {
        word_of(v, (int32_t)d, (int32_t)k, w);
        int32_t last = w[k - 1];
        for (int32_t i = 0; i + 1 < k; i++)
            w[i] = w[i + 1];
        for (int32_t z = 0; z <= d; z++) {
            if (z == last)
                continue;
            w[k - 1] = z;
            topo_add_link(t, first + (int32_t)v, first + (int32_t)rank_of(w, (int32_t)d, (int32_t)k),
                          LINK_LOCAL, LINK_ONE_WAY, 0, 0);
        }
    }
    t->routing = TOPO_ROUTE_SHORTEST;
    t->fam[0] = (int32_t)d;
    t->fam[1] = (int32_t)k;
    t->fam[2] = first;
    t->route_fn = kautz_route;
    topo_apply_link_params(t, &lp);
    *out = t;
    return 0;
}
