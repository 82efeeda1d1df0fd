/* output.h - writing pictures and link tables to files (for draw.c).
 *
 * Every file is written under a temporary name in the same directory and renamed into
 * place, so that a failed run leaves no partial file. Formats follow the extension:
 *   .svg   scene_write_svg
 *   .json  scene_write_json
 *   .png   the JSON scene rendered by scripts/render_scene.py with matplotlib: the
 *          interpreter is $COLLSIM_PYTHON, else /usr/bin/python3 when it exists (Debian's
 *          python3-matplotlib installs there), else python3 from PATH. An interrupt
 *          (SIGINT, SIGTERM, SIGHUP) while it runs ends the renderer and removes the
 *          temporary files before collsim ends.
 */
#ifndef COLLSIM_DRAW_OUTPUT_H
#define COLLSIM_DRAW_OUTPUT_H

#include <stddef.h>

#include "common/error.h"
#include "draw/loads.h"
#include "draw/scene.h"
#include "topologies/topology.h"

typedef enum { OUT_SVG, OUT_PNG, OUT_JSON } out_format;

/* The format of a path by its extension; error naming the allowed ones. */
int output_format(const char *path, out_format *fmt, cs_error *err);
/* "dir/x.svg" + suffix "-step03" -> "dir/x-step03.svg"; new extension ext if not NULL. */
void output_name(const char *path, const char *suffix, const char *ext, char *buf, size_t n);

/* Fails, naming `what` (an option) and the reason, when `path` cannot be created: checked
 * before any work, so that a bad path costs nothing and leaves nothing behind. */
int output_check_writable(const char *path, const char *what, cs_error *err);

int output_scene(const scene *s, const char *path, cs_error *err);
int output_animation(const scene *frames, int nframes, double seconds, const char *path,
                     cs_error *err);

/* The link CSV (draw.h) for the loads of the named algorithms. */
int output_link_csv(const char *path, const topology *t, const draw_loads *const *loads,
                    const char *const *names, int n, cs_error *err);

#endif
