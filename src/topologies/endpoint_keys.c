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

/* endpoint=VALUE: 1 for none, else an error naming the allowed value. */
static int off_word(const char *value, cs_error *err)
{
    if (strcmp(value, "none") == 0)
        return 1;
    return cs_fail(err, "topology spec: %s=%s: unknown value (allowed: %s)", TOPO_ENDPOINT_OFF,
                   value, TOPO_ENDPOINT_OFF_VALUES);
}

int topo_endpoint_keys_take(kv_list *kv, topo_endpoint_keys *k, int *off, cs_error *err)
{
    int j = 0;
    *off = 0;
    for (int i = 0; i < kv->n; i++) {
        if (strcmp(kv->items[i].key, TOPO_ENDPOINT_OFF) == 0) {
            if (off_word(kv->items[i].value, err) < 0)
                return -1;
            *off = 1;
        } else if (topo_is_endpoint_key(kv->items[i].key)) {
            topo_endpoint_keys_set(k, kv->items[i].key, kv->items[i].value, "topology spec");
        } else {
            kv->items[j++] = kv->items[i];
        }
    }
    kv->n = j;
    return 0;
}

static int is_preset(const char *name)
{
    size_t len = strlen(name);
    return (len > 5 && strcmp(name + len - 5, ".yaml") == 0) ||
           (len > 4 && strcmp(name + len - 4, ".yml") == 0);
}

/* A spec's words: the name (words[0]) and the rest; *off when endpoint=none is one. */
static int spec_words(const char *spec, char *buf, size_t n, char **words, int max, int *nwords,
                      int *off, cs_error *err)
{
    if (strlen(spec) >= n)
        return cs_fail(err, "topology specification too long");
    snprintf(buf, n, "%s", spec);
    char *save = NULL;
    *nwords = *off = 0;
    for (char *tok = strtok_r(buf, " \t", &save); tok && *nwords < max;
         tok = strtok_r(NULL, " \t", &save)) {
        words[(*nwords)++] = tok;
        size_t klen = strlen(TOPO_ENDPOINT_OFF);
        if (*nwords > 1 && strncmp(tok, TOPO_ENDPOINT_OFF, klen) == 0 && tok[klen] == '=') {
            if (off_word(tok + klen + 1, err) < 0)
                return -1;
            *off = 1;
        }
    }
    return 0;
}

/* The keys of the spec's preset file (none with endpoint=none or without a preset). */
static int preset_keys(const char *name, int off, topo_endpoint_keys *k, cs_error *err)
{
    memset(k, 0, sizeof *k);
    if (off || !is_preset(name))
        return 0;
    preset_extras px;
    if (topo_preset_read_extras(name, &px, err) < 0)
        return -1;
    *k = px.endpoint;
    preset_extras_free(&px);
    return 0;
}

#define SPEC_MAX_WORDS 256

int topo_spec_endpoint_keys(const char *spec, topo_endpoint_keys *k, cs_error *err)
{
    memset(k, 0, sizeof *k);
    char buf[4096], *words[SPEC_MAX_WORDS];
    int nwords, off;
    if (spec_words(spec, buf, sizeof buf, words, SPEC_MAX_WORDS, &nwords, &off, err) < 0)
        return -1;
    if (nwords == 0)
        return 0; /* the topology's own check names an empty spec */
    if (preset_keys(words[0], off, k, err) < 0)
        return -1;
    for (int i = 1; i < nwords; i++) {
        char *eq = strchr(words[i], '=');
        if (!eq)
            continue; /* the topology's own parser reports it */
        *eq = '\0';
        if (topo_is_endpoint_key(words[i]))
            topo_endpoint_keys_set(k, words[i], eq + 1, "topology spec");
    }
    return 0;
}

int topo_spec_preset_endpoint_text(const char *spec, char *buf, size_t n, cs_error *err)
{
    buf[0] = '\0';
    char words_buf[4096], *words[SPEC_MAX_WORDS];
    int nwords, off;
    topo_endpoint_keys k;
    if (spec_words(spec, words_buf, sizeof words_buf, words, SPEC_MAX_WORDS, &nwords, &off,
                   err) < 0 ||
        (nwords > 0 && preset_keys(words[0], off, &k, err) < 0))
        return -1;
    size_t len = 0;
    for (int i = 0; nwords > 0 && i < k.n && len < n; i++)
        len += (size_t)snprintf(buf + len, n - len, "preset_%s=%s\n", k.items[i].key,
                                k.items[i].value);
    return 0;
}

void topo_spec_without_endpoint_off(const char *spec, char *buf, size_t n)
{
    char words_buf[4096], *words[SPEC_MAX_WORDS];
    int nwords, off;
    cs_error ignored;
    if (spec_words(spec, words_buf, sizeof words_buf, words, SPEC_MAX_WORDS, &nwords, &off,
                   &ignored) < 0 || !off) {
        snprintf(buf, n, "%s", spec); /* a bad word is the topology's error, elsewhere */
        return;
    }
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < nwords && len < n; i++)
        if (i == 0 || strcmp(words[i], TOPO_ENDPOINT_OFF "=none") != 0)
            len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? " " : "", words[i]);
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
