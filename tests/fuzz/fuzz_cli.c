/* fuzz_cli.c - fuzz harness: the option values of `collsim verify` and `collsim sim`
 * (src/cli/cli_common.c, placement, models, workloads, collective names, key=value
 * lists). The first byte picks the parser; the rest is split at newlines into the
 * values of repeated options, parsed one after the other into the same spec (as
 * repeated --param options are). Checks beyond "no crash": placements and workloads
 * print back (their *_format) to text that parses again. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "common/kv.h"
#include "fuzz_input.h"
#include "sim/sim.h"
#include "traffic/workload.h"

static void parse_one(int which, char *text, coll_spec *spec, kv_list *kv)
{
    cs_error err;
    switch (which) {
    case 0: cli_parse_dims(text, spec, &err); break;
    case 1: cli_parse_param(text, spec, &err); break;
    case 2: {
        placement_spec p, again;
        char buf[1200];
        if (placement_parse(text, &p, &err) == 0) {
            placement_format(&p, buf, sizeof buf);
            if (strlen(buf) < sizeof buf - 1 && placement_parse(buf, &again, &err) < 0)
                abort();
        }
        break;
    }
    case 3: {
        sim_model m;
        coll_kind c;
        sim_model_parse(text, &m, &err);
        coll_from_name(text, &c, &err);
        break;
    }
    case 4: {
        workload_params w, again;
        char buf[600];
        if (workload_parse(text, &w, &err) == 0) {
            workload_format(&w, buf, sizeof buf);
            if (workload_parse(buf, &again, &err) < 0)
                abort();
        }
        break;
    }
    case 5: kv_parse_args(kv, 1, &text, &err); break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4096)
        return 0;
    char *text = fuzz_cstr(data + 1, size - 1);
    coll_spec spec;
    coll_spec_init(&spec, COLL_ALLREDUCE, 2, 1 << 20);
    kv_list kv;
    kv_init(&kv);
    char *save = NULL;
    for (char *tok = strtok_r(text, "\n", &save); tok; tok = strtok_r(NULL, "\n", &save))
        parse_one(data[0] % 6, tok, &spec, &kv);
    free(text);
    return 0;
}
