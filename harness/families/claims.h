/* SPDX-License-Identifier: Apache-2.0 */
/* harness/families/claims.h: the buffers of a family whose warps claim their trips from a
 * counter (fma, smem, mma: kernels/fma_chain.h, kernels/smem_mma.h; the chases: kernels/api.h),
 * and the checked launch that fills them: the results, their host copy, the trips each warp ran,
 * the counters the kernels reset at the end of every launch, and the kernel clock's two counters
 * (kernel_clock.h) of the families that take their peak at the kernel's clock (fma, mma). GPU
 * side (CUDA runtime). */
#ifndef OCC_CLAIMS_H
#define OCC_CLAIMS_H

#include <stddef.h>

#include <cuda_runtime.h>

#include "api.h"

typedef struct OccClaims {
    void *out;                 /* device results, out_bytes */
    void *host;                /* host copy of out for the check */
    size_t out_bytes;          /* capacity of each */
    unsigned int *warp_trips;  /* device: the trips each warp ran, warp_capacity counts */
    unsigned int *host_trips;  /* host copy of warp_trips */
    size_t warp_capacity;      /* warps of the largest grid */
    unsigned long long *claim; /* device: OCC_CLAIM_GROUPS_MAX trip counters, one per
                                  OCC_CLAIM_STRIDE_BYTES (0 between launches); one-counter
                                  families use the first */
    unsigned int *warps_done;  /* device: warps finished (0 between launches) */
    unsigned long long *clock_words; /* device: block 0's SM cycles and ns (kernel_clock.h) */
} OccClaims;

/* Allocates the buffers (counters zeroed); cudaSuccess, else an error with every buffer freed. */
cudaError_t occ_claims_alloc(OccClaims *c, size_t out_bytes, size_t warp_capacity);

/* Frees what occ_claims_alloc allocated (any buffer may be NULL); c is zeroed. */
void occ_claims_free(OccClaims *c);

/* The checked launch: sets the first out_bytes of out and the first `warps` counts of
 * warp_trips to all-ones bits (no launch leaves that in a slot it writes), runs launch(sp, st,
 * NULL) (a family's OccFamilyOps.launch), copies both back to host and host_trips and waits. */
cudaError_t occ_claims_run_checked(const OccClaims *c, size_t out_bytes, long long warps,
                                   cudaStream_t st,
                                   cudaError_t (*launch)(void *, cudaStream_t,
                                                         unsigned long long *),
                                   void *sp);

#endif
