/* rankspec.h - lists of rank counts as users write them.
 *
 *   "64"                 one value
 *   "2,4,6"              a list
 *   "2..64"              every value from 2 to 64
 *   "pow2:2..65536"      powers of two in the range ("pow2:..65536" starts at 2)
 *   "even:2..128"        even values in the range
 *   "2..64,pow2:128..4096"  any mix, comma separated
 *
 * The result is sorted, without duplicates. Values must lie in [min, max]; a list of
 * more than RANKSPEC_MAX_VALUES values is refused before it is expanded.
 */
#ifndef COLLSIM_RANKSPEC_H
#define COLLSIM_RANKSPEC_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

#define RANKSPEC_MAX_VALUES ((size_t)1 << 20)
#define RANKSPEC_MAX_TEXT "1048576"

int rankspec_parse(const char *text, int64_t min, int64_t max, int64_t **values, size_t *n,
                   cs_error *err);

#endif
