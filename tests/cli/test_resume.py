#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/cli/test_resume.py OCCSWEEP: --resume keys every axis that changes a measurement (CPU).

For each axis an earlier run's CSV is written from the schema (harness/csv/csv_columns.h) holding
some points, and `occsweep --dry-run --arch sm_90 --resume FILE ...` must plan exactly the points
the file lacks: per-row axes (kernel, mode, variant, lever, block, occupancy, footprint, warm vs
cold ladder) filter points; run-wide axes (size, waves, stride, cold, chain, index width) recorded as
`# axis.<name>` metadata must match or the run is refused with exit 2; fail rows are measured
again; the load levels are held by their variant (a kept level is not measured again); a file
from another compute capability is refused; a file that is missing, not a regular
file, not of this schema or holding a point twice is refused before any GPU is opened, and a dry
run lists the points still to measure. These per-row and per-axis cases resume with options that
differ from the file's run, so they pass --resume-mismatch (the synthetic files still carry this
build's git revision, the default timing settings and the run axes).

`--resume FILE` alone resumes the run of FILE: its options come from its recorded command line
(the first run's, through resumes); an option given that differs is refused with one line naming
it, one that agrees is accepted; a file without a command line, of another git revision, with
other timing settings or without its axis lines is refused, naming what differs, unless
--resume-mismatch is given."""
import os
import re
import subprocess
import sys
import tempfile

BIN = sys.argv[1]
ROOT = os.environ.get("OCC_SOURCE_ROOT", os.path.abspath(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")))
with open(os.path.join(ROOT, "harness", "csv", "csv_columns.h")) as f:
    COLUMNS = re.findall(r"X\((\w+),\s*(STR|INT|NUM),", f.read())
TMP = tempfile.mkdtemp()
failures = 0
REV = re.search(r"\(git (\S+)\)", subprocess.run([BIN, "--version"], capture_output=True,
                                                  text=True).stdout).group(1)
# The metadata a run records that --resume compares: the build, the timing settings, the axes.
RUN_META = {"git_rev": REV, "max_noise_pct": "0.5", "max_time_s": "0.5", "min_samples": "10",
            "min_sample_ms": "1"}
AXES = {"axis.carveout": "min", "axis.schedule": "dynamic", "axis.size": "auto", "axis.waves": "1",
        "axis.stride": "128", "axis.cold": "0", "axis.chain": "address"}


def run(*args):
    p = subprocess.run([BIN, "--dry-run", "--arch", "sm_90", *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def plan(*args):
    """The points a dry run plans, as (variant, target %) or (variant, footprint) strings."""
    rc, out, err = run(*args)
    assert rc == 0, f"{args}: exit {rc}: {err}"
    pts = []
    for line in out.splitlines():
        m = re.match(r"(\S+)\s+block\s+(\d+)\s+target\s+([\d.]+)%", line)
        f = re.match(r"(\S+)\s+footprint\s+(\d+) B", line)
        if m:
            pts.append((m.group(1), int(m.group(2)), float(m.group(3))))
        elif f:
            pts.append((f.group(1), int(f.group(2))))
    return pts


def write_csv(name, rows, meta=None, axes=True, command=None):
    """rows: dicts of column values; every other column gets the schema's 'not applicable'.
    The metadata: RUN_META, AXES unless axes is false, the command line when given, then meta
    (a value None drops the key)."""
    path = os.path.join(TMP, name)
    meta = {"gpu_name": "NVIDIA H200", "cc": "9.0", **RUN_META, **(AXES if axes else {}),
            **({"command": command} if command else {}), **(meta or {})}
    with open(path, "w") as f:
        for k, v in meta.items():
            if v is not None:
                f.write(f"# {k}={v}\n")
        f.write(",".join(c for c, _ in COLUMNS) + "\n")
        for r in rows:
            base = {"gpu_name": "NVIDIA H200", "cc": "9.0", "status": "ok"}
            vals = []
            for c, t in COLUMNS:
                v = r.get(c, base.get(c, "-" if t == "STR" else "0" if t == "INT" else "NaN"))
                vals.append(str(v))
            f.write(",".join(vals) + "\n")
    return path


def rows_for(kernel, mode, points, lever="pad", status="ok"):
    """Rows of the planned points (variant, block, target) of a dry run."""
    return [{"kernel": kernel, "mode": mode, "variant": v, "lever": lever, "block_threads": b,
             "occ_target_pct": t, "status": status} for v, b, t in points]


def check(what, cond, detail=""):
    global failures
    if not cond:
        failures += 1
        print(f"FAIL: {what} {detail}")
    else:
        print(f"ok: {what}")


def resumed(path, *args, mismatch=True):
    return plan(*args, "--resume", path, *(["--resume-mismatch"] if mismatch else []))


def refused(path, *args, says="", mismatch=True):
    rc, out, err = run(*args, "--resume", path, *(["--resume-mismatch"] if mismatch else []))
    return rc == 2 and says in err and len(err.splitlines()) == 1, f"exit {rc}: {err.strip()}"


base = ("--kernel", "reduce", "--unroll", "1", "--vec", "4", "--occ", "25,50,75,100")
full = plan(*base)
check("the base plan has 4 points", len(full) == 4, str(full))
held = write_csv("reduce.csv", rows_for("reduce", "stream", full[:2]),
                 command="./run_sweep " + " ".join(base))
check("held points are not planned again", resumed(held, *base) == full[2:], str(resumed(held, *base)))
check("kernel: copy points are not held by reduce rows",
      len(resumed(held, "--kernel", "copy", "--unroll", "1", "--vec", "4", "--occ", "25,50")) == 2)
check("variant: another unroll is measured",
      len(resumed(held, "--kernel", "reduce", "--unroll", "2", "--vec", "4", "--occ", "25,50")) == 2)
check("occupancy: only the new level is measured",
      resumed(held, "--kernel", "reduce", "--unroll", "1", "--vec", "4", "--occ", "25,50,75") == full[2:3])
check("block: another block size is measured",
      len(resumed(held, *base, "--block", "256")) == 4)
both = plan(*base, "--lever", "both")
check("lever: the bounds rows of --lever both are measured",
      len(resumed(held, *base, "--lever", "both")) == len(both) - 2)
failed = write_csv("fail.csv", rows_for("reduce", "stream", full[:1]) +
                   rows_for("reduce", "stream", full[1:2], status="fail:sum out of tolerance"))
check("fail rows are measured again", resumed(failed, *base) == full[1:])

warp = plan("--kernel", "chase", "--unroll", "1", "--occ", "25,50")
held_warp = write_csv("warp.csv", rows_for("chase", "warp", warp))
check("mode: thread points are not held by warp rows",
      len(resumed(held_warp, "--kernel", "chase", "--mode", "thread", "--unroll", "1", "--occ", "25,50")) == 2)
check("mode: warp rows hold warp points",
      resumed(held_warp, "--kernel", "chase", "--unroll", "1", "--occ", "25,50") == [])

lad_args = ("--kernel", "chase", "--mode", "latency", "--footprint", "4K..64K")
ladder = plan(*lad_args)
lad_rows = [{"kernel": "chase", "mode": "latency", "variant": v, "buffer_bytes": fb,
             "block_threads": 32} for v, fb in ladder[:3]]
warm = write_csv("warm.csv", lad_rows, axes=False)
check("footprint: held footprints are not measured again", resumed(warm, *lad_args) == ladder[3:])
check("cold vs warm (file without axis keys, --resume-mismatch): a cold ladder measures every "
      "footprint",
      resumed(warm, *lad_args, "--cold") == ladder)
warm_axes = write_csv("warm-axes.csv", lad_rows, {"axis.cold": "0", "axis.stride": "128",
                                                 "axis.chain": "address"})
ok, why = refused(warm_axes, *lad_args, "--cold", says="--cold")
check("cold vs warm (axis keys): refused", ok, why)
ok, why = refused(warm_axes, *lad_args, "--stride", "256", says="--stride")
check("stride: a different stride is refused", ok, why)
check("same axes: resumed", resumed(warm_axes, *lad_args) == ladder[3:])

# The chain: an index-chain file is refused by a default (address) run and by an index run of
# another index width; an address-chain file is refused by an index run.
index_axes = write_csv("index-axes.csv", lad_rows, {"axis.stride": "128", "axis.cold": "0",
                                                   "axis.chain": "index", "axis.index-bytes": "4"})
ok, why = refused(index_axes, *lad_args, says="--chain index, this run asks for address")
check("chain: an index-chain file is refused for a default (address) run", ok, why)
check("chain: the same index chain resumes",
      resumed(index_axes, *lad_args, "--chain", "index") == ladder[3:])
ok, why = refused(index_axes, *lad_args, "--chain", "index", "--index-bytes", "8",
                  says="--index-bytes")
check("index width: different index bytes are refused", ok, why)
ok, why = refused(warm_axes, *lad_args, "--chain", "index",
                  says="--chain address, this run asks for index")
check("chain: an address-chain file is refused for an index run", ok, why)

sized = write_csv("sized.csv", rows_for("reduce", "stream", full[:2]),
                  {"axis.size": "1073741824", "axis.waves": "1"})
ok, why = refused(sized, *base, "--size", "2G", says="--size")
check("size: a different --size is refused", ok, why)
ok, why = refused(sized, *base, says="--size")
check("size: the default size differs from 1 GiB and is refused", ok, why)
ok, why = refused(sized, *base, "--size", "1G", "--waves", "2", says="--waves")
check("waves: a different --waves is refused", ok, why)
check("same size and waves: resumed", resumed(sized, *base, "--size", "1G") == full[2:])
scheduled = write_csv("dynamic.csv", rows_for("reduce", "stream", full[:2]),
                      {"axis.schedule": "dynamic"})
ok, why = refused(scheduled, *base, "--schedule", "static", says="--schedule")
check("schedule: a static run does not resume a dynamic file", ok, why)
check("same schedule: resumed", resumed(scheduled, *base) == full[2:])

other = write_csv("a100.csv", rows_for("reduce", "stream", full[:2]), {"cc": "8.0"})
ok, why = refused(other, *base, says="compute capability")
check("another GPU generation is refused", ok, why)

# Every row is of the file's GPU and of a family and variant this build has.
mixed_rows = rows_for("reduce", "stream", full[:2])
mixed_rows[1]["gpu_name"] = "NVIDIA A100"
ok, why = refused(write_csv("mixed-gpu.csv", mixed_rows), *base, says="names another GPU")
check("a row of another GPU than the file's is refused", ok, why)
mixed_rows = rows_for("reduce", "stream", full[:2])
mixed_rows[0]["cc"] = "8.0"
ok, why = refused(write_csv("mixed-cc.csv", mixed_rows), *base,
                  says="names another compute capability")
check("a row of another compute capability than the file's is refused", ok, why)
odd_rows = rows_for("reduce", "stream", full[:2])
odd_rows[1]["variant"] = "reduce_u9_v4"
ok, why = refused(write_csv("odd-variant.csv", odd_rows), *base,
                  says="a variant this build does not have")
check("a row of a variant no catalog has is refused", ok, why)
odd_rows = rows_for("reduce", "stream", full[:2])
odd_rows[0]["kernel"] = "nosuch"
ok, why = refused(write_csv("odd-kernel.csv", odd_rows), *base,
                  says="a kernel and mode this build does not have")
check("a row of a kernel no catalog has is refused", ok, why)

# --resume FILE alone: the run of FILE, from its command line.
alone = resumed(held, mismatch=False)
check("--resume FILE alone plans what the file's run lacks", alone == full[2:], str(alone))
check("an option equal to the file's run is accepted",
      resumed(held, "--unroll", "1", "--occ", "25,50,75,100", mismatch=False) == full[2:])
for args, says in [(("--unroll", "2"), "--unroll 2 differs from the run of the file (--unroll 1)"),
                   (("--kernel", "copy"), "--kernel copy differs"),
                   (("--occ", "25,50"), "--occ 25,50 differs"),
                   (("--block", "256"), "--block 256 differs"),
                   (("--max-noise", "1"), "--max-noise 1 differs")]:
    ok, why = refused(held, *args, says=says, mismatch=False)
    check(f"an option that contradicts the file's run is refused: {' '.join(args)}", ok, why)
check("--resume-mismatch: the options given win",
      len(resumed(held, "--kernel", "reduce", "--unroll", "2", "--vec", "4", "--occ", "25,50")) == 2)
chained = write_csv("chained.csv", rows_for("reduce", "stream", full[:2]),
                    {"resumed_from_command": "./run_sweep " + " ".join(base)},
                    command="./run_sweep --resume reduce.csv")
check("a resumed file resumes its first run's command",
      resumed(chained, mismatch=False) == full[2:])
spaced = write_csv("spaced.csv", rows_for("reduce", "stream", full[:2]),
                   command="./run_sweep " + " ".join(base) + " --out my runs/r.csv --quiet")
check("a command line whose --out holds a space resumes",
      resumed(spaced, mismatch=False) == full[2:])
plain = write_csv("no-command.csv", rows_for("reduce", "stream", full[:2]))
ok, why = refused(plain, *base, says="records no command line", mismatch=False)
check("a file without a command line is refused", ok, why)
check("a file without a command line resumes with --resume-mismatch",
      resumed(plain, *base) == full[2:])

# The build and the timing: another git revision, other timing settings or missing axis lines
# are refused, naming what differs, unless --resume-mismatch.
cmd = "./run_sweep " + " ".join(base)
for key, value, says in [("git_rev", "0123abc", "git revision 0123abc, this build is " + REV),
                         ("git_rev", None, "git revision (none recorded)"),
                         ("max_noise_pct", "1", "max_noise_pct is 1, this run's 0.5"),
                         ("max_time_s", "2", "max_time_s is 2"),
                         ("min_samples", "5", "min_samples is 5"),
                         ("min_sample_ms", "4", "min_sample_ms is 4"),
                         ("min_samples", None, "min_samples is (not recorded)"),
                         ("axis.size", None, "no '# axis.size' line"),
                         ("axis.waves", None, "no '# axis.waves' line")]:
    path = write_csv(f"differs-{key}-{value}.csv", rows_for("reduce", "stream", full[:2]),
                     {key: value}, command=cmd)
    ok, why = refused(path, says=says, mismatch=False)
    check(f"{key} {value or 'missing'}: refused", ok, why)
    check(f"{key} {value or 'missing'}: resumed with --resume-mismatch",
          resumed(path) == full[2:])
ok, why = refused(write_csv("fake-size.csv", rows_for("reduce", "stream", full[:2]),
                            {"axis.size": "1073741824"}, command=cmd), says="--size")
check("--resume-mismatch still refuses a recorded run axis that differs", ok, why)

# The file itself is checked before any GPU work: it exists, is a regular file (a FIFO would
# block the read), parses with this schema's header and holds each point once.
def real(*args):
    """A run without --dry-run: a bad --resume file is refused (exit 2) before the device is
    opened, so no GPU (exit 3) is reported and none is used."""
    p = subprocess.run([BIN, *args], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stderr


fifo = os.path.join(TMP, "fifo.csv")
os.mkfifo(fifo)
garbage = os.path.join(TMP, "garbage.csv")
with open(garbage, "w") as f:
    f.write("this is not a sweep\n1,2,3\n")
old_schema = os.path.join(TMP, "old-schema.csv")
with open(old_schema, "w") as f:
    f.write("# cc=9.0\ngpu_name,cc,kernel\nNVIDIA H200,9.0,reduce\n")
dup = write_csv("dup.csv", rows_for("reduce", "stream", full[:2] + full[1:2]))
dup_lad = write_csv("dup-ladder.csv", lad_rows + lad_rows[:1])
no_cc = os.path.join(TMP, "no-cc.csv")
with open(held) as f, open(no_cc, "w") as g:
    g.write("".join(line for line in f if not line.startswith("# cc=")))
bad_files = [(os.path.join(TMP, "missing.csv"), "does not exist"),
             ("/dev/null", "not a regular file"), (fifo, "not a regular file"),
             (garbage, "wrong header"), (old_schema, "wrong header"),
             (dup, "data rows 2 and 3 are the same point"),
             (dup_lad, "data rows 1 and 4 are the same point"),
             (no_cc, "compute capability '(none recorded)'")]
for path, says in bad_files:
    args = lad_args if path == dup_lad else base
    ok, why = refused(path, *args, says=says)
    check(f"dry run refuses {os.path.basename(path)}: {says}", ok, why)
    if "compute capability" in says:
        continue  # the device's identity is checked once it is open
    rc, err = real(*args, "--resume", path)
    check(f"real run refuses {os.path.basename(path)} before the GPU (exit 2, not 3)",
          rc == 2 and says in err, f"exit {rc}: {err.strip()}")
check("a resumable file with the same point once (a distinct fail row kept) resumes",
      resumed(failed, *base) == full[1:])

# --dry-run --resume says how many rows are kept and prints exactly the points still to measure
# (the file holds 2 reduce rows and no load level: the 44 levels are measured again first).
rc, out, err = run(*base, "--resume", held)
check("dry run reports the rows kept and the points to measure",
      rc == 0 and f"resuming {held}: 2 rows kept, 46 points to measure" in err, err.strip())
check("dry run prints the points still to measure, in plan order",
      [p[:3] for p in plan(*base, "--resume", held)] == full[2:] and
      sum(1 for line in out.splitlines() if " target " in line) == 2, out)

# The load levels (chase/loaded rows, planned first for a model-using sweep) are held by kernel,
# mode and variant: a file with every level ok plans none of them again (the model's curve then
# comes from those rows), a file with some of them, or a fail level, plans the rest, first.
rc, out, _ = run("--kernel", "chase", "--mode", "loaded")
levels = [line.split()[0] for line in out.splitlines() if " load level " in line]
check("the levels plan as 44 named points", rc == 0 and len(levels) == 44 and
      levels[0] == "loaded_read_w00_u1", out[:300])
sweep = ["--kernel", "reduce", "--unroll", "1", "--vec", "4", "--occ", "50"]


def level_rows(names, status="ok"):
    return [{"kernel": "chase", "mode": "loaded", "variant": v, "traffic": v.split("_")[1],
             "latency_mean_ns": "342.0", "gbps_median": "100.0", "status": status,
             "buffer_bytes": "503316480"}  # the probes' footprint, as a run writes it: no key
            for v in names]


for what, rows, todo in [
        ("every level ok", level_rows(levels), []),
        ("half the levels", level_rows(levels[:11]), levels[11:]),
        ("a fail level", level_rows(levels[:5]) + level_rows(levels[5:6], "fail:probe 2 ended off its walk") +
         level_rows(levels[6:]), levels[5:6])]:
    path = write_csv("levels-%d.csv" % len(todo), rows)
    rc, out, err = run(*sweep, "--resume", path, "--resume-mismatch")
    planned = [line.split()[0] for line in out.splitlines() if " load level " in line]
    first = next((line.split()[0] for line in out.splitlines()
                  if " load level " in line or " target " in line), "")
    check(f"resume of a file with {what}: the levels it lacks measured, first", rc == 0 and
          planned == todo and (not todo or first == todo[0]) and
          f"{len(todo) + 1} points to measure" in err, f"{planned} {err.strip()}")

# A file that holds every point: the plan says nothing is left, not "0 points x 0.0 ms".
path = write_csv("levels-all.csv", level_rows(levels))
rc, out, err = run("--kernel", "chase", "--mode", "loaded", "--resume", path, "--resume-mismatch")
check("resume of a file with every point: nothing left, said so", rc == 0 and
      "estimated time: none: no point left to measure" in out and "0 points x" not in out,
      out + err)

print(f"{failures} failure(s)")
sys.exit(1 if failures else 0)
