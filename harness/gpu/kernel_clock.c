/* SPDX-License-Identifier: Apache-2.0 */
/* harness/gpu/kernel_clock.c: the kernel's own clock (contract in kernel_clock.h). */
#include "kernel_clock.h"

#include <math.h>

#include "arch.h"

cudaError_t occ_kernel_clock_alloc(unsigned long long **words)
{
    *words = NULL;
    cudaError_t e = cudaMalloc((void **)words, 2 * sizeof **words);
    if (e == cudaSuccess) e = occ_kernel_clock_reset(*words);
    if (e != cudaSuccess) {
        cudaFree(*words);
        *words = NULL;
    }
    return e;
}

cudaError_t occ_kernel_clock_reset(unsigned long long *words)
{
    return cudaMemset(words, 0, 2 * sizeof *words);
}

double occ_kernel_clock_for_peak(const unsigned long long *words, double watch_mhz,
                                 double peak_mhz, double *measured_mhz)
{
    unsigned long long w[2] = {0, 0};
    *measured_mhz = NAN;
    if (words && cudaDeviceSynchronize() == cudaSuccess &&
        cudaMemcpy(w, words, sizeof w, cudaMemcpyDeviceToHost) == cudaSuccess && w[1] > 0)
        *measured_mhz = 1e3 * (double)w[0] / (double)w[1];
    const double mhz = isnan(*measured_mhz) ? watch_mhz : *measured_mhz;
    return occ_arch_clock_within_peak(mhz, peak_mhz, NULL);
}
