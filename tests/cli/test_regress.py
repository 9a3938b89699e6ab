#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/cli/test_regress.py: the regression check, plots/regress.py OLD.csv NEW.csv (no GPU).

On the synthetic fixtures (tests/fixtures) and the real runs of tests/data, each case its exit
status and what it lists:
  - a run against itself and against a copy: exit 0, no regression, every point matched;
  - one point made 10% slower (noise 0.2% each side): exit 1, that point alone listed with its
    change, and its clocks where they differ (the clock inside the kernel where a row has one);
    10% faster: exit 0, listed as an improvement;
  - a change within the noise (8% with 5% noise on both sides), within --threshold-pct (0.8%
    beyond the noise, under the 1% floor; with --threshold-pct 0 it counts), a real H200 run
    with every time 0.2% longer: exit 0;
  - ok in OLD and fail in NEW: exit 1; a point only in one run: listed, exit 0;
  - runs of different GPUs (the H200 and H100 runs), kernels (reduce and copy fixtures) or
    axes (# axis.size): exit 2 with one line naming the option that compares them; with it, the
    H100 against the H200 is exit 1 with every reduce point slower, and its output holds the
    excerpt docs/methodology.md shows;
  - refused inputs, exit 2 with one line: every malformed-* fixture that breaks the format, a
    missing file, a directory, a FIFO, a 5 GiB sparse file, a --json summary, a file without
    rows, a point held twice, a negative noise figure; and bad usage (one file, a negative
    --noise-factor, an unknown option).
Prints a FAIL line per failed check; exit 0 when none failed."""
import csv
import glob
import io
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.environ.get("OCC_SOURCE_ROOT", os.path.abspath(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")))
TOOL = os.path.join(ROOT, "plots", "regress.py")
FIX = os.path.join(ROOT, "tests", "fixtures")
DATA = os.path.join(ROOT, "tests", "data")
REDUCE = os.path.join(FIX, "reduce-synthetic.csv")
H200 = os.path.join(DATA, "h200-reduce-mission-3aa2b51.csv")
H100 = os.path.join(DATA, "h100-reduce-mission-5900278.csv")
TMP = tempfile.mkdtemp()
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what)


def run(*args):
    p = subprocess.run([sys.executable, TOOL] + list(args), capture_output=True, text=True,
                       timeout=120)
    return p.returncode, p.stdout, p.stderr


def split(path):
    """(metadata lines, header, rows as lists of field texts) of a CSV without embedded newlines."""
    with open(path, newline="") as f:
        lines = f.read().split("\n")
    meta = [line for line in lines if line.startswith("#")]
    table = list(csv.reader(line for line in lines if line and not line.startswith("#")))
    return meta, table[0], table[1:]


def write(name, meta, header, rows):
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([header] + rows)
    path = os.path.join(TMP, name)
    with open(path, "w", newline="") as f:
        f.write("\n".join(meta) + "\n" + out.getvalue())
    return path


def variant(path, name, edit, meta_edit=None):
    """A copy of path whose rows edit(header index, rows) changed, written as TMP/name."""
    meta, header, rows = split(path)
    edit({c: i for i, c in enumerate(header)}, rows)
    return write(name, meta_edit(meta) if meta_edit else meta, header, rows)


def first_ok(ix, rows):
    return next(r for r in rows if r[ix["status"]] == "ok" and r[ix["noise_pct"]] != "NaN")


def scale_time(factor, noise=None, pick=first_ok):
    def edit(ix, rows):
        r = pick(ix, rows)
        r[ix["time_ms_median"]] = repr(float(r[ix["time_ms_median"]]) * factor)
        if noise is not None:
            r[ix["noise_pct"]] = noise
    return edit


def set_noise(ix, rows, noise):
    for r in rows:
        if r[ix["noise_pct"]] != "NaN":
            r[ix["noise_pct"]] = noise


def named(ix, rows):
    """The point the slow and fast cases change (reduce_u1_v4 at 50%) and its listing."""
    return next(r for r in rows if r[ix["variant"]] == "reduce_u1_v4" and
                r[ix["occ_target_pct"]] == "50" and r[ix["status"]] == "ok")


POINT = "reduce/stream reduce_u1_v4 pad block 128 occ 50% buffer"


def main():
    # --- identical runs --------------------------------------------------------------------
    copy = shutil.copy(REDUCE, os.path.join(TMP, "copy.csv"))
    for other in (REDUCE, copy):
        rc, out, err = run(REDUCE, other)
        check(rc == 0 and "regressions (slower): 0" in out and "improvements (faster): 0" in out
              and "0 only in OLD, 0 only in NEW" in out, "identical runs: exit 0, nothing listed "
              "(rc %d, %s%s)" % (rc, out, err))
    # --- one point 10% slower, faster -------------------------------------------------------
    def quiet(ix, rows):
        set_noise(ix, rows, "0.2")
    base = variant(REDUCE, "base.csv", quiet)
    slow = variant(base, "slow.csv", scale_time(1.10, pick=named))
    rc, out, _ = run(base, slow)
    listed = [line for line in out.splitlines() if line.startswith("  ")]
    check(rc == 1 and "regressions (slower): 1" in out and len(listed) == 1 and
          POINT in listed[0] and "+10.00%" in listed[0],
          "one point 10%% slower: exit 1, that point listed (rc %d, %s)" % (rc, out))
    def clock(mhz):
        def edit(ix, rows):
            for r in rows:
                r[ix["sm_clock_mhz_median"]] = "1980"
            named(ix, rows)[ix["sm_clock_mhz_median"]] = mhz
        return edit
    clocked = variant(base, "clocked.csv", clock("1980"))
    slow_clock = variant(slow, "slow-clock.csv", clock("1755"))
    rc, out, _ = run(clocked, slow_clock)
    check(rc == 1 and "+10.00%" in out and "SM clock 1980 -> 1755 MHz" in out,
          "10%% slower at a lower clock: exit 1, the clocks named (rc %d, %s)" % (rc, out))

    def inside(ix, rows):
        named(ix, rows)[ix["sm_clock_mhz_measured"]] = "1900"
    rc, out, _ = run(variant(clocked, "inside.csv", inside),
                     variant(slow_clock, "slow-inside.csv", inside))
    check(rc == 1 and "SM clock" not in out, "the watch 1980 -> 1755 MHz but the same clock "
          "inside the kernel: no clock named (rc %d, %s)" % (rc, out))
    rc, out, _ = run(slow, base)
    check(rc == 0 and "improvements (faster): 1" in out and POINT in out and "-9.09%" in out,
          "one point 10%% faster: exit 0, listed as an improvement (rc %d, %s)" % (rc, out))
    # --- within the noise, within the floor --------------------------------------------------
    noisy = variant(REDUCE, "noisy.csv", scale_time(1.0, noise="5"))
    noisy_slow = variant(noisy, "noisy-slow.csv", scale_time(1.08))
    rc, out, _ = run(noisy, noisy_slow)
    check(rc == 0 and "regressions (slower): 0" in out,
          "8%% slower with 5%% noise each side: within 2 x 7.07%%, exit 0 (rc %d, %s)" % (rc, out))
    rc, out, _ = run("--noise-factor", "1", noisy, noisy_slow)
    check(rc == 1, "the same with --noise-factor 1 (8%% > 7.07%%): exit 1 (rc %d)" % rc)
    small = variant(base, "small.csv", scale_time(1.008))
    rc, out, _ = run(base, small)
    check(rc == 0 and "regressions (slower): 0" in out,
          "0.8%% slower, beyond 2 x 0.28%% noise but under the 1%% floor: exit 0 (rc %d)" % rc)
    rc, out, _ = run("--threshold-pct", "0", base, small)
    check(rc == 1 and "+0.80%" in out, "the same with --threshold-pct 0: exit 1 (rc %d)" % rc)

    def longer(ix, rows):
        for r in rows:
            if r[ix["time_ms_median"]] != "NaN":
                r[ix["time_ms_median"]] = repr(float(r[ix["time_ms_median"]]) * 1.002)
    rc, out, _ = run(H200, variant(H200, "h200-longer.csv", longer))
    check(rc == 0 and "150 matched" in out and "33 matched without a noise figure" in out,
          "the real H200 run with every time 0.2%% longer: exit 0, load levels not judged "
          "(rc %d, %s)" % (rc, out))
    # --- status changes, points only in one run ------------------------------------------------
    def fail(ix, rows):
        named(ix, rows)[ix["status"]] = "fail:verify"
    rc, out, _ = run(base, variant(base, "fail.csv", fail))
    check(rc == 1 and "status ok -> fail:verify" in out and POINT in out,
          "ok in OLD, fail in NEW: exit 1, listed (rc %d, %s)" % (rc, out))

    def drop(ix, rows):
        rows.remove(named(ix, rows))
    rc, out, _ = run(base, variant(base, "fewer.csv", drop))
    check(rc == 0 and "1 only in OLD" in out and "only in OLD: " + POINT in out,
          "a point only in OLD: listed, exit 0 (rc %d, %s)" % (rc, out))
    # --- runs that are not compared without an option -----------------------------------------
    rc, out, err = run(H200, H100)
    check(rc == 2 and "different GPUs" in err and "--any-gpu" in err and not out,
          "H200 against H100: exit 2 naming --any-gpu (rc %d, %s)" % (rc, err))
    rc, out, _ = run("--any-gpu", H200, H100)
    check(rc == 1 and "regressions (slower): 117" in out,
          "H200 against H100 with --any-gpu: exit 1, every reduce point slower (rc %d)" % rc)
    with open(os.path.join(ROOT, "docs", "methodology.md")) as f:
        doc = f.read().split("prints, among", 1)[-1].split("\n\n")[1]
    lines = [line.strip() for line in out.splitlines()]
    check(doc.startswith("    GPUs:") and all(d.strip() in lines for d in doc.splitlines()),
          "docs/methodology.md's excerpt of this comparison is its output:\n%s" % doc)
    copy_fix = os.path.join(FIX, "copy-synthetic.csv")
    rc, _, err = run(REDUCE, copy_fix)
    check(rc == 2 and "different kernels" in err and "--any-kernel" in err,
          "reduce against copy: exit 2 naming --any-kernel (rc %d, %s)" % (rc, err))
    rc, out, _ = run("--any-kernel", REDUCE, copy_fix)
    check(rc == 0 and "0 matched" in out, "reduce against copy with --any-kernel: nothing "
          "matched, exit 0 (rc %d, %s)" % (rc, out))
    def axis(value):
        return lambda meta: meta + ["# axis.size=" + value]
    auto = variant(base, "auto.csv", lambda ix, rows: None, axis("auto"))
    sized = variant(base, "sized.csv", lambda ix, rows: None, axis("1G"))
    rc, _, err = run(auto, sized)
    check(rc == 2 and "axis.size" in err and "--any-axes" in err,
          "different axis.size: exit 2 naming --any-axes (rc %d, %s)" % (rc, err))
    check(run("--any-axes", auto, sized)[0] == 0, "different axis.size with --any-axes: exit 0")
    # --- refused inputs ----------------------------------------------------------------------
    # no-ok-rows and nan-values are valid CSVs (make_fixtures.py): a check compares them.
    refused = sorted(f for f in glob.glob(os.path.join(FIX, "malformed-*.csv"))
                     if not f.endswith(("no-ok-rows.csv", "nan-values.csv")))
    check(len(refused) >= 8, "the malformed fixtures are there (%d)" % len(refused))
    fifo = os.path.join(TMP, "fifo.csv")
    os.mkfifo(fifo)
    huge = os.path.join(TMP, "huge.csv")
    with open(huge, "wb") as f:
        f.truncate(5 << 30)
    summary = os.path.join(TMP, "summary.json")
    with open(summary, "w") as f:
        f.write('{"schema": "occsweep-summary/1", "variants": []}\n')
    meta, header, rows = split(base)
    empty = write("empty.csv", meta, header, [])
    twice = write("twice.csv", meta, header, rows + rows[:1])
    negative = variant(base, "negative.csv", scale_time(1.0, noise="-1"))
    refused += [os.path.join(TMP, "missing.csv"), TMP, fifo, huge, summary, empty, twice, negative]
    for i, path in enumerate(refused):
        # Both readers are Run(): NEW is tried with every third input.
        for args in ((path, base), (base, path))[:1 if i % 3 else 2]:
            rc, out, err = run(*args)
            check(rc == 2 and not out and len(err.strip().splitlines()) == 1 and
                  err.startswith("regress: "), "%s as %s: exit 2, one line (rc %d, %r)" % (
                      os.path.basename(path), "OLD" if args[0] == path else "NEW", rc, err))
    check("the same point" in run(twice, base)[2], "a point held twice is named as such")
    check("JSON summary" in run(summary, base)[2], "a --json summary is named as such")
    check("4 GiB" in run(huge, base)[2], "the size bound is named")
    for args in ((base,), ("--noise-factor", "-1", base, base), ("--nope", base, base)):
        rc, out, _ = run(*args)
        check(rc == 2 and not out, "usage %s: exit 2 (rc %d)" % (" ".join(args[:-1]), rc))
    shutil.rmtree(TMP)
    print("regress: %d failed" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
