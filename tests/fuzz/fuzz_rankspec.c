/* fuzz_rankspec.c - fuzz harness: rank lists ("2..64,pow2:128..4096", src/common/rankspec.c).
 * The first byte picks the bounds: the CLI's (2..2^31-1), used only for texts without a
 * range (a range of 10^8 values is legal there and would only measure malloc), or small
 * ones (2..2^16) for everything. Checks: the result is sorted, unique and in bounds. */
#include <stdlib.h>
#include <string.h>

#include "common/rankspec.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4096)
        return 0;
    char *text = fuzz_cstr(data + 1, size - 1);
    int64_t min = 2, max = (data[0] & 1) && !strstr(text, "..") ? INT32_MAX : 1 << 16;
    int64_t *v = NULL;
    size_t n = 0;
    cs_error err;
    if (rankspec_parse(text, min, max, &v, &n, &err) == 0) {
        if (n == 0)
            abort();
        for (size_t k = 0; k < n; k++)
            if (v[k] < min || v[k] > max || (k > 0 && v[k] <= v[k - 1]))
                abort();
    }
    free(v);
    free(text);
    return 0;
}
