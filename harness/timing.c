/* harness/timing.c: the measurement loop. */
#include "timing.h"

#include <math.h>
#include <time.h>

cudaError_t occ_timer_create(OccTimer *t)
{
    cudaError_t e = cudaStreamCreateWithFlags(&t->stream, cudaStreamNonBlocking);
    if (e == cudaSuccess) e = cudaEventCreate(&t->start);
    if (e == cudaSuccess) e = cudaEventCreate(&t->stop);
    return e;
}

void occ_timer_destroy(OccTimer *t)
{
    cudaEventDestroy(t->start);
    cudaEventDestroy(t->stop);
    cudaStreamDestroy(t->stream);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
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
    double t0 = now_s();
    do {
        if ((e = time_batch(t, work, ctx, batch, &ms)) != cudaSuccess) return e;
        out->sample_ms[out->n_samples++] = ms / batch;
    } while (!occ_stats_should_stop(out->sample_ms, out->n_samples, p->min_samples, max_samples,
                                    p->max_noise_pct, now_s() - t0, p->max_time_s));
    occ_stats_summarize(out->sample_ms, out->n_samples, &out->stats);
    return cudaSuccess;
}
