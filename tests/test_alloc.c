/* test_alloc.c - allocations as schedulers print them (hostlists, node list files, PICO
 * CSV, $SLURM_JOB_NODELIST), block and cyclic rank order, and placing them on topologies
 * by host name (h<id>, a preset's hostnames). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/alloc.h"
#include "sim/placement.h"
#include "testutil.h"

/* Writes text to a fresh temporary file; path must hold 64 bytes. */
static void write_tmp(char *path, const char *text)
{
    strcpy(path, "/tmp/collsim-alloc-XXXXXX");
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
}

static void test_hostlist_block_cyclic(void)
{
    allocation a;
    cs_error err;
    CU_ASSERT_EQUAL_FATAL(alloc_read("n[1-3],n7", &a, &err), 0);
    CU_ASSERT_EQUAL(a.hosts.n, 4);
    CU_ASSERT_EQUAL(a.per_rank, 0);
    CU_ASSERT_EQUAL(alloc_default_ranks(&a, 2), 8);
    int32_t h[8];
    /* block: ranks 0,1 on n1; 2,3 on n2; ... (Slurm --distribution=block) */
    CU_ASSERT_EQUAL(alloc_place(&a, 8, 2, ALLOC_ORDER_BLOCK, h, &err), 0);
    int32_t block[] = {0, 0, 1, 1, 2, 2, 3, 3};
    CU_ASSERT_EQUAL(memcmp(h, block, sizeof block), 0);
    /* cyclic: rank r on node r mod 4 (--distribution=cyclic) */
    CU_ASSERT_EQUAL(alloc_place(&a, 8, 2, ALLOC_ORDER_CYCLIC, h, &err), 0);
    int32_t cyclic[] = {0, 1, 2, 3, 0, 1, 2, 3};
    CU_ASSERT_EQUAL(memcmp(h, cyclic, sizeof cyclic), 0);
    /* fewer ranks: block fills the first nodes */
    CU_ASSERT_EQUAL(alloc_place(&a, 3, 2, ALLOC_ORDER_BLOCK, h, &err), 0);
    CU_ASSERT_EQUAL(h[2], 1);
    CU_ASSERT_EQUAL(alloc_place(&a, 9, 2, ALLOC_ORDER_BLOCK, h, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "P=9 ranks at 2 per node need 5 nodes, the allocation has 4"));
    alloc_free(&a);
    CU_ASSERT_EQUAL(alloc_read("n[1-2],n1", &a, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "node n1 is named twice"));
    alloc_free(&a);
    CU_ASSERT_EQUAL(alloc_read("n[1-", &a, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "hostlist 'n[1-': column 5"));
    alloc_free(&a);
    CU_ASSERT_EQUAL(alloc_read("dir/none.txt", &a, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "no such allocation file"));
    alloc_free(&a);
    CU_ASSERT_EQUAL(alloc_order_parse("spread", &(alloc_order){0}, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "allowed: block, cyclic"));
}

static void test_node_list_file(void)
{
    char path[64];
    /* scontrol show hostnames output, a compressed line and comments */
    write_tmp(path, "# job 4242\nlrdn0007\nlrdn0003\n\nlrdn[0010-0011]  # two more\n");
    allocation a;
    cs_error err;
    CU_ASSERT_EQUAL_FATAL(alloc_read(path, &a, &err), 0);
    CU_ASSERT_EQUAL(a.hosts.n, 4);
    CU_ASSERT_STRING_EQUAL(a.hosts.names[0], "lrdn0007");
    CU_ASSERT_STRING_EQUAL(a.hosts.names[3], "lrdn0011");
    alloc_free(&a);
    remove(path);
    write_tmp(path, "a1\na2\na1\n");
    CU_ASSERT_EQUAL(alloc_read(path, &a, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, ":3: node a1 is named twice"));
    alloc_free(&a);
    remove(path);
    write_tmp(path, "a1\na[2-\n");
    CU_ASSERT_EQUAL(alloc_read(path, &a, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, ":2: column 5: missing ']'"));
    alloc_free(&a);
    remove(path);
    write_tmp(path, "# nothing\n");
    CU_ASSERT_EQUAL(alloc_read(path, &a, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "names no host"));
    alloc_free(&a);
    remove(path);
}

static void test_pico_csv(void)
{
    char path[64];
    /* rows in any order, two ranks per node, LUMI's extra xname column */
    write_tmp(path, "MPI_Rank,allocation,xname\n2,nid005001,x1000c0s0b0n1\n"
                    "0,nid005000,x1000c0s0b0n0\n1,nid005000,x1000c0s0b0n0\n"
                    "3, nid005001 ,x1000c0s0b0n1\n");
    allocation a;
    cs_error err;
    CU_ASSERT_EQUAL_FATAL(alloc_read(path, &a, &err), 0);
    CU_ASSERT_EQUAL(a.per_rank, 1);
    CU_ASSERT_EQUAL(a.hosts.n, 4);
    CU_ASSERT_STRING_EQUAL(a.hosts.names[1], "nid005000");
    CU_ASSERT_STRING_EQUAL(a.hosts.names[3], "nid005001");
    CU_ASSERT_EQUAL(alloc_default_ranks(&a, 1), 4);
    CU_ASSERT_EQUAL(alloc_ranks_per_host(&a), 2);
    int32_t h[4];
    CU_ASSERT_EQUAL(alloc_place(&a, 4, 2, ALLOC_ORDER_BLOCK, h, &err), 0);
    CU_ASSERT_EQUAL(h[3], 3);
    CU_ASSERT_EQUAL(alloc_place(&a, 5, 2, ALLOC_ORDER_BLOCK, h, &err), -1);
    alloc_free(&a);
    remove(path);
    static const struct {
        const char *text, *message;
    } bad[] = {
        {"MPI_Rank,host\n0,a\n", ":1: a PICO allocation CSV needs the columns MPI_Rank and allocation"},
        {"MPI_Rank,allocation\n0,a\n0,b\n", ":3: rank 0 appears twice"},
        {"MPI_Rank,allocation\n0,a\n2,b\n", "rank 1 is missing"},
        /* memory follows the rows, not the largest rank (this allocated 8 GB before) */
        {"MPI_Rank,allocation\n1000000000,a\n", "rank 0 is missing (ranks 0..1000000000"},
        {"MPI_Rank,allocation\n1,a\n0,b\n1,c\n", ":4: rank 1 appears twice"},
        {"MPI_Rank,allocation\nx,a\n", ":2: MPI_Rank 'x' is not a rank number"},
        {"MPI_Rank,allocation\n0\n", ":2: expected 2 columns"},
        {"MPI_Rank,allocation\n", "no rank in the allocation CSV"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_tmp(path, bad[i].text);
        CU_ASSERT_EQUAL(alloc_read(path, &a, &err), -1);
        if (!strstr(err.msg, bad[i].message)) {
            fprintf(stderr, "\n'%s': '%s', expected '%s'\n", bad[i].text, err.msg, bad[i].message);
            CU_FAIL("message");
        }
        alloc_free(&a);
        remove(path);
    }
}

static void test_placement_parse(void)
{
    const char *good[] = {"alloc:lrdn[0001-0004,0010]", "alloc:/tmp/a.csv order=cyclic",
                          "linear order=cyclic", "random:3 order=cyclic"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        placement_spec p;
        cs_error err;
        char buf[1200];
        CU_ASSERT_EQUAL_FATAL(placement_parse(good[i], &p, &err), 0);
        placement_format(&p, buf, sizeof buf);
        CU_ASSERT_STRING_EQUAL(buf, good[i]);
    }
    placement_spec p;
    cs_error err;
    CU_ASSERT_EQUAL(placement_parse("linear order=block", &p, &err), 0);
    CU_ASSERT_EQUAL(p.order, ALLOC_ORDER_BLOCK);
    CU_ASSERT_EQUAL(placement_parse("linear order=zigzag", &p, &err), -1);
    CU_ASSERT_EQUAL(placement_parse("alloc:", &p, &err), -1);
    /* alloc:env reads $SLURM_JOB_NODELIST once, so results name the nodes */
    setenv("SLURM_JOB_NODELIST", "nid[005000-005003]", 1);
    CU_ASSERT_EQUAL(placement_parse("alloc:env order=cyclic", &p, &err), 0);
    CU_ASSERT_STRING_EQUAL(p.path, "nid[005000-005003]");
    CU_ASSERT_EQUAL(p.order, ALLOC_ORDER_CYCLIC);
    unsetenv("SLURM_JOB_NODELIST");
    CU_ASSERT_EQUAL(placement_parse("alloc:env", &p, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "SLURM_JOB_NODELIST is not set"));
}

static void test_place_by_name(void)
{
    topology *t;
    cs_error err;
    CU_ASSERT_EQUAL_FATAL(topo_build_spec("torus dims=16", &t, &err), 0);
    int32_t h[8];
    /* generated topologies answer to h<id> */
    CU_ASSERT_EQUAL(test_place("alloc:h[3-4],h9", t, 3, 1, h, &err), 0);
    CU_ASSERT(h[0] == 3 && h[1] == 4 && h[2] == 9);
    /* a preset's host names: lrdn0001 is host 0 */
    snprintf(t->host_format, sizeof t->host_format, "lrdn%%04d");
    t->host_first = 1;
    char name[32];
    topo_host_label(t, 15, name, sizeof name);
    CU_ASSERT_STRING_EQUAL(name, "lrdn0016");
    CU_ASSERT_EQUAL(topo_host_lookup(t, "lrdn0016"), 15);
    CU_ASSERT_EQUAL(topo_host_lookup(t, "lrdn016"), -1); /* not what the format prints */
    CU_ASSERT_EQUAL(topo_host_lookup(t, "lrdn0017"), -1); /* beyond the last host */
    CU_ASSERT_EQUAL(topo_host_lookup(t, "lrdn0000"), -1);
    CU_ASSERT_EQUAL(topo_host_lookup(t, "h5"), 5);        /* h<id> still works */
    CU_ASSERT_EQUAL(test_place("alloc:lrdn[0010-0012] order=cyclic", t, 6, 2, h, &err), 0);
    int32_t cyclic[] = {9, 10, 11, 9, 10, 11};
    CU_ASSERT_EQUAL(memcmp(h, cyclic, sizeof cyclic), 0);
    CU_ASSERT_EQUAL(test_place("alloc:lrdn[0010-0012]", t, 6, 2, h, &err), 0);
    int32_t block[] = {9, 9, 10, 10, 11, 11};
    CU_ASSERT_EQUAL(memcmp(h, block, sizeof block), 0);
    CU_ASSERT_EQUAL(test_place("alloc:lrdn0099", t, 1, 1, h, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "unknown host 'lrdn0099' (the topology's hosts are lrdn0001..lrdn0016)"));
    /* a CSV: repeated hosts within Q, and its order cannot be cyclic */
    char path[64];
    write_tmp(path, "MPI_Rank,allocation\n0,lrdn0002\n1,lrdn0002\n2,lrdn0005\n");
    char text[128];
    snprintf(text, sizeof text, "alloc:%s", path);
    CU_ASSERT_EQUAL(test_place(text, t, 3, 2, h, &err), 0);
    CU_ASSERT(h[0] == 1 && h[1] == 1 && h[2] == 4);
    CU_ASSERT_EQUAL(test_place(text, t, 3, 1, h, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "host lrdn0002 gets rank 1, more than --ranks-per-node 1"));
    snprintf(text, sizeof text, "alloc:%s order=cyclic", path);
    CU_ASSERT_EQUAL(test_place(text, t, 3, 2, h, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "order=cyclic does not apply"));
    /* --hostfile (file:PATH) takes the same names */
    remove(path);
    write_tmp(path, "lrdn0003\nh7\n");
    snprintf(text, sizeof text, "file:%s", path);
    CU_ASSERT_EQUAL(test_place(text, t, 2, 1, h, &err), 0);
    CU_ASSERT(h[0] == 2 && h[1] == 7);
    remove(path);
    /* cyclic order on a generated node list */
    CU_ASSERT_EQUAL(test_place("linear order=cyclic", t, 8, 2, h, &err), 0);
    int32_t lin[] = {0, 1, 2, 3, 0, 1, 2, 3};
    CU_ASSERT_EQUAL(memcmp(h, lin, sizeof lin), 0);
    topo_free(t);
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {{"hostlists, block and cyclic", test_hostlist_block_cyclic},
                                      {"node list files", test_node_list_file},
                                      {"PICO CSV", test_pico_csv},
                                      {"placement text", test_placement_parse},
                                      {"placing by host name", test_place_by_name},
                                      {NULL, NULL}};
    test_add_suite("alloc", cases);
    return test_run_suites();
}
