/* yaml_file.c - a whole YAML file into a libyaml document (yaml_file.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/util.h"
#include "common/yaml_file.h"

int yaml_file_load(const char *path, const char *what, yaml_document_t *doc, cs_error *err)
{
    FILE *f = fopen_input(path, "rb"); /* refuses directories with a reason */
    if (!f)
        return cs_fail(err, "%s: cannot open%s%s: %s", path, *what ? " " : "", what,
                       strerror(errno));
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) {
        fclose(f);
        return cs_fail(err, "%s: cannot initialise the YAML parser", path);
    }
    yaml_parser_set_input_file(&parser, f);
    int rc = 0;
    if (!yaml_parser_load(&parser, doc))
        rc = cs_fail(err, "%s:%zu:%zu: YAML syntax error: %s%s%s", path,
                     parser.problem_mark.line + 1, parser.problem_mark.column + 1,
                     parser.problem ? parser.problem : "?", parser.context ? " " : "",
                     parser.context ? parser.context : "");
    yaml_parser_delete(&parser);
    fclose(f);
    return rc;
}
