/* error.h - errors are values.
 *
 * Every function that can fail on bad input returns an int (0 = success, -1 = failure)
 * and fills a cs_error with a one-line message saying what is wrong and what is allowed.
 * Callers that know more context (a file name and line, an option name) prepend it with
 * cs_error_prefix(). Nothing in collsim aborts on bad input; only running out of memory
 * (see util.h: xmalloc) ends the process.
 */
#ifndef COLLSIM_ERROR_H
#define COLLSIM_ERROR_H

#include <stddef.h>

#define CS_ERROR_MAX 1024

typedef struct cs_error {
    char msg[CS_ERROR_MAX];
} cs_error;

/* Formats the message into err (if err is not NULL) and returns -1, so that
 * `return cs_fail(err, "...")` reads naturally. */
int cs_fail(cs_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prepends "<prefix>: " to the message already in err, e.g. a "file:line". */
void cs_error_prefix(cs_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Clears the message. */
void cs_error_clear(cs_error *err);

#endif
