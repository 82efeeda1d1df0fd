/* endpoint_keys.c - collecting the endpoint-cost keys of a topology spec, a machine
 * preset and the calibration fragment it includes (endpoint_keys.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <yaml.h>

#include "common/yaml_file.h"
#include "topologies/endpoint_keys.h"
#include "topologies/preset_extras.h"
#include "topologies/topology.h"

static const char *const endpoint_keys[TOPO_ENDPOINT_NKEYS] = {
    "send_overhead", "recv_overhead", "msg_gap", "envelope", "eager_limit"};

int topo_is_endpoint_key(const char *key)
{
    for (int i = 0; i < TOPO_ENDPOINT_NKEYS; i++)
        if (strcmp(key, endpoint_keys[i]) == 0)
            return 1;
    return 0;
}

void topo_endpoint_keys_set(topo_endpoint_keys *k, const char *key, const char *value,
                            const char *where)
{
    int i = 0;
    while (i < k->n && strcmp(k->items[i].key, key) != 0)
        i++;
    if (i == k->n) {
        if (k->n == TOPO_ENDPOINT_NKEYS)
            return; /* only the five keys ever come here */
        k->n++;
    }
    topo_endpoint_key *it = &k->items[i];
    snprintf(it->key, sizeof it->key, "%s", key);
    snprintf(it->value, sizeof it->value, "%s", value);
    snprintf(it->where, sizeof it->where, "%s", where);
}

void topo_endpoint_keys_take(kv_list *kv, topo_endpoint_keys *k)
{
    int j = 0;
    for (int i = 0; i < kv->n; i++) {
        if (topo_is_endpoint_key(kv->items[i].key))
            topo_endpoint_keys_set(k, kv->items[i].key, kv->items[i].value, "topology spec");
        else
            kv->items[j++] = kv->items[i];
    }
    kv->n = j;
}

int topo_spec_endpoint_keys(const char *spec, topo_endpoint_keys *k, cs_error *err)
{
    memset(k, 0, sizeof *k);
    char buf[4096];
    if (strlen(spec) >= sizeof buf)
        return cs_fail(err, "topology specification too long");
    snprintf(buf, sizeof buf, "%s", spec);
    char *save = NULL;
    const char *name = strtok_r(buf, " \t", &save);
    if (!name)
        return 0; /* the topology's own check names an empty spec */
    size_t len = strlen(name);
    int preset = (len > 5 && strcmp(name + len - 5, ".yaml") == 0) ||
                 (len > 4 && strcmp(name + len - 4, ".yml") == 0);
    if (preset) {
        preset_extras px;
        if (topo_preset_read_extras(name, &px, err) < 0)
            return -1;
        *k = px.endpoint;
        preset_extras_free(&px);
    }
    for (char *tok = strtok_r(NULL, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq)
            continue; /* the topology's own parser reports it */
        *eq = '\0';
        if (topo_is_endpoint_key(tok))
            topo_endpoint_keys_set(k, tok, eq + 1, "topology spec");
    }
    return 0;
}

/* ---- the calibration fragment a preset includes ----------------------------------------- */

static int fragment_fail(cs_error *err, const char *path, yaml_mark_t m, const char *what,
                         const char *key)
{
    return cs_fail(err, "%s:%zu:%zu: %s'%s' (a fragment holds only: %s)", path, m.line + 1,
                   m.column + 1, what, key, TOPO_ENDPOINT_KEYS);
}

static int fragment_keys(yaml_document_t *doc, const char *path, topo_endpoint_keys *k,
                         cs_error *err)
{
    yaml_node_t *root = yaml_document_get_root_node(doc);
    if (!root || root->type != YAML_MAPPING_NODE)
        return cs_fail(err, "%s:1:1: expected a mapping of endpoint keys (%s)", path,
                       TOPO_ENDPOINT_KEYS);
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top;
         p++) {
        yaml_node_t *kn = yaml_document_get_node(doc, p->key);
        yaml_node_t *vn = yaml_document_get_node(doc, p->value);
        const char *key = kn->type == YAML_SCALAR_NODE ? (const char *)kn->data.scalar.value : "?";
        if (!topo_is_endpoint_key(key))
            return fragment_fail(err, path, kn->start_mark, "unknown field ", key);
        if (vn->type != YAML_SCALAR_NODE)
            return fragment_fail(err, path, vn->start_mark, "expected a scalar value of ", key);
        char where[600];
        snprintf(where, sizeof where, "%s:%zu:%zu", path, kn->start_mark.line + 1,
                 kn->start_mark.column + 1);
        topo_endpoint_keys_set(k, key, (const char *)vn->data.scalar.value, where);
    }
    return 0;
}

int topo_endpoint_fragment_read(const char *path, topo_endpoint_keys *k, cs_error *err)
{
    memset(k, 0, sizeof *k);
    yaml_document_t doc;
    if (yaml_file_load(path, "", &doc, err) < 0)
        return -1;
    int rc = fragment_keys(&doc, path, k, err);
    yaml_document_delete(&doc);
    return rc;
}
