/* SPDX-License-Identifier: Apache-2.0 */
/* harness/families/claims.c: the claiming families' buffers (contract in claims.h). */
#include "claims.h"

#include <stdlib.h>
#include <string.h>

#include "kernel_clock.h"

cudaError_t occ_claims_alloc(OccClaims *c, size_t out_bytes, size_t warp_capacity)
{
    memset(c, 0, sizeof *c);
    c->out_bytes = out_bytes;
    c->warp_capacity = warp_capacity;
    c->host = malloc(out_bytes);
    c->host_trips = malloc(warp_capacity * sizeof *c->host_trips);
    cudaError_t e = c->host && c->host_trips ? cudaMalloc(&c->out, out_bytes)
                                             : cudaErrorMemoryAllocation;
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&c->warp_trips, warp_capacity * sizeof *c->warp_trips);
    const size_t claim_bytes = OCC_CLAIM_GROUPS_MAX * OCC_CLAIM_STRIDE_BYTES;
    if (e == cudaSuccess) e = cudaMalloc((void **)&c->claim, claim_bytes);
    if (e == cudaSuccess) e = cudaMalloc((void **)&c->warps_done, sizeof *c->warps_done);
    if (e == cudaSuccess) e = cudaMemset(c->claim, 0, claim_bytes);
    if (e == cudaSuccess) e = cudaMemset(c->warps_done, 0, sizeof *c->warps_done);
    if (e == cudaSuccess) e = occ_kernel_clock_alloc(&c->clock_words);
    if (e != cudaSuccess) occ_claims_free(c);
    return e;
}

void occ_claims_free(OccClaims *c)
{
    cudaFree(c->out);
    cudaFree(c->warp_trips);
    cudaFree(c->claim);
    cudaFree(c->warps_done);
    cudaFree(c->clock_words);
    free(c->host);
    free(c->host_trips);
    memset(c, 0, sizeof *c);
}

cudaError_t occ_claims_run_checked(const OccClaims *c, size_t out_bytes, long long warps,
                                   cudaStream_t st,
                                   cudaError_t (*launch)(void *, cudaStream_t,
                                                         unsigned long long *),
                                   void *sp)
{
    const size_t trip_bytes = (size_t)warps * sizeof *c->warp_trips;
    cudaError_t e = cudaMemsetAsync(c->out, 0xff, out_bytes, st);
    if (e == cudaSuccess) e = cudaMemsetAsync(c->warp_trips, 0xff, trip_bytes, st);
    if (e == cudaSuccess) e = launch(sp, st, NULL);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(c->host, c->out, out_bytes, cudaMemcpyDeviceToHost, st);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(c->host_trips, c->warp_trips, trip_bytes, cudaMemcpyDeviceToHost, st);
    if (e == cudaSuccess) e = cudaStreamSynchronize(st);
    return e;
}
