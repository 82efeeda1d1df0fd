/* groupmap_cover.c - how many hosts of a job a group map matches: none is an error, some is
 * a warning line (groupmap.h: group_map_cover_check). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/strmap.h"
#include "topologies/groupmap.h"

int group_map_cover_check(const group_map *m, const char *const *hosts,
                          const int32_t *group_of_host, int64_t n, group_map_cover *c,
                          cs_error *err)
{
    memset(c, 0, sizeof *c);
    strmap seen;
    strmap_init(&seen);
    for (int64_t i = 0; i < n; i++) {
        if (strmap_get(&seen, hosts[i], NULL))
            continue;
        strmap_put(&seen, hosts[i], i);
        if (group_of_host[i] >= 0) {
            c->matched++;
        } else {
            if (!c->example[0])
                snprintf(c->example, sizeof c->example, "%s", hosts[i]);
            c->unmatched++;
        }
    }
    strmap_free(&seen);
    if (c->matched > 0 || n == 0)
        return 0;
    return cs_fail(err, "%s: no host of the job is in the group map (%" PRId64 " hosts, e.g. "
                        "'%s'; names match as written or without a domain suffix)",
                   group_map_origin(m), c->unmatched, c->example);
}

void group_map_cover_warning(const group_map *m, const group_map_cover *c, char *buf, size_t n)
{
    if (c->unmatched == 0 || c->matched == 0) {
        if (n)
            buf[0] = '\0';
        return;
    }
    snprintf(buf, n, "warning: %s: %" PRId64 " of %" PRId64 " hosts of the job are in no "
                     "group of the map (e.g. '%s'); %" PRId64 " matched",
             group_map_origin(m), c->unmatched, c->matched + c->unmatched, c->example,
             c->matched);
}
