#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/cli/test_json_doc.py OCCSWEEP: docs/json.md, the --json schema's documentation, against
the program and harness/report/summary_json.h, so that the three cannot drift apart (no GPU).

Summaries are written with `--recompute CSV --json FILE` of the runs in tests/data (a reduce
sweep: the Little's-law knees, the load levels; an smem run: the chain knees) and of the mixed
fixture given model inputs (a variant with both GB/s and GFLOP/s: plateau_gflops). Then:
  - every key of every summary (the metadata's own keys aside: they are the CSV's) is a key of
    one of json.md's tables (the backquoted names of a table's first column);
  - every key of json.md's tables is in some summary, and is named in quotes in the header's
    description of the document;
  - the schema: OCC_SUMMARY_JSON_SCHEMA of the header, the `schema` row of json.md and the
    summaries' "schema" are one string.
Prints a FAIL line per failed check; exit 0 when none failed."""
import json
import os
import re
import subprocess
import sys
import tempfile

BIN = sys.argv[1]
ROOT = os.environ.get("OCC_SOURCE_ROOT", os.path.abspath(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")))
DOC = os.path.join(ROOT, "docs", "json.md")
HEADER = os.path.join(ROOT, "harness", "report", "summary_json.h")
TMP = tempfile.mkdtemp()
PROBLEMS = []  # one line per failed check


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def summary(csv_path, name):
    out = os.path.join(TMP, name + ".json")
    p = subprocess.run([BIN, "--recompute", csv_path, "--json", out], capture_output=True,
                       text=True)
    if p.returncode != 0:
        PROBLEMS.append("%s: --recompute --json: exit %d: %s" % (name, p.returncode,
                                                                 p.stderr.strip()))
    try:
        with open(out, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        PROBLEMS.append("%s: no summary: %s" % (name, e))
        return {}


def keys_of(node, out):
    """Every key of node's objects, the metadata's own keys aside."""
    if isinstance(node, dict):
        for k, v in node.items():
            out.add(k)
            if k != "metadata":
                keys_of(v, out)
    elif isinstance(node, list):
        for v in node:
            keys_of(v, out)
    return out


def doc_keys(text):
    """The backquoted names of the first column of json.md's tables, and the schema row's
    value."""
    keys, schema = set(), None
    for line in text.splitlines():
        m = re.match(r"^\| (`[^|]*`) \|", line)
        if not m:
            continue
        names = re.findall(r"`([a-z_]+)`", m.group(1))
        keys.update(names)
        if names == ["schema"]:
            found = re.findall(r"`([^`]+)`", line.split("|")[3])
            schema = found[0] if found else None
    return keys, schema


def main():
    mixed = os.path.join(TMP, "mixed.csv")
    with open(os.path.join(ROOT, "tests", "fixtures", "mixed-synthetic.csv")) as f:
        body = f.read()
    with open(mixed, "w") as f:
        f.write("# dram_latency_ns=500\n# roof_memcpy_gbps=3000\n# sm_count=132\n" + body)
    docs = [summary(os.path.join(ROOT, "tests", "data", "h200-reduce-mission-3aa2b51.csv"),
                    "reduce"),
            summary(os.path.join(ROOT, "tests", "data", "h200-smem-chase-20105b5.csv"), "smem"),
            summary(mixed, "mixed")]
    found = set()
    for d in docs:
        keys_of(d, found)
    keys, schema = doc_keys(read(DOC))
    header = read(HEADER)
    quoted = set(re.findall(r'"([a-z_]+)"', header))
    m = re.search(r'#define OCC_SUMMARY_JSON_SCHEMA "([^"]+)"', header)
    want = m.group(1) if m else None
    for bad, what in [
            (sorted(found - keys), "keys of the summaries that docs/json.md does not document"),
            (sorted(keys - found), "keys docs/json.md documents that no summary has"),
            (sorted(keys - quoted), "keys of docs/json.md the header does not name"),
            ([] if want is not None and schema == want else [schema, want],
             "docs/json.md's schema, the header's"),
            ([d.get("schema") for d in docs if d.get("schema") != want],
             "summaries' schema other than the header's"),
            ([] if any(v.get("plateau_gflops") for d in docs for v in d.get("variants", []))
             else ["none"], "plateau_gflops in no summary (the mixed fixture should have it)")]:
        if bad:
            PROBLEMS.append("%s: %s" % (what, bad))
    for line in PROBLEMS:
        print("FAIL: " + line)
    print("%d failed" % len(PROBLEMS) if PROBLEMS else "all passed")
    return 1 if PROBLEMS else 0


if __name__ == "__main__":
    sys.exit(main())
