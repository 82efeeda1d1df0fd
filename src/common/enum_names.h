/* enum_names.h - names of an enum's values, one table per enum (its values 0 .. count-1
 * in order), read both ways: the name of a value, the value of a name, and the list of
 * names for "allowed: ..." messages. */
#ifndef COLLSIM_ENUM_NAMES_H
#define COLLSIM_ENUM_NAMES_H

#include <stddef.h>

#include "common/error.h"

typedef struct enum_names {
    const char *const *names;
    size_t count;
} enum_names;

#define ENUM_NAMES(table) ((enum_names){(table), sizeof(table) / sizeof((table)[0])})

/* names[value], or "?" outside 0 .. count-1. */
const char *enum_name(enum_names e, int value);
/* The value named text: 0 and *value; else -1 with "unknown <what> '<text>' (allowed:
 * a, b, c)". */
int enum_parse(enum_names e, const char *what, const char *text, int *value, cs_error *err);

#endif
