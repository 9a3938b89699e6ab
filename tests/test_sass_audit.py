#!/usr/bin/env python3
"""tests/test_sass_audit.py RESOURCES_CSV: the ILP each variant's name promises is in its SASS.

For every (variant, arch) row of the build's kernel_resources.csv, loads_in_flight_sass (global
loads the steady-state loop issues before the first use of one, kernels/audit_sass.py) must equal
the promise: U for copy_u<U>_v<V>[_lbfull] and reduce_u<U>_v<V>[_lbfull], K for
chase_warp_k<K> and chase_thread_k<K>. The latency ladder's kernel (chase_latency_*) is exempt:
one dependent chain, 1 by construction; its count is reported. Lists every mismatch; exit 1 if
any, or if a variant has no known promise. Exit 99 (a hard error, which meson reports as ERROR even
while the test is registered should_fail) when the CSV is unreadable or holds no variant row.
"""
import csv
import re
import sys

PROMISES = (
    (re.compile(r'^(?:copy|reduce)_u(\d+)_v\d+(?:_lbfull)?$'), 'U'),
    (re.compile(r'^chase_(?:warp|thread)_k(\d+)$'), 'K'),
)
EXEMPT = re.compile(r'^chase_latency_')


def promise(variant):
    """(count, axis letter) the name promises, or None."""
    for pattern, axis in PROMISES:
        m = pattern.match(variant)
        if m:
            return int(m.group(1)), axis
    return None


HARD_ERROR = 99


def read_rows(path):
    """(variant, arch, audited count) of every row."""
    with open(path, newline='') as f:
        return [(r['variant'], r['arch'], int(r['loads_in_flight_sass']))
                for r in csv.DictReader(f)]


def main():
    if len(sys.argv) != 2:
        print('usage: test_sass_audit.py RESOURCES_CSV')
        return HARD_ERROR
    try:
        rows = read_rows(sys.argv[1])
    except (OSError, KeyError, TypeError, ValueError) as e:
        print('ERROR: %s: %r' % (sys.argv[1], e))
        return HARD_ERROR
    checked, failures = 0, []
    for variant, arch, audited in rows:
        if EXEMPT.match(variant):
            print('exempt: %s %s: %d load(s) in flight (one dependent chain)'
                  % (variant, arch, audited))
            continue
        want = promise(variant)
        if want is None:
            failures.append('%s %s: no promise known for this name' % (variant, arch))
            continue
        checked += 1
        if audited != want[0]:
            failures.append('%s %s: promised %s=%d loads in flight, SASS audit %d'
                            % (variant, arch, want[1], want[0], audited))
    for line in failures:
        print('FAILED: ' + line)
    if checked == 0:
        print('ERROR: no variant row in %s' % sys.argv[1])
        return HARD_ERROR
    print('%d (variant, arch) rows checked, %d mismatch(es)' % (checked, len(failures)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
