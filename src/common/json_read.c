/* json_read.c - reading one member of a JSON document's top-level object (json.h): a
 * validating recursive-descent pass over RFC 8259 text, whatever its layout (spaces, line
 * breaks, member order), so that a manifest edited or rewritten by another tool reads the
 * same as the one collsim wrote. */
#include <string.h>

#include "common/json.h"

#define JSON_MAX_DEPTH 256

typedef struct jreader {
    const char *start, *s, *end;
    int depth;
} jreader;

static void skip_ws(jreader *r)
{
    while (r->s < r->end && (*r->s == ' ' || *r->s == '\t' || *r->s == '\n' || *r->s == '\r'))
        r->s++;
}

static int hex4(jreader *r, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++, r->s++) {
        if (r->s >= r->end)
            return -1;
        char c = *r->s;
        unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
                     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16u;
        if (d > 15)
            return -1;
        v = v * 16 + d;
    }
    *out = v;
    return 0;
}

/* Appends a byte to out (at most n - 1 of them; NULL out: only counted). */
static void put(char *out, size_t n, size_t *len, unsigned char c)
{
    if (out && *len + 1 < n)
        out[*len] = (char)c;
    (*len)++;
}

static void put_utf8(char *out, size_t n, size_t *len, unsigned cp)
{
    if (cp < 0x80) {
        put(out, n, len, (unsigned char)cp);
    } else if (cp < 0x800) {
        put(out, n, len, (unsigned char)(0xc0 | cp >> 6));
        put(out, n, len, (unsigned char)(0x80 | (cp & 0x3f)));
    } else if (cp < 0x10000) {
        put(out, n, len, (unsigned char)(0xe0 | cp >> 12));
        put(out, n, len, (unsigned char)(0x80 | ((cp >> 6) & 0x3f)));
        put(out, n, len, (unsigned char)(0x80 | (cp & 0x3f)));
    } else {
        put(out, n, len, (unsigned char)(0xf0 | cp >> 18));
        put(out, n, len, (unsigned char)(0x80 | ((cp >> 12) & 0x3f)));
        put(out, n, len, (unsigned char)(0x80 | ((cp >> 6) & 0x3f)));
        put(out, n, len, (unsigned char)(0x80 | (cp & 0x3f)));
    }
}

/* One escape after the backslash (r->s at the letter). */
static int escape(jreader *r, char *out, size_t n, size_t *len)
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    const char *k = memchr(from, *r->s, sizeof from - 1);
    if (k) {
        put(out, n, len, (unsigned char)to[k - from]);
        r->s++;
        return 0;
    }
    if (*r->s != 'u')
        return -1;
    r->s++;
    unsigned cp, lo;
    if (hex4(r, &cp) < 0)
        return -1;
    if (cp >= 0xd800 && cp < 0xdc00) { /* a surrogate pair */
        if (r->end - r->s < 2 || r->s[0] != '\\' || r->s[1] != 'u')
            return -1;
        r->s += 2;
        if (hex4(r, &lo) < 0 || lo < 0xdc00 || lo > 0xdfff)
            return -1;
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
    } else if (cp >= 0xdc00 && cp < 0xe000) {
        return -1;
    }
    put_utf8(out, n, len, cp);
    return 0;
}

/* A string (r->s at its quote), unescaped into out (cut to n - 1 bytes; NULL: skipped). */
static int string(jreader *r, char *out, size_t n)
{
    size_t len = 0;
    if (r->s >= r->end || *r->s != '"')
        return -1;
    for (r->s++; r->s < r->end && *r->s != '"';) {
        unsigned char c = (unsigned char)*r->s;
        if (c < 0x20)
            return -1;
        if (c == '\\') {
            if (++r->s >= r->end || escape(r, out, n, &len) < 0)
                return -1;
            continue;
        }
        put(out, n, &len, c);
        r->s++;
    }
    if (r->s >= r->end)
        return -1;
    r->s++;
    if (out && n)
        out[len < n ? len : n - 1] = '\0';
    return 0;
}

static int digits(jreader *r)
{
    const char *from = r->s;
    while (r->s < r->end && *r->s >= '0' && *r->s <= '9')
        r->s++;
    return r->s > from ? 0 : -1;
}

static int number(jreader *r)
{
    if (r->s < r->end && *r->s == '-')
        r->s++;
    if (r->s < r->end && *r->s == '0')
        r->s++;
    else if (digits(r) < 0)
        return -1;
    if (r->s < r->end && *r->s == '.' && (r->s++, digits(r) < 0))
        return -1;
    if (r->s < r->end && (*r->s == 'e' || *r->s == 'E')) {
        r->s++;
        if (r->s < r->end && (*r->s == '+' || *r->s == '-'))
            r->s++;
        if (digits(r) < 0)
            return -1;
    }
    return 0;
}

static int literal(jreader *r, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(r->end - r->s) < n || memcmp(r->s, word, n) != 0)
        return -1;
    r->s += n;
    return 0;
}

static int value(jreader *r);

/* The members of an object or the items of an array (r->s after the opening bracket). */
static int members(jreader *r, char close, int keyed)
{
    skip_ws(r);
    if (r->s < r->end && *r->s == close) {
        r->s++;
        return 0;
    }
    for (;;) {
        skip_ws(r);
        if (keyed) {
            if (string(r, NULL, 0) < 0)
                return -1;
            skip_ws(r);
            if (r->s >= r->end || *r->s++ != ':')
                return -1;
        }
        if (value(r) < 0)
            return -1;
        skip_ws(r);
        if (r->s < r->end && *r->s == ',') {
            r->s++;
            continue;
        }
        if (r->s < r->end && *r->s == close) {
            r->s++;
            return 0;
        }
        return -1;
    }
}

static int value(jreader *r)
{
    skip_ws(r);
    if (r->s >= r->end)
        return -1;
    switch (*r->s) {
    case '{':
    case '[':
        if (++r->depth > JSON_MAX_DEPTH)
            return -1;
        r->s++;
        int rc = members(r, r->s[-1] == '{' ? '}' : ']', r->s[-1] == '{');
        r->depth--;
        return rc;
    case '"': return string(r, NULL, 0);
    case 't': return literal(r, "true");
    case 'f': return literal(r, "false");
    case 'n': return literal(r, "null");
    default: return number(r);
    }
}

/* The value just read (from..r->s) into buf: a string unescaped, else its text. */
static void copy_value(jreader *r, const char *from, char *buf, size_t n)
{
    const char *end = r->s;
    if (*from == '"') {
        r->s = from;
        string(r, buf, n);
        r->s = end;
        return;
    }
    size_t len = (size_t)(end - from);
    if (len >= n)
        len = n - 1;
    memcpy(buf, from, len);
    buf[len] = '\0';
}

static int fail_at(jreader *r, size_t *where)
{
    if (where)
        *where = (size_t)(r->s - r->start);
    return -1;
}

int json_top_member(const char *text, size_t len, const char *key, char *buf, size_t n,
                    size_t *where)
{
    jreader r = {text, text, text + len, 0};
    int found = 0;
    buf[0] = '\0';
    skip_ws(&r);
    if (r.s >= r.end || *r.s++ != '{')
        return fail_at(&r, where);
    skip_ws(&r);
    if (r.s < r.end && *r.s == '}') {
        r.s++;
    } else {
        for (;;) {
            char name[256];
            skip_ws(&r);
            if (string(&r, name, sizeof name) < 0)
                return fail_at(&r, where);
            skip_ws(&r);
            if (r.s >= r.end || *r.s++ != ':')
                return fail_at(&r, where);
            skip_ws(&r);
            const char *from = r.s;
            if (value(&r) < 0)
                return fail_at(&r, where);
            if (strcmp(name, key) == 0) {
                copy_value(&r, from, buf, n);
                found = 1;
            }
            skip_ws(&r);
            if (r.s < r.end && *r.s == ',') {
                r.s++;
                continue;
            }
            if (r.s < r.end && *r.s == '}') {
                r.s++;
                break;
            }
            return fail_at(&r, where);
        }
    }
    skip_ws(&r);
    if (r.s != r.end)
        return fail_at(&r, where);
    return found;
}
