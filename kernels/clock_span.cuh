// SPDX-License-Identifier: Apache-2.0
// kernels/clock_span.cuh: the SM clock a kernel ran at, from inside it. Thread 0 of block 0 reads
// clock64 and %globaltimer when it starts its work and when it ends, and adds both differences, so
// cycles / ns over a point's launches is the clock of the launches that were timed (the clock
// watch between samples reads after the load has stopped: it misses a clock the load pulled down).
// harness/gpu/kernel_clock.h reads the two words.
#ifndef OCC_CLOCK_SPAN_CUH
#define OCC_CLOCK_SPAN_CUH

#include "probe.cuh"

// Where the span's start waits for its stop: shared memory, so that no register holds the start
// (or the counters' address) across the kernel's loop; 16 bytes of each block's static shared
// memory in a kernel that measures.
__shared__ unsigned long long occ_clock_span_begin[2];

// Block 0's thread 0, with the ids read afresh (volatile asm), so that the compiler keeps no
// register or predicate of the answer from the start to the stop.
__device__ __forceinline__ bool occ_clock_span_owner(const unsigned long long *cycles)
{
    unsigned int tid, ctaid;
    asm volatile("mov.u32 %0, %%tid.x;" : "=r"(tid));
    asm volatile("mov.u32 %0, %%ctaid.x;" : "=r"(ctaid));
    return cycles && (tid | ctaid) == 0;
}

// words: NULL (off) or the two counters (cycles, then ns) the span adds to when it stops.
__device__ __forceinline__ void occ_clock_span_start(const unsigned long long *words)
{
    if (!occ_clock_span_owner(words)) return;
    occ_clock_span_begin[1] = probe_clock_ns();
    occ_clock_span_begin[0] = (unsigned long long)clock64();
}

__device__ __forceinline__ void occ_clock_span_stop(unsigned long long *words)
{
    if (!occ_clock_span_owner(words)) return;
    const unsigned long long c1 = (unsigned long long)clock64();
    atomicAdd(words, c1 - occ_clock_span_begin[0]);
    atomicAdd(words + 1, probe_clock_ns() - occ_clock_span_begin[1]);
}

#endif
