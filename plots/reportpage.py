# SPDX-License-Identifier: Apache-2.0
"""plots/reportpage.py: the page of plots/report.py: blocks in order (headings, paragraphs,
lists, tables, figures, code), rendered as Markdown (figures linked) and as one self-contained
HTML document (figures inlined: each SVG read with csvcheck.open_input, its XML prolog and
doctype removed)."""
import html
import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import csvcheck  # noqa: E402


class Page:
    """Blocks in order: ("h", level, text), ("p", text), ("list", [text]), ("table", head, rows),
    ("figure", title, path), ("code", [line]); rendered as Markdown and as HTML."""

    def __init__(self):
        self.blocks = []

    def add(self, *block):
        self.blocks.append(block)


def md_cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def render_md(page, md_dir):
    out = []
    for b in page.blocks:
        if b[0] == "h":
            out.append("#" * b[1] + " " + b[2])
        elif b[0] == "p":
            out.append(b[1])
        elif b[0] == "list":
            out.append("\n".join("- " + item for item in b[1]))
        elif b[0] == "table":
            out.append("| " + " | ".join(md_cell(h) for h in b[1]) + " |")
            out[-1] += "\n|" + "|".join("---" for _ in b[1]) + "|"
            for row in b[2]:
                out[-1] += "\n| " + " | ".join(md_cell(c) for c in row) + " |"
        elif b[0] == "figure":
            out.append("![%s](%s)" % (b[1], os.path.relpath(b[2], md_dir)))
        elif b[0] == "code":
            out.append("\n".join("    " + line for line in b[1]))
    return "\n\n".join(out) + "\n"


def inline_svg(path):
    """The SVG's markup without its XML prolog and doctype, to sit inside HTML; CsvError where it
    is no regular file of at most occcsv.MAX_INPUT_BYTES."""
    with csvcheck.open_input(path) as f:
        text = f.read().decode("utf-8", "replace")
    text = re.sub(r"<\?xml[^>]*\?>", "", text)
    return re.sub(r"<!DOCTYPE[^>]*(\[[^\]]*\])?>", "", text, flags=re.S).strip()


def render_html(page, title):
    e = html.escape
    out = ["<!DOCTYPE html>", "<html><head><meta charset=\"utf-8\"><title>%s</title>" % e(title),
           "<style>body{font-family:sans-serif;max-width:72em;margin:auto}"
           "table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:2px 6px;"
           "text-align:right}td:first-child,th:first-child{text-align:left}"
           "figure svg{max-width:100%;height:auto}</style></head><body>"]
    for b in page.blocks:
        if b[0] == "h":
            out.append("<h%d>%s</h%d>" % (b[1], e(b[2]), b[1]))
        elif b[0] == "p":
            out.append("<p>%s</p>" % e(b[1]))
        elif b[0] == "list":
            out.append("<ul>" + "".join("<li>%s</li>" % e(i) for i in b[1]) + "</ul>")
        elif b[0] == "table":
            rows = "".join("<tr>" + "".join("<td>%s</td>" % e(str(c)) for c in r) + "</tr>"
                           for r in b[2])
            out.append("<table><tr>" + "".join("<th>%s</th>" % e(h) for h in b[1]) + "</tr>" +
                       rows + "</table>")
        elif b[0] == "figure":
            out.append("<figure>%s<figcaption>%s</figcaption></figure>"
                       % (inline_svg(b[2]), e(b[1])))
        elif b[0] == "code":
            out.append("<pre>%s</pre>" % e("\n".join(b[1])))
    out.append("</body></html>")
    return "\n".join(out) + "\n"
