/* error.c - formatting of error values (see error.h). */
#include "common/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int cs_fail(cs_error *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}

void cs_error_prefix(cs_error *err, const char *fmt, ...)
{
    if (!err)
        return;
    char prefix[CS_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    char old[CS_ERROR_MAX];
    memcpy(old, err->msg, sizeof old);
    snprintf(err->msg, sizeof err->msg, "%s: %s", prefix, old);
}

void cs_error_clear(cs_error *err)
{
    if (err)
        err->msg[0] = '\0';
}
