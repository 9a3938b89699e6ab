/* SPDX-License-Identifier: Apache-2.0 */
/* harness/gpu/points.c: the point loop of a run: configure -> bind -> time -> verify -> probe
 * residency -> generic rate columns -> the family's own columns. It names no family. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvtx3/nvToolsExt.h>

#include "ncu_csv.h"
#include "residency.h"
#include "run.h"

/* The family's launch as an OccWorkFn for the timer (timed launches carry no probe). */
typedef struct Bound {
    const OccFamilyOps *ops;
    void *state;
    unsigned long long *probe;
} Bound;

static cudaError_t launch_bound(void *ctx, cudaStream_t stream)
{
    Bound *b = ctx;
    return b->ops->launch(b->state, stream, b->probe);
}

/* One untimed, instrumented launch: occ_measured_pct and its spread from where and when the
 * grid's blocks ran. */
static cudaError_t probe_residency(OccRun *r, Bound *b, int grid_blocks, int warps_per_block,
                                   OccRow *row)
{
    const size_t words = (size_t)grid_blocks * OCC_PROBE_WORDS;
    uint64_t *host = malloc(words * sizeof *host);
    cudaStream_t st = r->timer.stream;
    cudaError_t e = host ? cudaSuccess : cudaErrorMemoryAllocation;
    /* A family with a grid of its own (a plugin's) may bind more blocks than the plan's wave. */
    if (e == cudaSuccess && grid_blocks > r->probe_blocks) {
        cudaFree(r->probe);
        e = cudaMalloc((void **)&r->probe, words * sizeof *r->probe);
        r->probe_blocks = e == cudaSuccess ? grid_blocks : 0;
    }
    if (e == cudaSuccess) e = cudaMemsetAsync(r->probe, 0, words * 8, st);
    b->probe = r->probe;
    if (e == cudaSuccess) e = launch_bound(b, st);
    b->probe = NULL;
    if (e == cudaSuccess) e = cudaMemcpyAsync(host, r->probe, words * 8, cudaMemcpyDeviceToHost, st);
    if (e == cudaSuccess) e = cudaStreamSynchronize(st);
    OccResidency res;
    if (e == cudaSuccess &&
        occ_residency_compute(host, grid_blocks, warps_per_block, r->dev->sm_count,
                              r->dev->limits.max_warps_per_sm, &res) == 0) {
        row->occ_measured_pct = res.occ_measured_pct;
        row->occ_measured_spread_pct = res.spread_pct;
    }
    free(host);
    return e;
}

/* The timing columns; GB/s and % of roof from bytes_per_launch and GFLOP/s from
 * flops_per_launch (the work per launch bind stated; a rate whose work is 0 stays NaN). */
static void fill_timing(const OccRun *r, const OccTiming *t, OccRow *row)
{
    row->samples = t->n_samples;
    row->samples_discarded_clock = t->n_discarded;
    row->sm_clock_mhz_median = t->clock_mhz_median;
    row->launches_per_sample = t->launches_per_sample;
    row->time_ms_median = t->stats.median;
    row->time_ms_min = t->stats.min;
    row->time_ms_mean = t->stats.mean;
    row->time_ms_stddev = t->stats.stddev;
    row->noise_pct = t->stats.rel_stddev_pct;
    if (row->bytes_per_launch > 0) {
        row->gbps_median = (double)row->bytes_per_launch / (t->stats.median * 1e6);
        row->gbps_max = (double)row->bytes_per_launch / (t->stats.min * 1e6);
        row->pct_of_memcpy = 100.0 * row->gbps_median / r->roof.memcpy_gbps;
        row->pct_of_dram_peak = 100.0 * row->gbps_median / r->roof.dram_peak_gbps;
    }
    if (row->flops_per_launch > 0)
        row->gflops_median = (double)row->flops_per_launch / (t->stats.median * 1e6);
}

/* % of the arithmetic peak, once the family's fill has stated the peak for the row's clock. */
static void fill_flop_share(OccRow *row)
{
    if (isfinite(row->gflops_median) && row->flop_peak_gflops > 0)
        row->pct_of_flop_peak = 100.0 * row->gflops_median / row->flop_peak_gflops;
}

/* The point's dynamic shared memory per block: the kernel's own, then the padding. */
static int dyn_smem_bytes(const OccPoint *p)
{
    return occ_variant_at(p->variant_index)->own_dyn_smem_bytes + p->pad_bytes;
}

/* Sets the point's attributes (its carveout and dynamic shared memory) and asks the runtime how
 * many blocks fit. */
static cudaError_t configure(const OccArchLimits *l, const void *k, const OccPoint *p,
                             int *blocks_per_sm)
{
    cudaError_t e = cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout,
                                         occ_arch_carveout_pct(l, p->carveout_bytes));
    if (e == cudaSuccess)
        e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 dyn_smem_bytes(p));
    if (e == cudaSuccess)
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks_per_sm, k, p->block_threads,
                                                          (size_t)dyn_smem_bytes(p));
    return e;
}

/* The columns every row of the point has, measured or not. */
static void fill_common(const OccRun *r, const OccPoint *p, OccRow *row)
{
    const OccFamilyInfo *f = occ_family_at(p->family);
    occ_run_row_init(r, row);
    row->kernel = f->kernel;
    row->mode = p->mode;
    row->variant = occ_point_variant(p);
    row->family_info = f;
    row->variant_info = occ_variant_at(p->variant_index);
    row->dram_bytes_per_load_byte = f->dram_bytes_per_load_byte;
    if (p->variant_index < 0) return;
    const OccVariantInfo *v = occ_variant_at(p->variant_index);
    row->unroll = v->unroll;
    row->vec_bytes = v->vec_bytes;
    row->fma_per_element = v->fma_per_element;
    row->reg_cap_per_thread = v->reg_cap;
    row->lever = occ_lever_name(p->lever);
    row->block_threads = p->block_threads;
    row->occ_target_pct = p->level.asked_pct;
    row->regs_per_thread = p->res.regs_per_thread;
    row->local_bytes_per_thread = p->res.local_bytes_per_thread;
    row->loads_in_flight_sass = p->res.loads_in_flight_sass;
}

/* Binds v to shape s and sets l2_resident from the bytes one launch touches. */
static int bind(const OccRun *r, Bound *b, const OccVariantInfo *v, const OccShape *s,
                OccRunRow *out)
{
    long long touched = 0;
    int rc = b->ops->bind(b->state, v, s, &out->row, &touched, out->status, sizeof out->status);
    out->row.l2_resident = touched <= 2 * r->dev->l2_bytes;
    return rc;
}

/* Configures and binds one reachable occupancy point: its launch columns into out->row, and *ready
 * set when it can run (else out->status says why not). Returns a CUDA error that must end the
 * run. */
static cudaError_t prepare_point(OccRun *r, const OccPoint *p, Bound *b, OccRunRow *out, int *ready)
{
    OccRow *row = &out->row;
    const OccVariantInfo *v = occ_variant_at(p->variant_index);
    const OccArchLimits *l = &r->dev->limits;
    int blocks = 0;
    *ready = 0;
    cudaError_t e = configure(l, b->ops->kernel(v), p, &blocks);
    if (e != cudaSuccess) return e;
    const int warps_per_block = (p->block_threads + 31) / 32;
    row->blocks_per_sm = blocks;
    row->occ_achieved_pct = 100.0 * blocks * warps_per_block / l->max_warps_per_sm;
    row->limiter = occ_limiter_name(p->model.limiter);
    row->dyn_smem_pad_bytes = p->pad_bytes;
    row->grid_blocks = (long long)blocks * r->dev->sm_count * p->waves;
    /* In double (exact below 2^53), capped at 2^62: a product of int fields can pass a long
     * long's range (a plugin's are bounded at load, harness/families/plugin_load.c; all are
     * non-negative). */
    row->bytes_in_flight_per_sm = (long long)fmin(
        (double)blocks * warps_per_block * 32 * v->unroll * v->vec_bytes, 0x1p62);
    if (blocks != p->level.blocks_per_sm) {
        snprintf(out->status, sizeof out->status,
                 "fail:occupancy API gives %d blocks/SM where the model gives %d", blocks,
                 p->level.blocks_per_sm);
        return cudaSuccess;
    }
    const OccShape shape = {.launch = {.grid_blocks = (int)row->grid_blocks,
                                       .block_threads = p->block_threads,
                                       .dyn_smem_bytes = (size_t)dyn_smem_bytes(p)},
                            .blocks_per_sm = blocks, .sm_count = r->dev->sm_count};
    char skip[sizeof out->status];
    if (bind(r, b, v, &shape, out) != 0) {
        snprintf(skip, sizeof skip, "%s", out->status);
        snprintf(out->status, sizeof out->status, "skip:%.150s", skip);
        return cudaSuccess;
    }
    *ready = 1;
    return cudaSuccess;
}

/* Measures one reachable occupancy point into out; returns a CUDA error that must end the run. */
static cudaError_t measure_point(OccRun *r, const OccPoint *p, Bound *b, OccRunRow *out)
{
    static OccTiming t; /* large (sample array); points run one at a time */
    OccRow *row = &out->row;
    int ready = 0;
    cudaError_t e = prepare_point(r, p, b, out, &ready);
    if (e != cudaSuccess || !ready) return e;
    const OccVariantInfo *v = occ_variant_at(p->variant_index);
    char range[96];
    snprintf(range, sizeof range, "%s occ=%g%%", v->name, row->occ_achieved_pct);
    nvtxRangePushA(range);
    e = occ_time_work(&r->timer, launch_bound, b, &r->policy, &t);
    nvtxRangePop();
    if (e == cudaSuccess) e = b->ops->verify(b->state, r->timer.stream, row, out->status,
                                             sizeof out->status);
    const int warps_per_block = (p->block_threads + 31) / 32;
    if (e == cudaSuccess) e = probe_residency(r, b, (int)row->grid_blocks, warps_per_block, row);
    if (e != cudaSuccess) return e;
    /* No SM runs above the device's peak clock (cudaDevAttrClockRate, the CSV's sm_clock_mhz);
     * the clock watch has read above it right after tensor-core launches (an H100: 2083-2099 MHz
     * against 1980), which would put the row's FLOP peak above the card's. Such a reading is
     * taken at the peak clock, and the run counts the points (OccRun.clock_capped). */
    int capped = 0;
    t.clock_mhz_median =
        occ_arch_clock_within_peak(t.clock_mhz_median, r->dev->sm_clock_khz / 1e3, &capped);
    r->clock_capped += capped;
    fill_timing(r, &t, row);
    if (b->ops->fill) b->ops->fill(b->state, &t, row);
    fill_flop_share(row);
    return cudaSuccess;
}

/* A footprint point or a load level: the family measures it by itself. */
static cudaError_t measure_footprint(OccRun *r, const OccPoint *p, Bound *b, OccRunRow *out)
{
    const OccRunEnv env = occ_run_env(r);
    char range[96];
    if (p->footprint_bytes > 0)
        snprintf(range, sizeof range, "%s %lld B", out->row.variant, p->footprint_bytes);
    else
        snprintf(range, sizeof range, "%s", out->row.variant);
    nvtxRangePushA(range);
    cudaError_t e = b->ops->measure(b->state, &env, p, &out->row, out->status, sizeof out->status);
    nvtxRangePop();
    out->row.l2_resident = out->row.buffer_bytes <= 2 * r->dev->l2_bytes;
    return e;
}

int occ_run_points(OccRun *r, const OccPoint *points, int n, OccRowFn on_row, void *user,
                   cudaError_t *fatal, char *err, size_t err_len)
{
    *fatal = cudaSuccess;
    nvtxRangePushA("occsweep sweep");
    int i = 0;
    for (; i < n && !(r->stop && *r->stop); i++) {
        const OccPoint *p = &points[i];
        Bound b = {.ops = occ_family_ops(p->family), .state = r->state[p->family]};
        OccRunRow out;
        cudaError_t e = cudaSuccess;
        fill_common(r, p, &out.row);
        if (p->variant_index < 0) {
            e = measure_footprint(r, p, &b, &out);
        } else if (!p->reachable) {
            /* An empty shape: bind only fills the size columns of the skip row. */
            const OccShape none = {.launch = {.block_threads = p->block_threads},
                                   .sm_count = r->dev->sm_count};
            bind(r, &b, occ_variant_at(p->variant_index), &none, &out);
            snprintf(out.status, sizeof out.status, "skip:%s", p->skip_reason);
        } else {
            e = measure_point(r, p, &b, &out);
        }
        if (e != cudaSuccess) {
            *fatal = e;
            char what[128];
            snprintf(what, sizeof what, "point %d/%d (%s)", i + 1, n, out.row.variant);
            occ_device_format_error(e, what, err, err_len);
            break;
        }
        out.row.status = out.status;
        on_row(user, i, n, &out);
    }
    nvtxRangePop();
    return i;
}

int occ_run_replay_points(OccRun *r, const OccPoint *points, int n, FILE *manifest, char *err,
                          size_t err_len)
{
    int launched = 0;
    for (int i = 0; i < n; i++) {
        const OccPoint *p = &points[i];
        if (p->variant_index < 0 || !p->reachable) continue;
        Bound b = {.ops = occ_family_ops(p->family), .state = r->state[p->family]};
        OccRunRow out;
        int ready = 0;
        fill_common(r, p, &out.row);
        cudaError_t e = prepare_point(r, p, &b, &out, &ready);
        if (e == cudaSuccess && ready) {
            /* The one range ncu's --nvtx-include selects: nothing else runs inside it. */
            nvtxRangePushA(OCC_NCU_RANGE);
            e = launch_bound(&b, r->timer.stream);
            nvtxRangePop();
            if (e == cudaSuccess) e = cudaStreamSynchronize(r->timer.stream);
        }
        if (e != cudaSuccess) {
            char what[128];
            snprintf(what, sizeof what, "ncu replay of point %d/%d (%s)", i + 1, n,
                     out.row.variant);
            occ_device_format_error(e, what, err, err_len);
            return -1;
        }
        if (!ready) continue;
        OccNcuKey k = {.block_threads = out.row.block_threads,
                       .occ_target_pct = out.row.occ_target_pct,
                       .grid_blocks = out.row.grid_blocks};
        snprintf(k.variant, sizeof k.variant, "%s", out.row.variant);
        snprintf(k.lever, sizeof k.lever, "%s", out.row.lever);
        char line[160];
        fputs(occ_ncu_key_format(&k, line, sizeof line), manifest);
        launched++;
    }
    return fflush(manifest) == 0 ? launched : -1;
}
