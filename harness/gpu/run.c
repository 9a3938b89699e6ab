/* SPDX-License-Identifier: Apache-2.0 */
/* harness/gpu/run.c: a run's stream, shared buffers, family set-up and roof. */
#include "run.h"

#include <stdio.h>
#include <string.h>

#include <nvtx3/nvToolsExt.h>

OccRunEnv occ_run_env(OccRun *r)
{
    return (OccRunEnv){.dev = r->dev, .timer = &r->timer, .policy = &r->policy, .opt = r->opt,
                       .stream = &r->stream, .max_grid_blocks = r->max_grid_blocks,
                       .max_block_threads = r->max_block_threads, .meta = r->meta,
                       .meta_user = r->meta_user};
}

int occ_run_init(OccRun *r, long long buffer_bytes, const OccPoint *points, int n, char *err,
                 size_t err_len)
{
    const OccDevice *d = r->dev;
    snprintf(r->cc, sizeof r->cc, "%d.%d", d->cc_major, d->cc_minor);
    r->stream.want_bytes = buffer_bytes;
    r->max_grid_blocks = 1;
    r->max_block_threads = 32;
    for (int i = 0; i < n; i++) {
        const OccPoint *p = &points[i];
        const int grid = p->level.blocks_per_sm * d->sm_count * p->waves;
        if (grid > r->max_grid_blocks) r->max_grid_blocks = grid;
        if (p->block_threads > r->max_block_threads) r->max_block_threads = p->block_threads;
    }
    cudaError_t e = occ_timer_create(&r->timer);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&r->probe,
                       (size_t)r->max_grid_blocks * OCC_PROBE_WORDS * sizeof *r->probe);
    r->probe_blocks = e == cudaSuccess ? r->max_grid_blocks : 0;
    if (e != cudaSuccess) {
        occ_device_format_error(e, "creating the run's stream and probe", err, err_len);
        return -1;
    }
    return 0;
}

int occ_run_setup_families(OccRun *r, const OccPoint *points, int n, char *err, size_t err_len)
{
    const OccRunEnv env = occ_run_env(r);
    for (int i = 0; i < n; i++) {
        const int f = points[i].family;
        if (r->set_up & (1u << f)) continue;
        if (occ_family_ops(f)->setup(&r->state[f], &env, err, err_len) != 0) return -1;
        r->set_up |= 1u << f;
    }
    return 0;
}

void occ_run_free(OccRun *r)
{
    for (int f = 0; f < occ_family_count(); f++)
        if (r->set_up & (1u << f)) occ_family_ops(f)->teardown(r->state[f]);
    r->set_up = 0;
    occ_stream_buffers_free(&r->stream);
    cudaFree(r->probe);
    r->probe = NULL;
    occ_timer_destroy(&r->timer);
}

/* The roof's work: a device-to-device copy, or CUB's sum, over the stream buffers. */
typedef struct RoofCtx {
    const OccStreamBuffers *b;
    float *sum;
    void *temp;
    size_t temp_bytes;
} RoofCtx;

static cudaError_t launch_memcpy(void *ctx, cudaStream_t stream)
{
    const OccStreamBuffers *b = ((RoofCtx *)ctx)->b;
    return cudaMemcpyAsync(b->out, b->in, b->n_floats * sizeof(float), cudaMemcpyDeviceToDevice,
                           stream);
}

static cudaError_t launch_cub(void *ctx, cudaStream_t stream)
{
    RoofCtx *c = ctx;
    return occ_cub_sum(c->b->in, c->b->n_floats, c->sum, c->temp, c->temp_bytes, stream);
}

int occ_run_measure_roof(OccRun *r, char *err, size_t err_len)
{
    static OccTiming t; /* large (sample array); one roof measurement at a time */
    if (occ_stream_buffers_acquire(&r->stream, r->timer.stream, err, err_len) != 0) return -1;
    RoofCtx c = {.b = &r->stream};
    const double bytes = (double)r->stream.n_floats * sizeof(float);
    cudaError_t e = occ_cub_sum_temp_bytes(r->stream.n_floats, &c.temp_bytes);
    if (e == cudaSuccess) e = cudaMalloc((void **)&c.sum, sizeof *c.sum);
    if (e == cudaSuccess) e = cudaMalloc(&c.temp, c.temp_bytes ? c.temp_bytes : 1);
    nvtxRangePushA("occsweep roof");
    if (e == cudaSuccess) e = occ_time_work(&r->timer, launch_memcpy, &c, &r->policy, &t);
    if (e == cudaSuccess) {
        r->roof.memcpy_gbps = 2.0 * bytes / (t.stats.median * 1e6);
        r->roof.memcpy_noise_pct = t.stats.rel_stddev_pct;
        e = occ_time_work(&r->timer, launch_cub, &c, &r->policy, &t);
    }
    if (e == cudaSuccess) {
        r->roof.cub_reduce_gbps = bytes / (t.stats.median * 1e6);
        r->roof.cub_noise_pct = t.stats.rel_stddev_pct;
    }
    nvtxRangePop();
    cudaFree(c.sum);
    cudaFree(c.temp);
    r->roof.dram_peak_gbps = r->dev->dram_peak_gbps;
    if (e != cudaSuccess) {
        occ_device_format_error(e, "measuring the roof", err, err_len);
        return -1;
    }
    return 0;
}

void occ_run_row_init(const OccRun *r, OccRow *row)
{
    occ_row_init(row);
    row->gpu_name = r->dev->name;
    row->cc = r->cc;
    row->sm_count = r->dev->sm_count;
}
