/* harness/sweep.c: the per-point measurement loop of a sweep. */
#include "sweep.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include <nvtx3/nvToolsExt.h>

#include "registry.h"
#include "residency.h"

/* What one timed launch needs. */
typedef struct LaunchCtx {
    const OccVariant *variant;
    OccLaunch launch;
    OccStreamArgs args;
} LaunchCtx;

static cudaError_t launch_variant(void *ctx, cudaStream_t stream)
{
    LaunchCtx *c = ctx;
    c->launch.stream = stream;
    return c->variant->launch(&c->launch, &c->args);
}

static cudaError_t launch_memcpy(void *ctx, cudaStream_t stream)
{
    const OccSweepBuffers *b = ctx;
    return cudaMemcpyAsync(b->out, b->in, b->n_floats * sizeof(float), cudaMemcpyDeviceToDevice,
                           stream);
}

static cudaError_t launch_cub(void *ctx, cudaStream_t stream)
{
    const OccSweepBuffers *b = ctx;
    return occ_cub_sum(b->in, b->n_floats, b->sum, b->cub_temp, b->cub_temp_bytes, stream);
}

double occ_sweep_reduce_tolerance(size_t n_floats, int grid_blocks, int block_threads, int unroll)
{
    /* Each accumulator adds about n / (threads x U) terms; the shuffle and shared-memory trees add
     * log2(block) levels each; the last block adds grid / block partials per thread. The error of
     * a float sum of m terms is at most m x 2^-24 of the sum of magnitudes. */
    double threads = (double)grid_blocks * block_threads;
    double chain = ceil((double)n_floats / (threads * unroll)) + unroll;
    double tree = 2.0 * log2((double)block_threads) + ceil((double)grid_blocks / block_threads);
    return (chain + tree + 8.0) * ldexp(1.0, -24);
}

int occ_sweep_init(OccSweep *s, const OccDevice *dev, long long buffer_bytes, int max_grid_blocks,
                   char *err, size_t err_len)
{
    OccSweepBuffers *b = &s->buf;
    memset(b, 0, sizeof *b);
    s->dev = dev;
    snprintf(s->cc, sizeof s->cc, "%d.%d", dev->cc_major, dev->cc_minor);
    b->n_floats = (size_t)buffer_bytes / sizeof(float);
    b->seed = 0x0cc5eedu;
    size_t bytes = b->n_floats * sizeof(float);
    cudaError_t e = occ_timer_create(&s->timer);
    if (e == cudaSuccess) e = occ_cub_sum_temp_bytes(b->n_floats, &b->cub_temp_bytes);
    size_t need = 2 * bytes + b->cub_temp_bytes + (size_t)max_grid_blocks * sizeof(float) + 4096;
    if (e == cudaSuccess && need > dev->free_bytes) {
        snprintf(err, err_len,
                 "--size %lld B needs %.2f GiB of device memory (2 buffers + scratch) but %.2f GiB "
                 "is free; pass a smaller --size",
                 buffer_bytes, need / 1073741824.0, dev->free_bytes / 1073741824.0);
        return -1;
    }
    if (e == cudaSuccess) e = cudaMalloc((void **)&b->in, bytes);
    if (e == cudaSuccess) e = cudaMalloc((void **)&b->out, bytes);
    if (e == cudaSuccess) e = cudaMalloc((void **)&b->block_sums, (size_t)max_grid_blocks * 4);
    if (e == cudaSuccess) e = cudaMalloc((void **)&b->blocks_done, sizeof *b->blocks_done);
    if (e == cudaSuccess) e = cudaMalloc((void **)&b->sum, sizeof *b->sum);
    if (e == cudaSuccess) e = cudaMalloc((void **)&b->mismatches, sizeof *b->mismatches);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&b->probe, (size_t)max_grid_blocks * OCC_PROBE_WORDS * 8);
    if (e == cudaSuccess) e = cudaMalloc(&b->cub_temp, b->cub_temp_bytes ? b->cub_temp_bytes : 1);
    if (e == cudaSuccess) e = cudaMemset(b->blocks_done, 0, sizeof *b->blocks_done);
    if (e == cudaSuccess) e = occ_fill_pattern(b->in, b->n_floats, b->seed, s->timer.stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(s->timer.stream);
    if (e != cudaSuccess) {
        occ_device_format_error(e, "allocating and filling the sweep buffers", err, err_len);
        return -1;
    }
    /* The host reference, summed in double while nothing else runs. */
    double sum = 0.0;
    for (size_t i = 0; i < b->n_floats; i++) sum += occ_pattern_value(b->seed, i);
    b->host_sum = sum;
    return 0;
}

void occ_sweep_free(OccSweep *s)
{
    OccSweepBuffers *b = &s->buf;
    cudaFree(b->in);
    cudaFree(b->out);
    cudaFree(b->block_sums);
    cudaFree(b->blocks_done);
    cudaFree(b->sum);
    cudaFree(b->mismatches);
    cudaFree(b->probe);
    cudaFree(b->cub_temp);
    occ_timer_destroy(&s->timer);
}

cudaError_t occ_sweep_measure_roof(OccSweep *s)
{
    static OccTiming t; /* large (sample array); one roof measurement at a time */
    double bytes = (double)s->buf.n_floats * sizeof(float);
    nvtxRangePushA("occsweep roof");
    cudaError_t e = occ_time_work(&s->timer, launch_memcpy, &s->buf, &s->policy, &t);
    if (e == cudaSuccess) {
        s->roof.memcpy_gbps = 2.0 * bytes / (t.stats.median * 1e6);
        s->roof.memcpy_noise_pct = t.stats.rel_stddev_pct;
        e = occ_time_work(&s->timer, launch_cub, &s->buf, &s->policy, &t);
    }
    if (e == cudaSuccess) {
        s->roof.cub_reduce_gbps = bytes / (t.stats.median * 1e6);
        s->roof.cub_noise_pct = t.stats.rel_stddev_pct;
    }
    nvtxRangePop();
    s->roof.dram_peak_gbps = s->dev->dram_peak_gbps;
    return e;
}

cudaError_t occ_sweep_probe(OccSweep *s, OccWorkFn work, void *ctx, int grid_blocks,
                            int warps_per_block, OccRow *r)
{
    const size_t words = (size_t)grid_blocks * OCC_PROBE_WORDS;
    uint64_t *host = malloc(words * sizeof *host);
    cudaStream_t st = s->timer.stream;
    cudaError_t e = host ? cudaMemsetAsync(s->buf.probe, 0, words * 8, st) : cudaErrorMemoryAllocation;
    if (e == cudaSuccess) e = work(ctx, st);
    if (e == cudaSuccess) e = cudaMemcpyAsync(host, s->buf.probe, words * 8, cudaMemcpyDeviceToHost, st);
    if (e == cudaSuccess) e = cudaStreamSynchronize(st);
    OccResidency res;
    if (e == cudaSuccess &&
        occ_residency_compute(host, grid_blocks, warps_per_block, s->dev->sm_count,
                              s->dev->limits.max_warps_per_sm, &res) == 0) {
        r->occ_measured_pct = res.occ_measured_pct;
        r->occ_measured_spread_pct = res.spread_pct;
    }
    free(host);
    return e;
}

void occ_sweep_fill_timing(const OccSweep *s, const OccTiming *t, OccRow *r)
{
    r->samples = t->n_samples;
    r->samples_discarded_clock = t->n_discarded;
    r->sm_clock_mhz_median = t->clock_mhz_median;
    r->launches_per_sample = t->launches_per_sample;
    r->time_ms_median = t->stats.median;
    r->time_ms_min = t->stats.min;
    r->time_ms_mean = t->stats.mean;
    r->time_ms_stddev = t->stats.stddev;
    r->noise_pct = t->stats.rel_stddev_pct;
    r->gbps_median = (double)r->bytes_per_launch / (t->stats.median * 1e6);
    r->gbps_max = (double)r->bytes_per_launch / (t->stats.min * 1e6);
    r->pct_of_memcpy = 100.0 * r->gbps_median / s->roof.memcpy_gbps;
    r->pct_of_dram_peak = 100.0 * r->gbps_median / s->roof.dram_peak_gbps;
}

/* Sets the point's attributes and asks the runtime how many blocks fit. */
static cudaError_t configure(const OccVariant *v, const OccPoint *p, int *blocks_per_sm)
{
    const void *k = v->kernel();
    cudaError_t e = cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout,
                                         cudaSharedmemCarveoutMaxShared);
    if (e == cudaSuccess)
        e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, p->pad_bytes);
    if (e == cudaSuccess)
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks_per_sm, k, p->block_threads,
                                                          (size_t)p->pad_bytes);
    return e;
}

/* Runs one verification launch on poisoned output; *err_out is the CSV verify_err. */
static cudaError_t verify(OccSweep *s, LaunchCtx *c, int is_copy, double *err_out, int *ok)
{
    OccSweepBuffers *b = &s->buf;
    cudaStream_t st = s->timer.stream;
    cudaError_t e = is_copy ? cudaMemsetAsync(b->out, 0xff, b->n_floats * sizeof(float), st)
                            : cudaMemsetAsync(b->sum, 0xff, sizeof *b->sum, st);
    if (e == cudaSuccess) e = launch_variant(c, st);
    if (e != cudaSuccess) return e;
    if (is_copy) {
        unsigned long long bad = 0;
        e = occ_count_mismatches(b->in, b->out, b->n_floats, b->mismatches, st);
        if (e == cudaSuccess)
            e = cudaMemcpyAsync(&bad, b->mismatches, sizeof bad, cudaMemcpyDeviceToHost, st);
        if (e == cudaSuccess) e = cudaStreamSynchronize(st);
        *err_out = (double)bad;
        *ok = bad == 0;
    } else {
        float got = 0.0f;
        e = cudaMemcpyAsync(&got, b->sum, sizeof got, cudaMemcpyDeviceToHost, st);
        if (e == cudaSuccess) e = cudaStreamSynchronize(st);
        *err_out = fabs((double)got - b->host_sum) / b->host_sum; /* all terms are >= 0 */
        *ok = *err_out <= occ_sweep_reduce_tolerance(b->n_floats, c->launch.grid_blocks,
                                                      c->launch.block_threads,
                                                      c->variant->info.unroll);
    }
    return e;
}

void occ_sweep_row_init(const OccSweep *s, OccRow *r)
{
    occ_row_init(r);
    r->gpu_name = s->dev->name;
    r->cc = s->cc;
    r->sm_count = s->dev->sm_count;
}

/* Fills the columns every row has, measured or not. */
static void fill_common(const OccSweep *s, const OccPoint *p, const OccVariant *v, OccRow *r)
{
    const OccDevice *d = s->dev;
    int is_copy = strcmp(v->info.kernel, "copy") == 0;
    occ_sweep_row_init(s, r);
    r->kernel = v->info.kernel;
    r->mode = v->info.mode;
    r->variant = v->info.name;
    r->unroll = v->info.unroll;
    r->vec_bytes = v->info.vec_bytes;
    r->lb_min_blocks = v->info.reg_capped ? d->limits.max_threads_per_sm / OCC_LB_MAX_THREADS : 0;
    r->lever = occ_lever_name(p->lever);
    r->block_threads = p->block_threads;
    r->occ_target_pct = p->level.asked_pct;
    r->regs_per_thread = p->res.regs_per_thread;
    r->local_bytes_per_thread = p->res.local_bytes_per_thread;
    if (v->launch_chase) { /* the chase footprint; the bytes of a launch come with its timing */
        r->buffer_bytes = (long long)(s->chase.n_lines * 4 * s->chase.line_words);
        r->l2_resident = r->buffer_bytes <= 2 * d->l2_bytes;
        return;
    }
    r->buffer_bytes = (long long)(s->buf.n_floats * sizeof(float));
    r->bytes_per_launch = r->buffer_bytes * (is_copy ? 2 : 1);
    r->l2_resident = r->bytes_per_launch <= 2 * d->l2_bytes;
}

/* Measures one reachable point into out; returns a CUDA error that must end the run. */
static cudaError_t measure_point(OccSweep *s, const OccPoint *p, const OccVariant *v,
                                 OccSweepRow *out)
{
    static OccTiming t; /* large (sample array); points run one at a time */
    OccRow *r = &out->row;
    int is_copy = strcmp(v->info.kernel, "copy") == 0;
    int blocks = 0;
    cudaError_t e = configure(v, p, &blocks);
    if (e != cudaSuccess) return e;
    const OccArchLimits *l = &s->dev->limits;
    int warps_per_block = (p->block_threads + 31) / 32;
    r->blocks_per_sm = blocks;
    r->occ_achieved_pct = 100.0 * blocks * warps_per_block / l->max_warps_per_sm;
    r->limiter = occ_limiter_name(p->model.limiter);
    r->dyn_smem_pad_bytes = p->pad_bytes;
    r->grid_blocks = (long long)blocks * s->dev->sm_count * (v->launch_chase ? 1 : s->waves);
    r->bytes_in_flight_per_sm =
        (long long)blocks * warps_per_block * 32 * v->info.unroll * v->info.vec_bytes;
    if (blocks != p->level.blocks_per_sm) {
        snprintf(out->status, sizeof out->status,
                 "fail:occupancy API gives %d blocks/SM where the model gives %d", blocks,
                 p->level.blocks_per_sm);
        return cudaSuccess;
    }
    char range[96];
    snprintf(range, sizeof range, "%s occ=%g%%", v->info.name, r->occ_achieved_pct);
    if (v->launch_chase) {
        nvtxRangePushA(range);
        e = occ_chase_time_point(s, v, (int)r->grid_blocks, p->block_threads, p->pad_bytes, out);
        nvtxRangePop();
        return e;
    }
    LaunchCtx c = {.variant = v,
                   .launch = {.grid_blocks = (int)r->grid_blocks,
                              .block_threads = p->block_threads,
                              .dyn_smem_bytes = (size_t)p->pad_bytes},
                   .args = {.in = s->buf.in, .out = s->buf.out, .n_floats = s->buf.n_floats,
                            .block_sums = s->buf.block_sums, .blocks_done = s->buf.blocks_done,
                            .sum = s->buf.sum}};
    nvtxRangePushA(range);
    e = occ_time_work(&s->timer, launch_variant, &c, &s->policy, &t);
    nvtxRangePop();
    if (e != cudaSuccess) return e;
    double verr = 0.0;
    int ok = 0;
    if ((e = verify(s, &c, is_copy, &verr, &ok)) != cudaSuccess) return e;
    c.args.probe = s->buf.probe;
    e = occ_sweep_probe(s, launch_variant, &c, (int)r->grid_blocks, warps_per_block, r);
    if (e != cudaSuccess) return e;
    occ_sweep_fill_timing(s, &t, r);
    r->verify_err = verr;
    snprintf(out->status, sizeof out->status, "%s",
             ok ? "ok" : is_copy ? "fail:copy output differs from input" : "fail:sum out of tolerance");
    return cudaSuccess;
}

int occ_sweep_run(OccSweep *s, const OccPoint *points, int n, OccRowFn on_row, void *user,
                  cudaError_t *fatal, char *err, size_t err_len)
{
    *fatal = cudaSuccess;
    nvtxRangePushA("occsweep sweep");
    int i = 0;
    for (; i < n && !(s->stop && *s->stop); i++) {
        const OccPoint *p = &points[i];
        const OccVariant *v = occ_registry_at(p->variant_index);
        OccSweepRow out;
        fill_common(s, p, v, &out.row);
        if (!p->reachable) {
            snprintf(out.status, sizeof out.status, "skip:%s", p->skip_reason);
        } else {
            cudaError_t e = measure_point(s, p, v, &out);
            if (e != cudaSuccess) {
                *fatal = e;
                char what[128];
                snprintf(what, sizeof what, "point %d/%d (%s)", i + 1, n, v->info.name);
                occ_device_format_error(e, what, err, err_len);
                break;
            }
        }
        out.row.status = out.status;
        on_row(user, i, n, &out);
    }
    nvtxRangePop();
    return i;
}
