/* kv.c - key=value parameter lists with typed getters (see kv.h). */
#include "common/kv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/units.h"

void kv_init(kv_list *kv)
{
    memset(kv, 0, sizeof *kv);
}

static kv_item *find(kv_list *kv, const char *key)
{
    for (int i = 0; i < kv->n; i++)
        if (strcmp(kv->items[i].key, key) == 0)
            return &kv->items[i];
    return NULL;
}

int kv_set(kv_list *kv, const char *key, const char *value, int line, cs_error *err)
{
    return kv_set_at(kv, key, value, line, 0, err);
}

int kv_set_at(kv_list *kv, const char *key, const char *value, int line, int col, cs_error *err)
{
    if (strlen(key) >= sizeof kv->items[0].key || !*key)
        return cs_fail(err, "invalid key '%s'", key);
    if (strlen(value) >= sizeof kv->items[0].value)
        return cs_fail(err, "value of '%s' is too long", key);
    kv_item *it = find(kv, key);
    if (!it) {
        if (kv->n >= KV_MAX)
            return cs_fail(err, "too many parameters (at most %d)", KV_MAX);
        it = &kv->items[kv->n++];
    }
    snprintf(it->key, sizeof it->key, "%s", key);
    snprintf(it->value, sizeof it->value, "%s", value);
    it->used = 0;
    it->line = line;
    it->col = col;
    return 0;
}

int kv_parse_args(kv_list *kv, int argc, char **argv, cs_error *err)
{
    for (int i = 0; i < argc; i++) {
        const char *eq = strchr(argv[i], '=');
        if (!eq || eq == argv[i])
            return cs_fail(err, "expected key=value, got '%s'", argv[i]);
        char key[64];
        size_t len = (size_t)(eq - argv[i]);
        if (len >= sizeof key)
            return cs_fail(err, "key in '%s' is too long", argv[i]);
        memcpy(key, argv[i], len);
        key[len] = '\0';
        for (int j = 0; j < i; j++)
            if (strncmp(argv[j], key, len) == 0 && argv[j][len] == '=')
                return cs_fail(err, "%s given twice ('%s' and '%s'): give it once", key,
                               argv[j], argv[i]);
        if (kv_set(kv, key, eq + 1, 0, err) < 0)
            return -1;
    }
    return 0;
}

const char *kv_get(kv_list *kv, const char *key)
{
    kv_item *it = find(kv, key);
    if (!it)
        return NULL;
    it->used = 1;
    return it->value;
}

/* Prefixes an error with the key (and line when known). */
static int key_fail(kv_list *kv, const char *key, cs_error *err)
{
    kv_item *it = find(kv, key);
    if (it && it->line > 0 && it->col > 0)
        cs_error_prefix(err, "%d:%d: %s", it->line, it->col, key);
    else if (it && it->line > 0)
        cs_error_prefix(err, "line %d: %s", it->line, key);
    else
        cs_error_prefix(err, "%s", key);
    return -1;
}

int kv_int(kv_list *kv, const char *key, int64_t def, int64_t min, int64_t max, int64_t *out,
           cs_error *err)
{
    const char *v = kv_get(kv, key);
    if (!v) {
        *out = def;
        return 0;
    }
    if (parse_int_in(v, min, max, "value", out, err) < 0)
        return key_fail(kv, key, err);
    return 0;
}

int kv_double(kv_list *kv, const char *key, double def, double min, double max, double *out,
              cs_error *err)
{
    const char *v = kv_get(kv, key);
    if (!v) {
        *out = def;
        return 0;
    }
    char *end;
    errno = 0;
    double d = strtod(v, &end);
    if (*end || end == v || errno || !isfinite(d) || d < min || d > max) {
        cs_fail(err, "'%s' is not a number in [%g, %g]", v, min, max);
        return key_fail(kv, key, err);
    }
    *out = d;
    return 0;
}

int kv_bandwidth(kv_list *kv, const char *key, const char *def, double *out, cs_error *err)
{
    const char *v = kv_get(kv, key);
    if (parse_bandwidth(v ? v : def, out, err) < 0)
        return key_fail(kv, key, err);
    return 0;
}

int kv_time(kv_list *kv, const char *key, const char *def, double *out, cs_error *err)
{
    const char *v = kv_get(kv, key);
    if (parse_time(v ? v : def, out, err) < 0)
        return key_fail(kv, key, err);
    return 0;
}

int kv_size(kv_list *kv, const char *key, const char *def, int64_t *out, cs_error *err)
{
    const char *v = kv_get(kv, key);
    if (parse_size(v ? v : def, out, err) < 0)
        return key_fail(kv, key, err);
    return 0;
}

int kv_dims(kv_list *kv, const char *key, const char *def, int32_t *dims, int max, int *ndims,
            cs_error *err)
{
    const char *v = kv_get(kv, key);
    if (!v)
        v = def;
    int n = 0;
    const char *s = v;
    while (s && *s) {
        char *end;
        errno = 0;
        long d = strtol(s, &end, 10);
        if (end == s || errno || d < 1 || d > (1 << 24) || n >= max || (*end && *end != 'x')) {
            cs_fail(err, "invalid dimensions '%s' (expected AxBx... with at most %d sizes >= 1)", v,
                    max);
            return key_fail(kv, key, err);
        }
        dims[n++] = (int32_t)d;
        s = *end ? end + 1 : end;
        if (*end && !*s) { /* "4x4x": a trailing 'x' is a size missing */
            cs_fail(err, "invalid dimensions '%s' (ends in 'x': expected AxBx... with a size "
                         "after every x)", v);
            return key_fail(kv, key, err);
        }
    }
    if (n == 0) {
        cs_fail(err, "empty dimensions");
        return key_fail(kv, key, err);
    }
    *ndims = n;
    return 0;
}

int kv_choice(kv_list *kv, const char *key, const char *def, const char *choices, int *out,
              cs_error *err)
{
    const char *v = kv_get(kv, key);
    if (!v)
        v = def;
    const char *c = choices;
    for (int i = 0; *c; i++) {
        const char *bar = strchr(c, '|');
        size_t len = bar ? (size_t)(bar - c) : strlen(c);
        if (strlen(v) == len && strncmp(v, c, len) == 0) {
            *out = i;
            return 0;
        }
        if (!bar)
            break;
        c = bar + 1;
    }
    cs_fail(err, "'%s' is not allowed (allowed: %s)", v, choices);
    return key_fail(kv, key, err);
}

int kv_bool(kv_list *kv, const char *key, int def, int *out, cs_error *err)
{
    int i;
    if (kv_choice(kv, key, def ? "true" : "false", "false|true|no|yes|0|1", &i, err) < 0)
        return -1;
    *out = i % 2;
    return 0;
}

int kv_check_unused(const kv_list *kv, const char *allowed, cs_error *err)
{
    for (int i = 0; i < kv->n; i++)
        if (!kv->items[i].used) {
            if (kv->items[i].line > 0 && kv->items[i].col > 0)
                return cs_fail(err, "%d:%d: unknown key '%s' (allowed: %s)", kv->items[i].line,
                               kv->items[i].col, kv->items[i].key, allowed);
            if (kv->items[i].line > 0)
                return cs_fail(err, "line %d: unknown key '%s' (allowed: %s)", kv->items[i].line,
                               kv->items[i].key, allowed);
            return cs_fail(err, "unknown key '%s' (allowed: %s)", kv->items[i].key, allowed);
        }
    return 0;
}
