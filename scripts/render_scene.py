#!/usr/bin/python3
"""render_scene.py - renders a collsim draw scene (JSON) to PNG with matplotlib.

`collsim draw --out x.png` writes the picture's scene as JSON (src/draw/scene_json.c
documents the format) and runs this script on it:

    scripts/render_scene.py scene.json out.png

One scene pixel is one PNG pixel (100 dpi, line widths and font sizes converted from
pixels to points), up to MAX_PX pixels a side: a larger scene (a whole LUMI is 42,000
pixels wide) is scaled down to fit, so that the PNG stays readable on a screen and takes
seconds and a few hundred MB instead of minutes and gigabytes (a note on stderr says so). The PNG carries no time stamp or version, so the same scene gives the
same file. Needs python3-matplotlib (scripts/setup-deps.sh installs it).
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Circle, FancyBboxPatch, PathPatch  # noqa: E402
from matplotlib.path import Path  # noqa: E402

DPI = 100.0
MAX_PX = 4096
PT_PER_PX = 72.0 / DPI
CODES = {"M": Path.MOVETO, "L": Path.LINETO}


def paint(item):
    """matplotlib keyword arguments for an item's stroke, fill, opacity and dash."""
    stroke, fill = item.get("stroke"), item.get("fill")
    return {
        "edgecolor": stroke if stroke else "none",
        "facecolor": fill if fill else "none",
        "linewidth": item.get("width", 1) * PT_PER_PX if stroke else 0,
        "alpha": item.get("opacity", 1),
        "linestyle": (0, (4, 3)) if item.get("dashed") else "solid",
    }


def path_patch(item):
    verts, codes = [], []
    for seg in item["segs"]:
        if seg[0] == "Q":  # quadratic Bezier: control point, end point
            verts += [(seg[1], seg[2]), (seg[3], seg[4])]
            codes += [Path.CURVE3, Path.CURVE3]
        else:
            verts.append((seg[1], seg[2]))
            codes.append(CODES[seg[0]])
    kw = paint(item)
    kw["facecolor"] = "none"  # scene paths are strokes only
    kw["capstyle"] = "round"
    kw["joinstyle"] = "round"
    return PathPatch(Path(verts, codes), **kw)


def draw_item(ax, item):
    kind = item["kind"]
    if kind == "path":
        ax.add_patch(path_patch(item))
    elif kind == "circle":
        ax.add_patch(Circle((item["x"], item["y"]), item["r"], **paint(item)))
    elif kind == "rect":
        box = "round,pad=0,rounding_size=%g" % item["r"] if item["r"] > 0 else "square,pad=0"
        ax.add_patch(FancyBboxPatch((item["x"], item["y"]), item["w"], item["h"],
                                    boxstyle=box, **paint(item)))
    elif kind == "text":
        ax.text(item["x"], item["y"], item["text"], ha={"start": "left", "middle": "center",
                                                        "end": "right"}[item["anchor"]],
                va="baseline", fontsize=item["size"] * PT_PER_PX,
                fontweight="bold" if item["bold"] else "normal",
                color=item.get("fill") or "#000000", alpha=item.get("opacity", 1),
                family="DejaVu Sans")


def render(scene, out):
    w, h = scene["width"], scene["height"]
    fig = plt.figure(figsize=(w / DPI, h / DPI), dpi=DPI)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, w)
    ax.set_ylim(h, 0)  # y down, as in SVG
    ax.set_axis_off()
    bg = scene.get("background")
    fig.patch.set_facecolor(bg if bg else "none")
    for item in scene["items"]:
        draw_item(ax, item)
    scale = min(1.0, MAX_PX / max(w, h, 1))
    if scale < 1:
        sys.stderr.write("render_scene.py: the %dx%d-pixel scene is drawn at %dx%d pixels "
                         "(at most %d a side)\n" % (w, h, w * scale, h * scale, MAX_PX))
    fig.savefig(out, dpi=DPI * scale, transparent=bg is None, metadata={"Software": None})
    plt.close(fig)


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: render_scene.py SCENE.json OUT.png\n")
        return 2
    with open(argv[1], encoding="utf-8") as f:
        scene = json.load(f)
    render(scene, argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
