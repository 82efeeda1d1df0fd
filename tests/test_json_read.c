/* test_json_read.c - json_top_member (src/common/json_read.c): members of the top-level
 * object whatever the layout, escapes, and planted faults (truncated, trailing garbage,
 * bad escapes, nesting) that must be refused with the byte of the error. */
#include <string.h>

#include "common/json.h"
#include "testutil.h"

static int get(const char *text, const char *key, char *buf, size_t n, size_t *where)
{
    return json_top_member(text, strlen(text), key, buf, n, where);
}

static void test_layouts(void)
{
    char v[64];
    /* the writer's layout, one line, and a reformatted one with the keys reordered */
    const char *a = "{\n  \"manifest\": \"collsim-run-1\",\n  \"seed\": 7,\n  \"shard\": \"1/3\"\n}\n";
    const char *b = "{\"shard\":\"1/3\",\"seed\":7,\"manifest\":\"collsim-run-1\"}";
    const char *c = "\t{ \"points\" : [ {\"seed\": 9}, [1, 2.5e-3, -0, true, null] ] ,\r\n"
                    "   \"seed\" :\n 7 , \"shard\": \"1/3\" }  ";
    const char *texts[] = {a, b, c};
    for (int i = 0; i < 3; i++) {
        CU_ASSERT_EQUAL(get(texts[i], "seed", v, sizeof v, NULL), 1);
        CU_ASSERT_STRING_EQUAL(v, "7");
        CU_ASSERT_EQUAL(get(texts[i], "shard", v, sizeof v, NULL), 1);
        CU_ASSERT_STRING_EQUAL(v, "1/3");
        CU_ASSERT_EQUAL(get(texts[i], "absent", v, sizeof v, NULL), 0);
        CU_ASSERT_STRING_EQUAL(v, "");
    }
    /* only top-level members: "seed": 9 inside points is not the seed */
    CU_ASSERT_EQUAL(get("{\"points\": [{\"seed\": 9}]}", "seed", v, sizeof v, NULL), 0);
    CU_ASSERT_EQUAL(get("{}", "seed", v, sizeof v, NULL), 0);
}

static void test_escapes(void)
{
    char v[64];
    CU_ASSERT_EQUAL(get("{\"s\": \"a\\\"b\\\\c\\/d\\n\"}", "s", v, sizeof v, NULL), 1);
    CU_ASSERT_STRING_EQUAL(v, "a\"b\\c/d\n");
    /* \u00e9 = é (C3 A9), the surrogate pair D83D DE00 = U+1F600 (F0 9F 98 80) */
    CU_ASSERT_EQUAL(get("{\"s\": \"\\u00e9\\ud83d\\ude00\"}", "s", v, sizeof v, NULL), 1);
    CU_ASSERT_STRING_EQUAL(v, "\xc3\xa9\xf0\x9f\x98\x80");
    /* an escaped key matches its text */
    CU_ASSERT_EQUAL(get("{\"se\\u0065d\": 3}", "seed", v, sizeof v, NULL), 1);
    CU_ASSERT_STRING_EQUAL(v, "3");
    /* a value longer than the buffer is cut, not overrun */
    char small[4];
    CU_ASSERT_EQUAL(get("{\"s\": \"abcdefgh\"}", "s", small, sizeof small, NULL), 1);
    CU_ASSERT_STRING_EQUAL(small, "abc");
}

static void test_faults(void)
{
    char v[64];
    size_t where = 99;
    /* planted faults, each with the byte (from 0) where the reader stops */
    static const struct {
        const char *text;
        size_t at;
    } bad[] = {
        {"", 0},                              /* empty */
        {"[1, 2]", 1},                        /* not an object */
        {"{\"seed\": 7", 10},                 /* cut short */
        {"{\"seed\": 7,}", 11},               /* trailing comma */
        {"{\"seed\": 7} x", 12},              /* garbage after the object */
        {"{\"seed\": 07}", 10},               /* leading zero */
        {"{\"seed\": 1.}", 11},               /* no digit after the point */
        {"{\"s\": \"\\x41\"}", 8},            /* unknown escape */
        {"{\"s\": \"\\ud83d\"}", 13},         /* a lone high surrogate */
        {"{\"s\": \"a\nb\"}", 8},             /* a raw line break in a string */
        {"{\"s\": tru}", 6},                  /* a cut literal */
        {"{seed: 7}", 1},                     /* an unquoted key */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        where = 99;
        CU_ASSERT_EQUAL(get(bad[i].text, "seed", v, sizeof v, &where), -1);
        CU_ASSERT_EQUAL(where, bad[i].at);
        if (where != bad[i].at)
            fprintf(stderr, "case %zu (%s): stopped at %zu, expected %zu\n", i, bad[i].text,
                    where, bad[i].at);
    }
    /* nesting deeper than the limit is refused, not a stack overflow */
    char deep[2000];
    size_t n = 0;
    n += (size_t)snprintf(deep, sizeof deep, "{\"a\": ");
    for (int i = 0; i < 600; i++)
        deep[n++] = '[';
    for (int i = 0; i < 600; i++)
        deep[n++] = ']';
    deep[n++] = '}';
    deep[n] = '\0';
    CU_ASSERT_EQUAL(get(deep, "a", v, sizeof v, NULL), -1);
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {{"layouts", test_layouts},
                                      {"escapes", test_escapes},
                                      {"planted faults", test_faults},
                                      {NULL, NULL}};
    test_add_suite("json_read", cases);
    return test_run_suites();
}
