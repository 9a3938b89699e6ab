/* SPDX-License-Identifier: Apache-2.0 */
/* harness/families/family_stream.h: the kernel tables of the streaming families (family_copy.c,
 * family_reduce.c, family_mixed.c), for the GPU tests that exercise every launcher directly. The
 * table entry type is the shared one of harness/gpu/stream_buf.h. */
#ifndef OCC_FAMILY_STREAM_H
#define OCC_FAMILY_STREAM_H

#include "stream_buf.h"

/* Each family's table, *n entries, in the order of its list in kernels/variants.h. */
const OccStreamKernel *occ_copy_kernels(int *n);
const OccStreamKernel *occ_reduce_kernels(int *n);
const OccStreamKernel *occ_mixed_kernels(int *n);

#endif
