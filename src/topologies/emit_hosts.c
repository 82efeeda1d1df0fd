/* emit_hosts.c - the hosts-only SimGrid platform: every host of a topology (h<id>) in one
 * zone without routing, no link, no route.
 *
 * Models whose network is their own (the packet model: ports, buffers and routes are its
 * structures) use SimGrid for the rank actors only: an actor needs a host, nothing else.
 * Loading the whole platform (links, zones, routes: 16,512 hosts and about 90,000 links
 * for a Dragonfly of 16,384 ranks) cost more than half a CPU second there, and SimGrid's
 * name lookups walk its zone tree. Generated topologies name their hosts h0 .. h<n-1>,
 * so the file depends on the number of hosts only and is cached as hosts-<n>.xml.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/atomic_file.h"
#include "topologies/external.h"
#include "topologies/topology.h"

int topo_emit_hosts_xml(const topology *t, FILE *f, cs_error *err)
{
    if (t->ext)
        return cs_fail(err, "an external platform is not emitted: it is the file %s",
                       t->ext->platform);
    fprintf(f, "<?xml version='1.0'?>\n"
               "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
               "<!-- collsim: %d hosts, no network (models with a network of their own) -->\n"
               "<platform version=\"4.1\">\n<zone id=\"hosts\" routing=\"None\">\n",
            t->nhosts);
    char name[256];
    for (int32_t h = 0; h < t->nhosts; h++) {
        topo_sg_host_name(t, h, name, sizeof name);
        fprintf(f, "<host id=\"%s\" speed=\"1Gf\"/>\n", name);
    }
    fprintf(f, "</zone>\n</platform>\n");
    if (ferror(f))
        return cs_fail(err, "cannot write the platform: %s", strerror(errno));
    return 0;
}

int topo_hosts_platform_path(const topology *t, char *out, size_t n, cs_error *err)
{
    if (t->ext) /* an external platform is loaded whole, as its own file */
        return topo_platform_path(t, out, n, err);
    char dir[4096];
    if (topo_cache_dir(dir, sizeof dir, err) < 0)
        return -1;
    int len = snprintf(out, n, "%s/hosts-%d.xml", dir, t->nhosts);
    if (len < 0 || (size_t)len >= n)
        return cs_fail(err, "cache path too long for the buffer");
    if (access(out, R_OK) == 0)
        return 0;
    atomic_file a;
    if (atomic_file_open(&a, out, err) < 0)
        return -1;
    int rc = topo_emit_hosts_xml(t, a.f, err);
    return atomic_file_commit(&a, rc == 0, err) < 0 || rc < 0 ? -1 : 0;
}
