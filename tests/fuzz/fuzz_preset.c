/* fuzz_preset.c - fuzz harness: YAML machine presets (src/topologies/preset.c,
 * topo_build_preset). The input is written to a file of this process's own (presets are
 * read from paths) and loaded with no overrides. Legal but huge machines are cut by
 * libFuzzer's limits, as in fuzz_topo_spec.c. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fuzz_input.h"
#include "topologies/topology.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 8192)
        return 0;
    char path[64];
    snprintf(path, sizeof path, "/tmp/collsim-fuzz-preset-%d.yaml", (int)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    fwrite(data, 1, size, f);
    fclose(f);
    topology *t = NULL;
    cs_error err;
    if (topo_build_preset(path, NULL, &t, &err) == 0)
        topo_free(t);
    else if (t)
        abort();
    unlink(path);
    return 0;
}
