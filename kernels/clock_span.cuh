// SPDX-License-Identifier: Apache-2.0
// kernels/clock_span.cuh: the SM clock a kernel ran at, from inside it. Thread 0 of block 0 reads
// clock64 and %globaltimer when it starts its work and when it ends, and adds both differences, so
// cycles / ns over a point's launches is the clock of the launches that were timed (the clock
// watch between samples reads after the load has stopped: it misses a clock the load pulled down).
// harness/gpu/kernel_clock.h reads the two words.
#ifndef OCC_CLOCK_SPAN_CUH
#define OCC_CLOCK_SPAN_CUH

#include "probe.cuh"

// cycles, ns: NULL (off) or the two counters to add to. The start is subtracted when the span
// starts and the end added when it stops (modulo 2^64), so no register holds the start across the
// kernel's work.
__device__ __forceinline__ bool occ_clock_span_owner(const unsigned long long *cycles)
{
    return cycles && blockIdx.x == 0 && threadIdx.x == 0;
}

__device__ __forceinline__ void occ_clock_span_start(unsigned long long *cycles,
                                                     unsigned long long *ns)
{
    if (!occ_clock_span_owner(cycles)) return;
    atomicAdd(ns, 0ull - probe_clock_ns());
    atomicAdd(cycles, 0ull - (unsigned long long)clock64());
}

__device__ __forceinline__ void occ_clock_span_stop(unsigned long long *cycles,
                                                    unsigned long long *ns)
{
    if (!occ_clock_span_owner(cycles)) return;
    atomicAdd(cycles, (unsigned long long)clock64());
    atomicAdd(ns, probe_clock_ns());
}

#endif
