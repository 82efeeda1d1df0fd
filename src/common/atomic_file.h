/* atomic_file.h - writing an output file all or nothing: the data goes to "<path>.tmp",
 * which replaces <path> only once everything was written (DESIGN.md: nothing writes a
 * partial result file in place). */
#ifndef COLLSIM_ATOMIC_FILE_H
#define COLLSIM_ATOMIC_FILE_H

#include <stdio.h>

#include "common/error.h"

typedef struct atomic_file {
    FILE *f;
    char path[4096];
    char tmp[4104];
} atomic_file;

/* Opens "<path>.tmp" for writing; -1 with err naming the file. */
int atomic_file_open(atomic_file *a, const char *path, cs_error *err);
/* Closes; when ok and no write failed, renames the temporary file to the path, else
 * removes it. Returns 0, or -1 with err (when ok was set). */
int atomic_file_commit(atomic_file *a, int ok, cs_error *err);

#endif
