/* SPDX-License-Identifier: Apache-2.0 */
/* harness/gpu/family.h: the GPU side of the kernel-family interface. Each family of the
 * registry (kernels/families.def) implements one OccFamilyOps in
 * harness/families/family_<file>.c; the point loop (harness/gpu/points.c) drives every family
 * through it and names none:
 *
 *   setup (once per run) -> per point: configure (attributes, padding, occupancy API: generic)
 *   -> bind -> time launch() (generic) -> verify -> probe residency with launch(probe)
 *   -> generic rate columns from bytes_per_launch and flops_per_launch -> fill (the family's own
 *   columns) -> % of the arithmetic peak the family's fill stated
 *
 * A footprint-shaped family (an experiment such as the latency ladder) sets `measure` instead
 * and measures each point itself. Launchers never print or exit; they return CUDA errors. */
#ifndef OCC_FAMILY_H
#define OCC_FAMILY_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#include "csv.h"
#include "device.h"
#include "options.h"
#include "plan.h"
#include "stream_buf.h"
#include "timing.h"

/* What a family's set-up may use: the run's device, stream, options and shared buffers. */
typedef struct OccRunEnv {
    const OccDevice *dev;          /* the GPU */
    OccTimer *timer;               /* the run's stream (timer->stream) */
    const OccTimingPolicy *policy; /* sampling policy (experiments that time by themselves) */
    const OccOptions *opt;         /* the command line (sizes, strides, ...) */
    OccStreamBuffers *stream;      /* shared input/output buffers of the run (stream_buf.h) */
    int max_grid_blocks;           /* largest grid any planned point launches */
    int max_block_threads;         /* largest block any planned point launches */
    /* Adds a `# key=value` metadata line (value printf-formatted) to the run's CSV. */
    void (*meta)(void *user, const char *key, const char *fmt, ...);
    void *meta_user;               /* first argument of meta */
} OccRunEnv;

/* The launch shape of one point, decided by the generic loop before bind. */
typedef struct OccShape {
    OccLaunch launch;  /* grid = blocks_per_sm x SMs x waves, block, padding (stream set later) */
    int blocks_per_sm; /* resident blocks per SM (occupancy API) */
    int sm_count;      /* SMs of the device */
} OccShape;

typedef struct OccFamilyOps {
    /* Allocates the family's state and buffers for the run into *state (NULL is a valid
     * state): each run's own, so that nothing of a family outlives its teardown. 0, or -1 with
     * a one-line err (out of memory names what was asked and what is free), having freed what
     * it allocated (*state NULL): the loop tears down only a family whose setup returned 0. */
    int (*setup)(void **state, const OccRunEnv *env, char *err, size_t err_len);
    /* Frees what setup allocated, the state included (state may be NULL). */
    void (*teardown)(void *state);
    /* The kernel of catalog variant v, for cudaFuncSetAttribute / cudaFuncGetAttributes / the
     * occupancy API; NULL for a footprint-shaped family. */
    const void *(*kernel)(const OccVariantInfo *v);
    /* Binds v to shape s for the launches that follow and fills the columns known before
     * timing: buffer_bytes, bytes_per_launch (work per launch, the generic GB/s; 0: no GB/s),
     * flops_per_launch (the generic GFLOP/s; 0: none), and bytes_in_flight_per_sm;
     * *touched_bytes = bytes one launch touches (for l2_resident).
     * Returns 0, or 1 when the point cannot run on this run's buffers (skip text in skip). For
     * the skip row of a level the plan cannot reach, the loop binds an empty grid (grid_blocks
     * and blocks_per_sm 0, the point's block size): only the size columns are wanted then. */
    int (*bind)(void *state, const OccVariantInfo *v, const OccShape *s, OccRow *r,
                long long *touched_bytes, char *skip, size_t skip_len);
    /* Enqueues one launch of the bound point on st; probe: NULL for a timed launch, else the
     * residency probe (OCC_PROBE_WORDS words per block). */
    cudaError_t (*launch)(void *state, cudaStream_t st, unsigned long long *probe);
    /* Checks one launch of the bound point; sets r->verify_err and "ok" or "fail:<why>". */
    cudaError_t (*verify)(void *state, cudaStream_t st, OccRow *r, char *status, size_t len);
    /* The family's own columns from the timing (NULL: none). A family that states
     * flops_per_launch sets flop_peak_gflops here (occ_arch_flop_peak_gflops at the point's
     * clock, t->clock_mhz_median); the loop then derives pct_of_flop_peak. */
    void (*fill)(void *state, const OccTiming *t, OccRow *r);
    /* Footprint-shaped families: measures point p entirely into r and status (NULL otherwise). */
    cudaError_t (*measure)(void *state, const OccRunEnv *env, const OccPoint *p, OccRow *r,
                           char *status, size_t len);
} OccFamilyOps;

/* The ops of catalog family f (0 <= f < occ_family_count()). */
const OccFamilyOps *occ_family_ops(int f);
/* Gives family f, registered at run time with occ_catalog_add_family (beyond the table), its
 * ops; ignored for a table family. */
void occ_family_ops_register(int f, const OccFamilyOps *family_ops);

/* For a family's setup: `bytes` of zeroed host memory for its state, which its teardown frees
 * with free(); NULL with a one-line err naming `family` when there is none. */
void *occ_family_state_new(size_t bytes, const char *family, char *err, size_t err_len);

#endif
