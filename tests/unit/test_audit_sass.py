#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/unit/test_audit_sass.py AUDIT_SASS_PY: kernels/audit_sass.py on hand-written SASS listings.

Each case is a small function in cuobjdump -sass layout whose loop shape ptxas is known to emit
(a 2 + 2 load split, a pipelined loop, unrolled body + remainder, divergence fallbacks that jump
back, the reduce epilogue) with the count the audit must give; the mixed step's case also goes
through the bound tests/build/test_sass_audit.py puts on it. The asynchronous classes
(kernels/audit_async.py): a cp.async commit-group loop, a bulk-copy ring with its prologue,
election and wait loops, a wgmma loop, each with the per-trip count and waits the promise rule
(tests/build/test_sass_audit.py) checks.
"""
import importlib.util
import os
import sys
import unittest


def load_audit(path, name='audit_sass'):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


audit_sass = None
# tests/build/test_sass_audit.py, whose mixed rule test_mixed_step_forms runs on audited listings.
sass_rule = load_audit(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'build',
                                    'test_sass_audit.py'), 'test_sass_audit')


def listing(functions, arch='sm_90'):
    """cuobjdump -sass text: functions is [(symbol, [instruction text, ...])], 16 bytes apart."""
    lines = ['', 'Fatbin elf code:', '================', 'arch = ' + arch, '']
    for symbol, insns in functions:
        lines.append('\t\tFunction : ' + symbol)
        for k, text in enumerate(insns):
            lines.append('        /*%04x*/                   %s ;   /* 0x0000000000000000 */'
                         % (16 * k, text))
            lines.append('                                                /* 0x000fe20000000a00 */')
        lines.append('\t\t..........')
    return lines


def audit_one(insns, symbol='occsweep_reduce_u4_v8'):
    rows = audit_sass.audit(listing([(symbol, insns)]))
    assert len(rows) == 1, rows
    return rows[0]


class Counting(unittest.TestCase):
    def test_two_plus_two_split(self):
        # sm_90 reduce_u4_v8: a load pair, its adds, then the next pair.
        row = audit_one([
            'IADD3 R4, P0, R4, 0x10, RZ',
            'LDG.E.64 R8, desc[UR6][R8.64]',
            'LDG.E.64 R12, desc[UR6][R28.64]',
            'FADD R14, R8, R9',
            'FADD R23, R14, R23',
            'LDG.E.64 R16, desc[UR6][R16.64]',
            'LDG.E.64 R18, desc[UR6][R14.64]',
            'FADD R28, R16, R17',
            'ISETP.GE.U32.AND P0, PT, R4, R19, PT',
            '@!P0 BRA 0x0',
            'EXIT',
        ])
        self.assertEqual(row[2:5], (2, 4, '0x0000-0x0090'))

    def test_high_half_of_a_pair_is_a_use(self):
        # LDG.E.64 R8 writes R8 and R9: reading R9 alone is the first use.
        row = audit_one([
            'LDG.E.64 R8, desc[UR6][R2.64]',
            'LDG.E.64 R10, desc[UR6][R4.64]',
            'FADD R20, R9, RZ',
            'LDG.E.64 R12, desc[UR6][R6.64]',
            '@P0 BRA 0x0',
        ])
        self.assertEqual(row[2], 2)

    def test_quad_loads(self):
        # LDG.E.128 R12 writes R12..R15: a store of R14 is the first use of the second load.
        row = audit_one([
            'LDG.E.128.CONSTANT R8, desc[UR4][R2.64]',
            'LDG.E.128.CONSTANT R12, desc[UR4][R4.64]',
            'LDG.E.128.CONSTANT R16, desc[UR4][R6.64]',
            'STG.E desc[UR4][R20.64], R14',
            '@P0 BRA 0x0',
        ], 'occsweep_copy_u4_v16')
        self.assertEqual(row[2], 3)

    def test_wide_store_reads_a_quad(self):
        # STG.E.128 of R8 reads R8..R11, so it waits for the scalar load into R11.
        row = audit_one([
            'LDG.E R11, desc[UR4][R2.64]',
            'STG.E.128 desc[UR4][R20.64], R8',
            'LDG.E R24, desc[UR4][R4.64]',
            '@P0 BRA 0x0',
        ], 'occsweep_copy_u2_v4')
        self.assertEqual(row[2], 1)

    def test_plain_address_register_is_one_register(self):
        # [R4] of a 128-bit store is a 32-bit address: it does not read R5.
        row = audit_one([
            'LDG.E R5, desc[UR4][R2.64]',
            'STS.128 [R4], R12',
            'LDG.E R9, desc[UR4][R6.64]',
            'FADD R0, R5, R9',
            '@P0 BRA 0x0',
        ], 'occsweep_reduce_u2_v4')
        self.assertEqual(row[2], 2)

    def test_address_pair_read(self):
        # A chase: the next hop's address pair R2.64 holds R3, loaded by the previous hop.
        row = audit_one([
            'LDG.E R3, desc[UR6][R2.64]',
            'LDG.E R5, desc[UR6][R4.64]',
            'LDG.E R2, desc[UR6][R2.64]',
            '@P1 BRA 0x0',
        ], 'occsweep_chase_thread_k2')
        self.assertEqual(row[2], 2)

    def test_pipelined_loop_counts_loads_used_across_the_back_edge(self):
        # Stores of the last trip's data at the top, this trip's loads at the bottom.
        row = audit_one([
            'STG.E.64 desc[UR4][R20.64], R8',
            'STG.E.64 desc[UR4][R22.64], R10',
            'LDG.E.64 R8, desc[UR4][R2.64]',
            'LDG.E.64 R10, desc[UR4][R4.64]',
            'IADD3 R2, P1, R2, 0x100, RZ',
            '@P0 BRA 0x0',
        ], 'occsweep_copy_u2_v8')
        self.assertEqual(row[2], 2)

    def test_generic_loads_count_local_and_shared_do_not(self):
        row = audit_one([
            'LD.E.64 R8, desc[UR6][R2.64]',
            'LDL R4, [R1+0x10]',
            'LDS R6, [R3]',
            'LDG.E R10, desc[UR6][R12.64]',
            'FADD R0, R4, R6',
            'FADD R0, R8, R10',
            '@P0 BRA 0x0',
        ], 'occsweep_reduce_u2_v8')
        self.assertEqual(row[2:4], (2, 2))

    def test_rewritten_register_is_no_longer_pending(self):
        row = audit_one([
            'LDG.E R8, desc[UR6][R2.64]',
            'MOV R8, RZ',
            'FADD R10, R8, R10',
            'LDG.E R9, desc[UR6][R4.64]',
            'FADD R11, R9, R11',
            '@P0 BRA 0x0',
        ], 'occsweep_reduce_u2_v4')
        self.assertEqual(row[2], 2)

    def test_wide_multiply_add_reads_its_64_bit_addend(self):
        row = audit_one([
            'LDG.E R7, desc[UR6][R2.64]',
            'LDG.E R9, desc[UR6][R4.64]',
            'IMAD.WIDE.U32 R2, R5, 0x4, R6',
            'LDG.E R11, desc[UR6][R12.64]',
            '@P0 BRA 0x0',
        ], 'occsweep_chase_thread_k2')
        self.assertEqual(row[2], 2)


class HotLoop(unittest.TestCase):
    def test_unrolled_body_wins_over_remainder(self):
        row = audit_one([
            'LDG.E R8, desc[UR6][R2.64]',       # 0x00: remainder loop, 1 load per trip
            'FADD R0, R8, R0',
            '@P0 BRA 0x0',
            'LDG.E R8, desc[UR6][R2.64]',       # 0x30: unrolled x2, 2 loads per trip
            'LDG.E R9, desc[UR6][R4.64]',
            'FADD R0, R8, R0',
            'FADD R0, R9, R0',
            '@P1 BRA 0x30',
            'EXIT',
        ], 'occsweep_reduce_u1_v4')
        self.assertEqual(row[2:5], (2, 2, '0x0030-0x0070'))

    def test_tie_on_loads_per_trip_goes_to_the_loop_keeping_fewest(self):
        # The streaming walk's two loops with 2 loads per trip: the bounds-checked one keeps
        # both in flight, the full-chunk one (later in address order) uses the first before
        # issuing the second (sm_90 reduce_u4_v16 before hold_trip): the audit reports 1.
        row = audit_one([
            '@P2 LDG.E R8, desc[UR6][R2.64]',   # 0x00: bounds-checked loop, 2 in flight
            '@P3 LDG.E R9, desc[UR6][R4.64]',
            'FADD R0, R8, R0',
            'FADD R0, R9, R0',
            '@P0 BRA 0x0',
            'LDG.E R8, desc[UR6][R2.64]',       # 0x50: full-chunk loop, 1 in flight
            'FADD R0, R8, R0',
            'LDG.E R9, desc[UR6][R4.64]',
            'FADD R0, R9, R0',
            '@P1 BRA 0x50',
            'EXIT',
        ], 'occsweep_reduce_u2_v4')
        self.assertEqual(row[2:5], (1, 2, '0x0050-0x0090'))

    def test_tie_with_equal_loads_in_flight_goes_to_the_first(self):
        row = audit_one([
            'LDG.E R8, desc[UR6][R2.64]',       # 0x00
            'FADD R0, R8, R0',
            '@P0 BRA 0x0',
            'LDG.E R9, desc[UR6][R4.64]',       # 0x30
            'FADD R0, R9, R0',
            '@P1 BRA 0x30',
            'EXIT',
        ], 'occsweep_reduce_u1_v4')
        self.assertEqual(row[2:5], (1, 1, '0x0000-0x0020'))

    def test_epilogue_loop_after_the_barrier_is_skipped(self):
        # The reduce family's last block sums the partials in a loop after a barrier.
        row = audit_one([
            'LDG.E R8, desc[UR6][R2.64]',
            'FADD R0, R8, R0',
            '@P0 BRA 0x0',
            'BAR.SYNC.DEFER_BLOCKING 0x0',
            'LDG.E.STRONG.SYS R7, desc[UR6][R6.64]',
            'LDG.E.STRONG.SYS R9, desc[UR6][R6.64+0x4]',
            'FADD R10, R7, R9',
            '@P1 BRA 0x40',
            'EXIT',
        ], 'occsweep_reduce_u1_v4')
        self.assertEqual(row[2:5], (1, 1, '0x0000-0x0020'))

    def test_setup_barrier_ahead_of_the_walk_ends_nothing(self):
        # The dynamic walk sets up its chunk ring behind a barrier before the steady loop; the
        # epilogue barrier after the loop still ends the steady state.
        row = audit_one([
            'STS [R0], R1',
            'BAR.SYNC.DEFER_BLOCKING 0x0',
            'LDG.E R8, desc[UR6][R2.64]',        # 0x20: the steady loop
            'LDG.E R9, desc[UR6][R2.64+0x80]',
            'FADD R0, R8, R0',
            'FADD R0, R9, R0',
            '@P0 BRA 0x20',
            'BAR.SYNC.DEFER_BLOCKING 0x0',
            'LDG.E.STRONG.SYS R7, desc[UR6][R6.64]',   # 0x80: epilogue, 3 loads per trip
            'LDG.E.STRONG.SYS R9, desc[UR6][R6.64+0x4]',
            'LDG.E.STRONG.SYS R11, desc[UR6][R6.64+0x8]',
            'FADD R10, R7, R9',
            '@P1 BRA 0x80',
            'EXIT',
        ], 'occsweep_reduce_u2_v4')
        self.assertEqual(row[2:5], (2, 2, '0x0020-0x0060'))

    def test_innermost_loop_of_a_nest(self):
        # The latency kernel: a segment loop around the timed hop loop.
        row = audit_one([
            'CS2R R10, SR_CLOCKLO',
            'LDG.E R2, desc[UR6][R2.64]',       # 0x10: the hop loop
            '@P1 BRA 0x10',
            'CS2R R12, SR_CLOCKLO',
            'STG.E.64 desc[UR6][R4.64], R12',
            '@P0 BRA 0x0',
            'EXIT',
        ], '_Z20chase_latency_kernelIjEvPKT_S0_iiiPxPyS4_')
        self.assertEqual(row[0], 'chase_latency_i4')
        self.assertEqual(row[2:5], (1, 1, '0x0010-0x0020'))

    def test_backward_jump_that_closes_no_cycle_is_no_loop(self):
        # Out-of-line code (a divergent-shuffle fallback) jumps back into straight-line code.
        row = audit_one([
            'LDG.E R8, desc[UR6][R2.64]',       # 0x00: the real loop
            'FADD R0, R8, R0',
            '@P0 BRA 0x0',
            'BRA.DIV UR4, 0x60',
            'SHFL.BFLY PT, R3, R0, 0x1, 0x1f',  # 0x40
            'EXIT',
            'LDG.E R5, desc[UR6][R6.64]',       # 0x60: fallback, loads, jumps back
            'LDG.E R9, desc[UR6][R6.64+0x4]',
            'BRA 0x40',
        ], 'occsweep_reduce_u1_v4')
        self.assertEqual(row[2:5], (1, 1, '0x0000-0x0020'))

    def test_no_load_loop_gives_zero(self):
        row = audit_one(['LDG.E R8, desc[UR6][R2.64]', 'STG.E desc[UR6][R4.64], R8', 'EXIT'],
                        'occsweep_copy_u1_v4')
        self.assertEqual(row[2:4], (0, 0))


class FmaChains(unittest.TestCase):
    def test_interleaved_chains_count(self):
        # fma_fp32_u2: two chains interleaved, the trip loop's counter, compare and branch.
        row = audit_one([
            'FFMA R8, R4.reuse, R8, R5.reuse',
            'FFMA R10, R4.reuse, R10, R5.reuse',
            'FFMA R8, R4.reuse, R8, R5.reuse',
            'FFMA R10, R4.reuse, R10, R5.reuse',
            'UIADD3 UR4, UR4, 0x1, URZ',
            'ISETP.NE.AND P0, PT, R2, UR4, PT',
            '@P0 BRA 0x0',
            'STG.E.64 desc[UR6][R6.64], R8',
            'EXIT',
        ], 'occsweep_fma_fp32_u2')
        self.assertEqual(row[2:4], (0, 0))  # no load loop
        self.assertEqual(row[6:10], (2, 4, 7, 4))  # R8/R4 and R10/R4: even-bank pairs

    def test_serial_chains_count_one(self):
        # Two chains written one after the other: in-order issue keeps one FMA in flight.
        row = audit_one([
            'DFMA R8, R8, R4, R6',
            'DFMA R8, R8, R4, R6',
            'DFMA R10, R10, R4, R6',
            'DFMA R10, R10, R4, R6',
            'NOP',
            '@P0 BRA 0x0',
            'EXIT',
        ], 'occsweep_fma_fp64_u2')
        self.assertEqual(row[6:10], (1, 4, 5, 0))  # the NOP is not issued; DFMA: no bank pair

    def test_innermost_loop_with_most_fmas(self):
        # A short prologue loop with one FMA, then the hot loop: the hot one is audited.
        row = audit_one([
            'FFMA R2, R2, R3, R3',
            '@P1 BRA 0x0',
            'FFMA R8, R4, R8, R5',
            'FFMA R9, R4, R9, R5',
            'FFMA R10, R4, R10, R5',
            'FFMA R8, R4, R8, R5',
            '@P0 BRA 0x20',
            'EXIT',
        ], 'occsweep_fma_fp32_u4')
        self.assertEqual(row[6:10], (3, 4, 5, 4))  # R8/R4, R9/R5, R10/R4, R8/R4: all pairs

    def test_bank_pairs(self):
        # x * c + c with x and c in different banks: none; x * m + c with R9, R7 (odd): one; a
        # register read twice is one register; RZ is no register.
        row = audit_one([
            'FFMA R10, R3, R10, R3',
            'FFMA R9, R9, R7.reuse, R2',
            'FFMA R6, R6, R6, RZ',
            '@P0 BRA 0x0',
            'EXIT',
        ], 'occsweep_fma_fp32_u1')
        self.assertEqual(row[9], 1)

    def test_mixed_step_forms(self):
        # mixed, one 4-byte load per trip and A = 4 (ptxas's shapes, cut down): the old step
        # x * m + c (sm_90: three registers) pairs in every FFMA; x * c + c only where the loaded
        # register R9 shares c's bank (R3), and so on sm_80, which reads c from the constant bank
        # in one slot (no register).
        def mixed(chain, arch='sm_90'):
            rows = audit_sass.audit(listing([('occsweep_mixed_u1_v4_a4', [
                'LDG.E R9, desc[UR6][R4.64]',
                'FFMA R10, R9, ' + chain,
                'FFMA R10, R10, ' + chain,
                'FFMA R10, R10, ' + chain,
                'FFMA R10, R10, ' + chain,
                'FADD R11, R10, R11',
                '@P0 BRA 0x0',
                'EXIT',
            ])], arch))
            return rows[0]
        old, new = mixed('R2.reuse, R3.reuse'), mixed('R3.reuse, R3.reuse')
        self.assertEqual(old[6:10], (1, 4, 7, 4))
        self.assertEqual(new[6:10], (1, 4, 7, 1))
        self.assertEqual(mixed('R3.reuse, c[0x0][0x1b0]', 'sm_80')[9], 1)
        # tests/build/test_sass_audit.py allows one pair per chain (here 1) on sm_90 and later.
        self.assertTrue(sass_rule.arithmetic_failures(*(old[:2] + old[6:10])))
        self.assertEqual(sass_rule.arithmetic_failures(*(new[:2] + new[6:10])), [])

    def test_memory_kernel_has_no_chains(self):
        row = audit_one(['LDG.E R8, desc[UR6][R2.64]', 'FADD R9, R8, R9', '@P0 BRA 0x0', 'EXIT'],
                        'occsweep_reduce_u1_v4')
        self.assertEqual(row[6:], (0, 0, 0, 0, '', 0, 0))


class OnChip(unittest.TestCase):
    def test_shared_loads_count_like_global_ones(self):
        # smem chase, two chains: two LDS whose addresses are the previous hop's values.
        row = audit_one([
            'LDS R4, [R4]',
            'LDS R5, [R5]',
            'LDS R4, [R4]',
            'LDS R5, [R5]',
            'IADD3 R6, R6, -0x1, RZ',
            'ISETP.NE.AND P0, PT, R6, RZ, PT',
            '@P0 BRA 0x0',
            'EXIT',
        ], 'occsweep_smem_chase_k2')
        self.assertEqual(row[2:4], (2, 4))

    def test_tile_fill_before_the_barrier_is_set_up(self):
        # The chase builds its tile from global memory (LDG, STS), then a barrier, then the walk:
        # the fill is no candidate, and the barrier behind it ends nothing.
        row = audit_one([
            'LDG.E R4, desc[UR8][R4.64]',
            'STS [R10], R4',
            '@!P1 BRA 0x0',
            'BAR.SYNC.DEFER_BLOCKING 0x0',
            'LDS R6, [R6]',
            'LDS R7, [R7]',
            'LDS R6, [R6]',
            'LDS R7, [R7]',
            '@P0 BRA 0x40',
            'EXIT',
        ], 'occsweep_smem_chase_k2')
        self.assertEqual(row[2:5], (2, 4, '0x0040-0x0080'))

    def test_wide_shared_loads_and_their_store(self):
        # smem rw, U = 2, V = 16: two LDS.128, then the store of the first reads R8..R11.
        row = audit_one([
            'LDS.128 R8, [R2]',
            'LDS.128 R12, [R2+0x200]',
            'STS.128 [R3], R8',
            'STS.128 [R3+0x200], R12',
            '@P0 BRA 0x0',
            'EXIT',
        ], 'occsweep_smem_rw_u2_v16')
        self.assertEqual(row[2:4], (2, 2))

    def test_mma_chains_by_accumulator(self):
        # Two accumulators (R4.., R8..) of HMMA.16816 with A in R12.., B in R16..: two chains;
        # the third HMMA reads R4, written by the first.
        row = audit_one([
            'HMMA.16816.F32 R4, R12, R16, R4',
            'HMMA.16816.F32 R8, R12, R16, R8',
            'HMMA.16816.F32 R4, R12, R16, R4',
            'HMMA.16816.F32 R8, R12, R16, R8',
            '@P0 BRA 0x0',
            'EXIT',
        ], 'occsweep_mma_f16_u2')
        self.assertEqual(row[2], 0)
        self.assertEqual(row[6:9], (2, 4, 5))

    def test_dmma_serial_chain_counts_one(self):
        row = audit_one([
            'DMMA.884 R4, R12, R14, R4',
            'DMMA.884 R4, R12, R14, R4',
            '@P0 BRA 0x0',
            'EXIT',
        ], 'occsweep_mma_f64_u1')
        self.assertEqual(row[6:9], (1, 2, 3))


class Asynchronous(unittest.TestCase):
    def test_cp_async_commit_group_loop(self):
        # sm_90 async_cp_s2_u2_w4: wait for the oldest group, read it, issue the next group.
        row = audit_one([
            'DEPBAR.LE SB0, 0x1',
            'LDS.128 R8, [R23]',
            'LDGSTS.E.BYPASS.128 [R9], desc[UR8][R20.64], !P0',
            'LDGSTS.E.BYPASS.128 [R23], desc[UR8][R14.64], !P1',
            'LDGDEPBAR',
            '@P0 BRA 0x0',
            'DEPBAR.LE SB0, 0x0',
            'EXIT',
        ], 'occsweep_async_cp_s2_u2_w4')
        self.assertEqual(row[10:], ('LDGSTS', 2, 1))  # LDGDEPBAR commits, it does not wait
        self.assertEqual(sass_rule.async_failures('async_cp_s2_u2_w4', 'sm_90',
                                                  (2, 'LDGSTS', 'sm_80+'), *row[10:]), [])
        self.assertEqual(len(sass_rule.async_failures('async_cp_s2_u4_w4', 'sm_90',
                                                      (4, 'LDGSTS', 'sm_80+'), *row[10:])), 1)

    def test_bulk_ring_counts_the_trip_not_its_inner_loops(self):
        # sm_90 async_bulk W1: a prologue copy in its election loop, then the ring's trip: the
        # mbarrier wait spins, the stage is read, the next copy goes out in its election loop.
        row = audit_one([
            'SYNCS.ARRIVE.TRANS64 RZ, [R25+URZ], R2',
            'UBLKCP.S.G [UR6], [UR10], UR4',
            '@P0 BRA.U.ANY 0x10',
            'SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [R6+UR10], R9',
            '@!P0 BRA 0x30',
            'LDS.128 R4, [R21]',
            'SYNCS.ARRIVE.TRANS64 RZ, [R6+UR10], R13',
            'UBLKCP.S.G [UR12], [UR6], UR5',
            '@P0 BRA.U.ANY 0x70',
            '@P1 BRA 0x30',
            'EXIT',
        ], 'occsweep_async_bulk_s2_c8k_w1')
        self.assertEqual(row[10:], ('UBLKCP', 1, 1))
        want = (1, 'UBLKCP', 'sm_90+')
        self.assertEqual(sass_rule.async_failures('async_bulk_s2_c8k_w1', 'sm_90', want,
                                                  *row[10:]), [])
        # compiled empty for sm_80: nothing to find, nothing promised there
        self.assertEqual(sass_rule.async_failures('async_bulk_s2_c8k_w1', 'sm_80', want,
                                                  '', 0, 0), [])

    def test_wgmma_group_loop(self):
        # sm_90a wgmma_f16_n64_ss_g2: fence, 4 HGMMA (the last signals gsb0), wait for G-1 groups.
        row = audit_one([
            'WARPGROUP.ARRIVE',
            'HGMMA.64x64x16.F32 R24, gdesc[UR4], R24',
            'HGMMA.64x64x16.F32 R24, gdesc[UR4], R24',
            'HGMMA.64x64x16.F32 R24, gdesc[UR4], R24',
            'HGMMA.64x64x16.F32 R24, gdesc[UR4], R24, gsb0',
            'WARPGROUP.DEPBAR.LE gsb0, 0x1',
            '@!P2 BRA 0x0',
            'WARPGROUP.DEPBAR.LE gsb0, 0x0',
            'EXIT',
        ], 'occsweep_wgmma_f16_n64_ss_g2')
        self.assertEqual(row[10:], ('HGMMA', 4, 1))  # WARPGROUP.ARRIVE is a fence, no wait
        want = (4, 'HGMMA', 'sm_90')
        self.assertEqual(sass_rule.async_failures('wgmma_f16_n64_ss_g2', 'sm_90', want,
                                                  *row[10:]), [])
        self.assertEqual(len(sass_rule.async_failures('wgmma_f16_n64_ss_g2', 'sm_90', want,
                                                      '', 0, 0)), 2)  # the sm_90 code alone
        self.assertEqual(len(sass_rule.async_failures('wgmma_f16_n64_ss_g2', 'sm_90', want,
                                                      'HGMMA', 4, 0)), 1)  # never waits


class Listing(unittest.TestCase):
    def test_names_archs_and_skipped_kernels(self):
        loop = ['LDG.E R8, desc[UR6][R2.64]', 'STG.E desc[UR6][R4.64], R8', '@P0 BRA 0x0']
        text = (listing([('occsweep_copy_u1_v4', loop), ('_Z17fill_lines_kernelIjEvPT_PKjmj', loop)],
                        'sm_80')
                + listing([('_Z20chase_latency_kernelIyEvPKT_S0_iiiPxPyS4_', loop)], 'sm_120')
                + ['Fatbin ptx code:', '================', 'arch = sm_120'])
        rows = audit_sass.audit(text)
        self.assertEqual([(r[0], r[1], r[2]) for r in rows],
                         [('copy_u1_v4', 'sm_80', 1), ('chase_latency_i8', 'sm_120', 1)])


if __name__ == '__main__':
    audit_sass = load_audit(sys.argv.pop(1))
    unittest.main(verbosity=2)
