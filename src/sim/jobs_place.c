/* jobs_place.c - the hosts of every job of a point, and the rule that two jobs share no
 * host unless both say shared=yes (jobs.h). A job without hosts= gets the first hosts no
 * earlier job uses, in host order; the others go through placement_compute. */
#include <stdio.h>
#include <stdlib.h>

#include "common/util.h"
#include "topologies/faults.h"
#include "sim/jobs_internal.h"

/* The first N free hosts in host order, ranks in block or cyclic order. */
static int place_free(const job_spec *j, const topology *t, const int32_t *owner, int32_t *hor,
                      cs_error *err)
{
    int32_t P = j->spec.P, Q = j->spec.ranks_per_node, N = (P + Q - 1) / Q;
    int32_t *nodes = xmalloc((size_t)N * sizeof *nodes), n = 0;
    for (int32_t h = 0; h < t->nhosts && n < N; h++)
        if (owner[h] < 0)
            nodes[n++] = h;
    if (n < N) {
        free(nodes);
        return cs_fail(err, "needs %d free hosts (%d ranks, q=%d), but only %d of the %d "
                            "hosts are free (give hosts= to choose them)", N, P, Q, n,
                       t->nhosts);
    }
    for (int32_t r = 0; r < P; r++)
        hor[r] = nodes[j->hosts.order == ALLOC_ORDER_CYCLIC ? r % N : r / Q];
    free(nodes);
    return 0;
}

/* Marks job k's hosts in owner; fails on a host of another job unless both are shared. */
static int claim_hosts(const job_set *js, int k, const topology *t, const int32_t *hor,
                       int32_t *owner, cs_error *err)
{
    const job_spec *j = &js->jobs[k];
    for (int32_t r = 0; r < j->spec.P; r++) {
        int32_t h = hor[r], o = owner[h];
        if (o >= 0 && o != k && !(j->shared && js->jobs[o].shared)) {
            char name[256];
            topo_sg_host_name(t, h, name, sizeof name);
            return cs_fail(err, "jobs %s and %s both use host %s (jobs share no host unless "
                                "both give shared=yes)", js->jobs[o].name, j->name, name);
        }
        owner[h] = k;
    }
    return 0;
}

int jobs_place(const job_set *js, const topology *t, int32_t **host_of_rank, cs_error *err)
{
    int32_t *owner = xmalloc((size_t)t->nhosts * sizeof *owner);
    for (int32_t h = 0; h < t->nhosts; h++)
        owner[h] = -1;
    int rc = 0;
    for (int k = 0; k < js->njobs; k++)
        host_of_rank[k] = NULL;
    /* explicit placements first, so that free hosts are those no job names */
    for (int pass = 0; pass < 2 && rc == 0; pass++)
        for (int k = 0; k < js->njobs && rc == 0; k++) {
            const job_spec *j = &js->jobs[k];
            if (j->hosts_auto != pass)
                continue;
            host_of_rank[k] = xmalloc((size_t)j->spec.P * sizeof **host_of_rank);
            rc = j->hosts_auto ? place_free(j, t, owner, host_of_rank[k], err)
                               : placement_compute(&j->hosts, t, j->spec.P,
                                                   j->spec.ranks_per_node, host_of_rank[k], err);
            if (rc == 0) /* failed links may cut the job's ranks apart (faults.h) */
                rc = topo_faults_check_ranks(t, host_of_rank[k], j->spec.P, err);
            if (rc < 0)
                cs_error_prefix(err, "job %s", j->name);
            else
                rc = claim_hosts(js, k, t, host_of_rank[k], owner, err);
        }
    free(owner);
    if (rc < 0)
        for (int k = 0; k < js->njobs; k++) {
            free(host_of_rank[k]);
            host_of_rank[k] = NULL;
        }
    return rc;
}

double jobs_injection_Bps(const topology *t, const int32_t *host_of_rank, int32_t P, int32_t Q)
{
    double least = 0;
    for (int32_t r = 0; r < P; r++) {
        int32_t h = host_of_rank[r];
        double sum = 0;
        for (int64_t i = t->inc_first[h]; i < t->inc_first[h + 1]; i++)
            sum += t->links[t->inc_link[i]].bw;
        if (r == 0 || sum < least)
            least = sum;
    }
    return least / Q;
}
