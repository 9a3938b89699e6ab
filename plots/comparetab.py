# SPDX-License-Identifier: Apache-2.0
"""plots/comparetab.py: the numeric side of plots/plot --compare: PREFIX.csv and PREFIX.md.

Rows are the (variant, occupancy level) points present in every run, of the kernel and mode the
comparison draws (and its lever, unroll and vec filters); per run: the median GB/s of the point,
% of the run's memcpy roof, its noise (median noise_pct of the point's rows), the ratio to the
first run, and differs = 1 where |ratio - 1| x 100 exceeds the two runs' combined noise
(sqrt(noise_1^2 + noise_i^2), in %). A second table gives per variant and run the plateau (best
GB/s over the levels present in every run) and the knee (lowest such level reaching 90% of
that best, the knee table's definition). The Markdown page names each run: label, file, GPU,
SM clock, buffer bytes, roof, the axis.* metadata (schedule, size, waves, ...), git revision and
command, so that runs of different GPUs, clocks or sizes are compared with that in view.
"""
import math
import os

import figdata
import figspec
import outfile

# block_threads, so that a run of several block sizes is compared at one (plots/csvsel.py).
TABLE_SPEC = figspec.Spec("table", ["variant", "unroll", "vec_bytes", "block_threads"],
                          "occ_achieved_pct", "gbps_median", ["noise_pct"])
KNEE_FRACTION = 0.9


def _points(run, kernel, mode, lever, keep_curve):
    """{(variant, occupancy value): (occupancy text, gbps, noise %)} of one run."""
    out = {}
    for key, p in run.points[TABLE_SPEC.name].get((kernel, mode), {}).items():
        if p is figdata.LEFT_OUT or (lever is not None and key[0] != lever):
            continue
        if keep_curve is not None and not keep_curve(key[1]):
            continue
        variant = key[1][0]
        noise = p.carry[0].result()
        out[(variant, p.x)] = (p.x_text, p.y.result(), noise if noise is not None else math.nan)
    return out


def _num(v, fmt="%.1f"):
    return "NaN" if v is None or math.isnan(v) else fmt % v


def write(prefix, runs, labels, kernel, mode, lever, keep_curve):
    """Writes prefix.csv and prefix.md for runs (figdata.Run, scanned with TABLE_SPEC) of one
    lever when given and the curves keep_curve (of TABLE_SPEC's by values) accepts; returns the
    number of common points (0: none, nothing written)."""
    per_run = [_points(r, kernel, mode, lever, keep_curve) for r in runs]
    common = sorted(set.intersection(*[set(p) for p in per_run]))
    if not common:
        return 0
    roofs = [float(r.meta.get("roof_memcpy_gbps") or "nan") for r in runs]
    n = len(runs)
    head = ["variant", "occ_achieved_pct"]
    for i in range(1, n + 1):
        head += ["run%d_gbps" % i, "run%d_pct_of_roof" % i, "run%d_noise_pct" % i]
        if i > 1:
            head += ["run%d_ratio_to_run1" % i, "run%d_differs" % i]
    rows = []
    for key in common:
        vals = [p[key] for p in per_run]
        row = [key[0], vals[0][0]]
        for i, (_, g, noise) in enumerate(vals):
            row += [_num(g, "%.2f"), _num(100 * g / roofs[i]), _num(noise, "%.3f")]
            if i > 0:
                ratio = g / vals[0][1]
                combined = math.hypot(vals[0][2], noise)
                row += [_num(ratio, "%.4f"),
                        "NaN" if math.isnan(combined) else str(int(abs(ratio - 1) * 100 >
                                                                     combined))]
        rows.append(row)
    outfile.write_whole(prefix + ".csv", "".join(",".join(_csv_field(v) for v in row) + "\n"
                                                 for row in [head] + rows))
    outfile.write_whole(prefix + ".md", _markdown(runs, labels, kernel, mode, head, rows,
                                                  per_run, common, roofs))
    return len(common)


def _csv_field(v):
    return '"%s"' % v.replace('"', '""') if any(c in v for c in ',"\n\r') else v


def _cell(v):
    return v.replace("|", "\\|").replace("\n", " ").replace("\r", " ")


def _markdown(runs, labels, kernel, mode, head, rows, per_run, common, roofs):
    out = ["# %s (mode %s): run against run" % (kernel, mode), "",
           "| run | label | file | GPU | SM clock MHz | buffer bytes | memcpy roof GB/s | axes "
           "| git | command |", "|" + " --- |" * 10]
    for i, (r, label) in enumerate(zip(runs, labels), 1):
        m = r.meta
        axes = ", ".join("%s=%s" % (k[5:], v) for k, v in m.items() if k.startswith("axis."))
        out.append("| %d | %s |" % (i, _cell(label)) + "|".join(
            " %s " % _cell(v or "?") for v in (os.path.basename(r.path), m.get("gpu_name"),
                                               m.get("sm_clock_mhz"), m.get("buffer_bytes"),
                                               m.get("roof_memcpy_gbps"), axes,
                                               m.get("git_rev"), m.get("command"))) + "|")
    out += ["", "Points present in every run (%d). ratio: to run 1; differs: the difference "
            "exceeds the two runs' combined noise (sqrt(noise_1^2 + noise_i^2))." % len(rows), "",
            "| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    out += ["| " + " | ".join(_cell(v) for v in row) + " |" for row in rows]
    out += ["", "Plateau (best GB/s over the common levels) and knee (lowest level reaching "
            "%d%% of it; <=K: the lowest common level, so the knee may lie lower), per variant:"
            % (100 * KNEE_FRACTION), ""]
    kh = ["variant"] + ["run%d best GB/s" % i for i in range(1, len(runs) + 1)] + \
        ["run%d knee occ %%" % i for i in range(1, len(runs) + 1)]
    out += ["| " + " | ".join(kh) + " |", "|" + " --- |" * len(kh)]
    for variant in sorted({v for v, _ in common}):
        levels = sorted(x for v, x in common if v == variant)
        best, knee = [], []
        for p in per_run:
            vals = [(x, p[(variant, x)][1]) for x in levels]
            top = max(g for _, g in vals)
            best.append("%.1f" % top)
            at = next(x for x, g in vals if g >= KNEE_FRACTION * top)
            knee.append(("<=" if at == levels[0] else "") + p[(variant, at)][0])
        out.append("| " + " | ".join([_cell(variant)] + best + knee) + " |")
    return "\n".join(out) + "\n"
