/* enum_names.c - an enum's names both ways (enum_names.h). */
#include <stdio.h>
#include <string.h>

#include "common/enum_names.h"

const char *enum_name(enum_names e, int value)
{
    return value >= 0 && (size_t)value < e.count ? e.names[value] : "?";
}

int enum_parse(enum_names e, const char *what, const char *text, int *value, cs_error *err)
{
    char allowed[512] = "";
    for (size_t i = 0; i < e.count; i++) {
        if (strcmp(text, e.names[i]) == 0) {
            *value = (int)i;
            return 0;
        }
        size_t len = strlen(allowed);
        snprintf(allowed + len, sizeof allowed - len, "%s%s", i ? ", " : "", e.names[i]);
    }
    return cs_fail(err, "unknown %s '%s' (allowed: %s)", what, text, allowed);
}
