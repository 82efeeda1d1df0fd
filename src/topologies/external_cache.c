/* external_cache.c - extractions of external platforms kept in the platform cache
 * directory (external.h: ext_cache_*), so that loading a platform a second time needs no
 * SimGrid.
 *
 *   ext-<platform hash>.hosts                 host names and group properties
 *   ext-<platform hash>-<table hash>.routes   links (name, bandwidth, latency), the table's
 *                                             hosts, pairs and routes
 *
 * The platform hash covers the file's bytes and the format tag below, so an edited file
 * or a new format never reuses an old extraction. Files are binary in this machine's byte
 * order (a cache, not an exchange format), written to a temporary name and renamed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/atomic_file.h"
#include "common/util.h"
#include "topologies/external.h"

#define FORMAT_TAG "collsim-ext-cache-1"
#define MAX_STRING (1 << 20)

int ext_platform_hash(const char *path, uint64_t *hash, cs_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return cs_fail(err, "%s: cannot open the platform: %s", path, strerror(errno));
    uint64_t h = 0xcbf29ce484222325ULL;
    for (const char *c = FORMAT_TAG; *c; c++)
        h = (h ^ (uint8_t)*c) * 0x100000001b3ULL;
    unsigned char buf[1 << 16];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        for (size_t i = 0; i < got; i++)
            h = (h ^ buf[i]) * 0x100000001b3ULL;
    int bad = ferror(f);
    fclose(f);
    if (bad)
        return cs_fail(err, "%s: read error", path);
    *hash = mix64(h);
    return 0;
}

static uint64_t table_hash(const int32_t *hosts, int32_t n)
{
    uint64_t h = mix64((uint64_t)n);
    for (int32_t i = 0; i < n; i++)
        h = hash_combine(h, (uint64_t)hosts[i]);
    return h;
}

static int cache_path(uint64_t hash, const int32_t *table, int32_t ntable, char *out, size_t n,
                      cs_error *err)
{
    char dir[4096];
    if (topo_cache_dir(dir, sizeof dir, err) < 0)
        return -1;
    if (table)
        snprintf(out, n, "%s/ext-%016llx-%016llx.routes", dir, (unsigned long long)hash,
                 (unsigned long long)table_hash(table, ntable));
    else
        snprintf(out, n, "%s/ext-%016llx.hosts", dir, (unsigned long long)hash);
    return 0;
}

/* ---- writing ------------------------------------------------------------------------------ */

static void put(FILE *f, const void *p, size_t size, size_t count) { fwrite(p, size, count, f); }

static void put_string(FILE *f, const char *s)
{
    int32_t n = s ? (int32_t)strlen(s) : -1;
    put(f, &n, sizeof n, 1);
    if (s)
        put(f, s, 1, (size_t)n);
}

static int write_atomically(const char *path, void (*body)(FILE *, const ext_raw *),
                            const ext_raw *r, cs_error *err)
{
    atomic_file out;
    if (atomic_file_open(&out, path, err) < 0)
        return -1;
    fputs(FORMAT_TAG "\n", out.f);
    body(out.f, r);
    if (atomic_file_commit(&out, 1, err) < 0)
        return cs_fail(err, "%s: cannot write the platform cache", path);
    return 0;
}

static void hosts_body(FILE *f, const ext_raw *r)
{
    put(f, &r->nhosts, sizeof r->nhosts, 1);
    for (int32_t h = 0; h < r->nhosts; h++) {
        put_string(f, r->host_names[h]);
        put_string(f, r->host_group ? r->host_group[h] : NULL);
    }
}

static void routes_body(FILE *f, const ext_raw *r)
{
    put(f, &r->nlinks, sizeof r->nlinks, 1);
    for (int32_t l = 0; l < r->nlinks; l++) {
        put_string(f, r->link_names[l]);
        put(f, &r->link_bw[l], sizeof(double), 1);
        put(f, &r->link_lat[l], sizeof(double), 1);
    }
    put(f, &r->ntable, sizeof r->ntable, 1);
    put(f, r->table_hosts, sizeof(int32_t), (size_t)r->ntable);
    put(f, &r->npairs, sizeof r->npairs, 1);
    put(f, r->route_first, sizeof(int64_t), (size_t)r->npairs + 1);
    put(f, r->route_links, sizeof(int32_t), (size_t)r->route_first[r->npairs]);
}

int ext_cache_write_hosts(uint64_t hash, const ext_raw *r, cs_error *err)
{
    char path[4096];
    if (cache_path(hash, NULL, 0, path, sizeof path, err) < 0)
        return -1;
    return write_atomically(path, hosts_body, r, err);
}

int ext_cache_write_routes(uint64_t hash, const ext_raw *r, cs_error *err)
{
    char path[4096];
    if (cache_path(hash, r->table_hosts, r->ntable, path, sizeof path, err) < 0)
        return -1;
    return write_atomically(path, routes_body, r, err);
}

/* ---- reading -------------------------------------------------------------------------------- */

typedef struct reader {
    FILE *f;
    int bad;
} reader;

static void get(reader *rd, void *p, size_t size, size_t count)
{
    if (!rd->bad && fread(p, size, count, rd->f) != count)
        rd->bad = 1;
}

static int64_t get_count(reader *rd, int64_t max)
{
    int32_t n = 0;
    get(rd, &n, sizeof n, 1);
    if (n < 0 || n > max)
        rd->bad = 1;
    return rd->bad ? 0 : n;
}

/* NULL for an absent string (length -1). */
static char *get_string(reader *rd)
{
    int32_t n = 0;
    get(rd, &n, sizeof n, 1);
    if (rd->bad || n < 0 || n > MAX_STRING) {
        rd->bad |= n != -1;
        return NULL;
    }
    char *s = xmalloc((size_t)n + 1);
    get(rd, s, 1, (size_t)n);
    s[n] = '\0';
    return s;
}

static int open_cache(const char *path, reader *rd, cs_error *err)
{
    rd->bad = 0;
    rd->f = fopen(path, "rb");
    if (!rd->f)
        return errno == ENOENT ? 0 : cs_fail(err, "%s: cannot open: %s", path, strerror(errno));
    char tag[64];
    if (!fgets(tag, sizeof tag, rd->f) || strcmp(tag, FORMAT_TAG "\n") != 0)
        rd->bad = 1;
    return 1;
}

static int close_cache(const char *path, reader *rd, cs_error *err)
{
    int bad = rd->bad || fgetc(rd->f) != EOF;
    fclose(rd->f);
    return bad ? cs_fail(err, "%s: corrupt platform cache file (delete it)", path) : 1;
}

int ext_cache_read_hosts(uint64_t hash, ext_raw *r, cs_error *err)
{
    char path[4096];
    reader rd;
    int rc = cache_path(hash, NULL, 0, path, sizeof path, err);
    if (rc == 0)
        rc = open_cache(path, &rd, err);
    if (rc <= 0)
        return rc;
    r->nhosts = (int32_t)get_count(&rd, 1 << 26);
    r->host_names = xcalloc((size_t)r->nhosts + 1, sizeof *r->host_names);
    r->host_group = xcalloc((size_t)r->nhosts + 1, sizeof *r->host_group);
    for (int32_t h = 0; h < r->nhosts && !rd.bad; h++) {
        r->host_names[h] = get_string(&rd);
        r->host_group[h] = get_string(&rd);
        rd.bad |= !r->host_names[h];
    }
    return close_cache(path, &rd, err);
}

int ext_cache_read_routes(uint64_t hash, const int32_t *table_hosts, int32_t ntable, ext_raw *r,
                          cs_error *err)
{
    char path[4096];
    reader rd;
    int rc = cache_path(hash, table_hosts, ntable, path, sizeof path, err);
    if (rc == 0)
        rc = open_cache(path, &rd, err);
    if (rc <= 0)
        return rc;
    strmap index;
    strmap_init(&index);
    int32_t L = (int32_t)get_count(&rd, 1 << 28);
    for (int32_t l = 0; l < L && !rd.bad; l++) {
        char *name = get_string(&rd);
        double bw = 0, lat = 0;
        get(&rd, &bw, sizeof bw, 1);
        get(&rd, &lat, sizeof lat, 1);
        if (name && !rd.bad)
            ext_raw_link(r, &index, name, bw, lat);
        rd.bad |= !name;
        free(name);
    }
    strmap_free(&index);
    int32_t nt = (int32_t)get_count(&rd, r->nhosts);
    int32_t *hosts = xmalloc(((size_t)nt + 1) * sizeof *hosts);
    get(&rd, hosts, sizeof *hosts, (size_t)nt);
    rd.bad |= nt != ntable || (nt && memcmp(hosts, table_hosts, (size_t)nt * sizeof *hosts));
    if (!rd.bad)
        ext_raw_set_table(r, hosts, nt);
    free(hosts);
    int64_t npairs = -1;
    get(&rd, &npairs, sizeof npairs, 1);
    rd.bad |= npairs != r->npairs;
    if (!rd.bad) {
        get(&rd, r->route_first, sizeof(int64_t), (size_t)npairs + 1);
        int64_t total = r->route_first[npairs];
        rd.bad |= r->route_first[0] != 0 || total < 0 || total > (1LL << 34);
        for (int64_t p = 0; p < npairs && !rd.bad; p++)
            rd.bad |= r->route_first[p + 1] < r->route_first[p];
        if (!rd.bad) {
            r->route_links = xmalloc((size_t)(total ? total : 1) * sizeof *r->route_links);
            r->cap_route_links = (size_t)(total ? total : 1);
            get(&rd, r->route_links, sizeof(int32_t), (size_t)total);
            r->nroutes = npairs;
            for (int64_t k = 0; k < total && !rd.bad; k++)
                rd.bad |= r->route_links[k] < 0 || r->route_links[k] >= r->nlinks;
        }
    }
    return close_cache(path, &rd, err);
}
