#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/loaded_check.py CSV...: the targets of issue 12 on sweeps run with the loaded model.

For each CSV (a copy, reduce or chase sweep): its metadata `model` must name the loaded curve; of
the ok rows of natural variants (no _r<cap> twin) with a prediction, at least 90% must have
|measured / predicted - 1| <= 10%; every natural variant's predicted knee (its <stem>-knee.md)
must be within one occupancy level (the variant's distinct occ_achieved_pct) of the measured knee.
Of the first CSV's loaded-latency sweep (<stem>-loaded.csv and the metadata): the idle level's
mean latency within 5% of dram_latency_ns (the ladder's DRAM step), the sweep's wall time <= 30 s,
every level ok. Prints the figures and a PASS or FAIL line per target; exit 1 if any FAIL.
"""
import csv
import math
import os
import re
import sys

failed = 0


def say(ok, text):
    global failed
    failed += not ok
    print('%s: %s' % ('PASS' if ok else 'FAIL', text))


def read(path):
    meta, lines = {}, []
    with open(path) as f:
        for line in f:
            if line.startswith('#'):
                key, _, value = line[1:].strip().partition('=')
                meta[key.strip()] = value.strip()
            else:
                lines.append(line)
    return meta, list(csv.DictReader(lines))


def num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return math.nan


def knees(md_path):
    """{variant: (measured %, predicted %)} from a knee report."""
    out = {}
    with open(md_path) as f:
        for line in f:
            m = re.match(r'^\| `([^`]+)` \|', line)
            if not m:
                continue
            cells = [c.strip() for c in line.strip().strip('|').split('|')]
            header_shift = 1 if len(cells) == 12 else 0  # a block column
            out[m.group(1)] = (num(cells[6 + header_shift]), num(cells[7 + header_shift]))
    return out


def check_sweep(path):
    name = os.path.basename(path)
    meta, rows = read(path)
    model = meta.get('model', '(no model key)')
    say(model.startswith('loaded latency'), '%s: model is the loaded curve (%s)' % (name, model))
    natural = [r for r in rows if r.get('status') == 'ok' and not re.search(r'_r\d+$', r['variant'])
               and math.isfinite(num(r.get('measured_over_predicted')))]
    within = [r for r in natural if abs(num(r['measured_over_predicted']) - 1) <= 0.10]
    frac = len(within) / len(natural) if natural else 0
    worst = sorted(natural, key=lambda r: -abs(num(r['measured_over_predicted']) - 1))[:3]
    say(natural and frac >= 0.90,
        '%s: %d of %d points (%.0f%%) predicted within 10%% (target >= 90%%); worst: %s' %
        (name, len(within), len(natural), 100 * frac,
         ', '.join('%s@%s%% %.2f' % (r['variant'], r['occ_achieved_pct'],
                                     num(r['measured_over_predicted'])) for r in worst)))
    stem = path[:-4] if path.endswith('.csv') else path
    k = knees(stem + '-knee.md') if os.path.exists(stem + '-knee.md') else {}
    bad = []
    for variant, (meas, pred) in sorted(k.items()):
        if re.search(r'_r\d+$', variant):
            continue
        levels = sorted({num(r['occ_achieved_pct']) for r in rows
                         if r['variant'] == variant and r.get('status') == 'ok'})
        if meas not in levels or pred not in levels or \
                abs(levels.index(meas) - levels.index(pred)) > 1:
            bad.append('%s measured %s%% predicted %s%%' % (variant, meas, pred))
    say(k and not bad, '%s: predicted knee within one level of measured for %d variants%s' %
        (name, len(k), (': misses ' + '; '.join(bad)) if bad else ''))
    return meta, stem


def check_loaded(meta, stem):
    path = stem + '-loaded.csv'
    if not os.path.exists(path):
        say(False, 'loaded-latency levels: no %s' % path)
        return
    with open(path) as f:
        levels = list(csv.DictReader(f))
    for lv in levels:
        print('  level: %s %2s warps U%s  %8.1f GB/s  mean %6.1f ns  p5 %6.1f p50 %6.1f p95 %6.1f '
              'p99 %6.1f ns  SMs %s..%s ns  %s MHz  %s' % (lv.get('traffic', 'read'), lv['stream_warps'], lv['unroll'], num(lv['gbps']),
                                          num(lv['mean_ns']), num(lv['p5_ns']),
                                          num(lv['p50_ns']), num(lv['p95_ns']),
                                          num(lv['p99_ns']), lv.get('probe_min_ns'),
                                          lv.get('probe_max_ns'), lv['clock_mhz'], lv['status']))
    say(all(lv['status'] == 'ok' for lv in levels),
        'loaded-latency levels all ok (%d)' % len(levels))
    idle, ladder = num(levels[0]['mean_ns']), num(meta.get('dram_latency_ns'))
    say(abs(idle / ladder - 1) <= 0.05,
        'idle mean latency %.1f ns vs ladder DRAM %.1f ns (%+.1f%%, target within 5%%)' %
        (idle, ladder, 100 * (idle / ladder - 1)))
    m = re.search(r'([\d.]+) s$', meta.get('loaded_latency_levels', ''))
    secs = float(m.group(1)) if m else math.inf
    say(secs <= 30, 'loaded-latency sweep wall time %.1f s (target <= 30 s)' % secs)


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip())
        return 2
    first = None
    for path in sys.argv[1:]:
        got = check_sweep(path)
        first = first or got
    check_loaded(*first)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
