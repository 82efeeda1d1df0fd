/* hostnames.c - the names users give hosts (topology.h: topo_host_label, topo_host_lookup,
 * topo_sg_host_name): "h<id>", a preset's `hostnames:` format, or an external platform's
 * own names. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topologies/external.h"
#include "topologies/topology.h"

void topo_host_label(const topology *t, int32_t h, char *buf, size_t n)
{
    if (t->ext)
        snprintf(buf, n, "%s", t->ext->host_names[h]);
    else if (t->host_format[0])
        snprintf(buf, n, t->host_format, (int)(t->host_first + h));
    else
        topo_host_name(h, buf, n);
}

void topo_sg_host_name(const topology *t, int32_t h, char *buf, size_t n)
{
    if (t->ext)
        snprintf(buf, n, "%s", t->ext->host_names[h]);
    else
        topo_host_name(h, buf, n);
}

/* The id of a name made by printf(format, first + id), or -1. The format has one integer
 * conversion (preset_extras.h); the name must be exactly what the format prints. */
static int32_t lookup_formatted(const topology *t, const char *name)
{
    const char *pct = strchr(t->host_format, '%');
    size_t prefix = (size_t)(pct - t->host_format);
    const char *conv_end = strchr(pct, 'd') + 1;
    size_t suffix = strlen(conv_end), len = strlen(name);
    if (len <= prefix + suffix || strncmp(name, t->host_format, prefix) != 0 ||
        strcmp(name + len - suffix, conv_end) != 0)
        return -1;
    char digits[32];
    size_t nd = len - prefix - suffix;
    if (nd >= sizeof digits)
        return -1;
    memcpy(digits, name + prefix, nd);
    digits[nd] = '\0';
    char *end;
    errno = 0;
    long long v = strtoll(digits, &end, 10);
    if (*end || errno || digits[0] == '-' || digits[0] == '+' || v < t->host_first ||
        v - t->host_first >= t->nhosts)
        return -1;
    int32_t h = (int32_t)(v - t->host_first);
    char canonical[64];
    topo_host_label(t, h, canonical, sizeof canonical);
    return strcmp(canonical, name) == 0 ? h : -1;
}

/* "h<id>" of a generated topology, or -1. */
static int32_t lookup_default(const topology *t, const char *name)
{
    if (name[0] != 'h' || name[1] < '0' || name[1] > '9')
        return -1;
    char *end;
    errno = 0;
    long v = strtol(name + 1, &end, 10);
    if (*end || errno || v < 0 || v >= t->nhosts)
        return -1;
    char canonical[32];
    topo_host_name((int32_t)v, canonical, sizeof canonical);
    return strcmp(canonical, name) == 0 ? (int32_t)v : -1;
}

int32_t topo_host_lookup(const topology *t, const char *name)
{
    if (t->ext) {
        int64_t h;
        return strmap_get(&t->ext->host_ids, name, &h) ? (int32_t)h : -1;
    }
    if (t->host_format[0]) {
        int32_t h = lookup_formatted(t, name);
        if (h >= 0)
            return h;
    }
    return lookup_default(t, name);
}
