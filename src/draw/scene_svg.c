/* scene_svg.c - scenes as SVG documents, static or animated (see scene.h). */
#include <stdio.h>

#include "draw/scene.h"

static void put_escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

static void put_color(FILE *f, const char *attr, uint32_t c)
{
    if (c == SCENE_NONE)
        fprintf(f, " %s=\"none\"", attr);
    else
        fprintf(f, " %s=\"#%06x\"", attr, (unsigned)c);
}

static void put_num_attr(FILE *f, const char *attr, double v)
{
    char b[32];
    fprintf(f, " %s=\"%s\"", attr, scene_num(v, b));
}

/* id, class, paint and data attributes shared by every element. */
static void put_common(FILE *f, const scene_item *it, const char *id_prefix)
{
    if (it->id[0]) {
        fputs(" id=\"", f);
        put_escaped(f, id_prefix);
        put_escaped(f, it->id);
        fputc('"', f);
    }
    if (it->cls)
        fprintf(f, " class=\"%s\"", it->cls);
    if (it->kind != SCENE_TEXT) {
        put_color(f, "stroke", it->stroke);
        if (it->stroke != SCENE_NONE)
            put_num_attr(f, "stroke-width", it->width);
        if (it->dashed)
            fputs(" stroke-dasharray=\"5 3\"", f);
    }
    put_color(f, "fill", it->fill);
    if (it->opacity < 1)
        put_num_attr(f, "opacity", it->opacity);
    if (it->data_fwd != SCENE_NO_DATA)
        fprintf(f, " data-fwd=\"%lld\"", (long long)it->data_fwd);
    if (it->data_rev != SCENE_NO_DATA)
        fprintf(f, " data-rev=\"%lld\"", (long long)it->data_rev);
}

/* Closes an element: with its tooltip as a <title> child, or as an empty element. */
static void put_end(FILE *f, const scene_item *it, const char *tag)
{
    if (!it->title) {
        fputs("/>\n", f);
        return;
    }
    fputs("><title>", f);
    put_escaped(f, it->title);
    fprintf(f, "</title></%s>\n", tag);
}

static void put_path(FILE *f, const scene *s, const scene_item *it, const char *id_prefix)
{
    char b1[32], b2[32], b3[32], b4[32];
    fputs("<path d=\"", f);
    for (uint32_t k = 0; k < it->nsegs; k++) {
        const scene_seg *g = &s->segs[it->seg_first + k];
        if (k)
            fputc(' ', f);
        if (g->op == 'Q')
            fprintf(f, "Q%s %s %s %s", scene_num(g->cx, b1), scene_num(g->cy, b2),
                    scene_num(g->x, b3), scene_num(g->y, b4));
        else
            fprintf(f, "%c%s %s", g->op, scene_num(g->x, b1), scene_num(g->y, b2));
    }
    fputc('"', f);
    put_common(f, it, id_prefix);
    fputs(" stroke-linecap=\"round\" stroke-linejoin=\"round\"", f);
    put_end(f, it, "path");
}

/* "<tag" and the element's position: its x and y under the attribute names given. */
static void put_open(FILE *f, const char *tag, const char *xname, const char *yname,
                     const scene_item *it)
{
    fprintf(f, "<%s", tag);
    put_num_attr(f, xname, it->x);
    put_num_attr(f, yname, it->y);
}

static void put_item(FILE *f, const scene *s, const scene_item *it, const char *id_prefix)
{
    static const char *anchors[] = {"start", "middle", "end"};
    switch (it->kind) {
    case SCENE_PATH: put_path(f, s, it, id_prefix); break;
    case SCENE_CIRCLE:
        put_open(f, "circle", "cx", "cy", it);
        put_num_attr(f, "r", it->r);
        put_common(f, it, id_prefix);
        put_end(f, it, "circle");
        break;
    case SCENE_RECT:
        put_open(f, "rect", "x", "y", it);
        put_num_attr(f, "width", it->w);
        put_num_attr(f, "height", it->h);
        if (it->r > 0)
            put_num_attr(f, "rx", it->r);
        put_common(f, it, id_prefix);
        put_end(f, it, "rect");
        break;
    case SCENE_TEXT:
        put_open(f, "text", "x", "y", it);
        put_num_attr(f, "font-size", it->h);
        fprintf(f, " text-anchor=\"%s\"", anchors[it->anchor]);
        if (it->bold)
            fputs(" font-weight=\"bold\"", f);
        put_common(f, it, id_prefix);
        fputc('>', f);
        put_escaped(f, it->text);
        if (it->title) {
            fputs("<title>", f);
            put_escaped(f, it->title);
            fputs("</title>", f);
        }
        fputs("</text>\n", f);
        break;
    }
}

static void put_header(FILE *f, double w, double h, uint32_t background)
{
    char bw[32], bh[32];
    scene_num(w, bw);
    scene_num(h, bh);
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%s\" height=\"%s\" "
               "viewBox=\"0 0 %s %s\" font-family=\"DejaVu Sans, Verdana, sans-serif\">\n",
            bw, bh, bw, bh);
    if (background != SCENE_NONE)
        fprintf(f, "<rect class=\"background\" width=\"%s\" height=\"%s\" fill=\"#%06x\"/>\n",
                bw, bh, (unsigned)background);
}

int scene_write_svg(const scene *s, FILE *f)
{
    put_header(f, s->width, s->height, s->background);
    for (size_t i = 0; i < s->nitems; i++)
        put_item(f, s, &s->items[i], "");
    fputs("</svg>\n", f);
    return ferror(f) ? -1 : 0;
}

/* Frame k of n is visible during [k/n, (k+1)/n) of the loop: a discrete animation of
 * its visibility (values hold from their key time to the next one). */
static void put_frame_animation(FILE *f, int k, int n, double seconds)
{
    char dur[32], t0[32], t1[32];
    scene_num(seconds * n, dur);
    scene_num((double)k / n, t0);
    scene_num((double)(k + 1) / n, t1);
    fprintf(f, "<animate attributeName=\"visibility\" calcMode=\"discrete\" dur=\"%ss\" "
               "repeatCount=\"indefinite\" ", dur);
    if (k == 0)
        fprintf(f, "values=\"visible;hidden\" keyTimes=\"0;%s\"/>\n", t1);
    else if (k == n - 1)
        fprintf(f, "values=\"hidden;visible\" keyTimes=\"0;%s\"/>\n", t0);
    else
        fprintf(f, "values=\"hidden;visible;hidden\" keyTimes=\"0;%s;%s\"/>\n", t0, t1);
}

int scene_write_svg_animated(const scene *frames, int nframes, double seconds, FILE *f)
{
    if (nframes < 1)
        return -1;
    put_header(f, frames[0].width, frames[0].height, frames[0].background);
    for (int k = 0; k < nframes; k++) {
        char prefix[32];
        snprintf(prefix, sizeof prefix, "f%d-", k);
        fprintf(f, "<g id=\"frame-%d\" class=\"frame\" visibility=\"%s\">\n", k,
                k == 0 ? "visible" : "hidden");
        if (nframes > 1)
            put_frame_animation(f, k, nframes, seconds);
        for (size_t i = 0; i < frames[k].nitems; i++)
            put_item(f, &frames[k], &frames[k].items[i], prefix);
        fputs("</g>\n", f);
    }
    fputs("</svg>\n", f);
    return ferror(f) ? -1 : 0;
}
