/* harness/family_reduce.h: what the reduce family exports beyond its OccFamilyOps. */
#ifndef OCC_FAMILY_REDUCE_H
#define OCC_FAMILY_REDUCE_H

#include <stddef.h>

/* Tolerance of the reduce check: a bound on float32 rounding for the kernel's summation order,
 * relative to sum |x|, for a launch of grid x block threads with U accumulators each. */
double occ_reduce_tolerance(size_t n_floats, int grid_blocks, int block_threads, int unroll);

#endif
