/* SPDX-License-Identifier: Apache-2.0 */
/* harness/gpu/kernel_clock.h: the SM clock a kernel ran at, from the two counters its block 0
 * adds to (kernels/clock_span.cuh: clock64 cycles and %globaltimer ns), and the clock a row's
 * peak is taken at. GPU side (CUDA runtime). */
#ifndef OCC_KERNEL_CLOCK_H
#define OCC_KERNEL_CLOCK_H

#include <cuda_runtime.h>

/* Allocates the two device counters, zeroed; cudaSuccess, else an error and *words NULL. */
cudaError_t occ_kernel_clock_alloc(unsigned long long **words);

/* Zeroes them (before a point's first launch). */
cudaError_t occ_kernel_clock_reset(unsigned long long *words);

/* The clock a row's peak is taken at, MHz, once the point's launches are done: the kernel's,
 * cycles x 1000 / ns of the counters added up over the point's launches, where the kernel added
 * any (ns > 0), else the clock watch's watch_mhz; either never above the device's peak clock
 * peak_mhz (occ_arch_clock_within_peak). *measured_mhz: the kernel's clock as measured (NaN
 * where none), for the row's sm_clock_mhz_measured. Waits for the device. */
double occ_kernel_clock_for_peak(const unsigned long long *words, double watch_mhz,
                                 double peak_mhz, double *measured_mhz);

#endif
