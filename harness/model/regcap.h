/* SPDX-License-Identifier: Apache-2.0 */
/* harness/model/regcap.h: the register ladder (pure): at which register counts per thread the register
 * file lets one more block per SM fit, and which register-capped twin the `bounds` lever takes
 * for an occupancy level.
 *
 * Registers are allocated per warp in units of arch->reg_alloc_unit (256 on sm_75 .. sm_120, i.e.
 * 8 per thread) from one quarter of the register file, so with 128-thread blocks on sm_90 only
 * 16 (<= 32 registers), 12 (<= 40), 10 (<= 48), 9 (<= 56), 8 (<= 64), ... blocks per SM can be set
 * by registers alone; the levels between (13..15 blocks) need a cap and padding. The counts come
 * from the occupancy model (occupancy.h), the rules of cuda_occupancy.h. */
#ifndef OCC_REGCAP_H
#define OCC_REGCAP_H

#include "arch.h"

/* One rung of the ladder. */
typedef struct OccRegRung {
    int regs_per_thread; /* the most registers per thread that still fit blocks_per_sm */
    int blocks_per_sm;   /* resident blocks per SM that the register file, warp slots and block
                            limit allow at regs_per_thread (shared memory aside) */
} OccRegRung;

/* Blocks per SM of block_threads-thread blocks at regs_per_thread that registers, warp slots
 * and the block limit allow (no shared memory counted); 0 when such a block cannot launch. */
int occ_regcap_blocks(const OccArchLimits *arch, int block_threads, int regs_per_thread);

/* The rungs of arch for blocks of block_threads, ascending in registers (descending in blocks):
 * every register count r in 1..arch->max_regs_per_thread - 1 at which r + 1 registers fit fewer
 * blocks, up to the first that fits one block. Writes at most max into out; returns how many
 * there are (which may exceed max), or 0 when block_threads is not launchable on arch. */
int occ_regcap_ladder(const OccArchLimits *arch, int block_threads, OccRegRung *out, int max);

/* Which of n register-capped twins, of regs[0..n) registers per thread as compiled, the bounds
 * lever takes for a level of target_blocks blocks of block_threads: among the twins that fit
 * exactly target_blocks by registers alone (no padding needed), the one with the most registers
 * (the fewest spills); else the twin with the most registers that fits more (padding pins the
 * level); else, when none fits target_blocks, the twin fitting the most blocks (its point is a
 * skip row saying why). Returns an index into regs, or -1 when n is 0. */
int occ_regcap_pick(const OccArchLimits *arch, int block_threads, int target_blocks,
                    const int *regs, int n);

#endif
