# SPDX-License-Identifier: Apache-2.0
"""kernels/audit_async.py: the asynchronous columns of the SASS audit (kernels/audit_sass.py).

Asynchronous work, for every audited kernel: the async loop is the outermost loop holding an
instruction of one of the asynchronous classes (UBLKCP: a bulk copy, cp.async.bulk; LDGSTS: a
16-byte cp.async; HGMMA: a warp-group MMA, wgmma.mma_async), the one with the most of them per
trip, the longest on ties (the prologue's bulk copies sit in election loops of a few
instructions outside the trip); async_class names the class, async_per_trip counts its
instructions in the loop's body and async_waits_per_trip the class's waits there (UBLKCP: the
mbarrier's SYNCS.PHASECHK; LDGSTS: DEPBAR, the commit groups' wait; HGMMA: WARPGROUP.DEPBAR).
The outermost loop, not the innermost: a bulk copy sits in a one-lane election loop
(BRA.U.ANY) and an mbarrier wait spins in its own loop, both inside the trip that issues and
waits. '', 0, 0 when no loop holds one.
"""

# The asynchronous classes: the opcode -> the opcode[.modifier] of its wait.
ASYNC_CLASSES = {'UBLKCP': 'SYNCS.PHASECHK', 'LDGSTS': 'DEPBAR', 'HGMMA': 'WARPGROUP.DEPBAR'}


def is_wait(insn, wait):
    """True when insn is the wait `wait` ('OP' or 'OP.MOD': the opcode and its first modifier)."""
    op, _, mod = wait.partition('.')
    return insn.op == op and (not mod or (insn.mods[:1] == [mod]))


def asynchronous(body, loops):
    """(async_class, async_per_trip, async_waits_per_trip) of the async loop (module docstring)
    of a function's instructions `body` (audit_sass.Insn) whose loops are `loops` (audit_sass
    find_loops: (head, tail) index pairs), or ('', 0, 0)."""
    best, best_key = ('', 0, 0), (0, 0)
    for cls, wait in ASYNC_CLASSES.items():
        holding = [lp for lp in loops if any(i.op == cls for i in body[lp[0]:lp[1] + 1])]
        outer = [lp for lp in holding
                 if not any(o != lp and o[0] <= lp[0] and lp[1] <= o[1] for o in holding)]
        for lp in sorted(outer):
            trip = body[lp[0]:lp[1] + 1]
            key = (sum(i.op == cls for i in trip), len(trip))
            if key > best_key:
                best_key = key
                best = (cls, key[0], sum(is_wait(i, wait) for i in trip))
    return best
