# SPDX-License-Identifier: Apache-2.0
"""tests/plots/svglayout.py: where a gnuplot 5.4 SVG figure puts its texts and lines, for the
layout tests (tests/plots/test_plot_layout.py).

Layout(path) reads the svg terminal's output line by line and keeps:
  size    (width, height) of the canvas (the viewBox)
  areas   [(x0, y0, x1, y1)]: each plot area, the border rectangle gnuplot strokes around it
  texts   [Text]: every non-empty <text>, with its extent estimated from its font size
  lines   [((x0, y0), (x1, y1))]: every stroked segment of the figure but the grid, the borders
          and the tick marks (curves, roofs, markers, key samples)
  samples [(x0, y0, x1, y1, title)]: each key entry's sample, the first segment its titled plot
          element draws
  titles  the titles of the titled plot elements (the key's entries), in order
A Text has .text, .x, .y (its anchor, on the baseline), .size (font size, px), .anchor ("start",
"middle", "end"), .angle (degrees, clockwise as SVG rotates), .key (True for a key entry: the
text of a titled plot element, equal to its title), .tick (True for a tick label: the text group
right after a tick mark). Its extent is the text's line box in DejaVu Sans, the font sans-serif
resolves to where the figures are drawn: advance widths per character from the font's metrics
(WIDTH_EM), ASCENT_EM above the baseline and DESCENT_EM below. Pixel y grows downwards.
"""
import html
import math
import re

import svgfig

ASCENT_EM, DESCENT_EM = 0.928, 0.236
# DejaVu Sans advance widths in em (units per em 2048), by character; DEFAULT_EM for the rest.
WIDTH_EM = {}
for _chars, _em in ((" .,·'|", 0.318), ("ijl", 0.278), (":;", 0.337), ("!", 0.4),
                    ("/", 0.337), ("()[]", 0.390), ("f", 0.352), ("t", 0.392), ("r", 0.411),
                    ("-", 0.361), ("IJ", 0.295), ("⁰¹²³⁴⁵⁶⁷⁸⁹", 0.401), ("s", 0.521),
                    ("cz", 0.550), ("kvxy", 0.592), ("L", 0.557), ("F", 0.575),
                    ("0123456789abdeghnopqu_#$?", 0.636), ("EPTYZ", 0.632), ("w", 0.818),
                    ("ABKRSVX", 0.684), ("CGNOQUHD", 0.770), ("m", 0.974), ("M", 0.863),
                    ("W", 0.989), ("%", 0.950), ("×=+~<>", 0.838), ("…", 1.0), ("µ", 0.636)):
    for _c in _chars:
        WIDTH_EM[_c] = _em
DEFAULT_EM = 0.636

_VIEW = re.compile(r'viewBox="0 0 ([0-9.]+) ([0-9.]+)"')
_PLOT = re.compile(r'<g id="gnuplot_plot_\w+" ><title>([^<]*)</title>')
_TEXT_G = re.compile(r'<g transform="translate\(([-0-9.]+),([-0-9.]+)\)(?: rotate\(([-0-9.]+)\))?"'
                     r'.*font-size="([0-9.]+)".*text-anchor="(\w+)"')
_TEXT = re.compile(r"<text>(.*)</text>")
_PATH = re.compile(r"<path stroke='([^']*)'(?: stroke-dasharray='[^']*')?\s+(class=\"(\w+)\"\s+)?"
                   r"d='")
_XY = re.compile(r"([ML])\s*([-0-9.]+),([-0-9.]+)")


def text_width(text, size):
    """The advance width in px of text at font size px."""
    return size * sum(WIDTH_EM.get(c, DEFAULT_EM) for c in text)


class Text:
    def __init__(self, text, x, y, size, anchor, angle, key, tick):
        self.text, self.x, self.y, self.size = text, x, y, size
        self.anchor, self.angle, self.key, self.tick = anchor, angle, key, tick
        w = text_width(text, size)
        u0 = 0.0 if anchor == "start" else -w if anchor == "end" else -w / 2
        # The box in the text's own frame: u along the baseline, v downwards.
        self.local = (u0, -ASCENT_EM * size, u0 + w, DESCENT_EM * size)

    def to_local(self, px, py):
        a = math.radians(self.angle)
        dx, dy = px - self.x, py - self.y
        return dx * math.cos(a) + dy * math.sin(a), -dx * math.sin(a) + dy * math.cos(a)

    def corners(self):
        """The box's four corners in pixels."""
        a = math.radians(self.angle)
        u0, v0, u1, v1 = self.local
        return [(self.x + u * math.cos(a) - v * math.sin(a), self.y + u * math.sin(a) + v * math.cos(a))
                for u, v in ((u0, v0), (u1, v0), (u1, v1), (u0, v1))]

    def bbox(self):
        """The axis-aligned box (x0, y0, x1, y1) around the text."""
        xs, ys = zip(*self.corners())
        return min(xs), min(ys), max(xs), max(ys)

    def crosses(self, p, q):
        """Whether the segment p-q passes through the text's box."""
        (u0, v0), (u1, v1) = self.to_local(*p), self.to_local(*q)
        return segment_hits_box(u0, v0, u1, v1, self.local)

    def overlaps(self, other):
        """Whether the two texts' boxes share area (separating axes of both boxes)."""
        for t, o in ((self, other), (other, self)):
            pts = [t.to_local(*c) for c in o.corners()]
            u0, v0, u1, v1 = t.local
            if (max(u for u, _ in pts) <= u0 or min(u for u, _ in pts) >= u1 or
                    max(v for _, v in pts) <= v0 or min(v for _, v in pts) >= v1):
                return False
        return True

    def __repr__(self):
        return "%r at (%.0f, %.0f)" % (self.text, self.x, self.y)


def segment_hits_box(x0, y0, x1, y1, box):
    """Whether the segment (x0, y0)-(x1, y1) meets the open box (bx0, by0, bx1, by1)
    (Liang-Barsky clipping)."""
    bx0, by0, bx1, by1 = box
    t0, t1 = 0.0, 1.0
    dx, dy = x1 - x0, y1 - y0
    for p, q in ((-dx, x0 - bx0), (dx, bx1 - x0), (-dy, y0 - by0), (dy, by1 - y0)):
        if p == 0:
            if q <= 0:
                return False
        else:
            t = q / p
            if p < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
    return t0 < t1


class Layout:
    def __init__(self, path):
        self.size, self.areas, self.texts, self.lines, self.samples = (0, 0), [], [], [], []
        self.titles = []
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        title, pending, after_tick, want_sample = "", None, False, False
        i = 0
        while i < len(lines):
            line = lines[i]
            m = _VIEW.search(line)
            if m:
                self.size = (float(m.group(1)), float(m.group(2)))
            m = _PLOT.search(line)
            if m:
                title, want_sample = html.unescape(m.group(1)), True
                if not title.startswith("gnuplot_plot_") and title not in self.titles:
                    self.titles.append(title)
            m = _PATH.search(line)
            if m:
                d, i = svgfig.path_d(lines, i)
                titled = want_sample and not title.startswith("gnuplot_plot_")
                after_tick = self.add_path(m.group(1), m.group(3), d, title if titled else "")
                if want_sample and self.samples and self.samples[-1][4] == title:
                    want_sample = False
            m = _TEXT_G.search(line)
            if m:
                pending = (float(m.group(1)), float(m.group(2)), float(m.group(3) or 0),
                           float(m.group(4)), m.group(5), after_tick)
            m = _TEXT.search(line)
            if m and pending is not None:
                text = html.unescape(m.group(1)).strip()
                x, y, angle, size, anchor, tick = pending
                if text:
                    self.texts.append(Text(text, x, y, size, anchor, angle,
                                           key=bool(title) and text == title, tick=tick))
                pending, after_tick = None, False
            i += 1

    def add_path(self, stroke, cls, d, sample_title):
        """Keeps a path's segments; True when it is a tick mark (a black two-point segment from
        a plot area's edge outwards)."""
        pts, runs = [], []
        for op, x, y in _XY.findall(d):
            if op == "M" and pts:
                runs.append(pts)
                pts = []
            pts.append((float(x), float(y)))
        runs.append(pts)
        closed = "Z" in d
        if stroke == "black" and closed and len(runs) == 1 and len(runs[0]) == 5:
            xs, ys = zip(*runs[0])
            self.areas.append((min(xs), min(ys), max(xs), max(ys)))
            return False
        if cls == "gridline" or stroke in ("none", "rgb(217, 217, 217)"):
            return False
        tick = stroke == "black" and len(runs) == 1 and len(runs[0]) == 2 and self.on_edge(runs[0])
        if tick:
            return True
        for k, run in enumerate(runs):
            if sample_title and k == 0 and len(run) >= 2 and not self.inside_area(run[0]):
                (x0, y0), (x1, y1) = run[0], run[1]
                self.samples.append((min(x0, x1), min(y0, y1) - 3, max(x0, x1), max(y0, y1) + 3,
                                     sample_title))
                continue
            self.lines.extend(zip(run, run[1:]))
        return False

    def on_edge(self, seg):
        """Whether one end of a segment lies on a plot area's edge."""
        for x0, y0, x1, y1 in self.areas:
            for x, y in seg:
                if ((abs(x - x0) < 0.5 or abs(x - x1) < 0.5) and y0 - 0.5 <= y <= y1 + 0.5 or
                        (abs(y - y0) < 0.5 or abs(y - y1) < 0.5) and x0 - 0.5 <= x <= x1 + 0.5):
                    return True
        return False

    def inside_area(self, pt):
        return any(x0 < pt[0] < x1 and y0 < pt[1] < y1 for x0, y0, x1, y1 in self.areas)

    # The checks: each returns a list of what is wrong, in words (empty: none).

    def off_canvas(self):
        """The texts whose box leaves the canvas."""
        w, h = self.size
        return ["%r leaves the canvas" % t for t in self.texts
                if min(t.bbox()[:2]) < 0 or t.bbox()[2] > w or t.bbox()[3] > h]

    def keys_missing(self):
        """The titled plot elements that have no key entry (text) in the figure."""
        keyed = {t.text for t in self.texts if t.key}
        return ["no key entry for %r" % t for t in self.titles if t not in keyed]

    def keys_in_areas(self):
        """The key entries (text or sample) that overlap a plot area."""
        out = []
        boxes = [(t.bbox(), repr(t)) for t in self.texts if t.key]
        boxes += [(s[:4], "the sample of %r" % s[4]) for s in self.samples]
        for box, what in boxes:
            if any(box[0] < a[2] and a[0] < box[2] and box[1] < a[3] and a[1] < box[3]
                   for a in self.areas):
                out.append("key entry %s overlaps a plot area" % what)
        return out

    def text_collisions(self):
        """The pairs of texts whose boxes overlap."""
        out = []
        for i, a in enumerate(self.texts):
            for b in self.texts[i + 1:]:
                if a.overlaps(b):
                    out.append("%r overlaps %r" % (a, b))
        return out

    def labels_on_lines(self):
        """The texts inside a plot area (labels; tick labels and key entries are not) whose box a
        drawn line crosses."""
        out = []
        for t in self.texts:
            if t.key or t.tick or not self.inside_area((t.x, t.y)):
                continue
            for p, q in self.lines:
                if t.crosses(p, q):
                    out.append("%r is crossed by the line (%.0f, %.0f)-(%.0f, %.0f)"
                               % (t, p[0], p[1], q[0], q[1]))
                    break
        return out
