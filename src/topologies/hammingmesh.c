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

int topo_build_hammingmesh(kv_list *kv, topology **out, cs_error *err)
{
    int64_t a, b, x, y;
    topo_link_params lp;
    if (kv_int(kv, "a", 2, 1, 1024, &a, err) < 0 || kv_int(kv, "b", a, 1, 1024, &b, err) < 0 ||
        kv_int(kv, "x", 4, 1, 1 << 16, &x, err) < 0 || kv_int(kv, "y", x, 1, 1 << 16, &y, err) < 0 ||
        topo_link_params_read_for(kv, TOPO_CLASS_BIT(LINK_LOCAL) | TOPO_CLASS_BIT(LINK_GLOBAL),
                                  LINK_FULL_DUPLEX, &lp, err) < 0)
        return -1;
    int64_t W = a * x, Hh = b * y;
    if (W * Hh > (1 << 26))
        return cs_fail(err, "more than 2^26 nodes");
    if (W * Hh < 2)
        return cs_fail(err, "at least 2 nodes are needed");
    int32_t N = (int32_t)(W * Hh);
    topology *t = topo_new("hammingmesh", N, (int32_t)(Hh + W));
    t->direct = 1;
    t->routing = TOPO_ROUTE_SHORTEST;
    t->ngroups = (int32_t)(x * y);
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
