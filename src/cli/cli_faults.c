/* cli_faults.c - the fault options of the commands that take a topology (cli.h):
 * --fail-links, --degrade-links, --fault-seed become the topology spec's keys. */
#include <string.h>

#include "cli/cli.h"
#include "sim/sim_external.h"

int cli_fault_option(int c, const char *arg, cli_faults *f)
{
    switch (c) {
    case CLI_OPT_FAIL_LINKS: f->fail = arg; return 1;
    case CLI_OPT_DEGRADE_LINKS: f->degrade = arg; return 1;
    case CLI_OPT_FAULT_SEED: f->seed = arg; return 1;
    default: return 0;
    }
}

/* 1 if the spec has the word key=... (after its first word). */
static int spec_has_key(const char *spec, const char *key)
{
    size_t n = strlen(key);
    for (const char *p = strchr(spec, ' '); p; p = strchr(p + 1, ' '))
        if (strncmp(p + 1, key, n) == 0 && p[1 + n] == '=')
            return 1;
    return 0;
}

int cli_faults_apply(const cli_faults *f, char *topology, size_t n, cs_error *err)
{
    const char *opts[3] = {"--fail-links", "--degrade-links", "--fault-seed"};
    const char *keys[3] = {"fail_links", "degrade_links", "fault_seed"};
    const char *vals[3] = {f->fail, f->degrade, f->seed};
    for (int i = 0; i < 3; i++) {
        if (!vals[i])
            continue;
        if (sim_is_external_platform(topology))
            return cs_fail(err, "%s applies to generated topologies and presets (--topology), "
                                "not to an external platform", opts[i]);
        if (!vals[i][0] || strpbrk(vals[i], " \t"))
            return cs_fail(err, "%s: expected one word without spaces, e.g. %s", opts[i],
                           i == 0 ? "--fail-links global:5%" : i == 1 ? "--degrade-links l3:0.5"
                                                                      : "--fault-seed 7");
        if (spec_has_key(topology, keys[i]))
            return cs_fail(err, "%s: the topology already has %s= (give it once)", opts[i],
                           keys[i]);
        size_t len = strlen(topology);
        if ((size_t)snprintf(topology + len, n - len, " %s=%s", keys[i], vals[i]) >= n - len)
            return cs_fail(err, "%s: the topology spec gets too long", opts[i]);
    }
    return 0;
}
