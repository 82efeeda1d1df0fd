/* test_sha256.c - SHA-256 against the FIPS 180-2 / NIST example vectors ("abc", the
 * 448- and 896-bit messages, one million 'a'), the empty message, and the incremental
 * interface fed in uneven pieces across block boundaries. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/sha256.h"
#include "testutil.h"

static void expect(const char *msg, const char *want)
{
    char hex[SHA256_HEX_LEN + 1];
    sha256_hex(msg, strlen(msg), hex);
    CU_ASSERT_STRING_EQUAL(hex, want);
}

static void test_vectors(void)
{
    expect("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
           "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    expect("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopq"
           "klmnopqrlmnopqrsmnopqrstnopqrstu",
           "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

/* One million 'a', fed in pieces of 1..127 bytes: padding and block boundaries at every
 * offset. */
static void test_million_a_incremental(void)
{
    static char a[127];
    memset(a, 'a', sizeof a);
    sha256_ctx c;
    sha256_init(&c);
    size_t left = 1000000, piece = 1;
    while (left > 0) {
        size_t n = piece < left ? piece : left;
        sha256_update(&c, a, n);
        left -= n;
        piece = piece % 127 + 1;
    }
    uint8_t d[SHA256_DIGEST_LEN];
    sha256_final(&c, d);
    char hex[SHA256_HEX_LEN + 1];
    for (int i = 0; i < SHA256_DIGEST_LEN; i++)
        snprintf(hex + 2 * i, 3, "%02x", d[i]);
    CU_ASSERT_STRING_EQUAL(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

/* Messages of 55, 56 and 64 bytes: the length field fits in the last block, does not,
 * and a full block of data. Digests from the one-shot and incremental paths agree, and
 * the file digest equals the memory digest. */
static void test_boundaries_and_file(void)
{
    char msg[200];
    memset(msg, 'x', sizeof msg);
    for (size_t n = 54; n <= 130; n++) {
        char one[SHA256_HEX_LEN + 1], inc[SHA256_HEX_LEN + 1];
        sha256_hex(msg, n, one);
        sha256_ctx c;
        uint8_t d[SHA256_DIGEST_LEN];
        sha256_init(&c);
        sha256_update(&c, msg, n / 2);
        sha256_update(&c, msg + n / 2, n - n / 2);
        sha256_final(&c, d);
        for (int i = 0; i < SHA256_DIGEST_LEN; i++)
            snprintf(inc + 2 * i, 3, "%02x", d[i]);
        CU_ASSERT_STRING_EQUAL(one, inc);
    }
    char path[] = "/tmp/collsim-sha256-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT(write(fd, "abc", 3) == 3);
    close(fd);
    char hex[SHA256_HEX_LEN + 1];
    cs_error err;
    CU_ASSERT_EQUAL(sha256_file_hex(path, hex, &err), 0);
    CU_ASSERT_STRING_EQUAL(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    unlink(path);
    CU_ASSERT_EQUAL(sha256_file_hex(path, hex, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, path));
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {{"FIPS 180 vectors", test_vectors},
                                      {"one million a, incremental", test_million_a_incremental},
                                      {"block boundaries, files", test_boundaries_and_file},
                                      {NULL, NULL}};
    test_add_suite("sha256", cases);
    return test_run_suites();
}
