/* fattree.c - a 2-level tapered fat tree.
 *
 * `leaves` leaf switches, each with `leaf_hosts` hosts and `leaf_up` uplinks; `spines`
 * spine switches; uplink u of every leaf goes to spine u mod spines. The oversubscription
 * is leaf_hosts : leaf_up (e.g. 2 hosts and 1 uplink: 2:1). A leaf and its hosts form a
 * group (the full-bandwidth subtree); leaf uplinks are the global links.
 * Node ids: hosts 0..H-1 (host h on leaf h / leaf_hosts), leaves, then spines.
 */
#include "topologies/families.h"

int topo_build_fattree(kv_list *kv, topology **out, cs_error *err)
{
    int64_t leaves, lh, up, spines;
    topo_link_params lp;
    if (kv_int(kv, "leaves", 4, 1, 1 << 20, &leaves, err) < 0 ||
        kv_int(kv, "leaf_hosts", 2, 1, 4096, &lh, err) < 0 ||
        kv_int(kv, "leaf_up", 1, 1, 4096, &up, err) < 0 ||
        kv_int(kv, "spines", 1, 1, 1 << 20, &spines, err) < 0 ||
        topo_link_params_read(kv, &lp, err) < 0)
        return -1;
    if (leaves * lh > (1 << 26))
        return cs_fail(err, "more than 2^26 hosts");
    if (up % spines != 0 && spines % up != 0)
        return cs_fail(err, "leaf_up (%lld) and spines (%lld): one must divide the other",
                       (long long)up, (long long)spines);
    int32_t H = (int32_t)(leaves * lh);
    topology *t = topo_new("fattree", H, (int32_t)(leaves + spines));
    t->ngroups = (int32_t)leaves;
    for (int32_t h = 0; h < H; h++) {
        int32_t leaf = H + h / (int32_t)lh;
        topo_attach_host(t, h, leaf, LINK_FULL_DUPLEX, 0, 0);
        t->group[h] = h / (int32_t)lh;
    }
    for (int32_t l = 0; l < leaves; l++) {
        t->group[H + l] = l;
        if (up >= spines) { /* up/spines parallel links per pair: one link of that width */
            for (int32_t s = 0; s < spines; s++)
                topo_add_link(t, H + l, H + (int32_t)leaves + s, LINK_GLOBAL, LINK_FULL_DUPLEX, 0, 0);
        } else { /* each leaf reaches `up` of the spines */
            for (int32_t u = 0; u < up; u++)
                topo_add_link(t, H + l, H + (int32_t)leaves + (int32_t)((l * up + u) % spines),
                              LINK_GLOBAL, LINK_FULL_DUPLEX, 0, 0);
        }
    }
    topo_apply_link_params(t, &lp);
    if (up > spines) /* fold parallel uplinks into one wider link */
        for (int64_t i = 0; i < t->nlinks; i++)
            if (t->links[i].cls == LINK_GLOBAL)
                t->links[i].bw *= (double)(up / spines);
    *out = t;
    return 0;
}
