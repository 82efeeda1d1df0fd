/* sha256.h - SHA-256 (FIPS 180-4, section 6.2), for the manifests of sweep runs.
 *
 * Incremental: sha256_init, any number of sha256_update calls, sha256_final. Messages
 * of any length up to 2^64 - 1 bits. Tested against the standard test vectors
 * (tests/test_sha256.c).
 */
#ifndef COLLSIM_SHA256_H
#define COLLSIM_SHA256_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

#define SHA256_DIGEST_LEN 32
#define SHA256_HEX_LEN 64

typedef struct sha256_ctx {
    uint32_t h[8];       /* the hash value H(i) */
    uint8_t block[64];   /* the message block being filled */
    size_t fill;         /* bytes in block */
    uint64_t total;      /* message length so far, in bytes */
} sha256_ctx;

void sha256_init(sha256_ctx *c);
void sha256_update(sha256_ctx *c, const void *data, size_t n);
void sha256_final(sha256_ctx *c, uint8_t digest[SHA256_DIGEST_LEN]);

/* The digest of n bytes as 64 lowercase hex digits (hex has room for 65 chars). */
void sha256_hex(const void *data, size_t n, char hex[SHA256_HEX_LEN + 1]);
/* The digest of a file's contents as hex; -1 with a message naming the file. */
int sha256_file_hex(const char *path, char hex[SHA256_HEX_LEN + 1], cs_error *err);

#endif
