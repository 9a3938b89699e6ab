/* SPDX-License-Identifier: Apache-2.0 */
/* harness/gpu/timing.c: the measurement loop. */
#include "timing.h"

#include <math.h>

#include "api.h"
#include "walltime.h"

cudaError_t occ_timer_create(OccTimer *t)
{
    cudaError_t e = cudaStreamCreateWithFlags(&t->stream, cudaStreamNonBlocking);
    if (e == cudaSuccess) e = cudaEventCreate(&t->start);
    if (e == cudaSuccess) e = cudaEventCreate(&t->stop);
    if (e == cudaSuccess) e = cudaMalloc((void **)&t->clock_dev, 2 * OCC_MAX_SAMPLES * 8);
    return e;
}

void occ_timer_destroy(OccTimer *t)
{
    cudaEventDestroy(t->start);
    cudaEventDestroy(t->stop);
    cudaStreamDestroy(t->stream);
    cudaFree(t->clock_dev);
}

/* One event-timed batch; *ms is the elapsed time of the whole batch. */
static cudaError_t time_batch(OccTimer *t, OccWorkFn work, void *ctx, int launches, float *ms)
{
    cudaError_t e = cudaEventRecord(t->start, t->stream);
    for (int i = 0; i < launches && e == cudaSuccess; i++) e = work(ctx, t->stream);
    if (e == cudaSuccess) e = cudaEventRecord(t->stop, t->stream);
    if (e == cudaSuccess) e = cudaEventSynchronize(t->stop);
    if (e == cudaSuccess) e = cudaEventElapsedTime(ms, t->start, t->stop);
    return e;
}

/* The clock watch: reads each sample's SM clock and drops the samples taken while the clock was
 * below min_clock_fraction of the median (throttling), unless fewer than 3 would remain. */
static cudaError_t drop_slow_clock_samples(OccTimer *t, const OccTimingPolicy *p, OccTiming *out)
{
    static unsigned long long words[2 * OCC_MAX_SAMPLES];
    const int n = out->n_samples;
    cudaError_t e = cudaMemcpyAsync(words, t->clock_dev, (size_t)n * 16, cudaMemcpyDeviceToHost,
                                    t->stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(t->stream);
    if (e != cudaSuccess) return e;
    double sorted[OCC_MAX_SAMPLES];
    for (int i = 0; i < n; i++) {
        unsigned long long cycles = words[2 * i], ns = words[2 * i + 1];
        out->sample_clock_mhz[i] = ns ? 1e3 * (double)cycles / (double)ns : NAN;
        sorted[i] = out->sample_clock_mhz[i];
    }
    OccSampleStats clock;
    occ_stats_summarize(sorted, n, &clock);
    out->clock_mhz_median = clock.median;
    const double min_mhz = p->min_clock_fraction * clock.median;
    int slow = 0;
    for (int i = 0; i < n; i++) slow += out->sample_clock_mhz[i] < min_mhz;
    if (slow == 0 || n - slow < 3) return cudaSuccess;
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (!(out->sample_clock_mhz[i] < min_mhz)) {
            out->sample_ms[kept] = out->sample_ms[i];
            out->sample_clock_mhz[kept++] = out->sample_clock_mhz[i];
        }
    out->n_samples = kept;
    out->n_discarded = slow;
    return cudaSuccess;
}

cudaError_t occ_time_work(OccTimer *t, OccWorkFn work, void *ctx, const OccTimingPolicy *p,
                          OccTiming *out)
{
    float ms = 0.0f;
    out->n_samples = 0;
    /* Warm-up: first launch pays module load and TLB misses; the second sizes the batch. */
    cudaError_t e = time_batch(t, work, ctx, 1, &ms);
    if (e == cudaSuccess) e = time_batch(t, work, ctx, 1, &ms);
    if (e != cudaSuccess) return e;
    int batch = ms > 0.0f ? (int)ceil(p->min_sample_ms / ms) : 1000;
    if (batch < 1) batch = 1;
    if (batch > 1000) batch = 1000;
    out->launches_per_sample = batch;

    int max_samples = p->max_samples < OCC_MAX_SAMPLES ? p->max_samples : OCC_MAX_SAMPLES;
    double t0 = occ_walltime_s();
    do {
        if ((e = time_batch(t, work, ctx, batch, &ms)) != cudaSuccess) return e;
        /* After the stop event, so outside the timed region; read back at the end. */
        if (p->clock_window_ns &&
            (e = occ_clock_probe(t->clock_dev + 2 * out->n_samples, p->clock_window_ns,
                                 t->stream)) != cudaSuccess)
            return e;
        out->sample_ms[out->n_samples++] = ms / batch;
    } while (!occ_stats_should_stop(out->sample_ms, out->n_samples, p->min_samples, max_samples,
                                    p->max_noise_pct, occ_walltime_s() - t0, p->max_time_s));
    out->n_discarded = 0;
    out->clock_mhz_median = NAN;
    if (p->clock_window_ns && (e = drop_slow_clock_samples(t, p, out)) != cudaSuccess) return e;
    occ_stats_summarize(out->sample_ms, out->n_samples, &out->stats);
    return cudaSuccess;
}
