/* external_xml.c - link class properties of a platform file (external.h:
 * ext_xml_link_classes).
 *
 * SimGrid's C API cannot read a link's properties, so the file itself is scanned for
 *
 *   <link id="X" ...> ... <prop id="class" value="global"/> ... </link>
 *
 * The scanner knows only what it needs of XML: comments, processing instructions and
 * declarations are skipped; a tag is a name and attributes quoted with ' or ". Nothing
 * else of the platform is interpreted (SimGrid does that).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "topologies/external.h"

typedef struct scanner {
    const char *text;
    size_t pos;
    const char *path;
} scanner;

typedef struct tag {
    char name[32];
    int closing, self_closing;
    char id[512], value[64];  /* the attributes we read */
    size_t at;                /* offset of '<' */
} tag;

static int line_of(const scanner *s, size_t pos)
{
    int line = 1;
    for (size_t i = 0; i < pos && s->text[i]; i++)
        line += s->text[i] == '\n';
    return line;
}

static int skip_past(scanner *s, const char *end)
{
    const char *p = strstr(s->text + s->pos, end);
    if (!p)
        return -1;
    s->pos = (size_t)(p - s->text) + strlen(end);
    return 0;
}

static void copy_value(char *dst, size_t n, const char *src, size_t len)
{
    if (len >= n)
        len = n - 1;
    memcpy(dst, src, len);
    dst[len] = '\0';
}

/* Reads the tag at s->pos ('<' of an element); 1 when read, 0 at the end, -1 on error. */
static int next_tag(scanner *s, tag *t, cs_error *err)
{
    for (;;) {
        const char *lt = strchr(s->text + s->pos, '<');
        if (!lt)
            return 0;
        s->pos = (size_t)(lt - s->text);
        const char *end = !strncmp(lt, "<!--", 4) ? "-->" : lt[1] == '?' ? "?>" : lt[1] == '!' ? ">" : NULL;
        if (!end)
            break;
        if (skip_past(s, end) < 0)
            return cs_fail(err, "%s:%d: unterminated '%.4s'", s->path, line_of(s, s->pos), lt);
    }
    memset(t, 0, sizeof *t);
    t->at = s->pos++;
    const char *p = s->text + s->pos;
    if (*p == '/') {
        t->closing = 1;
        p++;
    }
    size_t n = 0;
    while (isalnum((unsigned char)p[n]) || p[n] == '_' || p[n] == '-' || p[n] == ':')
        n++;
    copy_value(t->name, sizeof t->name, p, n);
    p += n;
    for (;;) { /* attributes */
        while (isspace((unsigned char)*p))
            p++;
        if (*p == '>' || (p[0] == '/' && p[1] == '>')) {
            t->self_closing = *p == '/';
            s->pos = (size_t)(p - s->text) + (t->self_closing ? 2 : 1);
            return 1;
        }
        const char *attr = p;
        while (*p && *p != '=' && !isspace((unsigned char)*p) && *p != '>')
            p++;
        size_t alen = (size_t)(p - attr);
        while (isspace((unsigned char)*p))
            p++;
        if (*p != '=' || (p[1] != '"' && p[1] != '\''))
            return cs_fail(err, "%s:%d: cannot read the attributes of <%s>", s->path,
                           line_of(s, t->at), t->name);
        char quote = p[1];
        const char *v = p + 2, *close = strchr(v, quote);
        if (!close)
            return cs_fail(err, "%s:%d: unterminated attribute value in <%s>", s->path,
                           line_of(s, t->at), t->name);
        if (alen == 2 && !strncmp(attr, "id", 2))
            copy_value(t->id, sizeof t->id, v, (size_t)(close - v));
        else if (alen == 5 && !strncmp(attr, "value", 5))
            copy_value(t->value, sizeof t->value, v, (size_t)(close - v));
        p = close + 1;
    }
}

static char *read_all(const char *path, cs_error *err)
{
    FILE *f = fopen_input(path, "rb");
    if (!f) {
        cs_fail(err, "%s: cannot open the platform: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, len = 0, got;
    char *buf = xmalloc(cap);
    while ((got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (cap - len < 2)
            buf = xrealloc(buf, cap *= 2);
    }
    buf[len] = '\0';
    fclose(f);
    return buf;
}

int ext_xml_link_classes(const char *path, strmap *classes, cs_error *err)
{
    char *text = read_all(path, err);
    if (!text)
        return -1;
    scanner s = {text, 0, path};
    tag t;
    char link[512] = ""; /* the <link> we are inside, "" outside */
    int rc;
    while ((rc = next_tag(&s, &t, err)) == 1) {
        if (strcmp(t.name, "link") == 0) {
            if (t.closing)
                link[0] = '\0';
            else if (!t.self_closing)
                snprintf(link, sizeof link, "%s", t.id);
            continue;
        }
        if (t.closing || strcmp(t.name, "prop") != 0 || !link[0] || strcmp(t.id, "class") != 0)
            continue;
        link_class c = LINK__COUNT;
        for (int k = 0; k < LINK__COUNT; k++)
            if (strcmp(t.value, link_class_name((link_class)k)) == 0)
                c = (link_class)k;
        if (c == LINK__COUNT) {
            rc = cs_fail(err, "%s:%d: link %s: class '%s' (allowed: host, local, global)", path,
                         line_of(&s, t.at), link, t.value);
            break;
        }
        strmap_put(classes, link, c);
    }
    free(text);
    return rc < 0 ? -1 : 0;
}
