/* SPDX-License-Identifier: Apache-2.0 */
/* harness/loaded_latency.h: the loaded-latency sweep (kernels/loaded.cu): latency of dependent
 * DRAM loads while background warps hold the memory system at stepped throughputs, one launch
 * per load level. */
#ifndef OCC_LOADED_LATENCY_H
#define OCC_LOADED_LATENCY_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#include "loaded_hist.h"

/* The load steps, idle to saturation, of each traffic (OccLoadedTraffic: read, then copy). */
#define OCC_LOADED_STEPS 11
#define OCC_LOADED_LEVELS (2 * OCC_LOADED_STEPS)

/* Runs the OCC_LOADED_LEVELS levels on `stream` with one block per SM (sm_count blocks): the
 * probes chase addresses over their own random cycle of footprint_bytes (128-byte lines; choose
 * far beyond L2), the background streams over its own buffer of footprint_bytes. Fills lv[0..)
 * (each level ok, or fail: a probe off its walk, two probes on one SM, a background sum that is
 * not the sum of the words it loaded). 0, or -1 with a one-line err (a CUDA error or no memory). */
int occ_loaded_latency_sweep(cudaStream_t stream, int sm_count, size_t footprint_bytes,
                             OccLoadedLevel lv[OCC_LOADED_LEVELS], char *err, size_t err_len);

#endif
