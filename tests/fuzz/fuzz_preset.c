/* fuzz_preset.c - fuzz harness: YAML machine presets (src/topologies/preset.c:
 * topo_size_preset, topo_build_preset). The input is written to a file of this process's
 * own (presets are read from paths) and loaded with no overrides, with the checks of
 * fuzz_topology.h (machines estimated too large to build quickly are only sized). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fuzz_input.h"
#include "fuzz_topology.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 8192)
        return 0;
    char path[64];
    fuzz_write_file("preset", ".yaml", data, size, path, sizeof path);
    fuzz_topology(path);
    unlink(path);
    return 0;
}
