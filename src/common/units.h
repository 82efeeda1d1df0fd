/* units.h - the unit strings users type: sizes, bandwidths and times.
 *
 *   sizes       "32B" "4KiB" "1MiB" "2GiB" "1TiB" (binary) "1KB" "1MB" "1GB" (decimal),
 *               a bare integer means bytes; decimals are allowed when the result is a
 *               whole number of bytes ("1.5KiB" = 1536 B).
 *   bandwidths  "200Gbps" "100Mbps" (bits per second), "25GBps" "25GB/s" "12.5GiBps"
 *               (bytes per second); returned in bytes per second.
 *   times       "1s" "10ms" "1us" "100ns" "500ps"; returned in seconds.
 *
 * Errors name the text and list the allowed units.
 */
#ifndef COLLSIM_UNITS_H
#define COLLSIM_UNITS_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

int parse_size(const char *text, int64_t *bytes, cs_error *err);
int parse_bandwidth(const char *text, double *bytes_per_s, cs_error *err);
int parse_time(const char *text, double *seconds, cs_error *err);

/* Parses a non-negative integer that must fit in [min, max]; names `what` in errors. */
int parse_int_in(const char *text, int64_t min, int64_t max, const char *what, int64_t *out,
                 cs_error *err);

/* Writes a size as the shortest exact form ("1MiB", "1536B", "3KiB"). */
void format_size(int64_t bytes, char *buf, size_t n);

#endif
