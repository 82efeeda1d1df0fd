/* json.h - writing JSON text: strings escaped per RFC 8259, numbers that JSON accepts.
 *
 * Used by the result rows (`collsim sim --format json`) and the sweep manifests; there
 * is no JSON reader (collsim only writes JSON).
 */
#ifndef COLLSIM_JSON_H
#define COLLSIM_JSON_H

#include <stdio.h>

/* A string with its quotes: '"' and '\' escaped, control characters as \u00XX. */
void json_write_string(FILE *f, const char *s);
/* A number with up to 10 significant digits ("%.10g", like the CSV), or null for NAN
 * and infinities (JSON has no such numbers). */
void json_write_number(FILE *f, double x);

#endif
