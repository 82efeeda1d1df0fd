/* yaml_file.h - reading a whole YAML file into a libyaml document, with the errors every
 * YAML reader of collsim gives (machine presets, their endpoint fragments, check specs):
 * "PATH: cannot open[ WHAT]: reason" and "PATH:LINE:COL: YAML syntax error: problem".
 */
#ifndef COLLSIM_YAML_FILE_H
#define COLLSIM_YAML_FILE_H

#include <yaml.h>

#include "common/error.h"

/* Loads the first document of `path` into *doc (the caller yaml_document_delete()s it);
 * `what` names the file in the open error ("" or e.g. "the check spec"). 0 or -1 with err. */
int yaml_file_load(const char *path, const char *what, yaml_document_t *doc, cs_error *err);

#endif
