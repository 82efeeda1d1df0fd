/* hammingmesh.c - HammingMesh (Hoefler, Bonato, De Sensi, Di Girolamo, Li, Heddes, Belk,
 * Goel, Castro, Scott, SC 2022), as the Swing paper uses it (reference/swing.md 4.4):
 * "groups nodes into square boards. Each board is a 2D mesh, and nodes on the same column
 * (or row) located at the edge of the boards are connected together using fat trees."
 *
 * Keys: a, b (board of a x b nodes; a = b = 2: Hx2Mesh, 4: Hx4Mesh; b defaults to a),
 * x, y (boards per row and per column; y defaults to x). Nodes are hosts (a direct
 * network) at global coordinates (X, Y), X < a*x, Y < b*y, host id Y*(a*x) + X.
 *   - on-board links (local): the a x b 2D mesh of each board;
 *   - row networks (global): for every Y, the west-edge (X mod a = 0) and east-edge
 *     (X mod a = a-1) nodes of row Y are linked to one row switch; column networks the
 *     same with the north / south edges. A node on both edges (a = 1) has both ports on the
 *     same switch: one link of twice the bandwidth.
 * Each fat tree is modelled as one non-blocking switch (assumption: the papers do not
 * give the trees; a full-bisection tree behaves as a crossbar for a flow model, minus
 * its extra hops). Groups: the boards.
 *
 * Node ids: hosts, then the b*y row switches, then the a*x column switches. Routing:
 * DijkstraCache shortest paths over hosts and switches (route.c's mirror of SimGrid's
 * tie-break: lowest graph id, graph ids in link order).
 */
#include "topologies/families.h"

typedef struct hmesh_params {
    int64_t a, b, x, y, W, Hh; /* W, Hh: nodes per row and per column */
    topo_link_params lp;
} hmesh_params;

static int read_hmesh(kv_list *kv, hmesh_params *p, cs_error *err)
{
    if (kv_int(kv, "a", 2, 1, 1024, &p->a, err) < 0 || kv_int(kv, "b", p->a, 1, 1024, &p->b, err) < 0 ||
        kv_int(kv, "x", 4, 1, 1 << 16, &p->x, err) < 0 ||
        kv_int(kv, "y", p->x, 1, 1 << 16, &p->y, err) < 0 ||
        topo_link_params_read_for(kv, TOPO_CLASS_BIT(LINK_LOCAL) | TOPO_CLASS_BIT(LINK_GLOBAL),
                                  LINK_FULL_DUPLEX, &p->lp, err) < 0)
        return -1;
    p->W = p->a * p->x;
    p->Hh = p->b * p->y;
    if (p->W * p->Hh > (1 << 26))
        return cs_fail(err, "more than 2^26 nodes");
    if (p->W * p->Hh < 2)
        return cs_fail(err, "at least 2 nodes are needed");
    return 0;
}

int topo_size_hammingmesh(kv_list *kv, topo_size *s, cs_error *err)
{
    hmesh_params p;
    if (read_hmesh(kv, &p, err) < 0)
        return -1;
    double N = (double)(p.W * p.Hh);
    /* on-board mesh links, then each edge node's link to its row and column switch */
    double board = (double)(p.a - 1) * p.x * p.Hh + (double)(p.b - 1) * p.y * p.W;
    double edges = (double)p.Hh * (p.a == 1 ? p.W : 2 * p.x) + (double)p.W * (p.b == 1 ? p.Hh : 2 * p.y);
    *s = (topo_size){.hosts = N, .switches = (double)(p.W + p.Hh), .links = board + edges};
    return 0;
}

int topo_build_hammingmesh(kv_list *kv, topology **out, cs_error *err)
{
    hmesh_params p;
    if (read_hmesh(kv, &p, err) < 0)
        return -1;
    int64_t a = p.a, b = p.b, x = p.x, y = p.y, W = p.W, Hh = p.Hh;
    topo_link_params lp = p.lp;
    int32_t N = (int32_t)(W * Hh);
    topology *t = topo_new("hammingmesh", N, (int32_t)(Hh + W));
    t->direct = 1;
    t->routing = TOPO_ROUTE_SHORTEST;
    t->ngroups = (int32_t)(x * y);
    t->host_ndims = 2; /* host id Y*W + X */
    t->host_dims[0] = (int32_t)W;
    t->host_dims[1] = (int32_t)Hh;
    for (int32_t v = 0; v < N; v++) { /* boards: on-board mesh links */
        int32_t X = v % (int32_t)W, Y = v / (int32_t)W;
        t->group[v] = (Y / (int32_t)b) * (int32_t)x + X / (int32_t)a;
        if (X % a != a - 1)
            topo_add_link(t, v, v + 1, LINK_LOCAL, LINK_FULL_DUPLEX, 0, 0);
        if (Y % b != b - 1)
            topo_add_link(t, v, v + (int32_t)W, LINK_LOCAL, LINK_FULL_DUPLEX, 0, 0);
    }
    for (int32_t v = 0; v < N; v++) { /* row and column networks */
        int32_t X = v % (int32_t)W, Y = v / (int32_t)W;
        int west = X % a == 0, east = X % a == a - 1, north = Y % b == 0, south = Y % b == b - 1;
        if (west || east) {
            int64_t id = topo_add_link(t, v, N + Y, LINK_GLOBAL, LINK_FULL_DUPLEX, 0, 0);
            t->links[id].mult = (uint16_t)(west + east);
        }
        if (north || south) {
            int64_t id = topo_add_link(t, v, N + (int32_t)Hh + X, LINK_GLOBAL, LINK_FULL_DUPLEX, 0, 0);
            t->links[id].mult = (uint16_t)(north + south);
        }
    }
    topo_apply_link_params(t, &lp);
    *out = t;
    return 0;
}
