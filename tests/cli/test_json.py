#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/cli/test_json.py OCCSWEEP: --json FILE, the machine-readable summary of a run's CSV
(harness/report/summary_json.h), checked against the CSV it describes (no GPU).

On a fake device's sweep (OCC_FAKE_DEVICES, with skip rows), on the two real H200 runs of
tests/data and on a fixture given hostile metadata, `--recompute CSV --json FILE --out MD` must
write JSON that json.load takes, describing exactly the CSV read with plots/occcsv.py: its path, its
metadata (git revision and command included), its status counts, every (variant, block) of its rows
and only those (the load levels under "load_levels", the others under "variants"), a knee flagged
measured_at_lowest_level exactly when it is the variant's lowest level, each plateau the best figure
of that variant's ok rows (GB/s, else GFLOP/s) at the lowest occupancy reaching it, the knees the
knee report MD prints, agreement counts within their point counts and summing to the top-level ones;
strings escaped (quote, backslash, control characters; UTF-8 through, a stray byte as U+FFFD). Each
check is shown to fail on a copy of a summary with one thing wrong. Hostile paths: --json into a
missing directory, onto the CSV (read or written), the --out report, the knee report beside the CSV,
a directory, an existing file without --force, through a symlink, with --dry-run: each a one-line
refusal with exit 2 and nothing written. Prints a FAIL line per failed check; exit 0 when none
failed."""
import copy
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

BIN = sys.argv[1]
ROOT = os.environ.get("OCC_SOURCE_ROOT", os.path.abspath(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")))
sys.path.insert(0, os.path.join(ROOT, "plots"))
sys.dont_write_bytecode = True
import occcsv  # noqa: E402

TMP = tempfile.mkdtemp()
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what)


def run(*args, env=None):
    p = subprocess.run([BIN, *args], capture_output=True, text=True,
                       env={**os.environ, **(env or {})})
    return p.returncode, p.stdout, p.stderr


def num(text):
    """A CSV number as a float, None for NaN or an infinity (JSON's null)."""
    v = occcsv.number(text)
    return v if math.isfinite(v) else None


def groups_of(t):
    """{(variant, block): [rows]} of t in order of first appearance."""
    g = {}
    for r in t.rows:
        g.setdefault((t.field(r, "variant"), int(t.field(r, "block_threads"))), []).append(r)
    return g


def expected_plateau(t, rows, column):
    """(best, occupancy at it) of column over the ok rows (ties: lowest occupancy), or None."""
    pts = [(num(t.field(r, column)), num(t.field(r, "occ_achieved_pct"))) for r in rows
           if t.field(r, "status") == "ok"]
    pts = [(v, o) for v, o in pts if v is not None]
    if not pts:
        return None
    best = max(v for v, _ in pts)
    occs = [o for v, o in pts if v == best and o is not None]
    return best, min(occs) if occs else None


def plateau_problems(t, key, v, rows):
    gb, gf = expected_plateau(t, rows, "gbps_median"), expected_plateau(t, rows, "gflops_median")
    want = [("plateau", gb or gf, "GB/s" if gb else "GFLOP/s")]
    if gb and gf:
        want.append(("plateau_gflops", gf, "GFLOP/s"))
    out = []
    for name, exp, unit in want:
        got = v.get(name)
        if exp is None:
            if got is not None:
                out.append(f"{key}: {name} {got}, but no ok row has a figure")
        elif got is None or got.get("value") != exp[0] or got.get("unit") != unit or \
                got.get("occ_achieved_pct") != exp[1]:
            out.append(f"{key}: {name} {got}, expected {exp[0]} {unit} at {exp[1]} %")
    if not (gb and gf) and "plateau_gflops" in v:
        out.append(f"{key}: plateau_gflops without both figures")
    return out


def md_knees(md):
    """{variant: (measured, predicted)} texts of the knee report's two tables."""
    knees = {}
    with open(md, encoding="utf-8") as f:
        for line in f:
            if line.startswith("| variant |"):
                head = [c.strip() for c in line.strip().strip("|").split("|")]
                im, ip = head.index("knee occ % measured"), head.index("knee occ % predicted")
                ib = head.index("block") if "block" in head else None
            elif line.startswith("| `"):
                c = [x.strip() for x in line.strip().strip("|").split("|")]
                block = int(c[ib]) if ib is not None else None
                knees[(c[0].strip("`"), block)] = (c[im], c[ip])
    return knees


def pct_text(v, at_lowest=False):
    if v is None:
        return "-"
    return "<=%.2f (lowest level run)" % v if at_lowest else "%.2f" % v


def knee_problems(doc, md):
    out, knees = [], md_knees(md)
    for v in doc["variants"]:
        k = knees.get((v["variant"], v["block_threads"]), knees.get((v["variant"], None)))
        got = v.get("knee")
        if k is None and got is not None:
            out.append(f"{v['variant']}: a knee the report does not have")
        elif k is not None and (got is None or
                                (pct_text(got["measured_occ_pct"],
                                          got["measured_at_lowest_level"]),
                                 pct_text(got["predicted_occ_pct"])) != k):
            out.append(f"{v['variant']}: knee {got}, the report says {k}")
    return out


def agreement_problems(doc):
    out, points, within = [], 0, 0
    for v in doc["variants"]:
        a = v.get("agreement")
        if a is None:
            continue
        if not 0 <= a["points_within"] <= a["points"]:
            out.append(f"{v['variant']}: {a['points_within']} of {a['points']} points within")
        if a["natural"]:
            points, within = points + a["points"], within + a["points_within"]
    top = doc["agreement"]
    if top is not None:
        if (top["points"], top["points_within"]) != (points, within):
            out.append(f"agreement {top}, the natural variants sum to {within} of {points}")
        if not 0 <= top["knees_within_one_level"] <= top["knees"]:
            out.append(f"agreement {top}: more knees within than knees")
        if top["within_pct"] != 10:
            out.append(f"agreement within {top['within_pct']} %, not 10")
    return out


def lowest_problems(t, key, v, rows):
    """A measured knee flagged at the lowest level exactly when it is the lowest occupancy of the
    variant's ok rows with a figure (GB/s for the Little's-law knee)."""
    k = v.get("knee")
    if k is None or k["model"] != "littles_law":
        return []
    occ = [num(t.field(r, "occ_achieved_pct")) for r in rows if t.field(r, "status") == "ok"
           and num(t.field(r, "gbps_median")) is not None]
    lowest = min(occ) if occ else None
    want = k["measured_occ_pct"] is not None and k["measured_occ_pct"] == lowest
    if k.get("measured_at_lowest_level") is not want:
        return [f"{key}: measured_at_lowest_level {k.get('measured_at_lowest_level')}, "
                f"expected {want} (lowest level {lowest}%)"]
    return []


def problems(doc, csv_path, md=None):
    """What doc gets wrong about the CSV at csv_path (and the knee report md)."""
    t, out = occcsv.read(csv_path), []
    if doc.get("csv_path") != csv_path:
        out.append(f"csv_path {doc.get('csv_path')!r}, not {csv_path!r}")
    meta = {}
    for k, v in t.meta:
        meta[k] = v
    if doc["metadata"] != meta:
        out.append("metadata differs from the CSV's")
    for key in ("git_rev", "command"):
        if doc["metadata"].get(key) != t.meta_get(key):
            out.append(f"metadata {key} {doc['metadata'].get(key)!r}, the CSV {t.meta_get(key)!r}")
    st = [t.field(r, "status") for r in t.rows]
    ok, skip = st.count("ok"), sum(s.startswith("skip") for s in st)
    fail = sum(s.startswith("fail") for s in st)
    want = {"rows": len(st), "ok": ok, "skip": skip, "fail": fail,
            "other": len(st) - ok - skip - fail}
    if doc["status_counts"] != want:
        out.append(f"status_counts {doc['status_counts']}, expected {want}")
    g = groups_of(t)
    level = {k: t.field(rows[0], "kernel") == "chase" and t.field(rows[0], "mode") == "loaded"
             for k, rows in g.items()}
    for name, want in (("variants", False), ("load_levels", True)):
        keys = [(v["variant"], v["block_threads"]) for v in doc[name]]
        exp = [k for k in g if level[k] == want]
        if keys != exp:
            out.append(f"{name} {sorted(set(keys) ^ set(exp))[:4]} in one of JSON and CSV only "
                       f"(or out of order, or twice)")
    for v in doc["variants"] + doc["load_levels"]:
        key = (v["variant"], v["block_threads"])
        rows = g.get(key, [])
        n_ok = sum(t.field(r, "status") == "ok" for r in rows)
        if (v["rows"], v["rows_ok"]) != (len(rows), n_ok):
            out.append(f"{key}: rows {v['rows']}, ok {v['rows_ok']}; the CSV {len(rows)}, {n_ok}")
        if rows and v["unroll"] != (int(t.field(rows[0], "unroll")) or None):
            out.append(f"{key}: unroll {v['unroll']}")
        if rows and v["vec_bytes"] != (int(t.field(rows[0], "vec_bytes")) or None):
            out.append(f"{key}: vec_bytes {v['vec_bytes']}")
        out += plateau_problems(t, key, v, rows)
        out += lowest_problems(t, key, v, rows)
    out += agreement_problems(doc)
    if md is not None:
        out += knee_problems(doc, md)
    return out


def summarize(csv_path, name, *extra):
    """--recompute csv_path --json <name>.json --out <name>.md: (doc, md path) or (None, md)."""
    js, md = os.path.join(TMP, name + ".json"), os.path.join(TMP, name + ".md")
    rc, _, err = run("--recompute", csv_path, "--json", js, "--out", md, *extra)
    check(rc == 0, f"{name}: --recompute --json: exit {rc}: {err.strip()}")
    try:
        with open(js, encoding="utf-8") as f:
            return json.load(f), md
    except (OSError, ValueError) as e:
        check(False, f"{name}: the summary does not load: {e}")
        return None, md


def mutations(doc):
    """(what is wrong, a copy of doc with it wrong): each must be found."""
    def with_(what, fn):
        d = copy.deepcopy(doc)
        fn(d)
        return what, d
    v0 = next(i for i, v in enumerate(doc["variants"]) if v.get("plateau"))
    k0 = next((i for i, v in enumerate(doc["variants"]) if v.get("knee")), None)
    a0 = next((i for i, v in enumerate(doc["variants"]) if v.get("agreement")), None)
    out = [
        with_("a variant left out", lambda d: d["variants"].pop()),
        with_("a variant among the load levels", lambda d: d["load_levels"].append(
            d["variants"].pop())),
        with_("a variant added", lambda d: d["variants"].append(
            {**d["variants"][0], "variant": "no_such_u1"})),
        with_("a plateau off", lambda d: d["variants"][v0]["plateau"].update(
            value=d["variants"][v0]["plateau"]["value"] * 1.000001)),
        with_("a plateau's unit", lambda d: d["variants"][v0]["plateau"].update(unit="GB")),
        with_("a plateau's occupancy", lambda d: d["variants"][v0]["plateau"].update(
            occ_achieved_pct=-1)),
        with_("the git revision", lambda d: d["metadata"].update(git_rev="0" * 40)),
        with_("the command", lambda d: d["metadata"].update(command="./run_sweep")),
        with_("the CSV path", lambda d: d.update(csv_path="other.csv")),
        with_("an ok count", lambda d: d["status_counts"].update(ok=d["status_counts"]["ok"] + 1)),
    ]
    if k0 is not None:
        out.append(with_("a knee", lambda d: d["variants"][k0]["knee"].update(
            measured_occ_pct=(d["variants"][k0]["knee"]["measured_occ_pct"] or 0) + 6.25)))
        out.append(with_("a knee's lowest-level flag", lambda d: d["variants"][k0]["knee"].update(
            measured_at_lowest_level=not d["variants"][k0]["knee"]["measured_at_lowest_level"])))
    if a0 is not None:
        out.append(with_("points within above points", lambda d: d["variants"][a0]["agreement"]
                         .update(points_within=d["variants"][a0]["agreement"]["points"] + 1)))
    return out


def check_run(name, csv_path, want_knees):
    doc, md = summarize(csv_path, name)
    if doc is None:
        return
    found = problems(doc, csv_path, md)
    check(not found, f"{name}: {found[:5]}")
    check(any(v.get("knee") for v in doc["variants"]) == want_knees,
          f"{name}: knees {'missing' if want_knees else 'where none is expected'}")
    for what, bad in mutations(doc):
        check(problems(bad, csv_path, md), f"{name}: the checks miss {what}")


def fake_sweep():
    csv_path = os.path.join(TMP, "fake.csv")
    rc, _, err = run("--dry-run", "--out", csv_path, env={"OCC_FAKE_DEVICES": "sm_90"})
    check(rc == 0, f"fake sweep: exit {rc}: {err.strip()}")
    t = occcsv.read(csv_path)
    check(any(t.field(r, "status").startswith("skip") for r in t.rows), "fake sweep: no skip row")
    check_run("fake", csv_path, True)


def hostile_metadata():
    """The quoted fixture with model inputs and metadata no string may carry unescaped."""
    note = 'tab\there "quoted" back\\slash \x01\x1f\x7f caf\u00e9 \u4e2d \U0001F600'
    raw = note.encode("utf-8").replace(b"\\", b"\\\\") + b" stray \xff\xc3( end\\nline 2"
    src = os.path.join(ROOT, "tests", "fixtures", "reduce-quoted-synthetic.csv")
    path = os.path.join(TMP, "hostile.csv")
    with open(src, "rb") as f:
        body = f.read()
    with open(path, "wb") as f:
        f.write(b"# dram_latency_ns=600.0\n# note=" + raw + b"\n" + body)
    doc, _ = summarize(path, "hostile")
    if doc is None:
        return
    want = note + " stray \ufffd\ufffd( end\nline 2"
    check(doc["metadata"].get("note") == want,
          f"hostile: note {doc['metadata'].get('note')!r}, expected {want!r}")
    check(doc["metadata"].get("gpu_name") == 'Synthetic GPU "Q", rev. 2\nsecond line',
          f"hostile: gpu_name {doc['metadata'].get('gpu_name')!r}")
    check(doc["metadata"].get("command") == "./run_sweep --kernel reduce --note 'C:\\tmp\\new' "
          "(synthetic)", f"hostile: command {doc['metadata'].get('command')!r}")
    with open(os.path.join(TMP, "hostile.json"), "rb") as f:
        text = f.read()
    check(all(b >= 0x20 for b in text.replace(b"\n", b"")),
          "hostile: a raw control character in the JSON")
    check(b"NaN" not in text and b"Infinity" not in text, "hostile: a non-finite number")


def refused(what, args, paths, env=None):
    """args must exit 2 with one line on stderr naming --json, and create none of paths."""
    before = set(os.listdir(TMP))
    rc, _, err = run(*args, env=env)
    lines = err.strip().splitlines()
    check(rc == 2, f"{what}: exit {rc}, expected 2: {err.strip()}")
    check(len(lines) == 1 and lines[0].startswith("occsweep: ") and "--json" in lines[0],
          f"{what}: stderr is not one line naming --json: {err.strip()!r}")
    for p in paths:
        check(not os.path.lexists(p), f"{what}: {p} was written")
    check(set(os.listdir(TMP)) <= before, f"{what}: wrote {sorted(set(os.listdir(TMP)) - before)}")


def hostile_paths():
    # A copy: a refusal that failed would replace the file read.
    src = os.path.join(TMP, "src.csv")
    shutil.copyfile(os.path.join(ROOT, "tests", "data", "h200-reduce-mission-3aa2b51.csv"), src)
    with open(src, "rb") as f:
        src_bytes = f.read()
    j, md, csv_out = (os.path.join(TMP, n) for n in ("h.json", "h.md", "h.csv"))
    missing = os.path.join(TMP, "missing", "x.json")
    refused("--recompute, --json in a missing directory",
            ["--recompute", src, "--json", missing, "--out", md], [missing, md])
    refused("--recompute, --json onto the CSV read", ["--recompute", src, "--json", src, "--force"],
            [])
    refused("--recompute, --json onto --out", ["--recompute", src, "--json", md, "--out", md],
            [md])
    refused("--recompute, --json a directory", ["--recompute", src, "--json", TMP], [])
    # A run refuses before it opens a device (this machine may have none: that would be exit 3).
    small = ["--kernel", "copy", "--unroll", "1", "--vec", "4", "--occ", "100"]
    refused("a run, --json in a missing directory",
            small + ["--out", csv_out, "--json", missing], [csv_out, missing])
    refused("a run, --json onto the --out CSV", small + ["--out", csv_out, "--json", csv_out],
            [csv_out])
    refused("a run, --json onto the CSV's knee report",
            small + ["--out", csv_out, "--json", os.path.join(TMP, "h-knee.md")],
            [csv_out, os.path.join(TMP, "h-knee.md")])
    refused("a fake dry run with --json", ["--dry-run", "--out", csv_out, "--json", j],
            [csv_out, j], env={"OCC_FAKE_DEVICES": "sm_90"})
    with open(j, "w") as f:
        f.write("kept\n")
    refused("--recompute, --json onto an existing file", ["--recompute", src, "--json", j], [])
    with open(j) as f:
        check(f.read() == "kept\n", "an existing --json file changed without --force")
    target, link = os.path.join(TMP, "target.txt"), os.path.join(TMP, "link.json")
    with open(target, "w") as f:
        f.write("target\n")
    os.symlink(target, link)
    rc, _, err = run("--recompute", src, "--json", link, "--force")
    check(rc == 0, f"--json through a symlink with --force: exit {rc}: {err.strip()}")
    with open(target) as f:
        check(f.read() == "target\n", "--json wrote through a symlink")
    check(os.path.isfile(link) and not os.path.islink(link), "--json did not replace the link")
    check(not [n for n in os.listdir(TMP) if ".tmp-" in n], "a temporary file was left")
    with open(src, "rb") as f:
        check(f.read() == src_bytes, "the CSV read changed")


def main():
    fake_sweep()
    check_run("reduce", os.path.join(ROOT, "tests", "data", "h200-reduce-mission-3aa2b51.csv"),
              True)
    check_run("smem", os.path.join(ROOT, "tests", "data", "h200-smem-chase-20105b5.csv"), True)
    hostile_metadata()
    hostile_paths()
    print(f"{len(failures)} failed" if failures else "all passed")
    sys.exit(1 if failures else 0)


main()
