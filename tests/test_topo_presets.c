/* test_topo_presets.c - YAML machine presets: every shipped preset builds with the sizes
 * its sources give, overrides apply, and every kind of mistake in a preset file is
 * reported as file:line:column with the field expected. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "topologies/endpoint_keys.h"
#include "topologies/topology.h"

static topology *preset(const char *path)
{
    topology *t = NULL;
    cs_error err;
    if (topo_build_preset(path, NULL, &t, &err) < 0) {
        fprintf(stderr, "%s\n", err.msg);
        return NULL;
    }
    return t;
}

static void test_every_preset_builds(void)
{
    DIR *d = opendir(COLLSIM_SOURCE_DIR "/platforms");
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".yaml") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/platforms/%s", COLLSIM_SOURCE_DIR, e->d_name);
        topology *t = preset(path);
        CU_ASSERT_PTR_NOT_NULL(t);
        if (t)
            CU_ASSERT(t->nhosts > 1);
        topo_free(t);
        n++;
    }
    closedir(d);
    CU_ASSERT(n >= 14);
}

/* Sizes the papers state (reference/bine.md 5, kautz-2dfc.md 1, swing.md 4.4). */
static void test_preset_sizes(void)
{
    struct {
        const char *file;
        int32_t hosts, groups;
    } want[] = {
        {"lumi.yaml", 24 * 124, 24},         {"leonardo.yaml", 19 * 180 + 324 + 2 * 624, 23},
        {"marenostrum5.yaml", 8 * 160, 8},   {"fugaku.yaml", 8 * 8 * 8, 0},
        {"polaris.yaml", 560, 10},           {"kautz-16-2.yaml", 272, 0},
        {"dragonfly-16x17.yaml", 272, 16},   {"2dfc-4x4.yaml", 16, 4},
        {"2dfc-8x8.yaml", 64, 8},            {"2dfc-16x16.yaml", 256, 16},
        {"swing-torus.yaml", 4096, 0},       {"swing-hx2mesh.yaml", 4096, 32 * 32},
        {"swing-hx4mesh.yaml", 4096, 16 * 16}, {"swing-hyperx.yaml", 4096, 4096},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/platforms/%s", COLLSIM_SOURCE_DIR, want[i].file);
        topology *t = preset(path);
        CU_ASSERT_PTR_NOT_NULL_FATAL(t);
        if (t->nhosts != want[i].hosts || t->ngroups != want[i].groups)
            fprintf(stderr, "\n%s: %d hosts, %d groups\n", want[i].file, t->nhosts, t->ngroups);
        CU_ASSERT_EQUAL(t->nhosts, want[i].hosts);
        CU_ASSERT_EQUAL(t->ngroups, want[i].groups);
        topo_free(t);
    }
    /* the thesis' links: Kautz one-way 12.5 GB/s 1 us; DF-C shared 6.45 GB/s */
    topology *t = preset(COLLSIM_SOURCE_DIR "/platforms/kautz-16-2.yaml");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->links[0].sharing, LINK_ONE_WAY);
    CU_ASSERT_DOUBLE_EQUAL(t->links[0].bw, 12.5e9, 1);
    CU_ASSERT_DOUBLE_EQUAL(t->links[0].lat, 1e-6, 1e-15);
    topo_free(t);
    t = preset(COLLSIM_SOURCE_DIR "/platforms/dragonfly-16x17.yaml");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->links[0].sharing, LINK_SHARED);
    CU_ASSERT_DOUBLE_EQUAL(t->links[0].bw, 6.45e9, 1);
    topo_free(t);
}

static void test_overrides(void)
{
    kv_list kv;
    cs_error err;
    kv_init(&kv);
    CU_ASSERT_EQUAL(kv_set(&kv, "dims", "4x4x4", 0, &err), 0);
    topology *t = NULL;
    CU_ASSERT_EQUAL(topo_build_preset(COLLSIM_SOURCE_DIR "/platforms/fugaku.yaml", &kv, &t, &err), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->nhosts, 64);
    topo_free(t);
    t = NULL;
    CU_ASSERT_EQUAL(topo_build_spec(COLLSIM_SOURCE_DIR "/platforms/fugaku.yaml dims=2x2x2", &t, &err), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->nhosts, 8);
    topo_free(t);
}

/* Writes text to a temporary preset file; returns its path (static buffer). */
static const char *write_preset(const char *text)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/collsim-preset-XXXXXX.yaml");
    int fd = mkstemps(path, 5);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

static void expect_preset_error(const char *text, const char *where, const char *what)
{
    const char *path = write_preset(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(path);
    topology *t = NULL;
    cs_error err;
    err.msg[0] = '\0';
    CU_ASSERT_EQUAL(topo_build_preset(path, NULL, &t, &err), -1);
    CU_ASSERT_PTR_NULL(t);
    char head[256];
    snprintf(head, sizeof head, "%s:%s", path, where); /* file:line:column */
    int ok = strncmp(err.msg, head, strlen(head)) == 0 && strstr(err.msg, what);
    if (!ok)
        fprintf(stderr, "\nmessage '%s' does not start with '%s' or lacks '%s'\n", err.msg, head, what);
    CU_ASSERT(ok);
    unlink(path);
}

static void test_yaml_errors(void)
{
    expect_preset_error("famly: torus\nparams:\n  dims: 4x4\n", "1:1:",
                        "unknown field 'famly' (expected: name, description, family, params, hostnames, groups, "
                        "include, send_overhead, recv_overhead, msg_gap, envelope, eager_limit)");
    /* endpoint fields (src/topologies/endpoint_keys.h): scalars; include: a fragment */
    expect_preset_error("family: torus\nparams:\n  dims: 4x4\nsend_overhead: [1, 2]\n", "4:16:",
                        "'send_overhead' must be a scalar");
    expect_preset_error("family: torus\nparams:\n  dims: 4x4\ninclude: /nonexistent/c.yaml\n", "4:10:",
                        "include: /nonexistent/c.yaml: cannot open");
    expect_preset_error("name: x\nparams:\n  dims: 4x4\n", "1:1:", "missing field 'family'");
    expect_preset_error("family: torus\n", "1:1:", "missing field 'params'");
    expect_preset_error("family: torus\nparams:\n  - dims\n", "3:3:",
                        "'params' must be a mapping of key: value");
    expect_preset_error("family: torus\nparams:\n  dims: 4x4\n  dimz: 4\n", "4:3:",
                        "unknown key 'dimz' (allowed: dims, mesh, ports, group,");
    expect_preset_error("family: torus\nparams:\n  dims: 4xfour\n", "3:3:",
                        "dims: invalid dimensions '4xfour'");
    expect_preset_error("family: torus\nparams:\n  dims: [4, 4]\n", "3:9:",
                        "value of 'dims' must be a scalar");
    expect_preset_error("family: torus\nparams:\n  dims: 4x4\n  dims: 8x8\n", "4:3:",
                        "duplicate key 'dims'");
    expect_preset_error("family: torrus\nparams:\n  dims: 4x4\n", "1:9:",
                        "unknown topology family 'torrus' (allowed: dragonfly,");
    expect_preset_error("family: [torus]\nparams: {}\n", "1:9:", "'family' must be a family name");
    expect_preset_error("family: torus\nparams:\n  dims: \"4x4\n", "", "YAML syntax error");
    expect_preset_error("- just\n- a list\n", "1:1:", "expected a mapping with fields");
    expect_preset_error("family: dragonfly\nparams:\n  a: 4\n  h: 1\n  g: 9\n", " dragonfly:",
                        "g=9 groups need a*h >= g-1");
    topology *t = NULL;
    cs_error err;
    CU_ASSERT_EQUAL(topo_build_preset("/nonexistent/x.yaml", NULL, &t, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "/nonexistent/x.yaml: cannot open"));
}

/* The five machine presets include their endpoint fragment; endpoint=none drops it (the
 * spec's own words stay); the id helpers of sweeps (endpoint_keys.h). */
static const char *key_value(const topo_endpoint_keys *k, const char *key)
{
    for (int i = 0; i < k->n; i++)
        if (strcmp(k->items[i].key, key) == 0)
            return k->items[i].value;
    return NULL;
}

static void test_endpoint_none(void)
{
    topo_endpoint_keys k;
    cs_error err;
    const char *leo = COLLSIM_SOURCE_DIR "/platforms/leonardo.yaml";
    char spec[1024], text[1024];
    CU_ASSERT_EQUAL_FATAL(topo_spec_endpoint_keys(leo, &k, &err), 0);
    CU_ASSERT_STRING_EQUAL(key_value(&k, "send_overhead"), "625ns"); /* from its fragment */
    CU_ASSERT_PTR_NOT_NULL(strstr(k.items[0].where, "endpoint/leonardo.yaml:"));
    snprintf(spec, sizeof spec, "%s endpoint=none", leo);
    CU_ASSERT_EQUAL(topo_spec_endpoint_keys(spec, &k, &err), 0);
    CU_ASSERT_EQUAL(k.n, 0);
    snprintf(spec, sizeof spec, "%s endpoint=none envelope=8B", leo);
    CU_ASSERT_EQUAL(topo_spec_endpoint_keys(spec, &k, &err), 0);
    CU_ASSERT(k.n == 1 && strcmp(key_value(&k, "envelope"), "8B") == 0);
    snprintf(spec, sizeof spec, "%s endpoint=off", leo); /* planted: not a value */
    CU_ASSERT_EQUAL(topo_spec_endpoint_keys(spec, &k, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "endpoint=off: unknown value (allowed: none"));
    topology *t = NULL;
    CU_ASSERT_EQUAL(topo_build_spec("torus dims=4 endpoint=maybe", &t, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "endpoint=maybe"));
    CU_ASSERT_EQUAL(topo_build_spec("torus dims=4 endpoint=none", &t, &err), 0);
    CU_ASSERT(t && t->nhosts == 4);
    topo_free(t);
    /* ids: the spec without the word; the preset's keys as lines, none when dropped */
    topo_spec_without_endpoint_off("p.yaml dims=4 endpoint=none send_overhead=1us", spec,
                                   sizeof spec);
    CU_ASSERT_STRING_EQUAL(spec, "p.yaml dims=4 send_overhead=1us");
    topo_spec_without_endpoint_off("p.yaml  dims=4", spec, sizeof spec); /* untouched */
    CU_ASSERT_STRING_EQUAL(spec, "p.yaml  dims=4");
    CU_ASSERT_EQUAL(topo_spec_preset_endpoint_text(leo, text, sizeof text, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "preset_send_overhead=625ns\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "preset_envelope=34B\n"));
    snprintf(spec, sizeof spec, "%s endpoint=none", leo);
    CU_ASSERT_EQUAL(topo_spec_preset_endpoint_text(spec, text, sizeof text, &err), 0);
    CU_ASSERT_STRING_EQUAL(text, "");
    CU_ASSERT_EQUAL(topo_spec_preset_endpoint_text("torus dims=4 send_overhead=1us", text,
                                                   sizeof text, &err), 0);
    CU_ASSERT_STRING_EQUAL(text, ""); /* spec words are in the spec already */
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {
        {"every preset builds", test_every_preset_builds},
        {"preset sizes from the papers", test_preset_sizes},
        {"overrides", test_overrides},
        {"YAML errors name file:line:column", test_yaml_errors},
        {"endpoint=none drops the preset's endpoint keys", test_endpoint_none},
        {NULL, NULL},
    };
    test_add_suite("topo_presets", cases);
    return test_run_suites();
}
