#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tools/analysis/loaded_check.py CSV...: the loaded-latency model's targets on sweeps run with
it (tools/gpu/gpu_check_loaded.sh runs it on the H200's CSVs).

For each CSV (a copy, reduce or chase sweep): its knee report's model must be the loaded curve; of
the ok rows of natural variants (no _r<cap> twin) with a prediction, at least 90% must have
|measured / predicted - 1| <= 10%; every natural variant's predicted knee (its <stem>-knee.md)
must be within one occupancy level (the variant's distinct occ_achieved_pct) of the measured knee.
Of the first CSV's load levels (its chase/loaded rows, measured before the sweep's points): the
idle level's mean latency within 5% of dram_latency_ns (the ladder's DRAM step), the levels' time
<= 30 s (the family's set-up, metadata loaded_setup_s, plus every level's launch), every level
ok. Prints the figures and a PASS or FAIL line per target; exit 1 if any FAIL.
"""
import math
import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "plots"))
import occcsv  # noqa: E402

failed = 0


def say(ok, text):
    global failed
    failed += not ok
    print('%s: %s' % ('PASS' if ok else 'FAIL', text))


def read(path):
    """(metadata {key: value}, rows [{column: text}]) of the CSV at path, read by plots/occcsv.py
    (what occ_csv_read accepts; raises occcsv.CsvError for anything else)."""
    t = occcsv.read(path)
    return t.meta_dict(), t.dicts()


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
            # A knee at the lowest level run reads "<=K (lowest level run)": its value is K.
            cells = [re.sub(r'^<=| \(lowest level run\)$', '', c.strip())
                     for c in line.strip().strip('|').split('|')]
            header_shift = 1 if len(cells) == 13 else 0  # a block column (after V)
            out[m.group(1)] = (num(cells[7 + header_shift]), num(cells[8 + header_shift]))
    return out


def check_sweep(path):
    name = os.path.basename(path)
    meta, rows = read(path)
    stem = path[:-4] if path.endswith('.csv') else path
    # The model the rows were predicted with, as the knee report states it once the levels ran.
    model = '(no knee report)'
    if os.path.exists(stem + '-knee.md'):
        with open(stem + '-knee.md') as f:
            model = next((l[len('- model: '):].strip() for l in f if l.startswith('- model: ')),
                         '(no model line)')
    say(model.startswith('loaded latency L(X): 11 levels'),
        '%s: model is the loaded curve (%s)' % (name, model))
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
    return meta, rows


def check_loaded(meta, rows):
    levels = [r for r in rows if r.get('mode') == 'loaded']
    if not levels:
        say(False, 'loaded-latency levels: no chase/loaded rows')
        return
    for lv in levels:
        print('  level: %s %2s warps U%s  %8.1f GB/s  mean %6.1f ns  p5 %6.1f p50 %6.1f p95 %6.1f '
              'p99 %6.1f ns  SMs %s..%s ns  %s MHz  %s' %
              (lv['traffic'], lv['stream_warps_per_sm'], lv['unroll'], num(lv['gbps_median']),
               num(lv['latency_mean_ns']), num(lv['latency_p5_ns']), num(lv['latency_p50_ns']),
               num(lv['latency_p95_ns']), num(lv['latency_p99_ns']), lv['latency_sm_min_ns'],
               lv['latency_sm_max_ns'], lv['sm_clock_mhz_measured'], lv['status']))
    say(len(levels) == 33 and all(lv['status'] == 'ok' for lv in levels),
        'loaded-latency levels all ok (%d of 33)' % len(levels))
    idle = [lv for lv in levels if lv['variant'] == 'loaded_read_w00_u1']
    idle = num(idle[0]['latency_mean_ns']) if idle else math.nan
    ladder = num(meta.get('dram_latency_ns'))
    say(abs(idle / ladder - 1) <= 0.05,
        'idle mean latency %.1f ns vs ladder DRAM %.1f ns (%+.1f%%, target within 5%%)' %
        (idle, ladder, 100 * (idle / ladder - 1)))
    setup = num(meta.get('loaded_setup_s'))
    launches = sum(num(lv['time_ms_median']) for lv in levels) / 1000
    secs = setup + launches
    say(secs <= 30, 'loaded-latency levels: %.1f s (set-up %.1f s + %d launches %.2f s; target '
        '<= 30 s)' % (secs, setup, len(levels), launches))


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
