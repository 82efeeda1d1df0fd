/* fuzz_units.c - fuzz harness: size, bandwidth, time and bounded-integer strings
 * (src/common/units.c). The first byte picks the parser, the rest is the text.
 * Checks beyond "no crash": a parsed size prints back (format_size) to the same value,
 * and parse_int_in stays inside its bounds. */
#include <stdlib.h>

#include "common/units.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4096)
        return 0;
    char *text = fuzz_cstr(data + 1, size - 1);
    cs_error err;
    int64_t bytes, i;
    double d;
    switch (data[0] % 4) {
    case 0:
        if (parse_size(text, &bytes, &err) == 0) {
            char buf[64];
            int64_t again;
            if (bytes < 0)
                abort();
            format_size(bytes, buf, sizeof buf);
            if (parse_size(buf, &again, &err) < 0 || again != bytes)
                abort(); /* format_size must print a size parse_size reads back */
        }
        break;
    case 1: parse_bandwidth(text, &d, &err); break;
    case 2: parse_time(text, &d, &err); break;
    case 3:
        if (parse_int_in(text, 2, INT32_MAX, "ranks", &i, &err) == 0 && (i < 2 || i > INT32_MAX))
            abort();
        break;
    }
    free(text);
    return 0;
}
