#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tools/results/estimate_fit.py [SET_DIR]: the calibration constants of --dry-run's estimate
(harness/plan/plan_estimate.c) fitted from a reference set's CSVs, beside the values the code
holds (default SET_DIR: results/<CALIBRATION_SET>, the GPU the estimate is calibrated on).

- A family mode's launch_ms (its descriptor in kernels/families/, at the default size): the
  least l for which the estimate's GPU time of a point at the default 10 samples, (UNTIMED +
  10 x ceil(MIN_SAMPLE_MS / l)) x l, reaches the mean over the mode's ok points, in the first
  run of RUNS that has some, of (UNTIMED + samples x launches_per_sample) x time_ms_median; a run at another --size
  is scaled to the mode's size floor (a stream's launch walks its whole buffer). The ratio is
  the code's constant's estimate of that time over the mean.
- L1_HOP_NS, L2_HOP_NS, DRAM_HOP_NS: the latency ladder's ns_per_hop_median at its smallest
  footprint, at the largest footprint of at most L2_PROBE_BYTES, and at its largest.
Prints one line per constant: name, the code's value, the fit, the ratio (hops: code over fit),
and "ok" where the ratio is within TOLERANCE of 1 (else "refit"). Exit 0 every constant within
it, 1 one is not, 2 bad usage or a set without the runs. Standard library only."""
import math
import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import headline  # noqa: E402
import sets as setsmod  # noqa: E402

CALIBRATION_SET = "h200"
TOLERANCE = 0.25          # a constant within 25% of the fit: the estimate is rounded, a guide
UNTIMED_LAUNCHES = 3      # plan_estimate.c: 2 warm-ups and the residency probe
MIN_SAMPLE_MS = 1.0       # plan_estimate.c MIN_SAMPLE_MS
DEFAULT_SAMPLES = 10      # --min-samples' default
L2_PROBE_BYTES = 4 << 20  # the L2 hop: a footprint well inside L2 (the near partition)
# The runs a mode's launch time is fitted from: the first that holds the mode's ok rows
# (tools/gpu/h200_session.sh's commands, each family at its default options).
RUNS = ("./run_sweep --kernel copy --quiet",
        "./run_sweep --kernel reduce --quiet",
        "./run_sweep --kernel chase --quiet",
        "./run_sweep --kernel fma --vec 4,8 --quiet",
        "./run_sweep --kernel mixed --size 8G --quiet",
        "./run_sweep --kernel smem --mode chase --quiet",
        "./run_sweep --kernel mma --mode f16 --quiet")
HOPS = ("L1_HOP_NS", "L2_HOP_NS", "DRAM_HOP_NS")


def descriptors(root):
    """{(kernel, mode): (launch_ms, size_floor_gib)} of the family modes whose descriptor
    (kernels/families/*.h) gives a launch_ms."""
    out = {}
    folder = os.path.join(root, "kernels", "families")
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".h"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            text = f.read()
        for entry in re.split(r"\bM\(", text)[1:]:
            fields = dict(re.findall(r"\.(kernel|mode|launch_ms|size_floor_gib)\s*=\s*"
                                     r"\"?([\w.]+)\"?", entry))
            if "launch_ms" in fields and "kernel" in fields and "mode" in fields:
                out[(fields["kernel"], fields["mode"])] = (
                    float(fields["launch_ms"]), int(fields.get("size_floor_gib", 0)))
    return out


def code_hops(root):
    with open(os.path.join(root, "harness", "plan", "plan_estimate.c"), encoding="utf-8") as f:
        text = f.read()
    return {k: float(re.search(r"#define %s ([\d.]+)" % k, text).group(1)) for k in HOPS}


def estimate_gpu_ms(launch_ms):
    return (UNTIMED_LAUNCHES + DEFAULT_SAMPLES * math.ceil(MIN_SAMPLE_MS / launch_ms)) * launch_ms


def fit_launch_ms(s, kernel, mode, launch_ms, floor_gib):
    """(fitted launch_ms at the size floor, the code's estimate of a point's GPU time over the
    run's mean) of (kernel, mode), or None without its run. The estimate's time is a sawtooth
    in l (a batch holds ceil(MIN_SAMPLE_MS / l) launches), so the fit is the least l that
    reaches the mean and the code's constant is judged by the time it gives."""
    rows = []
    for command in RUNS:
        name = s.run(command)
        rows = [r for r in (s.tables[name].dicts() if name else [])
                if r["status"] == "ok" and r["kernel"] == kernel and r["mode"] == mode]
        if rows:
            break
    gpu, sizes = [], set()
    for r in rows:
        gpu.append((UNTIMED_LAUNCHES + float(r["samples"]) * float(r["launches_per_sample"])) *
                   float(r["time_ms_median"]))
        sizes.add(float(r["buffer_bytes"]))
    if not gpu:
        return None
    mean = sum(gpu) / len(gpu)
    scale = floor_gib * float(1 << 30) / sizes.pop() if floor_gib and len(sizes) == 1 else 1.0
    launch = next(x / 1000.0 for x in range(1, 100001) if estimate_gpu_ms(x / 1000.0) >= mean)
    return launch * scale, estimate_gpu_ms(launch_ms / scale) / mean


def fit_hops(s):
    name = s.run(setsmod.LADDER)
    if name is None:
        return {}
    by = {}
    for r in s.tables[name].dicts():
        if r["status"] == "ok":
            by.setdefault(int(float(r["buffer_bytes"])), []).append(float(r["ns_per_hop_median"]))
    sizes = sorted(by)
    l2 = max([x for x in sizes if x <= L2_PROBE_BYTES] or sizes[:1])
    return dict(zip(HOPS, (headline.median(by[sizes[0]]), headline.median(by[l2]),
                           headline.median(by[sizes[-1]]))))


def fits(folder, root=setsmod.ROOT):
    """[(constant, code value, fitted value, ratio)] of the set in folder: the ratio is the
    code's estimate of a point's GPU time over the run's (launch_ms) or the code's value over
    the fit (the hops); a constant whose run the set lacks is left out."""
    s = setsmod.Set(folder)
    out = []
    for (kernel, mode), (launch, floor) in sorted(descriptors(root).items()):
        fit = fit_launch_ms(s, kernel, mode, launch, floor)
        if fit is not None:
            out.append(("%s %s launch_ms" % (kernel, mode), launch) + fit)
    hops = fit_hops(s)
    code = code_hops(root)
    out += [(k, code[k], hops[k], code[k] / hops[k]) for k in HOPS if k in hops]
    return out


def within(ratio):
    return abs(ratio - 1.0) <= TOLERANCE


def main(argv):
    if len(argv) > 1 or (argv and argv[0].startswith("-")):
        print("usage: tools/results/estimate_fit.py [SET_DIR]", file=sys.stderr)
        return 2
    folder = argv[0] if argv else os.path.join(setsmod.ROOT, "results", CALIBRATION_SET)
    rows = fits(folder)
    if not rows:
        print("estimate_fit: %s holds none of the runs the constants come from" % folder,
              file=sys.stderr)
        return 2
    print("%-26s %10s %10s %7s" % ("constant", "code", "fit", "ratio"))
    for name, code, fit, ratio in rows:
        print("%-26s %10.3f %10.3f %7.2f  %s" % (name, code, fit, ratio,
                                                 "ok" if within(ratio) else "refit"))
    return 0 if all(within(r) for _, _, _, r in rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
