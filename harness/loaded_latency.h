/* SPDX-License-Identifier: Apache-2.0 */
/* harness/loaded_latency.h: the loaded-latency sweep (kernels/loaded.cu): latency of dependent
 * DRAM loads while background warps hold the memory system at stepped throughputs, one launch
 * per load level. */
#ifndef OCC_LOADED_LATENCY_H
#define OCC_LOADED_LATENCY_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#include "loaded_hist.h"

/* The load steps, idle to saturation, of each traffic (OccLoadedTraffic: read, then copy); at
 * each, the address probe and then one shaped probe per stream shape (U, V) below. */
#define OCC_LOADED_STEPS 11
#define OCC_LOADED_LEVELS (2 * OCC_LOADED_STEPS * (1 + OCC_LOADED_SHAPES))

/* The shaped probes' (U, V): the copy and reduce variants' trips (kernels/variants.h). */
extern const int occ_loaded_shape_unroll[OCC_LOADED_SHAPES];
extern const int occ_loaded_shape_vec_bytes[OCC_LOADED_SHAPES];

/* Runs the OCC_LOADED_LEVELS levels on `stream` with one block per SM (sm_count blocks): the
 * address probes chase their own random cycle of footprint_bytes (128-byte lines; choose far
 * beyond L2), the shaped probes another of 4 KiB nodes (L2, of l2_bytes, flushed before each of
 * their launches), the background streams over its own buffer of footprint_bytes. Fills lv[0..)
 * (each level ok, or fail: a probe off its walk, two probes on one SM, a background sum that is
 * not the sum of the words it loaded). 0, or -1 with a one-line err (a CUDA error or no memory). */
int occ_loaded_latency_sweep(cudaStream_t stream, int sm_count, size_t footprint_bytes,
                             size_t l2_bytes, OccLoadedLevel lv[OCC_LOADED_LEVELS], char *err,
                             size_t err_len);

#endif
