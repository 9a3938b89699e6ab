/* SPDX-License-Identifier: Apache-2.0 */
/* harness/model/onchip.h: the pure side of the families that run out of on-chip resources (smem:
 * shared memory; mma: the tensor cores): how long a launch is, and the checks of a launch's
 * results against the closed forms of kernels/smem_mma_forms.h.
 * Work is shared per warp (each warp runs the trips it claims; warp_trips[w] says how many), as
 * in the fma family. No CUDA header (tested on CPU). */
#ifndef OCC_ONCHIP_H
#define OCC_ONCHIP_H

#include <stddef.h>

#include "smem_mma_forms.h"

/* A launch at full occupancy and the rate it is sized for lasts about this long, ms. */
#define OCC_ONCHIP_LAUNCH_MS 4.0
/* Trips per warp when the rate or the clock is unknown. */
#define OCC_ONCHIP_TRIPS_UNKNOWN 64

/* Trips per warp for a launch of max_warps_per_sm warps per SM, each trip of a warp doing
 * work_per_warp_trip units (bytes, FLOP), at rate_per_sm_clk units per SM per clock and
 * clock_mhz: the launch lasts OCC_ONCHIP_LAUNCH_MS at that rate. Rounded, in 1..max_trips;
 * OCC_ONCHIP_TRIPS_UNKNOWN (at most max_trips) when the rate, the clock or the work is not
 * positive. H200, smem chase (8192 B a trip, 128 B/clk, 64 warps, 1980 MHz): 1934. */
unsigned int occ_onchip_trips(double work_per_warp_trip, double rate_per_sm_clk,
                              int max_warps_per_sm, double clock_mhz, unsigned int max_trips);

/* The chain ends of a smem chase launch (out: threads x K words, chain k of thread i at
 * out[i x K + k]) that differ from occ_smem_chase_end for the trips of each thread's warp;
 * order: the host's copy of the cycle (NULL: position x step mod rows); threads a multiple of
 * block_threads, block_threads a multiple of 32. */
unsigned long long occ_smem_chase_mismatches(const unsigned int *out, const unsigned int *order,
                                             unsigned int rows, unsigned int step,
                                             unsigned int chain_spacing, int K, long long threads,
                                             int block_threads, const unsigned int *warp_trips);

/* The checksums of a smem stream launch (out: one word per thread) that differ from
 * occ_smem_stream_checksum for the trips of each thread's warp. */
unsigned long long occ_smem_stream_mismatches(const unsigned int *out, unsigned int seed, int rw,
                                              int vec_bytes, long long threads,
                                              const unsigned int *warp_trips);

/* The accumulator elements of an mma launch (out: threads x U x E, float with E = 4 when f64 is
 * 0, double with E = 2 when it is 1; element e of accumulator u of thread i at
 * (i x U + u) x E + e) that differ from occ_mma_expected (depth K, operands a and b) for the trips
 * of each thread's warp: exact comparison. */
unsigned long long occ_mma_mismatches(const void *out, int f64, int U, int K, double a, double b,
                                      long long threads, const unsigned int *warp_trips);

#endif
