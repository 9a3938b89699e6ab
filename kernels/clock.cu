// SPDX-License-Identifier: Apache-2.0
// kernels/clock.cu: the clock watch. One thread spins for a fixed %globaltimer window and counts
// SM cycles (clock64) meanwhile: cycles / ns is the SM clock at that moment, measured the way a
// benchmark's samples experience it (nvbench watches throttling the same way).
#include "api.h"

__global__ void clock_probe_kernel(unsigned long long *out, unsigned int window_ns)
{
    unsigned long long t0, t1;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    const long long c0 = clock64();
    long long c1;
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
        c1 = clock64();
    } while (t1 - t0 < window_ns);
    out[0] = (unsigned long long)(c1 - c0);
    out[1] = t1 - t0;
}

extern "C" cudaError_t occ_clock_probe(unsigned long long *out, unsigned int window_ns,
                                       cudaStream_t stream)
{
    clock_probe_kernel<<<1, 1, 0, stream>>>(out, window_ns);
    return cudaGetLastError();
}
