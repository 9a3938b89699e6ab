/* SPDX-License-Identifier: Apache-2.0 */
/* harness/model/flops.h: the arithmetic families' pure side: how long an fma launch is, the closed
 * forms their results are checked against, and the mixed family's tolerance. No CUDA header
 * (tested on CPU); the peak itself is occ_arch_flop_peak_gflops (arch.h). */
#ifndef OCC_FLOPS_H
#define OCC_FLOPS_H

#include <stddef.h>

#include "arch.h"
#include "fma_chain.h"

/* An fma launch at full occupancy and the arithmetic peak lasts about this long, ms: long
 * against the launch's ramp and against one chunk of trips (OCC_FMA_CLAIMS_PER_WARP). */
#define OCC_FMA_LAUNCH_MS 4.0
/* Trips of a launch per thread stay at most this: 4096 trips x 512 steps at U = 1 is 2^21, so a
 * warp may run four times its share and its fp32 chains stay below 2^24, where they are exact
 * (fma_chain.h). */
#define OCC_FMA_MAX_TRIPS 4096
/* Trips when the arch's FMA lanes for the type are unknown (no peak to size the launch from). */
#define OCC_FMA_TRIPS_UNKNOWN 64
/* Claims per warp of an average share: chunk_trips = trips / this (at least 1). The warps of a
 * launch finish within about one chunk of each other (1/64 of the launch), and the claims stay
 * far below what one counter serves (H200, 100%: 8448 warps x 64 per 4 ms, 135 M/s). */
#define OCC_FMA_CLAIMS_PER_WARP 64

/* Loop trips per thread of an fma launch for elem_bytes (4: fp32, 8: fp64) on arch a at
 * clock_mhz: the launch of max_threads_per_sm threads per SM lasts OCC_FMA_LAUNCH_MS at the
 * peak (rounded, in 1..OCC_FMA_MAX_TRIPS); OCC_FMA_TRIPS_UNKNOWN when a's lanes for the type are
 * 0 or clock_mhz is not positive. On an H200 (128 fp32 / 64 fp64 lanes, 1980 MHz, 2048
 * threads/SM): 967 and 483. A launch runs trips x its warps warp trips in all. */
int occ_fma_trips(const OccArchLimits *a, int elem_bytes, double clock_mhz);

/* Trips per claim for `trips` trips per thread: trips / OCC_FMA_CLAIMS_PER_WARP, at least 1. */
unsigned int occ_fma_chunk_trips(int trips);

/* The elements of out (threads x unroll, float when elem_bytes is 4, else double; chain u of
 * thread i at i x unroll + u) that differ from the closed form occ_fma_start(i, u) + N x
 * OCC_FMA_STEP, N = warp_trips[i / 32] x OCC_FMA_PER_TRIP / unroll steps (the trips thread i's
 * warp ran): exact comparison (tolerance 0). threads is a multiple of 32. */
unsigned long long occ_fma_mismatches(const void *out, int elem_bytes, long long threads,
                                      int unroll, const unsigned int *warp_trips);

/* The trips the warps ran in all (warp_trips of `warps` warps): a launch's must equal its
 * total_trips, or work was lost or run twice. */
unsigned long long occ_fma_trips_run(const unsigned int *warp_trips, long long warps);

/* What a mixed launch must sum to: every one of n_floats elements (sum host_sum, each in [0, 1))
 * plus A steps of x + OCC_MIXED_STEP (x * 1 + 1, fma_chain.h): host_sum + n_floats x A. */
double occ_mixed_expected_sum(double host_sum, size_t n_floats, int fma_per_element);

/* The most one element's chain of A steps can end away from x0 + A, absolute: (A + 1) x 2^-23
 * (the derivation is at OCC_MIXED_STEP, fma_chain.h); 0 when A <= 0. */
double occ_mixed_chain_error(int fma_per_element);

/* The mixed check's tolerance, relative to `expected`: the summation's bound sum_tolerance
 * (occ_reduce_tolerance, the same order of adds) plus every chain's rounding,
 * n_floats x occ_mixed_chain_error(A) / expected. */
double occ_mixed_tolerance(double sum_tolerance, size_t n_floats, int fma_per_element,
                           double expected);

#endif
