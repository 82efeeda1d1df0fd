/* fuzz_hostfile.c - fuzz harness: allocation host files (`--placement file:PATH`, one host
 * name per rank and line; src/sim/placement.c) on a 16-host torus. The first byte picks
 * P (2..33) and Q (1..4); the rest is the file. Checks: a successful placement puts every
 * rank on an existing host, at most Q ranks per host. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fuzz_input.h"
#include "sim/placement.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 8192)
        return 0;
    int32_t P = 2 + (data[0] & 31), Q = 1 + (data[0] >> 5) % 4;
    placement_spec p = {.kind = PLACE_FILE};
    fuzz_write_file("hosts", ".txt", data + 1, size - 1, p.path, sizeof p.path);
    topology *t;
    cs_error err;
    if (topo_build_spec("torus dims=4x4", &t, &err) < 0)
        abort();
    int32_t host_of_rank[40], used[16] = {0};
    if (placement_compute(&p, t, P, Q, host_of_rank, &err) == 0)
        for (int32_t r = 0; r < P; r++)
            if (host_of_rank[r] < 0 || host_of_rank[r] >= 16 || ++used[host_of_rank[r]] > Q)
                abort();
    topo_free(t);
    unlink(p.path);
    return 0;
}
