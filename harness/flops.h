/* SPDX-License-Identifier: Apache-2.0 */
/* harness/flops.h: the arithmetic families' pure side: how long an fma launch is, the closed
 * forms their results are checked against, and the mixed family's tolerance. No CUDA header
 * (tested on CPU); the peak itself is occ_arch_flop_peak_gflops (arch.h). */
#ifndef OCC_FLOPS_H
#define OCC_FLOPS_H

#include <stddef.h>

#include "arch.h"
#include "fma_chain.h"

/* An fma launch at full occupancy and the arithmetic peak lasts about this long, ms. */
#define OCC_FMA_LAUNCH_MS 1.0
/* Trips of a launch stay at most this (the exactness of fma_chain.h needs fewer than 2^19.9
 * steps per chain: 1024 trips x 512 steps at U = 1 is 2^19). */
#define OCC_FMA_MAX_TRIPS 1024
/* Trips when the arch's FMA lanes for the type are unknown (no peak to size the launch from). */
#define OCC_FMA_TRIPS_UNKNOWN 64

/* Loop trips per fma launch for elem_bytes (4: fp32, 8: fp64) on arch a at clock_mhz: the
 * launch of max_threads_per_sm threads per SM lasts OCC_FMA_LAUNCH_MS at the peak (rounded, in
 * 1..OCC_FMA_MAX_TRIPS); OCC_FMA_TRIPS_UNKNOWN when a's lanes for the type are 0 or clock_mhz is
 * not positive. On an H200 (128 fp32 / 64 fp64 lanes, 1980 MHz, 2048 threads/SM): 242 and 121. */
int occ_fma_trips(const OccArchLimits *a, int elem_bytes, double clock_mhz);

/* The elements of out (threads x unroll, float when elem_bytes is 4, else double; chain u of
 * thread i at i x unroll + u) that differ from the closed form occ_fma_start(i, u) + N x
 * OCC_FMA_ADD, N = trips x OCC_FMA_PER_TRIP / unroll steps: exact comparison (tolerance 0). */
unsigned long long occ_fma_mismatches(const void *out, int elem_bytes, long long threads,
                                      int unroll, int trips);

/* What a mixed launch must sum to: every one of n_floats elements (sum host_sum, each in [0, 1))
 * plus A steps of OCC_MIXED_ADD: host_sum + n_floats x A x OCC_MIXED_ADD. */
double occ_mixed_expected_sum(double host_sum, size_t n_floats, int fma_per_element);

/* The mixed check's tolerance, relative to `expected`: the summation's bound sum_tolerance
 * (occ_reduce_tolerance, the same order of adds) plus the chains' rounding, at most 2^-24 per
 * element when A > 0 (fma_chain.h), n_floats x 2^-24 / expected. */
double occ_mixed_tolerance(double sum_tolerance, size_t n_floats, int fma_per_element,
                           double expected);

#endif
