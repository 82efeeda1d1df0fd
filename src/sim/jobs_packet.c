/* jobs_packet.c - several jobs on the packet model, or on the fluid network of
 * --flow-engine loop (fluid.h): one network for all of them (jobs_internal.h). The network numbers the ranks of every job of the simulation one
 * after the other (a job's rank r is its sim_state's rank0 + r), and every packet hop
 * goes to the traffic tally of the job whose rank sent the message. */
#include <stdlib.h>

#include "common/util.h"
#include "sim/jobs_internal.h"
#include "sim/sim_internal.h"

int jobs_net_start(const job_set *js, unsigned mask, sim_state *st, topology *t, jobs_net *jn,
                   cs_error *err)
{
    jn->net = NULL;
    jn->host_of_rank = NULL;
    jn->tally = NULL;
    int fluid = js->base.model != SIM_MODEL_PACKET;
    if (!fluid && packet_config_check(&js->base.packet, t, err) < 0)
        return -1;
    int32_t P = 0;
    int first = -1;
    for (int k = 0; k < js->njobs; k++)
        if (mask & (1u << k)) {
            st[k].rank0 = P;
            P += st[k].run->spec.P;
            first = first < 0 ? k : first;
        }
    jn->host_of_rank = xmalloc((size_t)P * sizeof *jn->host_of_rank);
    jn->tally = xmalloc((size_t)P * sizeof *jn->tally);
    for (int k = 0; k < js->njobs; k++)
        for (int32_t r = 0; (mask & (1u << k)) && r < st[k].run->spec.P; r++) {
            jn->host_of_rank[st[k].rank0 + r] = st[k].host_of_rank[r];
            jn->tally[st[k].rank0 + r] = &st[k].tally;
        }
    jn->net = fluid ? fl_net_new(&js->base.fluid, t, P, jn->host_of_rank, st[first].rank_host[0],
                                 &st[first].tally)
                    : pk_net_new(&js->base.packet, t, P, jn->host_of_rank, st[first].rank_host[0],
                                 &st[first].tally);
    pk_net_rank_tallies(jn->net, jn->tally);
    for (int k = 0; k < js->njobs; k++)
        if (mask & (1u << k))
            st[k].net = jn->net;
    return 0;
}

int jobs_net_finish(jobs_net *jn, cs_error *err)
{
    int rc = jn->net ? pk_net_check(jn->net, err) : 0;
    pk_net_free(jn->net);
    free(jn->host_of_rank);
    free(jn->tally);
    jn->net = NULL;
    jn->host_of_rank = NULL;
    jn->tally = NULL;
    return rc;
}
