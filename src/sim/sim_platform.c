/* sim_platform.c - the SimGrid platform file of a topology, and --topology arguments.
 *
 * Today every run emits the platform into a fresh temporary file that is removed as soon
 * as SimGrid has loaded it (emitting is fast next to loading and simulating, and a
 * private file can never be stale). When the topology module grows a platform cache,
 * sim_platform_acquire is the one function to switch over to it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/sim_internal.h"

int sim_platform_acquire(const topology *t, char *path, size_t n, cs_error *err)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = "/tmp";
    snprintf(path, n, "%s/collsim-platform-XXXXXX.xml", dir);
    int fd = mkstemps(path, 4);
    if (fd < 0)
        return cs_fail(err, "%s: cannot create a temporary platform file: %s", path,
                       strerror(errno));
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        unlink(path);
        return cs_fail(err, "%s: %s", path, strerror(errno));
    }
    int rc = topo_emit_xml(t, f, err);
    if (fclose(f) != 0 && rc == 0)
        rc = cs_fail(err, "%s: cannot write the platform: %s", path, strerror(errno));
    if (rc < 0)
        unlink(path);
    return rc;
}

void sim_platform_release(const char *path)
{
    unlink(path);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

int sim_topology_build(const char *text, topology **out, cs_error *err)
{
    *out = NULL;
    if (ends_with(text, ".yaml") || ends_with(text, ".yml")) {
        char families[256] = "";
        for (size_t i = 0; i < topo_family_count(); i++) {
            size_t len = strlen(families);
            snprintf(families + len, sizeof families - len, "%s%s", i ? ", " : "",
                     topo_family_at(i)->name);
        }
        return cs_fail(err, "%s: machine presets (YAML) are not available in this build yet; "
                            "give a topology specification \"family key=value ...\" "
                            "(families: %s)", text, families);
    }
    return topo_build_spec(text, out, err);
}
