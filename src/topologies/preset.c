/* preset.c - YAML machine presets (platforms/NAME.yaml; docs/topologies.md "Presets").
 *
 *   name: lumi                      # optional, informative
 *   description: "..."              # optional, informative
 *   family: dragonfly               # required: a topology family
 *   params:                         # required: the family's keys, scalar values
 *     p: 4
 *     global_bw: 200Gbps
 *   hostnames: {format: "nid%06d", first: 5000}   # optional: node names (preset_extras.h)
 *   groups: |                       # optional: a group map (groupmap.h)
 *     regex nid0*([0-9]+) (n - 5000) / 124
 *   send_overhead: 1.2us            # optional endpoint costs (endpoint_keys.h)
 *   include: calib.yaml             # optional: a fragment of endpoint keys (relative path)
 *
 * Anything else is an error, reported as file:line:column with the field expected;
 * unknown family keys too (through kv_check_unused, with the key's position).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "common/yaml_file.h"
#include "topologies/families.h"
#include "topologies/preset_extras.h"

#define PRESET_FIELDS "name, description, family, params, hostnames, groups, include, " \
    TOPO_ENDPOINT_KEYS

/* "file:line:col: msg" (positions in libyaml are 0-based). */
static int fail_at(cs_error *err, const char *path, yaml_mark_t m, const char *fmt, const char *a,
                   const char *b)
{
    char msg[CS_ERROR_MAX];
    snprintf(msg, sizeof msg, fmt, a, b);
    return cs_fail(err, "%s:%zu:%zu: %s", path, m.line + 1, m.column + 1, msg);
}

static const char *scalar(yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static int read_params(yaml_document_t *doc, yaml_node_t *map, const char *path, kv_list *kv,
                       cs_error *err)
{
    if (map->type != YAML_MAPPING_NODE)
        return fail_at(err, path, map->start_mark,
                       "'params' must be a mapping of key: value (the family's keys)%s%s", "", "");
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(doc, p->key);
        yaml_node_t *v = yaml_document_get_node(doc, p->value);
        const char *key = scalar(k), *value = scalar(v);
        if (!key)
            return fail_at(err, path, k->start_mark, "expected a parameter name%s%s", "", "");
        if (!value)
            return fail_at(err, path, v->start_mark, "value of '%s' must be a scalar%s", key, "");
        for (int i = 0; i < kv->n; i++)
            if (strcmp(kv->items[i].key, key) == 0)
                return fail_at(err, path, k->start_mark, "duplicate key '%s'%s", key, "");
        if (kv_set_at(kv, key, value, (int)k->start_mark.line + 1, (int)k->start_mark.column + 1,
                      err) < 0)
            return fail_at(err, path, k->start_mark, "%s%s", err->msg, "");
    }
    return 0;
}

/* Reads family and params from the root mapping. */
static int read_hostnames(yaml_document_t *doc, yaml_node_t *map, const char *path,
                          preset_extras *px, cs_error *err);

/* `include: FILE.yaml`, relative to the preset: its keys where the preset has none. */
static int read_include(const char *path, yaml_node_t *v, preset_extras *px, cs_error *err)
{
    const char *file = scalar(v);
    if (!file || !*file)
        return fail_at(err, path, v->start_mark, "'include' must be a file name (a fragment "
                                                 "of endpoint keys: %s)%s", TOPO_ENDPOINT_KEYS, "");
    char full[4096];
    const char *slash = strrchr(path, '/');
    if (file[0] == '/' || !slash)
        snprintf(full, sizeof full, "%s", file);
    else
        snprintf(full, sizeof full, "%.*s/%s", (int)(slash - path), path, file);
    topo_endpoint_keys inc;
    if (topo_endpoint_fragment_read(full, &inc, err) < 0) {
        char msg[CS_ERROR_MAX];
        snprintf(msg, sizeof msg, "%s", err->msg);
        return fail_at(err, path, v->start_mark, "include: %s%s", msg, "");
    }
    for (int i = 0; i < inc.n; i++) {
        int j = 0;
        while (j < px->endpoint.n && strcmp(px->endpoint.items[j].key, inc.items[i].key) != 0)
            j++;
        if (j == px->endpoint.n)
            topo_endpoint_keys_set(&px->endpoint, inc.items[i].key, inc.items[i].value,
                                   inc.items[i].where);
    }
    return 0;
}

static int read_endpoint_key(const char *path, yaml_node_t *k, yaml_node_t *v, preset_extras *px,
                             cs_error *err)
{
    const char *key = scalar(k);
    if (!scalar(v))
        return fail_at(err, path, v->start_mark, "'%s' must be a scalar (e.g. 1us, 64B)%s", key,
                       "");
    char where[600];
    snprintf(where, sizeof where, "%s:%zu:%zu", path, k->start_mark.line + 1,
             k->start_mark.column + 1);
    topo_endpoint_keys_set(&px->endpoint, key, scalar(v), where);
    return 0;
}

static int read_root(yaml_document_t *doc, const char *path, char *family, size_t n,
                     yaml_mark_t *family_mark, kv_list *kv, preset_extras *px, cs_error *err)
{
    yaml_node_t *root = yaml_document_get_root_node(doc);
    if (!root)
        return cs_fail(err, "%s:1:1: empty preset (expected fields: %s)", path, PRESET_FIELDS);
    if (root->type != YAML_MAPPING_NODE)
        return fail_at(err, path, root->start_mark, "expected a mapping with fields %s%s",
                       PRESET_FIELDS, "");
    yaml_node_t *params = NULL, *include = NULL;
    family[0] = '\0';
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(doc, p->key);
        yaml_node_t *v = yaml_document_get_node(doc, p->value);
        const char *key = scalar(k);
        if (key && strcmp(key, "params") == 0) {
            params = v;
        } else if (key && strcmp(key, "family") == 0) {
            if (!scalar(v))
                return fail_at(err, path, v->start_mark, "'family' must be a family name%s%s", "", "");
            snprintf(family, n, "%s", scalar(v));
            *family_mark = v->start_mark;
        } else if (key && strcmp(key, "hostnames") == 0) {
            if (read_hostnames(doc, v, path, px, err) < 0)
                return -1;
        } else if (key && strcmp(key, "groups") == 0) {
            if (!scalar(v))
                return fail_at(err, path, v->start_mark, "'groups' must be a group map (text; "
                                                         "a block scalar 'groups: |')%s%s", "", "");
            free(px->groups);
            px->groups = xstrdup(scalar(v));
            int block = v->data.scalar.style == YAML_LITERAL_SCALAR_STYLE ||
                        v->data.scalar.style == YAML_FOLDED_SCALAR_STYLE;
            px->groups_line = (int)v->start_mark.line + (block ? 2 : 1);
        } else if (key && topo_is_endpoint_key(key)) {
            if (read_endpoint_key(path, k, v, px, err) < 0)
                return -1;
        } else if (key && strcmp(key, "include") == 0) {
            include = v;
        } else if (!key || (strcmp(key, "name") != 0 && strcmp(key, "description") != 0)) {
            return fail_at(err, path, k->start_mark, "unknown field '%s' (expected: %s)",
                           key ? key : "?", PRESET_FIELDS);
        } else if (!scalar(v)) {
            return fail_at(err, path, v->start_mark, "'%s' must be a scalar%s", key, "");
        }
    }
    if (!family[0])
        return fail_at(err, path, root->start_mark, "missing field 'family' (expected: %s)",
                       PRESET_FIELDS, "");
    if (!params)
        return fail_at(err, path, root->start_mark, "missing field 'params' (expected: %s)",
                       PRESET_FIELDS, "");
    if (include && read_include(path, include, px, err) < 0)
        return -1;
    return read_params(doc, params, path, kv, err);
}

static int load_document(const char *path, char *family, size_t n, yaml_mark_t *family_mark,
                         kv_list *kv, preset_extras *px, cs_error *err)
{
    yaml_document_t doc;
    if (yaml_file_load(path, "", &doc, err) < 0)
        return -1;
    int rc = read_root(&doc, path, family, n, family_mark, kv, px, err);
    yaml_document_delete(&doc);
    return rc;
}

/* The preset's family and parameters with the overrides applied (px: its extras). */
static int load_preset(const char *path, const kv_list *overrides, char *family, size_t n,
                       yaml_mark_t *family_mark, kv_list *kv, preset_extras *px, cs_error *err)
{
    kv_init(kv);
    memset(px, 0, sizeof *px);
    int rc = load_document(path, family, n, family_mark, kv, px, err);
    for (int i = 0; rc == 0 && overrides && i < overrides->n; i++)
        rc = kv_set(kv, overrides->items[i].key, overrides->items[i].value, 0, err);
    if (rc < 0)
        preset_extras_free(px);
    return rc;
}

/* A family's error about the preset: "path:line:col: ..." from a key, "path:line:col:
 * unknown topology family" at the family field, else "path: family: ...". */
static int preset_error(const char *path, const char *family, yaml_mark_t family_mark,
                        cs_error *err)
{
    char msg[CS_ERROR_MAX];
    snprintf(msg, sizeof msg, "%s", err->msg);
    if (msg[0] >= '0' && msg[0] <= '9') /* "line:col: ..." from a key */
        cs_fail(err, "%s:%s", path, msg);
    else if (strncmp(msg, "unknown topology family", 23) == 0)
        fail_at(err, path, family_mark, "%s%s", msg, "");
    else
        cs_fail(err, "%s: %s: %s", path, family, msg);
    return -1;
}

int topo_build_preset(const char *path, const kv_list *overrides, topology **out, cs_error *err)
{
    *out = NULL;
    char family[64];
    yaml_mark_t family_mark = {0, 0, 0};
    kv_list kv;
    preset_extras px;
    if (load_preset(path, overrides, family, sizeof family, &family_mark, &kv, &px, err) < 0)
        return -1;
    int rc = topo_build_kv(family, &kv, out, err);
    if (rc == 0) {
        snprintf((*out)->host_format, sizeof (*out)->host_format, "%s", px.host_format);
        (*out)->host_first = px.host_first;
    }
    preset_extras_free(&px);
    return rc < 0 ? preset_error(path, family, family_mark, err) : 0;
}

int topo_size_preset(const char *path, const kv_list *overrides, topo_size *out, cs_error *err)
{
    char family[64];
    yaml_mark_t family_mark = {0, 0, 0};
    kv_list kv;
    preset_extras px;
    if (load_preset(path, overrides, family, sizeof family, &family_mark, &kv, &px, err) < 0)
        return -1;
    preset_extras_free(&px);
    return topo_size_kv(family, &kv, out, err) < 0 ? preset_error(path, family, family_mark, err) : 0;
}

/* ---- interop fields (preset_extras.h) -------------------------------------------------- */

int topo_host_format_check(const char *format, cs_error *err)
{
    const char *pct = strchr(format, '%');
    if (strlen(format) >= sizeof ((preset_extras *)0)->host_format)
        return cs_fail(err, "host name format '%s' is too long (at most 31 characters)", format);
    const char *p = pct ? pct + 1 : NULL;
    while (p && *p >= '0' && *p <= '9')
        p++;
    if (!p || *p != 'd' || strchr(p, '%'))
        return cs_fail(err, "host name format '%s' needs exactly one integer conversion such "
                            "as %%d or %%06d (e.g. \"nid%%06d\")", format);
    return 0;
}

static int read_hostnames(yaml_document_t *doc, yaml_node_t *map, const char *path,
                          preset_extras *px, cs_error *err)
{
    if (map->type != YAML_MAPPING_NODE)
        return fail_at(err, path, map->start_mark,
                       "'hostnames' must be a mapping {format: \"nid%%06d\", first: 0}%s%s", "", "");
    px->host_first = 0;
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(doc, p->key);
        yaml_node_t *v = yaml_document_get_node(doc, p->value);
        const char *key = scalar(k), *value = scalar(v);
        if (!key || !value || (strcmp(key, "format") != 0 && strcmp(key, "first") != 0))
            return fail_at(err, path, k->start_mark,
                           "unknown or non-scalar hostnames field '%s' (expected: format, first)",
                           key ? key : "?", "");
        if (strcmp(key, "format") == 0) {
            if (topo_host_format_check(value, err) < 0)
                return fail_at(err, path, v->start_mark, "%s%s", err->msg, "");
            snprintf(px->host_format, sizeof px->host_format, "%s", value);
        } else {
            char *end;
            errno = 0;
            long long first = strtoll(value, &end, 10);
            if (errno || *end || end == value || first < 0 || first > (1LL << 40))
                return fail_at(err, path, v->start_mark,
                               "hostnames first '%s' must be an integer >= 0%s", value, "");
            px->host_first = first;
        }
    }
    if (!px->host_format[0])
        return fail_at(err, path, map->start_mark, "'hostnames' needs a format%s%s", "", "");
    return 0;
}

int topo_preset_read_extras(const char *path, preset_extras *px, cs_error *err)
{
    memset(px, 0, sizeof *px);
    char family[64];
    yaml_mark_t family_mark = {0, 0, 0};
    kv_list kv;
    kv_init(&kv);
    if (load_document(path, family, sizeof family, &family_mark, &kv, px, err) < 0) {
        preset_extras_free(px);
        return -1;
    }
    return 0;
}

void preset_extras_free(preset_extras *px)
{
    free(px->groups);
    px->groups = NULL;
}
