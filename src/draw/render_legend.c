/* render_legend.c - a whole figure: title, legend, panels side by side (render.h). */
#include <stdio.h>
#include <string.h>

#include "draw/render.h"
#include "draw/render_internal.h"

#define MARGIN 12.0
#define LEGEND_LINE 19.0
#define SWATCH_W 24.0
#define PANEL_GAP 30.0
#define PANEL_HEADER 40.0

typedef enum { SW_LINE, SW_CIRCLE, SW_RECT, SW_RAMP } swatch_kind;

typedef struct legend_entry {
    swatch_kind kind;
    uint32_t stroke, fill;
    double width, opacity;
    int dashed;
    char text[96];
} legend_entry;

typedef struct legend {
    legend_entry e[16];
    int n;
} legend;

static legend_entry *add(legend *lg, swatch_kind k, uint32_t stroke, uint32_t fill, const char *text)
{
    legend_entry *e = &lg->e[lg->n++];
    memset(e, 0, sizeof *e);
    e->kind = k;
    e->stroke = stroke;
    e->fill = fill;
    e->width = 2;
    e->opacity = 1;
    snprintf(e->text, sizeof e->text, "%s", text);
    return e;
}

static int has_loads(const draw_figure *f)
{
    return f->npanels > 0 && f->panels[0].loads;
}

static void build_legend(const draw_figure *f, legend *lg)
{
    const topology *t = f->t;
    int present[LINK__COUNT] = {0, 0, 0};
    for (int64_t i = 0; i < t->nlinks; i++)
        present[t->links[i].cls] = 1;
    static const char *names[LINK__COUNT] = {"host link", "local link", "global link"};
    lg->n = 0;
    if (has_loads(f)) {
        char max[32], text[96];
        draw_format_bytes(f->scale_max, max, sizeof max);
        snprintf(text, sizeof text, "bytes per link, 0 to %s (max link load)", max);
        add(lg, SW_RAMP, SCENE_NONE, SCENE_NONE, text);
    }
    for (int c = 0; c < LINK__COUNT; c++) {
        if (!present[c])
            continue;
        char text[64];
        snprintf(text, sizeof text, "%s%s", names[c], has_loads(f) ? ", no load" : "");
        legend_entry *e = add(lg, SW_LINE, CLASS_COLOR[c], SCENE_NONE, text);
        e->width = CLASS_WIDTH[c] + 0.4;
        e->opacity = has_loads(f) ? UNLOADED_OPACITY : 1;
    }
    if (t->faults && t->faults->nfailed)
        add(lg, SW_LINE, COLOR_FAILED, SCENE_NONE, "failed link")->dashed = 1;
    if (t->faults && t->faults->ndegraded)
        add(lg, SW_LINE, COLOR_MUTED, SCENE_NONE, "degraded link (its colour)")->dashed = 1;
    add(lg, SW_CIRCLE, COLOR_TEXT, 0xffffff, "host (its rank)");
    if (t->nswitches)
        add(lg, SW_RECT, COLOR_MUTED, COLOR_SWITCH_FILL, "switch");
    if (f->rank >= 0) {
        char text[96];
        snprintf(text, sizeof text, "rank %d", f->rank);
        add(lg, SW_CIRCLE, COLOR_HIGHLIGHT, COLOR_HIGHLIGHT, text);
        if (has_loads(f)) {
            snprintf(text, sizeof text, "its peers in the step");
            add(lg, SW_CIRCLE, COLOR_HIGHLIGHT, COLOR_PEER_FILL, text)->width = 2.5;
            snprintf(text, sizeof text, "routes of its messages");
            add(lg, SW_LINE, COLOR_HIGHLIGHT, SCENE_NONE, text)->dashed = 1;
        }
    }
}

static double entry_width(const legend_entry *e)
{
    return (e->kind == SW_RAMP ? 2 * SWATCH_W : SWATCH_W) + 6 +
           scene_text_width(e->text, LEGEND_SIZE) + 18;
}

/* Lines the legend needs at canvas width w. */
static int legend_lines(const legend *lg, double w)
{
    int lines = 1;
    double x = MARGIN;
    for (int i = 0; i < lg->n; i++) {
        double ew = entry_width(&lg->e[i]);
        if (x > MARGIN && x + ew > w - MARGIN) {
            lines++;
            x = MARGIN;
        }
        x += ew;
    }
    return lines;
}

static void put_swatch(scene *s, const legend_entry *e, double x, double y)
{
    scene_item *it;
    switch (e->kind) {
    case SW_LINE:
        it = scene_path(s);
        scene_move(s, x, y);
        scene_line(s, x + SWATCH_W, y);
        it->stroke = e->stroke;
        it->width = e->width;
        it->opacity = e->opacity;
        it->dashed = (uint8_t)e->dashed;
        break;
    case SW_CIRCLE:
        it = scene_circle(s, x + SWATCH_W / 2, y, 6);
        it->stroke = e->stroke;
        it->fill = e->fill;
        it->width = e->width > 2 ? e->width : 1.2;
        break;
    case SW_RECT:
        it = scene_rect(s, x + SWATCH_W / 2 - 6, y - 6, 12, 12, 2);
        it->stroke = e->stroke;
        it->fill = e->fill;
        break;
    case SW_RAMP:
        for (int k = 0; k < 6; k++) {
            it = scene_rect(s, x + k * SWATCH_W / 3, y - 5, SWATCH_W / 3, 10, 0);
            it->fill = draw_load_color(k + 1, 6);
            it->stroke = SCENE_NONE;
        }
        break;
    }
    it->cls = "legend";
}

static void put_legend(scene *s, const legend *lg, double w, double y0)
{
    double x = MARGIN, y = y0;
    for (int i = 0; i < lg->n; i++) {
        const legend_entry *e = &lg->e[i];
        double ew = entry_width(e);
        if (x > MARGIN && x + ew > w - MARGIN) {
            x = MARGIN;
            y += LEGEND_LINE;
        }
        put_swatch(s, e, x, y);
        double sw = e->kind == SW_RAMP ? 2 * SWATCH_W : SWATCH_W;
        scene_item *it = scene_text(s, x + sw + 6, y + LEGEND_SIZE * 0.36, LEGEND_SIZE,
                                    SCENE_START, e->text);
        it->fill = COLOR_TEXT;
        it->cls = "legend";
        x += ew;
    }
}

static double panel_width(const draw_figure *f, const draw_panel *p)
{
    double w = f->layout->width;
    double tw = BOLD_WIDER * scene_text_width(p->title, PANEL_TITLE_SIZE) + 16;
    double sw = scene_text_width(p->subtitle, LEGEND_SIZE) + 16;
    w = tw > w ? tw : w;
    return sw > w ? sw : w;
}

void draw_render(const draw_figure *f, scene *out)
{
    double pw[DRAW_MAX_PANELS], content = 0;
    for (int i = 0; i < f->npanels; i++) {
        pw[i] = panel_width(f, &f->panels[i]);
        content += pw[i] + (i ? PANEL_GAP : 0);
    }
    double width = content + 2 * MARGIN;
    double tw = BOLD_WIDER * scene_text_width(f->title, TITLE_SIZE) + 2 * MARGIN;
    width = tw > width ? tw : width;
    width = width < 380 ? 380 : width;
    legend lg;
    build_legend(f, &lg);
    double legend_y = MARGIN + TITLE_SIZE + 16;
    double header = legend_y + legend_lines(&lg, width) * LEGEND_LINE;
    scene_init(out, width, header + PANEL_HEADER + f->layout->height + MARGIN);
    scene_item *it = scene_text(out, MARGIN, MARGIN + TITLE_SIZE, TITLE_SIZE, SCENE_START, f->title);
    it->bold = 1;
    it->fill = COLOR_TEXT;
    it->cls = "title";
    put_legend(out, &lg, width, legend_y);
    double x = (width - content) / 2;
    for (int i = 0; i < f->npanels; i++) {
        const draw_panel *p = &f->panels[i];
        double cx = x + pw[i] / 2;
        if (i) {
            it = scene_path(out);
            scene_move(out, x - PANEL_GAP / 2, header);
            scene_line(out, x - PANEL_GAP / 2, out->height - MARGIN);
            it->stroke = COLOR_DECO_STROKE;
            it->cls = "separator";
        }
        it = scene_text(out, cx, header + PANEL_TITLE_SIZE, PANEL_TITLE_SIZE, SCENE_MIDDLE, p->title);
        it->bold = 1;
        it->fill = COLOR_TEXT;
        it->cls = "panel-title";
        it = scene_text(out, cx, header + PANEL_TITLE_SIZE + 17, LEGEND_SIZE, SCENE_MIDDLE, p->subtitle);
        it->fill = COLOR_MUTED;
        it->cls = "panel-subtitle";
        scene panel;
        scene_init(&panel, f->layout->width, f->layout->height);
        draw_render_panel(f, p, i ? "p1-" : "", &panel);
        scene_append(out, &panel, cx - f->layout->width / 2, header + PANEL_HEADER);
        scene_free(&panel);
        x += pw[i] + PANEL_GAP;
    }
}
