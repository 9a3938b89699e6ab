#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/cli/ladder_check.py CSV [RESOURCES_CSV]: the register ladder's evidence in a --lever both
sweep (tools/gpu/gpu_check_ladder.sh runs it on the H200's CSVs).

For each natural variant of CSV with bounds rows (its own and its twins' rows, _r<cap>), prints a table per level: the pad
row's GB/s (or its skip), the bounds row's twin, registers, spill bytes (local_bytes_per_thread),
padding and GB/s. Then PASS/FAIL lines:
  reach    every level from the natural variant's highest ok level to 100% has an ok bounds row
           whose achieved occupancy is the target (the ladder covers what registers forbid);
  caps     every bounds row's registers are at most its twin's cap (reg_cap_per_thread);
  rungs    a bounds row without padding above the natural limit is limited by registers or
           warps (registers alone set its level), and one such row exists unless the natural
           variant reaches 100% itself;
  table    with RESOURCES_CSV (build/kernels/kernel_resources.csv): each bounds row's registers
           and local bytes equal the build's regs_per_thread and stack_bytes_per_thread for the
           row's arch (sm_<cc without the dot>).
Exit 0 when every check passed, 1 when one failed, 2 on an unreadable file or one with no bounds
rows.
"""
import collections
import csv
import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'plots'))
import occcsv  # noqa: E402


def num(text):
    try:
        return float(text)
    except ValueError:
        return float('nan')


def table_of(path):
    """(variant, arch) -> (registers, stack bytes) of the build's resource table (its own
    schema: read with the csv module)."""
    with open(path, newline='') as f:
        return {(r['variant'], r['arch']): (int(r['regs_per_thread']),
                                            int(r['stack_bytes_per_thread']))
                for r in csv.DictReader(f)}


def check_group(key, rows, table, say):
    pad = {num(r['occ_target_pct']): r for r in rows if r['lever'] == 'pad'}
    bounds = {num(r['occ_target_pct']): r for r in rows if r['lever'] == 'bounds'}
    print('%s: occ%%  pad GB/s | bounds twin  regs  spill B  pad B  GB/s' % key)
    for occ in sorted(set(pad) | set(bounds)):
        p, b = pad.get(occ), bounds.get(occ)
        pad_text = ('%8.1f' % num(p['gbps_median']) if p and p['status'] == 'ok'
                    else '    skip' if p else '       -')
        if b and b['status'] == 'ok':
            bounds_text = '%-20s %3s %8s %6s %8.1f' % (
                b['variant'], b['regs_per_thread'], b['local_bytes_per_thread'],
                b['dyn_smem_pad_bytes'], num(b['gbps_median']))
        else:
            bounds_text = b['status'] if b else '-'
        print('  %6.2f %s | %s' % (occ, pad_text, bounds_text))
    ok_pad = [occ for occ, r in pad.items() if r['status'] == 'ok']
    natural_top = max(ok_pad) if ok_pad else 0.0
    need = [occ for occ in bounds if occ >= natural_top]
    missing = [occ for occ in need if bounds[occ]['status'] != 'ok' or
               abs(num(bounds[occ]['occ_achieved_pct']) - occ) > 1e-6]
    name = key
    say(not missing and 100.0 in need,
        '%s reach: bounds ok at every level %.2f..100%% (%d levels)%s'
        % (name, natural_top, len(need), ', missing %s' % missing if missing else ''))
    ok_bounds = [r for r in bounds.values() if r['status'] == 'ok']
    over = [r['variant'] for r in ok_bounds
            if int(r['regs_per_thread']) > int(r['reg_cap_per_thread'])]
    say(ok_bounds and not over, '%s caps: registers within the cap%s'
        % (name, ', over in %s' % over if over else ''))
    unpadded = [r for r in ok_bounds if int(r['dyn_smem_pad_bytes']) == 0 and
                num(r['occ_target_pct']) > natural_top]
    wrong = [r['variant'] for r in unpadded if r['limiter'] not in ('regs', 'warps')]
    say((unpadded or natural_top >= 100.0) and not wrong, '%s rungs: %d levels set by registers alone (%s)%s'
        % (name, len(unpadded), ', '.join('%s %s%%' % (r['variant'], r['occ_target_pct'])
                                          for r in unpadded),
           ', limiter not regs/warps in %s' % wrong if wrong else ''))
    if table is None:
        return
    differ = []
    for r in ok_bounds:
        arch = 'sm_' + r['cc'].replace('.', '')
        got = (int(r['regs_per_thread']), int(r['local_bytes_per_thread']))
        if table.get((r['variant'], arch)) != got:
            differ.append('%s %s: run %s, build %s' % (r['variant'], arch, got,
                                                        table.get((r['variant'], arch))))
    say(not differ, '%s table: registers and local bytes as the build recorded%s'
        % (name, '; ' + '; '.join(differ) if differ else ''))


def main():
    if len(sys.argv) not in (2, 3):
        print('usage: ladder_check.py CSV [RESOURCES_CSV]', file=sys.stderr)
        return 2
    try:
        rows = occcsv.read(sys.argv[1]).dicts()
        table = table_of(sys.argv[2]) if len(sys.argv) == 3 else None
    except (OSError, KeyError, ValueError, occcsv.CsvError) as e:
        print('ERROR: %r' % e, file=sys.stderr)
        return 2
    groups = collections.OrderedDict()
    for r in rows:
        groups.setdefault(re.sub(r'_r\d+$', '', r['variant']), []).append(r)
    failed = []

    def say(ok, text):
        print('%s: %s' % ('PASS' if ok else 'FAIL', text))
        if not ok:
            failed.append(text)
    checked = 0
    for key, group in groups.items():
        if any(r['lever'] == 'bounds' for r in group):
            check_group(key, group, table, say)
            checked += 1
    if not checked:
        print('ERROR: %s holds no bounds row' % sys.argv[1], file=sys.stderr)
        return 2
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
