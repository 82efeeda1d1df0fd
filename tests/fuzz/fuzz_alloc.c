/* fuzz_alloc.c - fuzz harness: Slurm hostlist expressions (src/common/hostlist.c) and job
 * allocations (src/sim/alloc.c: node list files, PICO CSV files, hostlists), then rank
 * placement on them in block and cyclic order.
 *
 * The first byte picks the mode and the placement: bit 0 set reads the rest as an
 * allocation file, else as a hostlist expression (hostlist_expand, and alloc_read on the
 * same text when it names no file); bits 1..3 give Q (1..8), bit 4 the order. Checks:
 *   - every name is non-empty; an expanded one (not a CSV's) has at most 255 characters
 *     and no separator or bracket;
 *   - the natural order is consistent: hostname_cmp(a, a) == 0 and antisymmetric on
 *     neighbours;
 *   - a placement of the whole allocation puts every rank on a host of it, at most Q per
 *     node (a CSV: its own count per host).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_input.h"
#include "sim/alloc.h"

/* The most ranks the harness places (a valid allocation may name up to 2^18 hosts). */
#define FUZZ_MAX_RANKS 4096

/* expanded: names from hostlist expressions (a CSV's host column may hold anything). */
static void check_names(const hostlist *h, int expanded)
{
    for (int64_t i = 0; i < h->n; i++) {
        const char *s = h->names[i];
        size_t len = strlen(s);
        if (len == 0 || hostname_cmp(s, s) != 0)
            abort();
        if (expanded && (len > 255 || strpbrk(s, ",[] \t\n\v\f\r")))
            abort();
        if (i > 0) {
            int ab = hostname_cmp(h->names[i - 1], s), ba = hostname_cmp(s, h->names[i - 1]);
            if ((ab > 0) != (ba < 0) || (ab == 0) != (ba == 0))
                abort();
        }
    }
}

static void place(const allocation *a, int32_t Q, alloc_order order)
{
    int64_t P = alloc_default_ranks(a, Q);
    if (P < 1 || P > FUZZ_MAX_RANKS)
        return;
    int32_t *host_of_rank = xmalloc((size_t)P * sizeof *host_of_rank);
    int32_t *per_host = xcalloc((size_t)a->hosts.n, sizeof *per_host);
    int32_t most = a->per_rank ? alloc_ranks_per_host(a) : Q;
    cs_error err;
    if (alloc_place(a, (int32_t)P, a->per_rank ? 1 : Q, order, host_of_rank, &err) == 0)
        for (int64_t r = 0; r < P; r++)
            if (host_of_rank[r] < 0 || host_of_rank[r] >= a->hosts.n ||
                (!a->per_rank && ++per_host[host_of_rank[r]] > most))
                abort();
    free(per_host);
    free(host_of_rank);
}

static void read_allocation(const char *spec, int32_t Q, alloc_order order)
{
    allocation a;
    cs_error err;
    if (alloc_read(spec, &a, &err) == 0) {
        check_names(&a.hosts, !a.per_rank);
        place(&a, Q, order);
    }
    alloc_free(&a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 8192)
        return 0;
    int32_t Q = 1 + ((data[0] >> 1) & 7);
    alloc_order order = (data[0] >> 4) & 1 ? ALLOC_ORDER_CYCLIC : ALLOC_ORDER_BLOCK;
    if (data[0] & 1) {
        char path[64];
        fuzz_write_file("alloc", ".txt", data + 1, size - 1, path, sizeof path);
        read_allocation(path, Q, order);
        unlink(path);
        return 0;
    }
    char *text = fuzz_cstr(data + 1, size - 1);
    hostlist h;
    hostlist_init(&h);
    cs_error err;
    if (hostlist_expand(text, &h, &err) == 0)
        check_names(&h, 1);
    hostlist_free(&h);
    if (text[0] && !strchr(text, '/') && access(text, F_OK) != 0) /* an expression, not a file */
        read_allocation(text, Q, order);
    free(text);
    return 0;
}
