/* SPDX-License-Identifier: Apache-2.0 */
/* harness/gpu/timing.h: event timing of one point: warm-up, batching, noise-bounded sampling.
 *
 * A sample is a batch of launches between two CUDA events on the timer's non-default stream,
 * sized so that it lasts at least min_sample_ms; the per-launch time of a sample is its elapsed
 * time over the batch size. Sampling stops by occ_stats_should_stop. Measuring never prints. */
#ifndef OCC_TIMING_H
#define OCC_TIMING_H

#include <cuda_runtime_api.h>

#include "stats.h"

enum { OCC_MAX_SAMPLES = 2000 };

/* The stream and the events, created once per run. */
typedef struct OccTimer {
    cudaStream_t stream;    /* non-default, non-blocking stream every timed launch goes to */
    cudaEvent_t start, stop; /* the pair around each sample */
    unsigned long long *clock_dev; /* device: 2 words (cycles, ns) per sample of the clock watch */
} OccTimer;

/* How long and how precisely to measure. */
typedef struct OccTimingPolicy {
    double min_sample_ms;  /* a sample lasts at least this long (launches are batched), ~1 ms */
    int min_samples;       /* samples before the noise test may stop the loop */
    int max_samples;       /* hard cap, <= OCC_MAX_SAMPLES */
    double max_noise_pct;  /* stop once the relative stddev is this low */
    double max_time_s;     /* stop once this much wall time went into sampling (>= 3 samples) */
    unsigned int clock_window_ns; /* clock watch after each sample: spin this long (0 = off) */
    double min_clock_fraction;    /* discard samples whose clock is below this x the median */
} OccTimingPolicy;

/* What was measured: per-launch times of every sample kept, in ms, and their summary. */
typedef struct OccTiming {
    double sample_ms[OCC_MAX_SAMPLES];     /* per-launch time of each sample kept, ms */
    double sample_clock_mhz[OCC_MAX_SAMPLES]; /* SM clock right after each sample, MHz */
    int n_samples;                         /* samples kept */
    int n_discarded;                       /* samples dropped by the clock watch */
    int launches_per_sample;               /* batch size */
    double clock_mhz_median;               /* median SM clock over all samples (NaN: watch off) */
    OccSampleStats stats;                  /* summary of sample_ms */
} OccTiming;

/* Enqueues one unit of work (one kernel launch, one memcpy) on `stream`; returns its error. */
typedef cudaError_t (*OccWorkFn)(void *ctx, cudaStream_t stream);

cudaError_t occ_timer_create(OccTimer *t);
void occ_timer_destroy(OccTimer *t);

/* Warms up (two launches), sizes the batch, samples until the policy says stop, then drops the
 * samples the clock watch saw below min_clock_fraction of the median clock (keeping at least 3).
 * Returns cudaSuccess or the first error of a launch, an event or the stream. */
cudaError_t occ_time_work(OccTimer *t, OccWorkFn work, void *ctx, const OccTimingPolicy *p,
                          OccTiming *out);

#endif
