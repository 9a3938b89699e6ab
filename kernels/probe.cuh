// SPDX-License-Identifier: Apache-2.0
// kernels/probe.cuh: the residency probe (see OccStreamArgs.probe). Off (a NULL pointer, the
// same for every thread) in timed launches, where it costs one uniform branch per block.
#ifndef OCC_PROBE_CUH
#define OCC_PROBE_CUH

#include "api.h"

__device__ __forceinline__ unsigned long long probe_clock_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__device__ __forceinline__ void probe_start(unsigned long long *probe)
{
    if (probe && threadIdx.x == 0) {
        unsigned int smid;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
        probe[OCC_PROBE_WORDS * blockIdx.x] = smid;
        probe[OCC_PROBE_WORDS * blockIdx.x + 1] = probe_clock_ns();
    }
}

// Every thread of the block calls it (it has a barrier when the probe is on).
__device__ __forceinline__ void probe_end(unsigned long long *probe)
{
    if (probe) {
        __syncthreads();
        if (threadIdx.x == 0) probe[OCC_PROBE_WORDS * blockIdx.x + 2] = probe_clock_ns();
    }
}

#endif
