/* fuzz_topo_spec.c - fuzz harness: topology specifications as `--topology` takes them
 * ("dragonfly p=2 a=4 h=2", src/topologies/topology.c topo_build_spec, then the family's
 * builder and topo_finish). Specs naming a file (presets) are skipped: fuzz_preset covers
 * those. Builds that are legal but huge (up to 2^26 hosts) are cut by libFuzzer's
 * -malloc_limit_mb / -timeout (scripts/fuzz.sh), which are not counted as findings. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "topologies/topology.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1024)
        return 0;
    char *text = fuzz_cstr(data, size);
    if (!strchr(text, '/') && !strstr(text, ".y")) {
        topology *t = NULL;
        cs_error err;
        if (topo_build_spec(text, &t, &err) == 0) {
            if (!t || t->nhosts < 1)
                abort();
            topo_free(t);
        } else if (t) {
            abort(); /* a failed build must not hand out a topology */
        }
    }
    free(text);
    return 0;
}
