/* test_draw.c - `collsim draw` pictures (src/draw): every family's drawing holds every
 * host, switch and link exactly once, is well-formed SVG and byte-identical across runs;
 * per-step link loads equal the traffic counter's numbers for that step and hand-computed
 * bytes (ring allreduce on a ring, Bine paper Fig. 1); bad options give clear errors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "algorithms/registry.h"
#include "common/util.h"
#include "draw/draw.h"
#include "draw/loads.h"
#include "testutil.h"
#include "traffic/traffic.h"

static char tmpdir[256];

static int make_tmpdir(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/collsim-test-draw-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_tmpdir(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = xmalloc((size_t)n + 1);
    size_t got = fread(buf, 1, (size_t)n, f);
    buf[got] = '\0';
    fclose(f);
    return buf;
}

/* ---- a small XML well-formedness check ----------------------------------------------- */

/* Skips a quoted attribute value or fails on '<' / a bad entity inside it. */
static const char *entity_end(const char *p)
{
    const char *q = p + 1;
    while ((*q >= 'a' && *q <= 'z') || *q == '#' || (*q >= '0' && *q <= '9'))
        q++;
    return *q == ';' && q > p + 1 ? q + 1 : NULL;
}

/* 1 when doc is well-formed XML as collsim writes it: a prolog, then balanced elements
 * with double-quoted attributes, '&' only in entities, no '<' in text or attributes. */
static int xml_well_formed(const char *doc, char *why, size_t n)
{
    char stack[64][32];
    int depth = 0, roots = 0;
    const char *p = doc;
    if (strncmp(p, "<?xml ", 6) == 0)
        p = strstr(p, "?>") + 2;
    while (*p) {
        if (*p == '&') {
            if (!(p = entity_end(p)))
                return snprintf(why, n, "bad entity"), 0;
            continue;
        }
        if (*p != '<') {
            if (depth == 0 && *p != '\n' && *p != ' ')
                return snprintf(why, n, "text outside the root"), 0;
            p++;
            continue;
        }
        int closing = p[1] == '/';
        const char *name = p + 1 + closing;
        size_t len = strcspn(name, " />\n");
        if (len == 0 || len >= sizeof stack[0])
            return snprintf(why, n, "bad tag name"), 0;
        p = name + len;
        while (*p && *p != '>' && !(p[0] == '/' && p[1] == '>')) {
            if (*p == '"') {
                for (p++; *p && *p != '"'; p++)
                    if (*p == '<' || (*p == '&' && !entity_end(p)))
                        return snprintf(why, n, "bad attribute value"), 0;
                if (!*p)
                    return snprintf(why, n, "unterminated attribute"), 0;
            } else if (*p == '<' || *p == '\'') {
                return snprintf(why, n, "bad character in a tag"), 0;
            }
            p++;
        }
        if (!*p)
            return snprintf(why, n, "unterminated tag"), 0;
        int self = *p == '/';
        p += self ? 2 : 1;
        if (closing) {
            if (depth == 0 || strncmp(stack[depth - 1], name, len) || stack[depth - 1][len])
                return snprintf(why, n, "mismatched </%.*s>", (int)len, name), 0;
            depth--;
        } else if (!self) {
            if (depth == 0)
                roots++;
            if (depth == 64)
                return snprintf(why, n, "too deep"), 0;
            snprintf(stack[depth++], sizeof stack[0], "%.*s", (int)len, name);
        } else if (depth == 0) {
            roots++;
        }
    }
    if (depth != 0)
        return snprintf(why, n, "unclosed <%s>", stack[depth - 1]), 0;
    if (roots != 1)
        return snprintf(why, n, "%d root elements", roots), 0;
    return 1;
}

static void test_xml_checker_rejects_broken_input(void)
{
    char why[80];
    CU_ASSERT(xml_well_formed("<svg><g a=\"1\"/><text>x &amp; y</text></svg>\n", why, 80));
    CU_ASSERT(!xml_well_formed("<svg><g></svg>", why, 80));
    CU_ASSERT(!xml_well_formed("<svg><text>a & b</text></svg>", why, 80));
    CU_ASSERT(!xml_well_formed("<svg a=\"x<y\"></svg>", why, 80));
    CU_ASSERT(!xml_well_formed("<svg></svg><svg></svg>", why, 80));
    CU_ASSERT(!xml_well_formed("<svg><path d=\"M0 0\"", why, 80));
}

/* ---- counting elements -------------------------------------------------------------- */

static int count_of(const char *hay, const char *needle)
{
    int c = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        c++;
    return c;
}

/* The element with id="<id>": the value of its attribute attr, or -1. */
static int64_t attr_of(const char *svg, const char *id, const char *attr)
{
    char key[64];
    snprintf(key, sizeof key, " id=\"%s\"", id);
    const char *p = strstr(svg, key);
    if (!p)
        return -1;
    const char *end = strchr(p, '>');
    snprintf(key, sizeof key, " %s=\"", attr);
    const char *a = strstr(p, key);
    return a && a < end ? atoll(a + strlen(key)) : -1;
}

static char *draw_svg(draw_options *o, const char *name)
{
    snprintf(o->out, sizeof o->out, "%s/%s.svg", tmpdir, name);
    draw_result res;
    cs_error err;
    if (draw_run(o, &res, &err) < 0) {
        fprintf(stderr, "draw %s: %s\n", o->topology, err.msg);
        return NULL;
    }
    return read_file(o->out);
}

static const char *const families[] = {
    "torus dims=4x4", "torus dims=6", "torus dims=3x2x2", "hyperx dims=3x3 T=2",
    "2dfc m1=3 m2=4", "dragonfly p=2 a=4 h=2",
    "dragonflyplus p=2 leaves=2 spines=2 h=2 g=5", "fattree levels=2 radix=8 oversub=2:1",
    "fattree levels=3 radix=4", "kautz d=3 k=2", "hammingmesh a=2 x=2 y=2",
    COLLSIM_SOURCE_DIR "/platforms/2dfc-4x4.yaml", NULL};

/* Every host (labelled with its rank), switch and link exactly once; well-formed. */
static void check_topology_svg(const char *spec, const char *svg)
{
    topology *t;
    cs_error err;
    CU_ASSERT_FATAL(topo_build_spec(spec, &t, &err) == 0);
    char why[80], id[32];
    int ok = xml_well_formed(svg, why, sizeof why);
    if (!ok)
        fprintf(stderr, "%s: %s\n", spec, why);
    CU_ASSERT(ok);
    CU_ASSERT_EQUAL(count_of(svg, "class=\"host\""), t->nhosts);
    CU_ASSERT_EQUAL(count_of(svg, "class=\"switch\""), t->nswitches);
    CU_ASSERT_EQUAL(count_of(svg, "class=\"link\""), t->nlinks);
    CU_ASSERT_EQUAL(count_of(svg, "class=\"label\""), t->nhosts); /* linear: one rank each */
    int missing = 0;
    for (int32_t h = 0; h < t->nhosts; h++) {
        snprintf(id, sizeof id, " id=\"h%d\"", h);
        missing += count_of(svg, id) != 1;
    }
    for (int32_t v = t->nhosts; v < topo_nnodes(t); v++) {
        snprintf(id, sizeof id, " id=\"s%d\"", v);
        missing += count_of(svg, id) != 1;
    }
    for (int64_t k = 0; k < t->nlinks; k++) {
        snprintf(id, sizeof id, " id=\"l%lld\"", (long long)k);
        missing += count_of(svg, id) != 1;
    }
    if (missing)
        fprintf(stderr, "%s: %d elements not exactly once\n", spec, missing);
    CU_ASSERT_EQUAL(missing, 0);
    topo_free(t);
}

static void test_every_family(void)
{
    for (int i = 0; families[i]; i++) {
        draw_options o;
        draw_options_init(&o);
        snprintf(o.topology, sizeof o.topology, "%s", families[i]);
        char name[32];
        snprintf(name, sizeof name, "family%d", i);
        char *a = draw_svg(&o, name);
        CU_ASSERT_PTR_NOT_NULL_FATAL(a);
        check_topology_svg(families[i], a);
        char *b = draw_svg(&o, name); /* again: byte-identical */
        CU_ASSERT_PTR_NOT_NULL_FATAL(b);
        CU_ASSERT_STRING_EQUAL(a, b);
        free(a);
        free(b);
    }
}

/* ---- loads ---------------------------------------------------------------------------- */

typedef struct counted {
    topology *t;
    int32_t *host_of_rank;
    alg_run run;
} counted;

static int prepare(counted *c, const char *spec, coll_kind coll, const char *alg, int64_t bytes)
{
    cs_error err;
    if (topo_build_spec(spec, &c->t, &err) < 0)
        return -1;
    int32_t P = c->t->nhosts;
    c->host_of_rank = xmalloc((size_t)P * sizeof *c->host_of_rank);
    for (int32_t r = 0; r < P; r++)
        c->host_of_rank[r] = r;
    coll_spec cs;
    coll_spec_init(&cs, coll, P, bytes);
    const alg_desc *a = registry_find(NULL, coll, alg, &err);
    return a && alg_run_prepare(&c->run, a, &cs, &err) == 0 ? 0 : -1;
}

static void release(counted *c)
{
    alg_run_release(&c->run);
    free(c->host_of_rank);
    topo_free(c->t);
}

/* Every step's loads equal traffic_count_ex restricted to that step; steps add up to the
 * whole run, which equals traffic_count's tally. */
static void check_against_counter(const char *spec, coll_kind coll, const char *alg)
{
    counted c;
    cs_error err;
    CU_ASSERT_FATAL(prepare(&c, spec, coll, alg, 1 << 16) == 0);
    draw_loads l;
    CU_ASSERT_FATAL(draw_loads_count(&c.run, c.t, c.host_of_rank, 0, &l, &err) == 0);
    CU_ASSERT(l.nsteps > 0);
    int64_t *sum = xcalloc((size_t)l.nres, sizeof *sum);
    int bad = 0;
    for (int32_t k = 0; k < l.nsteps; k++) {
        traffic_walk_opts opts;
        traffic_walk_opts_init(&opts);
        opts.step = k;
        traffic_counts tc;
        traffic_tally tally;
        CU_ASSERT_FATAL(traffic_count_ex(&c.run, c.t, c.host_of_rank, &opts, &tc, &tally, &err) == 0);
        for (int64_t r = 0; r < l.nres; r++) {
            bad += tally.resource_bytes[r] != draw_loads_bytes(&l, k, r);
            sum[r] += draw_loads_bytes(&l, k, r);
        }
        traffic_tally_free(&tally);
    }
    traffic_counts all;
    traffic_tally whole;
    CU_ASSERT_FATAL(traffic_count(&c.run, c.t, c.host_of_rank, &all, &whole, &err) == 0);
    for (int64_t r = 0; r < l.nres; r++)
        bad += sum[r] != whole.resource_bytes[r] || draw_loads_bytes(&l, DRAW_TOTAL, r) != sum[r];
    CU_ASSERT_EQUAL(bad, 0);
    traffic_tally_free(&whole);
    free(sum);
    draw_loads_free(&l);
    release(&c);
}

static void test_loads_equal_the_counter(void)
{
    check_against_counter("torus dims=4x4", COLL_ALLREDUCE, "recursive_doubling");
    check_against_counter("torus dims=4x4", COLL_ALLREDUCE, "swing_latency");
    check_against_counter("fattree levels=2 radix=8 oversub=2:1", COLL_BCAST, "bine");
    check_against_counter("dragonfly p=2 a=4 h=2", COLL_ALLGATHER, "ring");
    check_against_counter("kautz d=2 k=3", COLL_ALLREDUCE, "kautz_m");
}

/* Ring allreduce on a ring of P = 4: in each of its 2 (P - 1) steps every rank sends n / P
 * to rank r + 1, so every link carries n / P from h_r to h_{r+1} and nothing back. The
 * picture's data-fwd / data-rev attributes say the same. */
static void test_ring_per_step(void)
{
    const int64_t n = 4096;
    counted c;
    cs_error err;
    CU_ASSERT_FATAL(prepare(&c, "torus dims=4", COLL_ALLREDUCE, "ring", n) == 0);
    draw_loads l;
    CU_ASSERT_FATAL(draw_loads_count(&c.run, c.t, c.host_of_rank, 0, &l, &err) == 0);
    CU_ASSERT_EQUAL(l.nsteps, 6);
    for (int32_t k = 0; k < l.nsteps; k++)
        for (int64_t id = 0; id < c.t->nlinks; id++) {
            const topo_link *e = &c.t->links[id];
            int forward = (e->a + 1) % 4 == e->b; /* a -> b is r -> r + 1 */
            CU_ASSERT_EQUAL(draw_loads_bytes(&l, k, 2 * id), forward ? n / 4 : 0);
            CU_ASSERT_EQUAL(draw_loads_bytes(&l, k, 2 * id + 1), forward ? 0 : n / 4);
        }
    draw_options o;
    draw_options_init(&o);
    snprintf(o.topology, sizeof o.topology, "torus dims=4");
    o.nalgorithms = 1;
    snprintf(o.algorithms[0], sizeof o.algorithms[0], "ring");
    o.spec.coll = COLL_ALLREDUCE;
    o.spec.bytes = n;
    o.step = 3;
    o.rank = 0;
    char *svg = draw_svg(&o, "ring");
    CU_ASSERT_PTR_NOT_NULL_FATAL(svg);
    for (int64_t id = 0; id < c.t->nlinks; id++) {
        char name[16];
        snprintf(name, sizeof name, "l%lld", (long long)id);
        CU_ASSERT_EQUAL(attr_of(svg, name, "data-fwd"), draw_loads_bytes(&l, 3, 2 * id));
        CU_ASSERT_EQUAL(attr_of(svg, name, "data-rev"), draw_loads_bytes(&l, 3, 2 * id + 1));
    }
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, "0 to 1 KiB (max link load)"));
    free(svg);
    draw_loads_free(&l);
    release(&c);
}

static int64_t global_bytes(const topology *t, const draw_loads *l, int32_t step)
{
    int64_t sum = 0;
    for (int64_t id = 0; id < t->nlinks; id++)
        if (t->links[id].cls == LINK_GLOBAL)
            sum += draw_loads_bytes(l, step, 2 * id) + draw_loads_bytes(l, step, 2 * id + 1);
    return sum;
}

/* Bine paper Fig. 1 (reference/bine.md 1.1): 8 nodes, 2 per leaf, one spine. A message
 * between leaves crosses two global links (up, down). Binomial distance doubling: 0->1 |
 * 0->2, 1->3 | 4 messages out of leaves 0, 1 = 0, 4n, 8n; Bine's broadcast: 0->3 | 0->7,
 * 3->4 | 0->1, 3->2, 4->5, 7->6 (inside the leaves) = 2n, 4n, 0: the paper's 6n and 3n
 * between groups, one way. */
static void test_bine_figure1_per_step(void)
{
    const int64_t n = 1000;
    const char *tree = "fattree leaves=4 hosts_per_leaf=2 oversub=2:1 spines=1";
    const char *algs[2] = {"binomial_doubling", "bine"};
    const int64_t want[2][3] = {{0, 4 * n, 8 * n}, {2 * n, 4 * n, 0}};
    const int64_t between_groups[2] = {6 * n, 3 * n}; /* Fig. 1: each message on 2 links */
    for (int a = 0; a < 2; a++) {
        counted c;
        cs_error err;
        CU_ASSERT_FATAL(prepare(&c, tree, COLL_BCAST, algs[a], n) == 0);
        draw_loads l;
        CU_ASSERT_FATAL(draw_loads_count(&c.run, c.t, c.host_of_rank, 0, &l, &err) == 0);
        CU_ASSERT_EQUAL(l.nsteps, 3);
        for (int32_t k = 0; k < 3; k++)
            CU_ASSERT_EQUAL(global_bytes(c.t, &l, k), want[a][k]);
        CU_ASSERT_EQUAL(global_bytes(c.t, &l, DRAW_TOTAL), want[a][0] + want[a][1] + want[a][2]);
        CU_ASSERT_EQUAL(global_bytes(c.t, &l, DRAW_TOTAL), 2 * between_groups[a]);
        draw_loads_free(&l);
        release(&c);
    }
}

/* --all-steps: a picture per step and an animation with one frame per step. */
static void test_all_steps_and_compare(void)
{
    draw_options o;
    draw_options_init(&o);
    snprintf(o.topology, sizeof o.topology, "torus dims=4x4");
    o.nalgorithms = 2;
    snprintf(o.algorithms[0], sizeof o.algorithms[0], "recursive_doubling");
    snprintf(o.algorithms[1], sizeof o.algorithms[1], "swing_latency");
    o.spec.coll = COLL_ALLREDUCE;
    o.all_steps = 1;
    o.rank = 5;
    snprintf(o.out, sizeof o.out, "%s/cmp.svg", tmpdir);
    draw_result res;
    cs_error err;
    CU_ASSERT_FATAL(draw_run(&o, &res, &err) == 0);
    CU_ASSERT_EQUAL(res.steps, 4);
    CU_ASSERT_EQUAL(res.nfiles, 5);
    char path[400], why[80];
    snprintf(path, sizeof path, "%s/cmp-step3.svg", tmpdir);
    char *svg = read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(svg);
    CU_ASSERT(xml_well_formed(svg, why, sizeof why));
    CU_ASSERT_EQUAL(count_of(svg, "class=\"link\""), 2 * 32); /* two panels */
    CU_ASSERT_EQUAL(count_of(svg, " id=\"p1-h5\""), 1);
    free(svg);
    snprintf(path, sizeof path, "%s/cmp-anim.svg", tmpdir);
    svg = read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(svg);
    CU_ASSERT(xml_well_formed(svg, why, sizeof why));
    CU_ASSERT_EQUAL(count_of(svg, "class=\"frame\""), 4);
    free(svg);
}

/* Two ranks per host: rank 5 lives on host 2 (linear), which is filled and labelled 5. */
static void test_highlight_with_two_ranks_per_host(void)
{
    draw_options o;
    draw_options_init(&o);
    snprintf(o.topology, sizeof o.topology, "torus dims=4x4");
    o.ranks_per_node = 2;
    o.nalgorithms = 1;
    snprintf(o.algorithms[0], sizeof o.algorithms[0], "recursive_doubling");
    o.spec.coll = COLL_ALLREDUCE;
    o.rank = 5;
    o.step = 1; /* peer 5 ^ 2 = 7: host 3 */
    char *svg = draw_svg(&o, "q2");
    CU_ASSERT_PTR_NOT_NULL_FATAL(svg);
    const char *h2 = strstr(svg, " id=\"h2\"");
    const char *h3 = strstr(svg, " id=\"h3\"");
    CU_ASSERT_PTR_NOT_NULL_FATAL(h2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(h3);
    CU_ASSERT(strncmp(strstr(h2, "fill=\""), "fill=\"#7048e8\"", 14) == 0);
    CU_ASSERT(strncmp(strstr(h3, "fill=\""), "fill=\"#e5dbff\"", 14) == 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(h2, "class=\"label\" fill=\"#ffffff\">5</text>"));
    free(svg);
}

/* ---- errors ---------------------------------------------------------------------------- */

static void expect_error(draw_options *o, const char *needle)
{
    draw_result res;
    cs_error err;
    int rc = draw_run(o, &res, &err);
    CU_ASSERT_EQUAL(rc, -1);
    if (rc == -1 && !strstr(err.msg, needle))
        fprintf(stderr, "expected '%s' in: %s\n", needle, err.msg);
    CU_ASSERT(rc == -1 && strstr(err.msg, needle) != NULL);
}

static void with_ring(draw_options *o)
{
    draw_options_init(o);
    snprintf(o->topology, sizeof o->topology, "torus dims=4x4");
    snprintf(o->out, sizeof o->out, "%s/err.svg", tmpdir);
    o->nalgorithms = 1;
    snprintf(o->algorithms[0], sizeof o->algorithms[0], "ring");
    o->spec.coll = COLL_ALLREDUCE;
}

static void test_bad_options(void)
{
    draw_options o;
    with_ring(&o);
    snprintf(o.out, sizeof o.out, "%s/x.gif", tmpdir);
    expect_error(&o, "unknown picture format (allowed extensions: .svg, .png, .json)");
    with_ring(&o);
    o.step = 30;
    expect_error(&o, "step 30: the run has 30 steps (0..29)");
    with_ring(&o);
    o.rank = 16;
    expect_error(&o, "rank 16: there are 16 ranks (0..15)");
    with_ring(&o);
    snprintf(o.algorithms[0], sizeof o.algorithms[0], "rnig");
    expect_error(&o, "unknown allreduce algorithm 'rnig'");
    with_ring(&o);
    snprintf(o.topology, sizeof o.topology, "torsu dims=2");
    expect_error(&o, "unknown topology family 'torsu'");
    with_ring(&o);
    snprintf(o.out, sizeof o.out, "%s/no/such/dir/x.svg", tmpdir);
    expect_error(&o, "cannot write");
    with_ring(&o);
    o.nalgorithms = 0;
    o.step = 1;
    expect_error(&o, "steps and link tables need a collective and an algorithm");
    with_ring(&o);
    o.ranks = 20;
    expect_error(&o, "20");
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {
        {"XML checker rejects broken input", test_xml_checker_rejects_broken_input},
        {"every family: each element once, well-formed, deterministic", test_every_family},
        {"per-step loads equal the traffic counter", test_loads_equal_the_counter},
        {"ring allreduce on a ring, per step and in the SVG", test_ring_per_step},
        {"Bine Fig. 1 per step", test_bine_figure1_per_step},
        {"all steps, animation, two panels", test_all_steps_and_compare},
        {"highlight with two ranks per host", test_highlight_with_two_ranks_per_host},
        {"bad options", test_bad_options},
        {NULL, NULL}};
    test_add_suite("draw", cases);
    if (make_tmpdir() < 0)
        return 1;
    int rc = test_run_suites();
    remove_tmpdir();
    return rc;
}
