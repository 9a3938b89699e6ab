/* SPDX-License-Identifier: Apache-2.0 */
/* harness/gpu/run.h: one measurement run on the GPU: its stream and timing policy, the buffers the
 * families share, each selected family's state, the roof, and the point loop. The loop names no
 * family: it drives each through its OccFamilyOps (family.h). Never prints: the caller's on_row
 * callback writes and reports. */
#ifndef OCC_RUN_H
#define OCC_RUN_H

#include <signal.h>
#include <stdio.h>
#include <stddef.h>

#include "catalog.h"
#include "family.h"

/* The roof of this run, measured over the run's stream buffers before the first point. */
typedef struct OccRoof {
    double memcpy_gbps;     /* cudaMemcpyAsync device-to-device: (read + write bytes) / time */
    double cub_reduce_gbps; /* cub::DeviceReduce::Sum: bytes read / time */
    double dram_peak_gbps;  /* theoretical, from the device attributes */
    double memcpy_noise_pct, cub_noise_pct; /* relative stddev of the two measurements, % */
} OccRoof;

/* Everything a run holds (no globals). Fill dev, policy, opt, stop, meta and meta_user, then
 * call occ_run_init. */
typedef struct OccRun {
    const OccDevice *dev;         /* the GPU */
    OccTimingPolicy policy;       /* how long and how precisely each point is timed */
    const OccOptions *opt;        /* the command line */
    volatile sig_atomic_t *stop;  /* set asynchronously (SIGINT/SIGTERM): stop between points */
    void (*meta)(void *user, const char *key, const char *fmt, ...); /* metadata sink */
    void *meta_user;              /* its first argument */
    /* Set by occ_run_init: */
    OccTimer timer;               /* stream and events */
    OccStreamBuffers stream;      /* shared input/output buffers (roof, streaming families) */
    unsigned long long *probe;    /* residency probe: OCC_PROBE_WORDS per block of probe_blocks */
    int probe_blocks;             /* blocks the probe holds: the largest planned grid, grown by
                                     the point loop for a family binding a larger grid of its own */
    int max_grid_blocks, max_block_threads; /* of the planned points */
    OccRoof roof;                 /* set by occ_run_measure_roof */
    void *state[OCC_MAX_FAMILIES]; /* each set-up family's state */
    unsigned set_up;              /* bit f: family f is set up */
    char cc[8];                   /* "9.0", the CSV cc column */
    int clock_capped;             /* points whose clock watch read above the device's peak SM
                                     clock: their sm_clock_mhz_median and FLOP peak use the peak */
} OccRun;

/* One finished point: the row and the storage its status string points into. */
typedef struct OccRunRow {
    OccRow row;
    char status[160];
} OccRunRow;

/* Called after each point with its row (index i of n). */
typedef void (*OccRowFn)(void *user, int i, int n, const OccRunRow *row);

/* Creates the stream, sizes the shared buffers (buffer_bytes each: --size or 8 x L2 by the
 * caller) and the probe for points[0..n). 0, or -1 with a one-line err. */
int occ_run_init(OccRun *r, long long buffer_bytes, const OccPoint *points, int n, char *err,
                 size_t err_len);
/* Sets up every family that points[0..n) use (their metadata goes to r->meta). 0 or -1. */
int occ_run_setup_families(OccRun *r, const OccPoint *points, int n, char *err, size_t err_len);
/* Tears down the families, frees the buffers and the stream. */
void occ_run_free(OccRun *r);

/* Measures the roof (memcpy and CUB over the stream buffers). 0, or -1 with err. */
int occ_run_measure_roof(OccRun *r, char *err, size_t err_len);

/* Runs points[0..n) in order. Returns the number of points finished (== n unless stopped or a
 * sticky CUDA error ended the run; then *fatal holds it and err the message). */
int occ_run_points(OccRun *r, const OccPoint *points, int n, OccRowFn on_row, void *user,
                   cudaError_t *fatal, char *err, size_t err_len);

/* The NVTX push/pop range around each launch of occ_run_replay_points (ncu's --nvtx-include
 * takes it as OCC_NCU_RANGE "/"). */
#define OCC_NCU_RANGE "occsweep ncu"

/* The child run of --ncu, under Nsight Compute: every reachable occupancy point of points[0..n)
 * configured and bound as occ_run_points does, then launched once, untimed and unverified, inside
 * the range OCC_NCU_RANGE, on its own; each launched point's key (ncu_csv.h OccNcuKey) written
 * to manifest in launch order. Footprint points are not replayed. Returns the number launched,
 * or -1 with err (a CUDA error, or the manifest could not be written). */
int occ_run_replay_points(OccRun *r, const OccPoint *points, int n, FILE *manifest, char *err,
                          size_t err_len);

/* What a family's set-up and an experiment's measure see of run r. */
OccRunEnv occ_run_env(OccRun *r);

/* occ_row_init plus the columns every row of the run shares (GPU name, cc, SMs). */
void occ_run_row_init(const OccRun *r, OccRow *row);

#endif
