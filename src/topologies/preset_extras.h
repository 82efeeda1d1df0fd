/* preset_extras.h - the interop fields of a YAML machine preset (preset.c; docs/interop.md):
 *
 *   hostnames:                 # how the machine names its nodes
 *     format: "nid%06d"        #   printf format with one integer conversion
 *     first: 5000              #   host 0 is format(first), host h format(first + h)
 *   groups: |                  # a group map (groupmap.h) consistent with the generator
 *     regex nid0*([0-9]+) (n - 5000) / 124
 *   send_overhead: 1.2us       # endpoint costs (endpoint_keys.h), any of TOPO_ENDPOINT_KEYS
 *   include: calib.yaml        # a calibration fragment of endpoint keys (relative path);
 *                              #   the preset's own endpoint keys take precedence over it
 */
#ifndef COLLSIM_PRESET_EXTRAS_H
#define COLLSIM_PRESET_EXTRAS_H

#include <stdint.h>

#include "common/error.h"
#include "topologies/endpoint_keys.h"

typedef struct preset_extras {
    char host_format[32]; /* "" when the preset has no hostnames: */
    int64_t host_first;
    char *groups;         /* the map text, NULL when the preset has no groups: */
    int groups_line;      /* the file line of the map's first line */
    topo_endpoint_keys endpoint; /* endpoint keys, the included fragment's merged in */
} preset_extras;

/* Reads only these fields (the rest of the file is checked by topo_build_preset). */
int topo_preset_read_extras(const char *path, preset_extras *px, cs_error *err);
void preset_extras_free(preset_extras *px);

/* Reads a calibration fragment: a YAML mapping of endpoint keys only (endpoint_keys.c). */
int topo_endpoint_fragment_read(const char *path, topo_endpoint_keys *k, cs_error *err);

/* Checks a host name format: one integer conversion (%d, %5d, %05d), no other '%'. */
int topo_host_format_check(const char *format, cs_error *err);

#endif
