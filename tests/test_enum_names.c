/* test_enum_names.c - an enum's names both ways (src/common/enum_names.c) and the packet
 * model's routing and engine names that use it (src/sim/packet_config.c). */
#include <string.h>

#include "common/enum_names.h"
#include "sim/packet.h"
#include "testutil.h"

static const char *const colours[] = {"red", "green", "blue"};

static void test_both_ways(void)
{
    enum_names e = ENUM_NAMES(colours);
    CU_ASSERT_EQUAL(e.count, 3);
    for (int v = 0; v < 3; v++) {
        int back = -1;
        cs_error err;
        CU_ASSERT_EQUAL(enum_parse(e, "colour", enum_name(e, v), &back, &err), 0);
        CU_ASSERT_EQUAL(back, v);
    }
    CU_ASSERT_STRING_EQUAL(enum_name(e, 1), "green");
    CU_ASSERT_STRING_EQUAL(enum_name(e, 3), "?");
    CU_ASSERT_STRING_EQUAL(enum_name(e, -1), "?");
}

static void test_unknown_names_the_allowed(void)
{
    int v = 7;
    cs_error err;
    CU_ASSERT_EQUAL(enum_parse(ENUM_NAMES(colours), "colour", "Red", &v, &err), -1);
    CU_ASSERT_EQUAL(v, 7); /* untouched */
    CU_ASSERT_STRING_EQUAL(err.msg, "unknown colour 'Red' (allowed: red, green, blue)");
}

static void test_packet_names(void)
{
    pk_routing r;
    pk_engine e;
    cs_error err;
    CU_ASSERT_EQUAL(pk_routing_parse("ugal", &r, &err), 0);
    CU_ASSERT_EQUAL(r, PK_ROUTE_UGAL);
    CU_ASSERT_STRING_EQUAL(pk_routing_name(PK_ROUTE_ECMP), "ecmp");
    CU_ASSERT_EQUAL(pk_routing_parse("valiant", &r, &err), -1);
    CU_ASSERT_STRING_EQUAL(err.msg,
                           "unknown routing 'valiant' (allowed: minimal, adaptive, ugal, ecmp)");
    CU_ASSERT_EQUAL(pk_engine_parse("actors", &e, &err), 0);
    CU_ASSERT_EQUAL(e, PK_ENGINE_ACTORS);
    CU_ASSERT_STRING_EQUAL(pk_engine_name(PK_ENGINE_LOOP), "loop");
    CU_ASSERT_EQUAL(pk_engine_parse("heap", &e, &err), -1);
    CU_ASSERT_STRING_EQUAL(err.msg, "unknown packet engine 'heap' (allowed: loop, actors)");
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {
        {"name <-> value", test_both_ways},
        {"an unknown name lists the allowed ones", test_unknown_names_the_allowed},
        {"packet routing and engine names", test_packet_names},
        {NULL, NULL}};
    test_add_suite("enum names", cases);
    return test_run_suites();
}
