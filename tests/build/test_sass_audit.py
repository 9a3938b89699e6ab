#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/build/test_sass_audit.py RESOURCES_CSV: each variant name's promised ILP is in its SASS.

For every (variant, arch) row of the build's kernel_resources.csv, loads_in_flight_sass (global
loads the steady-state loop issues before the first use of one, kernels/audit_sass.py) must equal
the promise its family's descriptor declares (a "SASS promise:" line of
kernels/families/<name>.h): U for copy_u<U>_v<V>[_r<cap>], reduce_u<U>_v<V>[_r<cap>] and mixed_u<U>_v<V>_a<A>,
K for chase_warp_k<K> and chase_thread_k<K>; for the shared-memory kernels the loads are LDS:
K for smem_chase_k<K>, U for smem_read_u<U>_v<V> and smem_rw_u<U>_v<V>. The arithmetic promises use the audit's FMA columns:
fma_<type>_u<U> issues no load; its hot loop holds U independent FMA chains (fma_chains_sass),
OCC_FMA_PER_TRIP = 512 FMAs per trip (kernels/fma_chain.h), and at most 1% other instructions
(the loop's overhead; NOPs, which ptxas pads a slow fp64 pipe's stream with, are not counted).
The 1% bound is checked for fp32 everywhere and for fp64 where the fp64 pipe is 64 lanes per SM
(sm_90, sm_100); elsewhere fp64 has at most 32 lanes per SM, a warp's DFMA holds its
sub-partition's pipe for 4 cycles or more and the loop's few other instructions issue in the idle
slots, so there the overhead is printed, not failed (sm_80: 6 per 512 DFMAs); mixed_u<U>_v<V>_a<A>'s load loop holds A FMAs for each of its U x V/4 floats
(fma_per_trip = A x U x V / 4), and at most one FFMA per chain per trip (U x V/4) reads two
registers of one bank (fma_bank_pairs_sass): its step x * c + c reads x and c only
(kernels/mixed.cu), and ptxas keeps the chains out of c's bank but for a few steps, mostly the
chains' first, which read the registers the loads wrote (of both banks): 3 to 7 per trip on sm_90.
The old step x * m + c, three registers, paired in every FFMA there (2048 per trip at A = 256).
The bound fails on sm_90 and later; before sm_90 it is printed, not failed: there ptxas takes one
operand (the step, or the old step's addend) from the constant bank, and on sm_80 it keeps one of
the eight chains in the step register's bank, with either step (258 per trip at A = 256).
mma_<type>_u<U> issues no load; its hot loop holds U
independent HMMA/DMMA chains and OCC_MMA_PER_TRIP = 64 of them per trip (kernels/smem_mma_forms.h);
its overhead is printed, not failed (an mma holds the tensor pipe for several cycles, and the
loop's other instructions issue meanwhile). The asynchronous families promise an instruction class instead (a promise
"PATTERN CLASS [COUNT] [ARCHS]", CLASS one of UBLKCP, LDGSTS, HGMMA): on the archs ARCHS names
("sm_90": that arch; "sm_90+": it and later; omitted: every arch) the async loop
(kernels/audit_sass.py) issues COUNT of that class per trip (group 1 of PATTERN when it has one,
else COUNT, else 1) and waits at least once per trip; on the other archs the kernel holds none of
them (it is compiled empty there). A one-chain fp32 variant (fma_fp32_u1) must have no FFMA in its
hot loop whose sources are two registers of one bank (fma_bank_pairs_sass, kernels/fma_chain.h:
each such FFMA costs an extra cycle there, which halved its throughput on an H200); with more
chains the reuse cache can serve an operand, and the count is printed, not failed. The latency
ladder's kernel (chase_latency_*) is exempt: one dependent chain, 1 by construction; its count is
reported. A register-capped twin (_r<cap>) whose cap cannot hold what it keeps in flight spills (a
stack frame, stack_bytes_per_thread > 0): it may keep fewer than U loads in flight, reported as
"spills:" with the count, never more than U and never none; a twin without a stack frame must
keep all U. Lists every mismatch; exit 1 if
any, or if a variant has no known promise. Exit 99 (a hard error, which meson reports as ERROR even
while the test is registered should_fail) when the CSV is unreadable or holds no variant row.
"""
import csv
import os
import re
import sys


def read_promises():
    """The promises the families declare: every ' * SASS promise: PATTERN AXIS [COUNT] [ARCHS]'
    line of the descriptors the registry kernels/families.def includes, as (compiled PATTERN,
    AXIS, COUNT or None, ARCHS or None)."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    kernels = os.path.join(root, 'kernels')
    out = []
    with open(os.path.join(kernels, 'families.def')) as registry:
        for header in re.findall(r'^#include "(families/\w+\.h)"', registry.read(), re.M):
            with open(os.path.join(kernels, header)) as f:
                for pattern, axis, count, archs in re.findall(
                        r'^ \* SASS promise: (\S+) (\w+)(?: (\d+))?(?: (sm_\d+\+?))?', f.read(), re.M):
                    out.append((re.compile(pattern), axis, int(count) if count else None,
                                archs or None))
    return tuple(out)


PROMISES = read_promises()
EXEMPT = re.compile(r'^chase_latency_')
CAPPED = re.compile(r'^(?:copy|reduce)_u\d+_v\d+_r\d+$')
FMA = re.compile(r'^fma_fp\d+_u(\d+)$')
MIXED = re.compile(r'^mixed_u(\d+)_v(\d+)_a(\d+)$')
MMA = re.compile(r'^mma_[a-z0-9]+_u(\d+)$')
FMA_PER_TRIP = 512  # OCC_FMA_PER_TRIP, kernels/fma_chain.h
MMA_PER_TRIP = 64  # OCC_MMA_PER_TRIP, kernels/smem_mma_forms.h
MAX_OVERHEAD = 0.01
FP64_FULL_PIPE = ('sm_90', 'sm_100')  # 64 fp64 FMA lanes per SM (harness/core/arch.c)
MIXED_BANK_FROM = 90  # the first arch whose mixed loop's same-bank FFMAs fail (docstring)
ASYNC_CLASSES = ('UBLKCP', 'LDGSTS', 'HGMMA')  # kernels/audit_sass.py ASYNC_CLASSES


def arch_number(arch):
    """90 for sm_90, 100 for sm_100a; 0 for a name without a number."""
    m = re.match(r'sm_(\d+)', arch)
    return int(m.group(1)) if m else 0


def promise(variant):
    """(loads in flight or count of the class, axis, archs) the name promises, or None (fma: no
    load, 0)."""
    for pattern, axis, count, archs in PROMISES:
        m = pattern.match(variant)
        if m and axis in ASYNC_CLASSES:
            return (int(m.group(1)) if m.groups() else count or 1), axis, archs
        if m:
            return (0 if axis == 'loads' else int(m.group(1))), axis, archs
    return None


def on_archs(arch, archs):
    """True when arch is among the promise's ARCHS (None: every arch)."""
    if archs is None:
        return True
    want = arch_number(archs)
    return arch_number(arch) >= want if archs.endswith('+') else arch_number(arch) == want


def async_failures(variant, arch, want, cls, per_trip, waits):
    """What the row breaks of its name's asynchronous promise, as messages."""
    count, axis, archs = want
    if not on_archs(arch, archs):
        if cls == axis:
            return ['%s %s: %d %s per trip on an arch the promise leaves out (%s)'
                    % (variant, arch, per_trip, axis, archs)]
        return []
    out = []
    if cls != axis or per_trip != count:
        out.append('%s %s: promised %d %s per trip, SASS audit %d %s'
                   % (variant, arch, count, axis, per_trip, cls or 'none'))
    if waits < 1:
        out.append('%s %s: its async loop never waits (%s)' % (variant, arch, axis))
    return out


def arithmetic_failures(variant, arch, chains, per_trip, issued, bank_pairs):
    """What the row breaks of its name's arithmetic promise (fma and mixed), as messages;
    issued: the loop's instructions other than NOPs."""
    out = []
    m = FMA.match(variant)
    if m and bank_pairs:
        pairs = '%s %s: %d FFMAs read two registers of one bank' % (variant, arch, bank_pairs)
        if int(m.group(1)) == 1:
            out.append(pairs + ' (one chain: no reuse cache to serve them)')
        else:
            print('info: ' + pairs)
    if m:
        if chains != int(m.group(1)):
            out.append('%s %s: promised %s independent FMA chains, SASS audit %d'
                       % (variant, arch, m.group(1), chains))
        overhead = '%s %s: loop overhead %d of %d instructions' % (variant, arch,
                                                                   issued - per_trip, issued)
        if per_trip != FMA_PER_TRIP:
            out.append('%s %s: %d FMAs per loop trip, want %d' % (variant, arch, per_trip,
                                                                 FMA_PER_TRIP))
        elif issued - per_trip > MAX_OVERHEAD * issued:
            if variant.startswith('fma_fp64_') and arch not in FP64_FULL_PIPE:
                print('info: %s (fp64 pipe of at most 32 lanes: issued in idle slots)' % overhead)
            else:
                out.append('%s (over %g%%)' % (overhead, 100 * MAX_OVERHEAD))
    m = MMA.match(variant)
    if m:
        if chains != int(m.group(1)):
            out.append('%s %s: promised %s independent mma chains, SASS audit %d'
                       % (variant, arch, m.group(1), chains))
        if per_trip != MMA_PER_TRIP:
            out.append('%s %s: %d mma per loop trip, want %d' % (variant, arch, per_trip,
                                                                MMA_PER_TRIP))
        print('info: %s %s: loop overhead %d of %d instructions (issued while the tensor pipe '
              'is busy)' % (variant, arch, issued - per_trip, issued))
    m = MIXED.match(variant)
    if m:
        floats = int(m.group(1)) * int(m.group(2)) // 4  # the independent chains of a trip
        want = int(m.group(3)) * floats
        if per_trip != want:
            out.append('%s %s: %d FMAs in the load loop, want A x U x V/4 = %d'
                       % (variant, arch, per_trip, want))
        if bank_pairs > floats:
            pairs = ('%s %s: %d FFMAs per trip read two registers of one bank, more than one per '
                     'chain (%d)' % (variant, arch, bank_pairs, floats))
            if arch_number(arch) >= MIXED_BANK_FROM:
                out.append(pairs)
            else:
                print('info: ' + pairs)
    return out


HARD_ERROR = 99


def read_rows(path):
    """(variant, arch, audited count, FMA columns, stack bytes, async columns) of every row."""
    with open(path, newline='') as f:
        return [(r['variant'], r['arch'], int(r['loads_in_flight_sass']),
                 int(r['fma_chains_sass']), int(r['fma_per_trip']), int(r['issued_per_trip']),
                 int(r['fma_bank_pairs_sass']), int(r['stack_bytes_per_thread']),
                 (r['async_class'], int(r['async_per_trip']), int(r['async_waits_per_trip'])))
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
    for variant, arch, audited, chains, per_trip, insns, bank_pairs, stack, asyn in rows:
        if EXEMPT.match(variant):
            print('exempt: %s %s: %d load(s) in flight (one dependent chain)'
                  % (variant, arch, audited))
            continue
        want = promise(variant)
        if want is None:
            failures.append('%s %s: no promise known for this name' % (variant, arch))
            continue
        checked += 1
        if want[1] in ASYNC_CLASSES:
            failures += async_failures(variant, arch, want, *asyn)
            continue
        failures += arithmetic_failures(variant, arch, chains, per_trip, insns, bank_pairs)
        if CAPPED.match(variant) and stack > 0 and 0 < audited <= want[0]:
            print('spills: %s %s: %d B stack per thread, %d of %d loads in flight'
                  % (variant, arch, stack, audited, want[0]))
            continue
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
