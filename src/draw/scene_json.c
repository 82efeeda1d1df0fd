/* scene_json.c - scenes as JSON for scripts/render_scene.py (see scene.h).
 *
 * {"width": W, "height": H, "background": "#ffffff" | null, "items": [
 *    {"kind": "path", "segs": [["M", x, y], ["L", x, y], ["Q", cx, cy, x, y]], <paint>},
 *    {"kind": "circle", "x": .., "y": .., "r": .., <paint>},
 *    {"kind": "rect", "x": .., "y": .., "w": .., "h": .., "r": .., <paint>},
 *    {"kind": "text", "x": .., "y": .., "size": .., "anchor": "start|middle|end",
 *     "bold": 0|1, "text": "..", <paint>} ]}
 * <paint> = "stroke": "#rrggbb" | null, "width": w, "fill": "#rrggbb" | null,
 *           "opacity": o, "dashed": 0|1
 */
#include <stdio.h>

#include "draw/scene.h"

static void put_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void put_color(FILE *f, const char *key, uint32_t c)
{
    if (c == SCENE_NONE)
        fprintf(f, ", \"%s\": null", key);
    else
        fprintf(f, ", \"%s\": \"#%06x\"", key, (unsigned)c);
}

static void put_paint(FILE *f, const scene_item *it)
{
    char b1[32], b2[32];
    put_color(f, "stroke", it->stroke);
    put_color(f, "fill", it->fill);
    fprintf(f, ", \"width\": %s, \"opacity\": %s, \"dashed\": %d", scene_num(it->width, b1),
            scene_num(it->opacity, b2), it->dashed ? 1 : 0);
}

static void put_item(FILE *f, const scene *s, const scene_item *it)
{
    static const char *anchors[] = {"start", "middle", "end"};
    char b[5][32];
    switch (it->kind) {
    case SCENE_PATH:
        fputs("{\"kind\": \"path\", \"segs\": [", f);
        for (uint32_t k = 0; k < it->nsegs; k++) {
            const scene_seg *g = &s->segs[it->seg_first + k];
            if (g->op == 'Q')
                fprintf(f, "%s[\"Q\", %s, %s, %s, %s]", k ? ", " : "", scene_num(g->cx, b[0]),
                        scene_num(g->cy, b[1]), scene_num(g->x, b[2]), scene_num(g->y, b[3]));
            else
                fprintf(f, "%s[\"%c\", %s, %s]", k ? ", " : "", g->op, scene_num(g->x, b[0]),
                        scene_num(g->y, b[1]));
        }
        fputc(']', f);
        break;
    case SCENE_CIRCLE:
        fprintf(f, "{\"kind\": \"circle\", \"x\": %s, \"y\": %s, \"r\": %s", scene_num(it->x, b[0]),
                scene_num(it->y, b[1]), scene_num(it->r, b[2]));
        break;
    case SCENE_RECT:
        fprintf(f, "{\"kind\": \"rect\", \"x\": %s, \"y\": %s, \"w\": %s, \"h\": %s, \"r\": %s",
                scene_num(it->x, b[0]), scene_num(it->y, b[1]), scene_num(it->w, b[2]),
                scene_num(it->h, b[3]), scene_num(it->r, b[4]));
        break;
    case SCENE_TEXT:
        fprintf(f, "{\"kind\": \"text\", \"x\": %s, \"y\": %s, \"size\": %s, \"anchor\": \"%s\", "
                   "\"bold\": %d, \"text\": ",
                scene_num(it->x, b[0]), scene_num(it->y, b[1]), scene_num(it->h, b[2]),
                anchors[it->anchor], it->bold ? 1 : 0);
        put_string(f, it->text);
        break;
    }
    put_paint(f, it);
    fputc('}', f);
}

int scene_write_json(const scene *s, FILE *f)
{
    char bw[32], bh[32];
    fprintf(f, "{\"width\": %s, \"height\": %s", scene_num(s->width, bw), scene_num(s->height, bh));
    put_color(f, "background", s->background);
    fputs(", \"items\": [\n", f);
    for (size_t i = 0; i < s->nitems; i++) {
        put_item(f, s, &s->items[i]);
        fputs(i + 1 < s->nitems ? ",\n" : "\n", f);
    }
    fputs("]}\n", f);
    return ferror(f) ? -1 : 0;
}
