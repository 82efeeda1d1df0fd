/* scene.c - building scenes (see scene.h); the writers are in scene_svg.c, scene_json.c. */
#include "draw/scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

void scene_init(scene *s, double width, double height)
{
    memset(s, 0, sizeof *s);
    s->width = width;
    s->height = height;
    s->background = 0xffffff;
}

void scene_free(scene *s)
{
    for (size_t i = 0; i < s->nitems; i++) {
        free(s->items[i].text);
        free(s->items[i].title);
    }
    free(s->items);
    free(s->segs);
    memset(s, 0, sizeof *s);
}

static scene_item *add_item(scene *s, scene_kind kind)
{
    VEC_RESERVE(s->items, s->cap_items, s->nitems + 1);
    scene_item *it = &s->items[s->nitems++];
    memset(it, 0, sizeof *it);
    it->kind = (uint8_t)kind;
    it->stroke = 0x000000;
    it->fill = SCENE_NONE;
    it->width = 1;
    it->opacity = 1;
    it->data_fwd = it->data_rev = SCENE_NO_DATA;
    return it;
}

scene_item *scene_circle(scene *s, double x, double y, double r)
{
    scene_item *it = add_item(s, SCENE_CIRCLE);
    it->x = x;
    it->y = y;
    it->r = r;
    return it;
}

scene_item *scene_rect(scene *s, double x, double y, double w, double h, double r)
{
    scene_item *it = add_item(s, SCENE_RECT);
    it->x = x;
    it->y = y;
    it->w = w;
    it->h = h;
    it->r = r;
    return it;
}

scene_item *scene_text(scene *s, double x, double y, double size, scene_anchor anchor,
                       const char *text)
{
    scene_item *it = add_item(s, SCENE_TEXT);
    it->x = x;
    it->y = y;
    it->h = size;
    it->anchor = (uint8_t)anchor;
    it->stroke = SCENE_NONE;
    it->fill = 0x000000;
    it->text = xstrdup(text);
    return it;
}

scene_item *scene_path(scene *s)
{
    scene_item *it = add_item(s, SCENE_PATH);
    it->seg_first = (uint32_t)s->nsegs;
    return it;
}

static void add_seg(scene *s, char op, double cx, double cy, double x, double y)
{
    VEC_RESERVE(s->segs, s->cap_segs, s->nsegs + 1);
    s->segs[s->nsegs++] = (scene_seg){op, cx, cy, x, y};
    s->items[s->nitems - 1].nsegs++;
}

void scene_move(scene *s, double x, double y) { add_seg(s, 'M', 0, 0, x, y); }
void scene_line(scene *s, double x, double y) { add_seg(s, 'L', 0, 0, x, y); }
void scene_quad(scene *s, double cx, double cy, double x, double y) { add_seg(s, 'Q', cx, cy, x, y); }

void scene_arrowhead(scene *s, double x, double y, double dx, double dy, double len)
{
    double n = hypot(dx, dy);
    if (n == 0)
        return;
    dx /= n;
    dy /= n;
    /* two strokes 25 degrees either side of the reversed direction */
    const double c = 0.9063, sn = 0.4226;
    double bx = -dx, by = -dy;
    scene_move(s, x + len * (c * bx - sn * by), y + len * (sn * bx + c * by));
    scene_line(s, x, y);
    scene_line(s, x + len * (c * bx + sn * by), y + len * (-sn * bx + c * by));
}

void scene_item_set_title(scene_item *it, const char *title)
{
    free(it->title);
    it->title = title ? xstrdup(title) : NULL;
}

void scene_append(scene *dst, const scene *src, double dx, double dy)
{
    for (size_t i = 0; i < src->nitems; i++) {
        const scene_item *from = &src->items[i];
        scene_item *it = add_item(dst, (scene_kind)from->kind);
        *it = *from;
        it->x += dx;
        it->y += dy;
        it->text = from->text ? xstrdup(from->text) : NULL;
        it->title = from->title ? xstrdup(from->title) : NULL;
        it->seg_first = (uint32_t)dst->nsegs;
        it->nsegs = 0;
        for (uint32_t k = 0; k < from->nsegs; k++) {
            scene_seg g = src->segs[from->seg_first + k];
            add_seg(dst, g.op, g.cx + dx, g.cy + dy, g.x + dx, g.y + dy);
        }
    }
}

double scene_text_width(const char *text, double size)
{
    /* DejaVu Sans (matplotlib's default, and what most SVG viewers pick for sans-serif):
     * digits and most lower-case letters are about 0.62 em, wide letters up to 0.95 em. */
    double w = 0;
    for (const char *c = text; *c; c++) {
        if (strchr("mwMW", *c))
            w += 0.95;
        else if (*c >= 'A' && *c <= 'Z')
            w += 0.75;
        else if (strchr("iljtf.,:;' |()[]", *c))
            w += 0.36;
        else
            w += 0.64;
    }
    return w * size;
}

const char *scene_num(double v, char *buf)
{
    double r = round(v * 100) / 100;
    if (r == 0)
        r = 0; /* no "-0" */
    snprintf(buf, 32, "%.2f", r);
    char *dot = strchr(buf, '.');
    if (dot) {
        char *end = buf + strlen(buf) - 1;
        while (end > dot && *end == '0')
            *end-- = '\0';
        if (end == dot)
            *end = '\0';
    }
    return buf;
}
