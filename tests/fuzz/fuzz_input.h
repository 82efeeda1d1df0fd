/* fuzz_input.h - turning a fuzzer's byte buffer into the C strings the parsers take.
 *
 * Every harness in tests/fuzz/ defines LLVMFuzzerTestOneInput(data, size). Built with
 * -DCOLLSIM_FUZZ=ON (clang), libFuzzer drives it; in the normal build, replay.c calls it
 * once per file of tests/fuzz-corpus/<harness>/ so that every input ever found stays a
 * regression test (docs/robustness.md).
 */
#ifndef COLLSIM_FUZZ_INPUT_H
#define COLLSIM_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A NUL-terminated copy of data (embedded NULs end the string early, as in argv). */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
    char *s = xmalloc(size + 1);
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

/* Writes data to a file of this process's own, /tmp/collsim-fuzz-<kind>-<pid><ext>, for
 * parsers that read paths; the caller unlinks it. */
static inline void fuzz_write_file(const char *kind, const char *ext, const uint8_t *data,
                                   size_t size, char *path, size_t n)
{
    snprintf(path, n, "/tmp/collsim-fuzz-%s-%d%s", kind, (int)getpid(), ext);
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    fwrite(data, 1, size, f);
    fclose(f);
}

#endif
