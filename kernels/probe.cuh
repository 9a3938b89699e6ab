// SPDX-License-Identifier: Apache-2.0
// kernels/probe.cuh: the residency probe (see OccStreamArgs.probe). Off (a NULL pointer, the
// same for every thread) in timed launches, where it costs one uniform branch per block. The
// probe code is the one plugins use (include/occsweep/plugin.h), so built-in and plugin kernels
// record residency alike.
#ifndef OCC_PROBE_CUH
#define OCC_PROBE_CUH

#include "api.h"
#include "occsweep/plugin.h"

static_assert(OCC_PROBE_WORDS == OCC_PLUGIN_PROBE_WORDS, "one probe layout for every kernel");

__device__ __forceinline__ unsigned long long probe_clock_ns() { return occ_plugin_clock_ns(); }

__device__ __forceinline__ void probe_start(unsigned long long *probe)
{
    occ_plugin_probe_start(probe);
}

// Every thread of the block calls it (it has a barrier when the probe is on).
__device__ __forceinline__ void probe_end(unsigned long long *probe) { occ_plugin_probe_end(probe); }

#endif
