/* atomic_file.h - writing an output file all or nothing: the data goes to a temporary
 * file that replaces <path> only once everything was written (DESIGN.md: nothing writes a
 * partial result file in place). The temporary file has no name until the commit (Linux
 * O_TMPFILE), so an interrupted or killed process leaves nothing behind; on file systems
 * without O_TMPFILE it is "<path>.tmp.<pid>", removed on error. */
#ifndef COLLSIM_ATOMIC_FILE_H
#define COLLSIM_ATOMIC_FILE_H

#include <stdio.h>

#include "common/error.h"

typedef struct atomic_file {
    FILE *f;
    char path[4096];
    char tmp[4128];  /* "<path>.tmp.<pid>": the name before the final rename */
    int unnamed;     /* the data is in an O_TMPFILE file, named only at the commit */
} atomic_file;

/* Opens the temporary file for writing; -1 with err naming the file. */
int atomic_file_open(atomic_file *a, const char *path, cs_error *err);
/* Closes; when ok and no write failed, renames the temporary file to the path, else
 * removes it. Returns 0, or -1 with err (when ok was set). */
int atomic_file_commit(atomic_file *a, int ok, cs_error *err);

#endif
