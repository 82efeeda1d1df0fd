/* cache.c - the platform cache: emitted XML kept under a hash of the canonical topology
 * parameters (topology.h: topo_platform_path).
 *
 * The file name is <family>-<16 hex digits of t->params_hash>.xml. The hash covers the
 * family, every key=value (sorted) and a platform-format tag (topology.c), so a new
 * emitter layout never reuses an old file; faulty topologies add their fault keys and a
 * fault-layout tag of their own (faults.c). Files are written to a temporary name and
 * renamed, so concurrent runs (a Slurm array, parallel ctest) never see half a file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/util.h"
#include "topologies/external.h"
#include "topologies/topology.h"

int topo_cache_dir(char *out, size_t n, cs_error *err)
{
    const char *dir = getenv("COLLSIM_CACHE_DIR");
    if (!dir || !*dir)
        dir = ".cache/collsim";
    if ((size_t)snprintf(out, n, "%s", dir) >= n)
        return cs_fail(err, "cache directory path too long");
    if (make_dirs(dir, err) < 0) {
        cs_error_prefix(err, "the platform cache");
        return -1;
    }
    return 0;
}

int topo_platform_path(const topology *t, char *out, size_t n, cs_error *err)
{
    if (t->ext) { /* an external platform is its own file */
        if ((size_t)snprintf(out, n, "%s", t->ext->platform) >= n)
            return cs_fail(err, "platform path too long for the buffer");
        return 0;
    }
    char dir[4096];
    if (topo_cache_dir(dir, sizeof dir, err) < 0)
        return -1;
    int len = snprintf(out, n, "%s/%s-%016llx.xml", dir, t->family,
                       (unsigned long long)t->params_hash);
    if (len < 0 || (size_t)len >= n)
        return cs_fail(err, "cache path too long for the buffer");
    if (access(out, R_OK) == 0)
        return 0;
    return topo_emit_xml_file(t, out, err);
}
