/* sg_ring_floor.c - what SimGrid alone costs for a ring: P actors on hosts h0..h(P-1) of a
 * platform, STEPS steps in which every rank puts BYTES to its right neighbour's mailbox
 * and gets from its left one (put_async + get_async + wait_all, mailboxes looked up once),
 * with collsim's cm02 options. No schedule, no tally: the floor under collsim's ring
 * allreduce (scripts/bench/sim_scale.sh, part "floor"). Prints the simulated time.
 *
 *   sg_ring_floor PLATFORM.xml P STEPS BYTES
 */
#include <stdio.h>
#include <stdlib.h>

#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>

typedef struct ring {
    int P, steps;
    double bytes;
    sg_mailbox_t *mb; /* mb[r]: rank r's messages to r + 1 */
} ring;

static void rank_main(int argc, char **argv)
{
    (void)argc;
    const ring *g = sg_actor_self_get_data();
    int r = atoi(argv[1]), payload = 0;
    void *got;
    for (int s = 0; s < g->steps; s++) {
        sg_comm_t c[2];
        c[0] = sg_mailbox_put_async(g->mb[r], &payload, g->bytes);
        c[1] = sg_mailbox_get_async(g->mb[(r + g->P - 1) % g->P], &got);
        sg_comm_wait_all(c, 2);
    }
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: sg_ring_floor PLATFORM.xml P STEPS BYTES\n");
        return 2;
    }
    ring g = {atoi(argv[2]), atoi(argv[3]), atof(argv[4]), NULL};
    const char *av[] = {"sg_ring_floor", "--cfg=network/model:CM02", "--cfg=network/crosstraffic:0",
                        "--cfg=surf/precision:1e-9", "--log=root.thres:warning",
                        "--cfg=contexts/stack-size:512", NULL};
    int ac = 6;
    simgrid_init(&ac, (char **)av);
    simgrid_load_platform(argv[1]);
    g.mb = malloc((size_t)g.P * sizeof *g.mb);
    for (int r = 0; r < g.P; r++) {
        char name[32], arg[16];
        snprintf(name, sizeof name, "m%d", r);
        g.mb[r] = sg_mailbox_by_name(name);
        snprintf(name, sizeof name, "h%d", r);
        snprintf(arg, sizeof arg, "%d", r);
        sg_host_t h = sg_host_by_name(name);
        if (!h) {
            fprintf(stderr, "sg_ring_floor: the platform has no host %s\n", name);
            return 2;
        }
        const char *args[] = {"rank", arg};
        sg_actor_t a = sg_actor_init("rank", h);
        sg_actor_set_data(a, &g);
        sg_actor_start_(a, rank_main, 2, args);
    }
    simgrid_run();
    printf("time_s %.10g\n", simgrid_get_clock());
    free(g.mb);
    return 0;
}
