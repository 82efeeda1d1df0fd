/* sg_wait.cpp - a wait-any with timeout over SimGrid comms that keeps the caller's
 * references (C++, the only such file: SimGrid 3.32's C sg_comm_wait_any_for drops the
 * caller's reference to every comm when it times out, so a C caller cannot go on
 * waiting for them). See sim_internal.h: sim_wait_any_for. */
#include <simgrid/s4u/Comm.hpp>

#include <vector>

extern "C" long sim_wait_any_for(simgrid::s4u::Comm **comms, unsigned long n, double timeout);

long sim_wait_any_for(simgrid::s4u::Comm **comms, unsigned long n, double timeout)
{
    std::vector<simgrid::s4u::CommPtr> v;
    v.reserve(n);
    for (unsigned long i = 0; i < n; i++)
        v.emplace_back(comms[i]); /* the vector takes references of its own */
    long pos = (long)simgrid::s4u::Comm::wait_any_for(v, timeout);
    if (pos >= 0)
        comms[pos]->unref(); /* the caller's reference to the finished comm, as sg_comm_wait_any */
    return pos;
}
