/* test_hostlist.c - Slurm hostlist expressions (a table of expansions and of errors with
 * their column) and the natural order of host names. */
#include <stdlib.h>
#include <string.h>

#include "common/hostlist.h"
#include "testutil.h"

typedef struct expansion {
    const char *expr;
    const char *names; /* the expansion, space-separated */
} expansion;

static const expansion expansions[] = {
    /* the example: ranges with zero padding, lists, a plain name */
    {"lrdn[0001-0004,0010],lrdn0100", "lrdn0001 lrdn0002 lrdn0003 lrdn0004 lrdn0010 lrdn0100"},
    {"nid[005000-005002]", "nid005000 nid005001 nid005002"},
    /* padding is the width of the lower bound */
    {"node[8-10]", "node8 node9 node10"},
    {"node[08-10]", "node08 node09 node10"},
    {"n[098-101]", "n098 n099 n100 n101"},
    /* single numbers, lists, a one-number range */
    {"a[1,3,5]", "a1 a3 a5"},
    {"a[7-7]", "a7"},
    /* suffixes after a group, several groups (leftmost slowest), text between them */
    {"lrdn[01-02]-ib", "lrdn01-ib lrdn02-ib"},
    {"rack[1-2]-n[1-2]-ib", "rack1-n1-ib rack1-n2-ib rack2-n1-ib rack2-n2-ib"},
    {"x[1-2]c[0-1]s0b[0,1]n0", "x1c0s0b0n0 x1c0s0b1n0 x1c1s0b0n0 x1c1s0b1n0 x2c0s0b0n0 "
                               "x2c0s0b1n0 x2c1s0b0n0 x2c1s0b1n0"},
    {"[1-3]", "1 2 3"},
    /* separators: commas, white space, newlines (scontrol show hostnames output) */
    {"a1, b2  c3\nd4\n", "a1 b2 c3 d4"},
    {"  lone  ", "lone"},
    /* order kept, duplicates kept (callers decide what they mean) */
    {"b2,a1,b2", "b2 a1 b2"},
};

typedef struct failure {
    const char *expr;
    const char *message; /* expected in the error, including the column */
} failure;

static const failure failures[] = {
    {"lrdn[0001-0004", "column 15: missing ']' to close the '[' at column 5"},
    {"lrdn[01-", "column 9: missing ']' to close the '[' at column 5"},
    {"a[1-2[3]]", "column 6: '[' inside brackets"},
    {"a[x]", "column 3: expected a number"},
    {"a[]", "column 3: expected a number"},
    {"a[1-]", "column 5: expected a number"},
    {"a[10-2]", "column 6: range 10-2 goes down"},
    {"a[1;2]", "column 4: expected ',', '-' or ']'"},
    {"a]1", "column 2: ']' without a matching '['"},
    {",a", "column 1: empty host name"},
    {"a,,b", "column 3: empty host name"},
    {"a,", "column 3: empty host name after the last ','"},
    {"a[1-99999999]", "more than 2^18"},
    {"n[1-3002]x[1-3002]", "column 1: the expression names more than 2^18 hosts"}, /* 9 M: fuzz_alloc */
    {"a[1234567890123456789]", "column 3: number too long"},
};

static char *joined(const hostlist *h)
{
    size_t len = 1;
    for (int64_t i = 0; i < h->n; i++)
        len += strlen(h->names[i]) + 1;
    char *s = calloc(len, 1);
    for (int64_t i = 0; i < h->n; i++) {
        if (i)
            strcat(s, " ");
        strcat(s, h->names[i]);
    }
    return s;
}

static void test_expansions(void)
{
    for (size_t i = 0; i < sizeof expansions / sizeof expansions[0]; i++) {
        hostlist h;
        hostlist_init(&h);
        cs_error err;
        int rc = hostlist_expand(expansions[i].expr, &h, &err);
        CU_ASSERT_EQUAL(rc, 0);
        char *got = joined(&h);
        if (rc != 0 || strcmp(got, expansions[i].names) != 0) {
            fprintf(stderr, "\n'%s': got '%s' (%s), expected '%s'\n", expansions[i].expr, got,
                    rc ? err.msg : "ok", expansions[i].names);
            CU_FAIL("expansion");
        }
        free(got);
        hostlist_free(&h);
    }
}

static void test_errors(void)
{
    for (size_t i = 0; i < sizeof failures / sizeof failures[0]; i++) {
        hostlist h;
        hostlist_init(&h);
        cs_error err = {""};
        int rc = hostlist_expand(failures[i].expr, &h, &err);
        CU_ASSERT_EQUAL(rc, -1);
        if (rc != -1 || !strstr(err.msg, failures[i].message)) {
            fprintf(stderr, "\n'%s': rc %d, message '%s', expected '%s'\n", failures[i].expr, rc,
                    err.msg, failures[i].message);
            CU_FAIL("error message");
        }
        hostlist_free(&h);
    }
}

/* Expansions append: a list can be built from several expressions. */
static void test_append(void)
{
    hostlist h;
    hostlist_init(&h);
    cs_error err;
    CU_ASSERT_EQUAL(hostlist_expand("a[1-2]", &h, &err), 0);
    CU_ASSERT_EQUAL(hostlist_expand("b1", &h, &err), 0);
    CU_ASSERT_EQUAL(h.n, 3);
    CU_ASSERT_STRING_EQUAL(h.names[2], "b1");
    hostlist_free(&h);
    CU_ASSERT_EQUAL(h.n, 0);
}

static int sign(int x) { return (x > 0) - (x < 0); }

static void test_natural_order(void)
{
    static const struct {
        const char *a, *b;
        int cmp;
    } cases[] = {
        {"h2", "h10", -1},     {"h10", "h2", 1},         {"h10", "h10", 0},
        {"nid005000", "nid005001", -1}, {"n01", "n001", -1}, {"n1", "n01", -1},
        {"a", "b", -1},        {"a", "a1", -1},          {"x1c0", "x1c1", -1},
        {"x9c9", "x10c0", -1}, {"rack2-n10", "rack10-n1", -1}, {"h", "", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int got = sign(hostname_cmp(cases[i].a, cases[i].b));
        if (got != cases[i].cmp) {
            fprintf(stderr, "\nhostname_cmp(%s, %s) = %d, expected %d\n", cases[i].a, cases[i].b,
                    got, cases[i].cmp);
            CU_FAIL("natural order");
        }
        CU_ASSERT_EQUAL(sign(hostname_cmp(cases[i].b, cases[i].a)), -cases[i].cmp);
    }
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {{"expansions", test_expansions},
                                      {"errors with their column", test_errors},
                                      {"appending", test_append},
                                      {"natural order", test_natural_order},
                                      {NULL, NULL}};
    test_add_suite("hostlist", cases);
    return test_run_suites();
}
