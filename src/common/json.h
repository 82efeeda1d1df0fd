/* json.h - writing JSON text: strings escaped per RFC 8259, numbers that JSON accepts.
 *
 * Used by the result rows (`collsim sim --format json`) and the sweep manifests. The one
 * reader (json_read.c) looks up a member of a document's top-level object: `collsim run
 * --resume` and `collsim merge` read a manifest's scenario, seed and shard with it.
 */
#ifndef COLLSIM_JSON_H
#define COLLSIM_JSON_H

#include <stddef.h>
#include <stdio.h>

/* A string with its quotes: '"' and '\' escaped, control characters as \u00XX. */
void json_write_string(FILE *f, const char *s);
/* A number with up to 10 significant digits ("%.10g", like the CSV), or null for NAN
 * and infinities (JSON has no such numbers). */
void json_write_number(FILE *f, double x);

/* Looks up the member `key` of the top-level object of the JSON text (len bytes), any
 * layout: 1 with its value in buf (a string unescaped, any other value as its JSON text,
 * cut to n - 1 bytes), 0 when the object has no such member (buf ""), -1 when the text is
 * not one valid JSON object (*where, if not NULL: the byte offset of the error). */
int json_top_member(const char *text, size_t len, const char *key, char *buf, size_t n,
                    size_t *where);

#endif
