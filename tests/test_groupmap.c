/* test_groupmap.c - group maps: explicit host lines, regex + expression, regex + table,
 * precedence, errors naming origin:line, group ids, PICO's node map format, host names
 * with and without a domain suffix, maps matching none / some of a job's hosts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "topologies/groupmap.h"

/* The group of host in map text (NULL when none); asserts no error. */
static const char *group_of(const char *text, const char *host)
{
    static char group[64];
    group_map *m;
    cs_error err;
    if (group_map_parse(text, "map", 1, &m, &err) < 0) {
        fprintf(stderr, "\nparse: %s\n", err.msg);
        CU_FAIL("parse");
        return NULL;
    }
    int rc = group_map_lookup(m, host, group, sizeof group, &err);
    CU_ASSERT(rc >= 0);
    group_map_free(m);
    return rc == 1 ? group : NULL;
}

static void expect_group(const char *text, const char *host, const char *expect)
{
    const char *got = group_of(text, host);
    int same = expect ? got && strcmp(got, expect) == 0 : got == NULL;
    if (!same) {
        fprintf(stderr, "\n%s: group %s, expected %s\n", host, got ? got : "(none)",
                expect ? expect : "(none)");
        CU_FAIL("group");
    }
}

static void test_explicit(void)
{
    const char *map = "# Leonardo, by hand\n"
                      "lrdn[0001-0003]  cell1   # three nodes\n"
                      "\n"
                      "lrdn0004 cell2\n"
                      "   lrdn[0010,0012]\tcell2\n";
    expect_group(map, "lrdn0001", "cell1");
    expect_group(map, "lrdn0003", "cell1");
    expect_group(map, "lrdn0004", "cell2");
    expect_group(map, "lrdn0012", "cell2");
    expect_group(map, "lrdn0011", NULL);
    expect_group(map, "lrdn1", NULL); /* names match exactly, not as numbers */
}

static void test_regex_expression(void)
{
    /* LUMI: node number n, 124 nodes per group starting at nid005000 */
    const char *lumi = "regex nid0*([0-9]+) (n - 5000) / 124\n";
    expect_group(lumi, "nid005000", "0");
    expect_group(lumi, "nid005123", "0");
    expect_group(lumi, "nid005124", "1");
    expect_group(lumi, "nid007975", "23");
    expect_group(lumi, "uan01", NULL);
    expect_group(lumi, "xnid005000", NULL); /* the whole name must match */
    /* \d, the "n/124 + 1", precedence, remainder */
    expect_group("regex lrdn(\\d+) n/124 + 1\n", "lrdn0247", "2");
    expect_group("regex a(\\d+) (n * 3 + 1) % 4\n", "a5", "0");
    /* rounding down, as Python's // */
    expect_group("regex x(\\d+) (n - 10) / 4\n", "x5", "-2");
    expect_group("regex x(\\d+) -(n % 3)\n", "x7", "-1");
    /* an expression without n needs no group */
    expect_group("regex login.* 99\n", "login3", "99");
}

static void test_regex_table(void)
{
    const char *map = "regex lrdn(\\d+) table   # cells of 180 nodes\n"
                      "range 1-180 1\n"
                      "range 181-360 2\n"
                      "range 400 special\n";
    expect_group(map, "lrdn0001", "1");
    expect_group(map, "lrdn0180", "1");
    expect_group(map, "lrdn0181", "2");
    expect_group(map, "lrdn0400", "special");
    expect_group(map, "lrdn0390", NULL); /* in no range: no group */
}

static void test_precedence(void)
{
    const char *map = "regex h(\\d+) n / 2\n"
                      "regex h(\\d+) 100\n"
                      "h7 explicit\n";
    expect_group(map, "h7", "explicit"); /* explicit lines first */
    expect_group(map, "h5", "2");        /* then the first regex that applies */
    /* a table that does not hold n lets the next rule try */
    expect_group("regex h(\\d+) table\nrange 0-3 low\nregex h(\\d+) n\n", "h9", "9");
    expect_group("regex h(\\d+) table\nrange 0-3 low\nregex h(\\d+) n\n", "h2", "low");
}

typedef struct bad_map {
    const char *text;
    const char *message;
} bad_map;

/* Each map text fails to parse with (at least) its message. */
static void expect_parse_errors(const bad_map *bad, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        group_map *m = NULL;
        cs_error err = {""};
        int rc = group_map_parse(bad[i].text, "map", 1, &m, &err);
        CU_ASSERT_EQUAL(rc, -1);
        if (rc != -1 || !strstr(err.msg, bad[i].message)) {
            fprintf(stderr, "\n'%s': rc %d, '%s', expected '%s'\n", bad[i].text, rc, err.msg,
                    bad[i].message);
            CU_FAIL("message");
        }
        if (rc == 0)
            group_map_free(m);
    }
}

static void test_errors(void)
{
    static const bad_map bad[] = {
        {"a b c\n", "map:1: expected 'HOSTS GROUP'"},
        {"# ok\nonlyhost\n", "map:2: expected 'HOSTS GROUP'"},
        {"h1 g1\nh1 g2\n", "map:2: host h1 is already in group g1"},
        {"h[1-3 g\n", "map:1: 'h[1-3': column 6: missing ']'"},
        {"regex a(b 1\n", "map:1: bad regular expression 'a(b'"},
        {"regex ab n\n", "map:1: 'ab' needs a parenthesised group"},
        {"regex a(\\d+) table\n", "map:1: 'regex ... table' without 'range' lines"},
        {"range 1-2 g\n", "map:1: 'range' must follow a 'regex RE table' line"},
        {"regex a(\\d+) table\nrange 5-2 g\n", "map:2: bad range '5-2'"},
        {"regex a(\\d+) (n + \n", "map:1: expected a number, n or '(' at column 5 of '(n +'"},
        {"regex a(\\d+) n ** 2\n", "map:1: expected a number, n or '('"},
        {"regex a(\\d+) n 2\n", "map:1: unexpected text at column 3"},
        {"regex a(\\d+)\n", "map:1: expected 'regex RE EXPR'"},
    };
    expect_parse_errors(bad, sizeof bad / sizeof bad[0]);
    /* an error while evaluating names the rule's line; first_line offsets (YAML maps) */
    group_map *m;
    cs_error err;
    CU_ASSERT_EQUAL(group_map_parse("# c\nregex a(\\d+) 10 / (n - 3)\n", "lumi.yaml", 20, &m, &err), 0);
    char group[32];
    CU_ASSERT_EQUAL(group_map_lookup(m, "a3", group, sizeof group, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "lumi.yaml:21: host a3: division by zero"));
    CU_ASSERT_EQUAL(group_map_lookup(m, "a5", group, sizeof group, &err), 1);
    CU_ASSERT_STRING_EQUAL(group, "5");
    group_map_free(m);
}

static void test_load_and_ids(void)
{
    char path[] = "/tmp/collsim-groupmap-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("h[0-1] left\nh[2-3] right\n", f);
    fclose(f);
    group_map *m;
    cs_error err;
    CU_ASSERT_EQUAL_FATAL(group_map_load(path, &m, &err), 0);
    const char *hosts[] = {"h2", "h0", "h3", "h9", "h1"};
    int32_t g[5];
    group_ids *ids = group_ids_new();
    CU_ASSERT_EQUAL(group_map_assign(m, hosts, 5, ids, g, &err), 0);
    /* ids in order of first appearance: right = 0, left = 1; h9 has none */
    CU_ASSERT_EQUAL(g[0], 0);
    CU_ASSERT_EQUAL(g[1], 1);
    CU_ASSERT_EQUAL(g[2], 0);
    CU_ASSERT_EQUAL(g[3], -1);
    CU_ASSERT_EQUAL(g[4], 1);
    CU_ASSERT_EQUAL(group_ids_count(ids), 2);
    CU_ASSERT_STRING_EQUAL(group_ids_name(ids, 1), "left");
    CU_ASSERT_PTR_NULL(group_ids_name(ids, 2));
    group_ids_free(ids);
    group_map_free(m);
    remove(path);
    CU_ASSERT_EQUAL(group_map_load("/nonexistent/map.txt", &m, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "cannot open the group map"));
}

/* PICO's map (tests/data/pico_leonardo_excerpt.txt holds lines of its leonardo.txt): the
 * expected cells are the CELL column of those lines. */
static void test_pico_format(void)
{
    const char *map = "NODE 0001 RACK 1 CELL 1 ROW 1 PARTITION 1  SWITCH 10100\n"
                      "NODE 0002 RACK 1 CELL 1 ROW 1 PARTITION 1  SWITCH 10100\n"
                      "NODE 0181 RACK 7 CELL 2 ROW 1 PARTITION 1  SWITCH 10700\n"
                      "NODE 3744 RACK 122 CELL 20 ROW 7 PARTITION 2  SWITCH 110800\n";
    expect_group(map, "lrdn0001", "1");
    expect_group(map, "lrdn0002", "1");
    expect_group(map, "lrdn0181", "2");
    expect_group(map, "lrdn3744", "20");
    expect_group(map, "lrdn1", "1");     /* the number, as PICO's int(re.search(...)) */
    expect_group(map, "lrdn0003", NULL); /* not in the map */
    expect_group(map, "lrdn0181.leonardo.local", "2");
    expect_group(map, "login01x", NULL); /* not <letters><digits> */
    /* a header of column names, and comments, are skipped */
    expect_group("# from PICO\nNODE RACK CELL ROW\nNODE 7 RACK 1 CELL 3 ROW 1\n", "lrdn0007",
                 "3");
    /* the file as committed */
    group_map *m;
    cs_error err;
    CU_ASSERT_EQUAL_FATAL(group_map_load("tests/data/pico_leonardo_excerpt.txt", &m, &err), 0);
    static const struct { const char *host, *cell; } want[] = {
        {"lrdn0180", "1"},  {"lrdn0182", "2"},  {"lrdn3420", "19"}, {"lrdn3421", "20"},
        {"lrdn3745", "21"}, {"lrdn4368", "21"}, {"lrdn4369", "22"}, {"lrdn4992", "22"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        char group[32] = "";
        CU_ASSERT_EQUAL(group_map_lookup(m, want[i].host, group, sizeof group, &err), 1);
        if (strcmp(group, want[i].cell) != 0) {
            fprintf(stderr, "\n%s: cell %s, expected %s\n", want[i].host, group, want[i].cell);
            CU_FAIL("cell");
        }
    }
    group_map_free(m);
}

static void test_domain_suffix(void)
{
    const char *map = "lrdn0155.leonardo.local c1\n"
                      "lrdn0156 c2\n"
                      "regex nid0*([0-9]+) (n - 5000) / 124\n";
    expect_group(map, "lrdn0155.leonardo.local", "c1"); /* as written */
    expect_group(map, "lrdn0155", "c1");                /* the map has a suffix, the host not */
    expect_group(map, "lrdn0156.leonardo.local", "c2"); /* the host has one, the map not */
    expect_group(map, "nid005124.lumi.local", "1");     /* regex rules on the short name */
    expect_group(map, "lrdn0155.other.site", NULL);     /* another domain is another host */
    /* two suffixed names of different groups: their short name is ambiguous, no group */
    expect_group("a.x g1\na.y g2\n", "a", NULL);
    expect_group("a.x g1\na.y g1\n", "a", "g1");
}

static void test_cover(void)
{
    group_map *m;
    cs_error err = {""};
    CU_ASSERT_EQUAL_FATAL(group_map_parse("h[0-1] left\n", "job.map", 1, &m, &err), 0);
    const char *hosts[] = {"h0", "h0", "h1", "h9", "h9", "h8"};
    int32_t g[6];
    group_ids *ids = group_ids_new();
    CU_ASSERT_EQUAL(group_map_assign(m, hosts, 6, ids, g, &err), 0);
    group_map_cover c;
    CU_ASSERT_EQUAL(group_map_cover_check(m, hosts, g, 6, &c, &err), 0);
    CU_ASSERT(c.matched == 2 && c.unmatched == 2); /* distinct hosts, not ranks */
    CU_ASSERT_STRING_EQUAL(c.example, "h9");
    char line[512];
    group_map_cover_warning(m, &c, line, sizeof line);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "warning: job.map: 2 of 4 hosts of the job are in no "
                                        "group of the map (e.g. 'h9'); 2 matched"));
    /* every host matched: no warning */
    CU_ASSERT_EQUAL(group_map_cover_check(m, hosts, g, 3, &c, &err), 0);
    group_map_cover_warning(m, &c, line, sizeof line);
    CU_ASSERT_STRING_EQUAL(line, "");
    /* planted: a map that matches no host of the job is an error, not "0 groups" */
    const char *others[] = {"lrdn0001", "lrdn0002"};
    CU_ASSERT_EQUAL(group_map_assign(m, others, 2, ids, g, &err), 0);
    CU_ASSERT_EQUAL(group_map_cover_check(m, others, g, 2, &c, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "job.map: no host of the job is in the group map "
                                           "(2 hosts, e.g. 'lrdn0001'"));
    group_ids_free(ids);
    group_map_free(m);
}

static void test_pico_errors(void)
{
    static const bad_map bad[] = {
        {"NODE 0001 RACK 1\n", "map:1: a PICO map line needs 'NODE <number>' and 'CELL <group>'"},
        {"NODE 1 CELL 1\nNODE x1 CELL 1\n", "map:2: NODE 'x1' is not a node number"},
        {"NODE 1 CELL 1\nNODE 0001 CELL 2\n", "map:2: node 0001 is already in cell 1 (line 1)"},
        {"NODE 1 CELL\n", "map:1: a PICO map line needs"},
        {"# only a header\nNODE RACK CELL\n", "map: a PICO map without NODE lines"},
    };
    expect_parse_errors(bad, sizeof bad / sizeof bad[0]);
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {{"explicit host lines", test_explicit},
                                      {"regex + expression", test_regex_expression},
                                      {"regex + table", test_regex_table},
                                      {"precedence", test_precedence},
                                      {"errors name origin:line", test_errors},
                                      {"files and group ids", test_load_and_ids},
                                      {"PICO's node map format", test_pico_format},
                                      {"PICO map errors", test_pico_errors},
                                      {"domain suffixes both ways", test_domain_suffix},
                                      {"maps matching none / some hosts", test_cover},
                                      {NULL, NULL}};
    test_add_suite("groupmap", cases);
    return test_run_suites();
}
