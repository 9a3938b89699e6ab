# SPDX-License-Identifier: Apache-2.0
"""tests/plots/svgfig.py: what a gnuplot 5.4 SVG figure draws, for the plot-content tests.

Figure(path) reads the svg terminal's output line by line and keeps:
  texts  every <text> string, in order
  ticks  (x, y, anchor, label) of each tick label (a text group right after a tick mark): the
         pixel where the tick mark meets the axis, the label's text-anchor, its text
  paths  {"title", "stroke", "width", "dash", "points"}: each drawn polyline (a path's run from
         one M to the next), under the title of
         its plot element (gnuplot_plot_N for untitled ones; key samples come under their
         entry's title too), its stroke colour, width (of the enclosing group), dash array
         ("" when solid) and its (x, y) pixel points
  marks  {"title", "pt", "x", "y", "scale", "color"}: each point symbol drawn (<use> of gpPtN)
Pixel y grows downwards, as in SVG.
"""
import re

_G_WIDTH = re.compile(r'<g [^>]*stroke-width="([0-9.]+)"')
_TITLE = re.compile(r"<title>([^<]*)</title>")
_PATH = re.compile(r"<path stroke='([^']*)'(?: stroke-dasharray='([^']*)')?\s+d='")
_USE = re.compile(r"<use xlink:href='#gpPt(\d+)' transform='translate\(([-0-9.]+),([-0-9.]+)\) "
                  r"scale\(([0-9.]+)\)' color='([^']*)'")
_TEXT_G = re.compile(r'<g transform="translate\(([-0-9.]+),([-0-9.]+)\)".*text-anchor="(\w+)"')
_TEXT = re.compile(r"<text>(.*)</text>")
_XY = re.compile(r"([ML])\s*([-0-9.]+),([-0-9.]+)")


def path_d(lines, i):
    """The d attribute of the <path> that starts on lines[i], joined across the lines gnuplot
    breaks it over: (d, the index of its last line)."""
    d = lines[i][lines[i].find("d='") + 3:]
    while "'" not in d and i + 1 < len(lines):
        i += 1
        d += " " + lines[i]
    return d.split("'")[0], i


class Figure:
    def __init__(self, path):
        self.texts, self.ticks, self.paths, self.marks = [], [], [], []
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        width, title, pending, after_tick = 0.0, "", None, None
        i = 0
        while i < len(lines):
            line = lines[i]
            m = _G_WIDTH.search(line)
            if m:
                width = float(m.group(1))
            m = _TITLE.search(line)
            if m:
                title = m.group(1)
            m = _PATH.search(line)
            if m:
                d, i = path_d(lines, i)
                pts = []
                for op, x, y in _XY.findall(d) + [("M", 0, 0)]:
                    if op == "M" and pts:
                        self.paths.append({"title": title, "stroke": m.group(1), "width": width,
                                           "dash": m.group(2) or "", "points": pts})
                        pts = []
                    pts.append((float(x), float(y)))
                last = self.paths[-1]["points"]
                after_tick = last[0] if m.group(1) == "black" and len(last) == 2 else None
                line = lines[i]  # a long path's last line may hold the next point symbol
            m = _USE.search(line)
            if m and "id='gpPt" not in line:
                self.marks.append({"title": title, "pt": int(m.group(1)), "x": float(m.group(2)),
                                   "y": float(m.group(3)), "scale": float(m.group(4)),
                                   "color": m.group(5)})
            m = _TEXT_G.search(line)
            if m:
                pending = (m.group(3), after_tick)
            m = _TEXT.search(line)
            if m:
                text = m.group(1).strip()
                self.texts.append(text)
                if pending is not None and pending[1] is not None:
                    self.ticks.append((pending[1][0], pending[1][1], pending[0], text))
                pending = None
            i += 1

    def tick_labels(self, anchor):
        """(pixel, label) of the tick labels of one kind: "middle" x axis, "end" left axis,
        "start" right axis; x pixels for the x axis, y pixels otherwise."""
        out = []
        for x, y, a, label in self.ticks:
            if a == anchor:
                out.append((x if anchor == "middle" else y, label))
        return out


def axis_map(ticks):
    """A function from pixel to value, from numeric tick labels (pixel, text) of a linear axis."""
    pts = [(p, float(t)) for p, t in ticks if re.fullmatch(r"-?[0-9.]+", t)]
    (p0, v0), (p1, v1) = pts[0], pts[-1]
    return lambda p: v0 + (p - p0) * (v1 - v0) / (p1 - p0)


_UNITS = {"B": 1, "KiB": 1024, "MiB": 1 << 20, "GiB": 1 << 30}


def bytes_of(label):
    """The bytes of a tick label like "64 KiB", or None."""
    m = re.fullmatch(r"([0-9.]+) (B|KiB|MiB|GiB)", label)
    return float(m.group(1)) * _UNITS[m.group(2)] if m else None
