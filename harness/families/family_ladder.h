/* SPDX-License-Identifier: Apache-2.0 */
/* harness/families/family_ladder.h: what the latency ladder exports beyond its OccFamilyOps. */
#ifndef OCC_FAMILY_LADDER_H
#define OCC_FAMILY_LADDER_H

#include <stddef.h>

#include <cuda_runtime_api.h>

/* The unloaded DRAM latency for the Little's-law model: one warm chase of addresses (one load per
 * hop, as the default ladder) over a footprint of footprint_bytes (choose far beyond L2) on
 * `stream`, median of its timed segments: *ns and *cycles per dependent load. 0, or -1 with a
 * one-line err (a CUDA error, or a chase that ended away from the host's walk). */
int occ_ladder_dram_latency(cudaStream_t stream, size_t footprint_bytes, double *ns,
                            double *cycles, char *err, size_t err_len);

#endif
