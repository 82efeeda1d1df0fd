/* kv.h - key=value parameter lists, as users give them on the command line
 * ("dragonfly p=2 a=4 h=2"), in YAML presets and in Lua tables.
 *
 * Typed getters parse on demand; every getter marks its key as used, and kv_check_unused()
 * then reports a key nobody asked for ("unknown key 'hh' (allowed: p, a, h, g, ...)"), so
 * that a typo is an error and never silently ignored.
 */
#ifndef COLLSIM_KV_H
#define COLLSIM_KV_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

#define KV_MAX 48

typedef struct kv_item {
    char key[32];
    char value[160];
    int used;
    int line; /* source line for messages (0: unknown) */
    int col;  /* source column (0: unknown); messages then start with "line:col: " */
} kv_item;

typedef struct kv_list {
    kv_item items[KV_MAX];
    int n;
} kv_list;

void kv_init(kv_list *kv);
/* Adds or replaces a key. */
int kv_set(kv_list *kv, const char *key, const char *value, int line, cs_error *err);
/* Same, with the source position for messages ("12:3: p: ..."). */
int kv_set_at(kv_list *kv, const char *key, const char *value, int line, int col, cs_error *err);
/* Parses "key=value" items (argv style); a key given twice is an error. */
int kv_parse_args(kv_list *kv, int argc, char **argv, cs_error *err);
const char *kv_get(kv_list *kv, const char *key); /* marks used; NULL if absent */

/* Typed getters: absent -> default (returns 0); malformed or out of range -> -1 with a
 * message naming the key and the allowed range. */
int kv_int(kv_list *kv, const char *key, int64_t def, int64_t min, int64_t max, int64_t *out,
           cs_error *err);
int kv_double(kv_list *kv, const char *key, double def, double min, double max, double *out,
              cs_error *err);
int kv_bandwidth(kv_list *kv, const char *key, const char *def, double *out, cs_error *err);
int kv_time(kv_list *kv, const char *key, const char *def, double *out, cs_error *err);
int kv_size(kv_list *kv, const char *key, const char *def, int64_t *out, cs_error *err);
/* "8x8x8" -> dims; returns the number of dims. */
int kv_dims(kv_list *kv, const char *key, const char *def, int32_t *dims, int max, int *ndims,
            cs_error *err);
/* One of "a|b|c": index of the choice. */
int kv_choice(kv_list *kv, const char *key, const char *def, const char *choices, int *out,
              cs_error *err);
int kv_bool(kv_list *kv, const char *key, int def, int *out, cs_error *err);

/* Fails on the first key no getter asked for; `allowed` lists the valid keys. */
int kv_check_unused(const kv_list *kv, const char *allowed, cs_error *err);

#endif
