/* SPDX-License-Identifier: Apache-2.0 */
/* harness/families/family_reduce.h: what the reduce family exports beyond its OccFamilyOps. */
#ifndef OCC_FAMILY_REDUCE_H
#define OCC_FAMILY_REDUCE_H

#include <stddef.h>

/* Tolerance of the reduce check: a bound on float32 rounding for the kernel's summation order,
 * relative to sum |x|, for a launch of grid x block threads with U accumulators each, where no
 * block does more than `share` times its fair share of the buffer (1 for the static schedule). */
double occ_reduce_tolerance(size_t n_floats, int grid_blocks, int block_threads, int unroll,
                            double share);

/* The share the dynamic schedule's check assumes: a block claims at most 4 x its fair share of
 * chunks (blocks run at unequal speeds, but not 4x apart; the bound is a worst case over a
 * rounding error that grows far slower in practice). */
#define OCC_REDUCE_DYNAMIC_SHARE 4.0

#endif
