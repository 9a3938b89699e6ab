#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""kernels/audit_sass.py: how many loads each kernel really keeps in flight, per arch.

Reads `cuobjdump -sass` of the kernel library (or a saved listing, --sass) and prints one CSV
line per (variant, arch): the loads that the steady-state loop issues before the first
instruction that reads a register one of them writes: its global loads (LDG, generic LD), or in a
loop that holds none, its shared-memory loads (LDS; the smem family walks shared memory only).
That is the ILP/MLP the machine code delivers; a variant's name promises U (copy, reduce, smem
stream) or K (chase, smem chase) of them.

The steady-state loop, per function:
  1. A loop is a backward branch (target <= branch) whose target reaches the branch again
     within [target, branch] (fall-through, and branches that stay in the range). This drops
     the jumps that out-of-line code (warp-divergent shuffle fallbacks) makes back into the
     body, which are backward but close no cycle.
  2. Candidates are the innermost loops that hold a load: no other such loop lies inside
     their range (an outer segment loop around the timed hop loop is not one). A loop that
     stores to shared memory (STS) and loads none from it (LDS) fills a tile (the smem
     family's set-up) and is no candidate.
  3. Loops that start after the first block barrier (BAR) behind the first loop holding a
     load are the epilogue, not the steady state: the reduce family's last block sums
     the per-block partials after one. A barrier ahead of every such loop is set-up (the
     dynamic walk's chunk ring) and ends nothing.
  4. The hot loop is the candidate with the most loads per trip: a loop the compiler
     unrolls leaves the unrolled body and a remainder loop, and the unrolled one runs nearly
     every trip. Ties go to the loop that keeps the fewest loads in flight (then the first in
     address order): the streaming walk has a full-chunk loop and a bounds-checked one with the
     same loads per trip, either may run most trips, and ptxas schedules them differently
     (reduce_u4_v16 on sm_90, before its loads were fenced (Hold, vec.cuh): 4 in the checked loop, 3 in
     the full-chunk one that runs nearly every trip).

Counting in that loop: walk its body in address order from the head and stop at the first
instruction that reads a register written by a load seen so far; loads whose results are first
read across the back edge (a software-pipelined loop) all count, as they are in flight together.
Wide loads write register tuples (LDG.E.64 R16: R16-R17; LDG.E.128 R8: R8-R11); `R2.64`
operands, wide stores and .64/.WIDE arithmetic read pairs or quads. A register rewritten without
being read leaves the tracked set. Branches inside the body are walked
through in address order (both sides of a forward branch count), which is exact for the
straight-line bodies of these kernels. 0 means no loop holding a load was found.

Arithmetic chains, for every audited kernel: the hot arithmetic loop is the innermost loop with
the most FMAs per trip (ties: the first): scalar FFMA, DFMA, and the tensor cores' matrix
multiply-accumulates HMMA, DMMA (one per warp-level mma.sync); fma_chains_sass counts the FMAs its body
issues, walked in address order from the head, before the first FMA that reads a register an
earlier FMA of the walk wrote: the independent FMA chains in flight (an in-order issue cannot
start a dependent FMA before its input is done). fma_per_trip and issued_per_trip are that loop's
FMAs and instructions other than NOPs (the scheduling padding ptxas puts around a slow pipe's
instructions); the rest is the loop's overhead. fma_bank_pairs_sass counts its FFMAs whose
sources hold two different registers of one bank (number mod 2; a constant-bank or uniform
operand is no register, one register read twice is one): tests/build/test_sass_audit.py bounds it
for fma_fp32_u1 and the mixed family. 0, 0, 0, 0 when no loop holds an FMA (the memory kernels,
whose FMA-free loops carry no chains).

The async columns (bulk copies, cp.async or wgmma per trip, their waits): kernels/audit_async.py.
Kernels audited: extern "C" occsweep_<variant>, and the latency ladder's
chase_latency_kernel<I>, reported as chase_latency_i4 / chase_latency_i8 (index bytes).

Usage: audit_sass.py [--cuobjdump PATH] [--nvdisasm PATH] LIBRARY
       audit_sass.py --sass LISTING      (a saved `cuobjdump -sass` output; - for stdin)
Output: variant,arch,loads_in_flight_sass,loads_per_trip,loop,symbol,fma_chains_sass,fma_per_trip,
        issued_per_trip,fma_bank_pairs_sass,async_class,async_per_trip,async_waits_per_trip
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from audit_async import asynchronous  # noqa: E402  (beside this file)

INSN = re.compile(r'^\s*/\*([0-9a-f]+)\*/\s+(.*?)\s*;')
REG = re.compile(r'(?<![A-Z_])R(\d+)(\.64|\.128)?')
LATENCY = re.compile(r'^_Z\d+chase_latency_kernelI([jy])E')
LATENCY_INDEX_BYTES = {'j': 4, 'y': 8}
STORES = ('ST', 'STG', 'STS', 'STL', 'RED', 'REDG', 'ATOMS')
UNCONDITIONAL_ENDS = ('EXIT', 'RET', 'BRX', 'JMX', 'KILL')


class Insn:
    """One SASS instruction: address, guard predicate (or ''), opcode base, modifiers, operands."""

    def __init__(self, addr, text):
        self.addr = addr
        self.guard = ''
        if text.startswith('@'):
            self.guard, text = text.split(None, 1)
        op, _, rest = text.partition(' ')
        parts = op.split('.')
        self.op, self.mods = parts[0], parts[1:]
        self.operands = [o.strip() for o in rest.split(',')] if rest.strip() else []

    def is_global_load(self):
        return self.op in ('LDG', 'LD')

    def is_fma(self):
        """A scalar FMA (FFMA, DFMA) or a warp's matrix multiply-accumulate (HMMA, DMMA)."""
        return self.op in ('FFMA', 'DFMA', 'HMMA', 'DMMA')

    def is_mma(self):
        return self.op in ('HMMA', 'DMMA')

    def width(self):
        """Registers per data operand: 4 for .128, 2 for .64 / .WIDE, else 1."""
        if '128' in self.mods:
            return 4
        return 2 if '64' in self.mods or 'WIDE' in self.mods else 1

    def branch_target(self):
        """Target address of a BRA, else None."""
        if self.op != 'BRA' or not self.operands:
            return None
        m = re.search(r'0x([0-9a-f]+)', self.operands[-1])
        return int(m.group(1), 16) if m else None

    def falls_through(self):
        if self.guard:
            return True
        if self.op == 'BRA':
            return len(self.operands) > 1  # BRA.DIV UR5, 0x..: taken only when divergent
        return self.op not in UNCONDITIONAL_ENDS

    def _writes_register(self):
        return (self.operands and self.op not in STORES and self.op != 'BRA'
                and re.fullmatch(r'R\d+', self.operands[0]) is not None)

    def writes(self):
        """Registers this instruction writes (its first operand, when that is a register). An
        MMA's operands are aligned register tuples (an accumulator: 4 registers of fp32 or 2 fp64
        values); tuples never overlap in part, so its operands are tracked by their first
        register, which tells its chains apart."""
        if not self._writes_register():
            return set()
        first = int(self.operands[0][1:])
        return set(range(first, first + (1 if self.is_mma() else self.width())))

    def reads(self):
        """Registers this instruction reads: `R2.64` in an address is a pair; a plain register
        operand spans width() registers (.64/.128 stores and arithmetic), except that only the
        last source (the 64-bit addend) of a .WIDE multiply-add is a pair."""
        sources = self.operands[1:] if self._writes_register() else self.operands
        regs = set()
        for k, operand in enumerate(sources):
            for m in REG.finditer(operand):
                if self.is_mma():
                    n = 1
                elif m.group(2) or '[' in operand:
                    n = {None: 1, '.64': 2, '.128': 4}[m.group(2)]
                elif 'WIDE' in self.mods:
                    n = 2 if k == len(sources) - 1 else 1
                else:
                    n = self.width()
                regs.update(range(int(m.group(1)), int(m.group(1)) + n))
        return regs


def parse_listing(lines):
    """Yields (arch, symbol, [Insn]) for every function of a cuobjdump -sass listing."""
    arch, symbol, body = None, None, []
    for line in lines:
        m = re.match(r'^arch = (sm_\w+)', line)
        if m:
            arch = m.group(1)
            continue
        m = re.search(r'Function : (\S+)', line)
        if m:
            if symbol:
                yield arch, symbol, body
            symbol, body = m.group(1), []
            continue
        m = INSN.match(line)
        if m and symbol:
            body.append(Insn(int(m.group(1), 16), m.group(2)))
        elif line.startswith('Fatbin') and symbol:
            yield arch, symbol, body
            symbol, body = None, []
    if symbol:
        yield arch, symbol, body


def variant_name(symbol):
    """The variant an audited kernel symbol stands for, or None for kernels not audited."""
    if symbol.startswith('occsweep_'):
        return symbol[len('occsweep_'):]
    m = LATENCY.match(symbol)
    return 'chase_latency_i%d' % LATENCY_INDEX_BYTES[m.group(1)] if m else None


def closes_cycle(body, lo, hi):
    """True when body[lo] reaches body[hi] through edges that stay within [lo, hi]."""
    index = {insn.addr: i for i, insn in enumerate(body)}
    seen, todo = set(), [lo]
    while todo:
        i = todo.pop()
        if i in seen or not lo <= i <= hi:
            continue
        if i == hi:
            return True
        seen.add(i)
        if body[i].falls_through():
            todo.append(i + 1)
        target = body[i].branch_target()
        if target in index:
            todo.append(index[target])
    return False


def find_loops(body):
    """(head, tail) index pairs of every loop (see the module docstring, rule 1)."""
    index = {insn.addr: i for i, insn in enumerate(body)}
    loops = []
    for tail, insn in enumerate(body):
        head = index.get(insn.branch_target())
        if head is not None and head <= tail and closes_cycle(body, head, tail):
            loops.append((head, tail))
    return loops


def load_ops(body, loop):
    """The loads a loop is audited for: its global ones (LDG, generic LD) where it holds one,
    else its shared-memory ones (LDS)."""
    trip = body[loop[0]:loop[1] + 1]
    return ('LDG', 'LD') if any(i.is_global_load() for i in trip) else ('LDS',)


def loads_per_trip(body, loop):
    """Loads in the loop's body (load_ops)."""
    ops = load_ops(body, loop)
    return sum(insn.op in ops for insn in body[loop[0]:loop[1] + 1])


def fills_shared(body, loop, loops):
    """True for a loop that stores to shared memory (STS) and loads none from it (LDS) while
    another loop of the function does load from it: the set-up that fills the tile that loop
    walks (from global memory or from an index it computes)."""
    def has(lp, op):
        return any(i.op == op for i in body[lp[0]:lp[1] + 1])
    return (has(loop, 'STS') and not has(loop, 'LDS')
            and any(has(lp, 'LDS') for lp in loops if lp != loop))


def hot_loop(body):
    """The steady-state loop (rules 2-4), or None."""
    loops = find_loops(body)
    with_loads = [lp for lp in loops
                  if loads_per_trip(body, lp) and not fills_shared(body, lp, loops)]
    innermost = [lp for lp in with_loads
                 if not any(o != lp and lp[0] <= o[0] and o[1] <= lp[1] for o in with_loads)]
    first = min((lp[0] for lp in with_loads), default=len(body))
    barrier = next((i for i, insn in enumerate(body) if insn.op == 'BAR' and i > first), len(body))
    steady = sorted(lp for lp in innermost if lp[0] < barrier)
    if not steady:
        return None
    most = max(loads_per_trip(body, lp) for lp in steady)
    tied = [lp for lp in steady if loads_per_trip(body, lp) == most]
    return min(tied, key=lambda lp: loads_before_first_use(body, lp))


def loads_before_first_use(body, loop):
    """Global loads the loop issues before one of their results is read."""
    pending, issued, ops = set(), 0, load_ops(body, loop)
    for insn in body[loop[0]:loop[1] + 1]:
        if insn.reads() & pending:
            break
        pending -= insn.writes()
        if insn.op in ops:
            pending |= insn.writes()
            issued += 1
    return issued


def fmas_per_trip(body, loop):
    """FMAs in the loop's body."""
    return sum(insn.is_fma() for insn in body[loop[0]:loop[1] + 1])


def hot_fma_loop(body):
    """The innermost loop with the most FMAs per trip (the first on ties), or None."""
    with_fma = [lp for lp in find_loops(body) if fmas_per_trip(body, lp)]
    innermost = [lp for lp in with_fma
                 if not any(o != lp and lp[0] <= o[0] and o[1] <= lp[1] for o in with_fma)]
    return max(sorted(innermost), key=lambda lp: fmas_per_trip(body, lp)) if innermost else None


def fma_chains(body, loop):
    """FMAs the loop issues before one reads another's result: the independent chains."""
    written, issued = set(), 0
    for insn in body[loop[0]:loop[1] + 1]:
        if not insn.is_fma():
            continue
        if insn.reads() & written:
            break
        written |= insn.writes()
        issued += 1
    return issued


def bank_pair(insn):
    """1 when an FFMA's sources hold two different registers of one bank (number mod 2)."""
    if insn.op != 'FFMA':
        return 0
    regs = sorted(insn.reads())
    return int(any(a % 2 == b % 2 for i, a in enumerate(regs) for b in regs[i + 1:]))


def arithmetic(body):
    """(fma_chains_sass, fma_per_trip, issued_per_trip, fma_bank_pairs_sass) of the hot
    arithmetic loop."""
    loop = hot_fma_loop(body)
    if loop is None:
        return 0, 0, 0, 0
    trip = body[loop[0]:loop[1] + 1]
    issued = sum(insn.op != 'NOP' for insn in trip)
    return (fma_chains(body, loop), fmas_per_trip(body, loop), issued,
            sum(bank_pair(insn) for insn in trip))


def audit(lines):
    """[(variant, arch, in_flight, loads_per_trip, loop text, symbol, fma_chains, fma_per_trip,
    issued_per_trip, fma_bank_pairs, async_class, async_per_trip, async_waits_per_trip)] in
    listing order."""
    rows = []
    for arch, symbol, body in parse_listing(lines):
        variant = variant_name(symbol)
        if variant is None:
            continue
        loop, rest = hot_loop(body), arithmetic(body) + asynchronous(body, find_loops(body))
        if loop is None:
            rows.append((variant, arch, 0, 0, '', symbol) + rest)
            continue
        span = '0x%04x-0x%04x' % (body[loop[0]].addr, body[loop[1]].addr)
        rows.append((variant, arch, loads_before_first_use(body, loop),
                     loads_per_trip(body, loop), span, symbol) + rest)
    return rows


def dump_one(path, cuobjdump, env):
    """cuobjdump -sass of one library or object, as lines."""
    done = subprocess.run([cuobjdump, '-sass', path], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit('audit_sass: %s -sass %s failed: %s' % (cuobjdump, path, done.stderr.strip()))
    return done.stdout.splitlines()


def dump(library, cuobjdump, nvdisasm):
    """cuobjdump -sass of the library; cuobjdump finds nvdisasm through NVDISASM_PATH. A static
    library's objects are disassembled at once, one cuobjdump each (one cuobjdump over the whole
    library takes about 5 s for one arch, serially), and their listings joined in the archive's
    order: each object's listing names its own archs and functions."""
    env = dict(os.environ)
    if nvdisasm:
        env['NVDISASM_PATH'] = os.path.dirname(os.path.abspath(nvdisasm))
    ar = shutil.which('ar')
    if not library.endswith('.a') or not ar:
        return dump_one(library, cuobjdump, env)
    with tempfile.TemporaryDirectory(prefix='audit_sass.') as tmp:
        members = subprocess.run([ar, 't', os.path.abspath(library)], capture_output=True,
                                 text=True)
        names = members.stdout.split()
        if members.returncode != 0 or not names or len(set(names)) != len(names) or \
                subprocess.run([ar, 'x', os.path.abspath(library)], cwd=tmp).returncode != 0:
            return dump_one(library, cuobjdump, env)
        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            listings = pool.map(lambda n: dump_one(os.path.join(tmp, n), cuobjdump, env), names)
            return [line for listing in listings for line in listing]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('library', nargs='?', help='kernel library or object (cuobjdump input)')
    ap.add_argument('--sass', help='read a saved cuobjdump -sass listing instead (- = stdin)')
    ap.add_argument('--cuobjdump', default='cuobjdump')
    ap.add_argument('--nvdisasm', help='nvdisasm executable (cuobjdump -sass needs it)')
    args = ap.parse_args()
    if (args.sass is None) == (args.library is None):
        ap.error('give either LIBRARY or --sass LISTING')
    if args.sass == '-':
        lines = sys.stdin.read().splitlines()
    elif args.sass:
        with open(args.sass) as f:
            lines = f.read().splitlines()
    else:
        lines = dump(args.library, args.cuobjdump, args.nvdisasm)
    rows = audit(lines)
    if not rows:
        sys.exit('audit_sass: no occsweep kernel in the listing')
    print('variant,arch,loads_in_flight_sass,loads_per_trip,loop,symbol,fma_chains_sass,'
          'fma_per_trip,issued_per_trip,fma_bank_pairs_sass,async_class,async_per_trip,'
          'async_waits_per_trip')
    for row in rows:
        print(','.join(str(x) for x in row))


if __name__ == '__main__':
    main()
