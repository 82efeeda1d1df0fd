/* sg_resume.cpp - resuming several suspended actors in one simcall (C++: SimGrid 3.32's C
 * sg_actor_resume is a simcall per actor, and every simcall of an actor costs it a round
 * of SimGrid's scheduler: two context switches and the round's bookkeeping). The packet
 * loop engine wakes every rank whose wait ended at one instant with it (packet_loop.c).
 * See packet_internal.h: pk_actors_resume. */
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/simix.hpp>

extern "C" void pk_actors_resume(simgrid::s4u::Actor *const *actors, long n);

void pk_actors_resume(simgrid::s4u::Actor *const *actors, long n)
{
    /* Inside the simcall the code runs in SimGrid's kernel (maestro), where Actor::resume
     * acts at once, without a simcall of its own; the actors run in this order in the
     * next round, as they would after n resumes one by one. */
    simgrid::kernel::actor::simcall_answered([actors, n] {
        for (long i = 0; i < n; i++)
            actors[i]->resume();
    });
}
