/* test_groupmap.c - group maps: explicit host lines, regex + expression, regex + table,
 * precedence, errors naming origin:line, group ids. */
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
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
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

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {{"explicit host lines", test_explicit},
                                      {"regex + expression", test_regex_expression},
                                      {"regex + table", test_regex_table},
                                      {"precedence", test_precedence},
                                      {"errors name origin:line", test_errors},
                                      {"files and group ids", test_load_and_ids},
                                      {NULL, NULL}};
    test_add_suite("groupmap", cases);
    return test_run_suites();
}
