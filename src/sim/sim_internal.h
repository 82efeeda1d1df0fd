/* sim_internal.h - state shared by the SimGrid side of sim_run (not a public header).
 *
 *   sim_run.c       the point: topology, placement, algorithm, models, results
 *   sim_actors.c    the rank actors executing their schedules
 *   sim_links.c     SimGrid link names -> topology link resources, route counting
 *   sim_routes.c    checking SimGrid's routes against topo_route
 *   sim_platform.c  the platform file of a topology, --topology arguments
 *   sim_isolated.c  running a point in a child process
 */
#ifndef COLLSIM_SIM_INTERNAL_H
#define COLLSIM_SIM_INTERNAL_H

#include <simgrid/forward.h>

#include "sim/sim.h"
#include "traffic/traffic.h"

/* Everything the actors share. SimGrid runs actors one at a time in one thread, so they
 * update it without locks; it lives on sim_run's stack (no global state). */
typedef struct sim_state {
    const alg_run *run;
    topology *t;
    const int32_t *host_of_rank;
    sg_host_t *rank_host;      /* per rank */
    double reduce_s_per_byte;  /* 0: free */
    double copy_s_per_byte;
    int64_t detached_below;    /* sends smaller than this do not block the sender */
    traffic_tally tally;       /* counted from SimGrid's routes */
    double *finish;            /* per rank; -1 until the rank has finished */
    uint32_t *step;            /* per rank: the step it is executing (diagnostics) */
} sim_state;

/* Creates and starts one actor per rank (after the platform is loaded). */
void sim_actors_start(sim_state *st);
/* After simgrid_run: fails naming the ranks that did not finish. */
int sim_actors_check_finished(const sim_state *st, cs_error *err);

/* Tags every SimGrid link that stands for a topology link resource with that resource
 * (sg_link_set_data: resource + 1); fails if a topology link has no SimGrid link. */
int sim_links_map(const topology *t, cs_error *err);
/* Adds a message's bytes to every tagged link of SimGrid's route (`route` is a scratch
 * dynar of sg_link_t). Links without a tag (SimGrid loopbacks) are not network links. */
void sim_links_count_route(traffic_tally *tally, sg_host_t src, sg_host_t dst, int64_t bytes,
                           void *route);
/* The topology resource a SimGrid link stands for, -1 if none. */
int64_t sim_links_resource(sg_link_t link);

/* The platform XML of t, in a fresh temporary file: *path (removed by the caller with
 * sim_platform_release once SimGrid has loaded it). This is the one place to swap for a
 * platform cache. */
int sim_platform_acquire(const topology *t, char *path, size_t n, cs_error *err);
void sim_platform_release(const char *path);

/* The in-process part of sim_check_routes_isolated (sim_routes.c; once per process). */
int sim_check_routes(const char *topology, int64_t max_pairs, int64_t *pairs, cs_error *err);

/* SimGrid's command-line options for a model (NULL-terminated, static strings). */
const char *const *sim_model_cfg(sim_model m);

#endif
