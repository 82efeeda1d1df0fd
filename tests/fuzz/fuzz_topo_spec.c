/* fuzz_topo_spec.c - fuzz harness: topology specifications as `--topology` takes them
 * ("dragonfly p=2 a=4 h=2", src/topologies/topology.c: topo_size_spec, topo_build_spec,
 * the family's builder and topo_finish), with the checks of fuzz_topology.h. Specs naming
 * a file (presets) are skipped: fuzz_preset covers those. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "fuzz_topology.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1024)
        return 0;
    char *text = fuzz_cstr(data, size);
    if (!strchr(text, '/') && !strstr(text, ".y"))
        fuzz_topology(text);
    free(text);
    return 0;
}
