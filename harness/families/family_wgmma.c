/* SPDX-License-Identifier: Apache-2.0 */
/* harness/families/family_wgmma.c: the wgmma family (kernels/families/wgmma.h, kernels/wgmma.cu,
 * sm_90a): each block one warp group running `groups` commit groups of 4 wgmma.mma_async
 * m64nNk16 into the same fp32 accumulators, G groups in flight; blocks per SM are warp groups per
 * SM. The rate is GFLOP/s (2 x 64 x N x 16 a wgmma) against the arch's headline dense fp16/bf16
 * tensor rate at the clock the kernel ran at (flop_peak_gflops): block 0's clock64 cycles over
 * its %globaltimer ns (sm_clock_mhz_measured), never above the device's peak clock; the clock
 * watch between samples reads the clock after the tensor cores' power draw has stopped. A launch
 * runs, per block on average, the groups that last about OCC_ONCHIP_LAUNCH_MS at the headline
 * rate at full occupancy (at most a quarter of OCC_WGMMA_MAX_GROUPS: room for blocks that claim
 * more than their share). Verified exactly: every element of block b's D equals
 * block_groups[b] x (A x B)[m][n] of the tiles' integer pattern (occ_wgmma_expected), and the
 * blocks' groups add up to the launch's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "family.h"
#include "kernel_clock.h"
#include "families/wgmma.h"
#include "flops.h"
#include "onchip.h"

/* The launchers of kernels/wgmma.cu, in the descriptor's order: kernels[v->slot] is variant v's. */
typedef cudaError_t (*WgmmaLaunchFn)(const OccLaunch *launch, const OccWgmmaArgs *args);
#define DECLARE(t, n, form, g, swz, sfx)                                                           \
    OCC_DECLARE_VARIANT(wgmma_##t##_n##n##_##form##_g##g##sfx, OccWgmmaArgs)
OCC_WGMMA_VARIANTS(DECLARE)
#undef DECLARE
typedef struct WgmmaKernel {
    WgmmaLaunchFn launch;     /* enqueues one launch */
    OccKernelHandleFn kernel; /* the kernel, for the runtime's attribute and occupancy APIs */
    int n;                    /* N of the instruction */
} WgmmaKernel;
static const WgmmaKernel kernels[] = {
#define ENTRY(t, n, form, g, swz, sfx)                                                             \
    {occ_launch_wgmma_##t##_n##n##_##form##_g##g##sfx,                                             \
     occ_kernel_wgmma_##t##_n##n##_##form##_g##g##sfx, n},
    OCC_WGMMA_VARIANTS(ENTRY)
#undef ENTRY
};
enum { N_KERNELS = sizeof kernels / sizeof kernels[0] };

/* The largest N of the list: the output buffer holds 64 x N floats a block. */
enum { MAX_N = 256 };

typedef struct WgmmaState {
    const OccDevice *dev;
    float *out, *host;                    /* max_grid_blocks x 64 x MAX_N (device, host) */
    unsigned long long *words;            /* device: block 0's cycles and ns added up over the
                                             bound point's launches, then the claim counter */
    unsigned int *counts;                 /* device: warps done, then max_grid_blocks groups */
    unsigned int *host_groups;            /* max_grid_blocks: the groups each block ran */
    const WgmmaKernel *k;                 /* the bound point */
    const OccVariantInfo *v;
    OccLaunch launch;
    OccWgmmaArgs args;                    /* the bound point's arguments (probe set per launch) */
    float dot[64 * MAX_N];                /* (A x B)[m][n]: one group's D (verify) */
} WgmmaState;

static void teardown(void *sp)
{
    WgmmaState *s = sp;
    if (!s) return;
    cudaFree(s->out);
    cudaFree(s->words);
    cudaFree(s->counts);
    free(s->host);
    free(s->host_groups);
    free(s);
}

static int setup(void **out, const OccRunEnv *env, char *err, size_t err_len)
{
    WgmmaState *s = occ_family_state_new(sizeof *s, "wgmma", err, err_len);
    *out = s;
    if (!s) return -1;
    s->dev = env->dev;
    const size_t floats = (size_t)env->max_grid_blocks * 64u * MAX_N;
    const size_t blocks = (size_t)env->max_grid_blocks;
    s->host = malloc(floats * sizeof(float));
    s->host_groups = malloc(blocks * sizeof *s->host_groups);
    cudaError_t e = cudaMalloc((void **)&s->out, floats * sizeof(float));
    if (e == cudaSuccess) e = cudaMalloc((void **)&s->words, 3 * sizeof *s->words);
    if (e == cudaSuccess) e = cudaMalloc((void **)&s->counts, (1 + blocks) * sizeof *s->counts);
    if (e == cudaSuccess) e = cudaMemset(s->words, 0, 3 * sizeof *s->words);
    if (e == cudaSuccess) e = cudaMemset(s->counts, 0, (1 + blocks) * sizeof *s->counts);
    if (e == cudaSuccess && s->host && s->host_groups) {
        env->meta(env->meta_user, "mma_flop_per_sm_clk_f16", "%d",
                  env->dev->limits.mma_f16_flop_per_sm_clk);
        return 0;
    }
    if (e != cudaSuccess)
        occ_device_format_error(e, "allocating the wgmma family's buffers", err, err_len);
    else
        snprintf(err, err_len, "wgmma: out of host memory for the check (%zu floats)", floats);
    teardown(s);
    *out = NULL;
    return -1;
}

static const void *kernel(const OccVariantInfo *v)
{
    return v->slot >= 0 && v->slot < N_KERNELS ? kernels[v->slot].kernel() : NULL;
}

static int bind(void *sp, const OccVariantInfo *v, const OccShape *s, OccRow *r,
                long long *touched_bytes, char *skip, size_t skip_len)
{
    WgmmaState *c = sp;
    c->k = &kernels[v->slot];
    c->v = v;
    c->launch = s->launch;
    const OccArchLimits *l = &c->dev->limits;
    /* One group's FLOP shared by the warp group's 4 warps: trips per warp are groups. */
    const double flop_per_group = occ_wgmma_flop_per_block(c->k->n, 1);
    const unsigned int groups =
        occ_onchip_trips(flop_per_group / 4.0, occ_arch_rate_per_sm_clk(l, v->peak),
                         l->max_warps_per_sm, c->dev->sm_clock_khz / 1000.0,
                         OCC_WGMMA_MAX_GROUPS / 4);
    const long long blocks = s->launch.grid_blocks;
    c->args = (OccWgmmaArgs){.out = c->out, .total_groups = (unsigned int)(groups * blocks),
                             .chunk_groups = occ_fma_chunk_trips((int)groups),
                             .claim = c->words + 2, .warps_done = c->counts,
                             .block_groups = c->counts + 1, .clock_words = c->words};
    r->buffer_bytes = blocks * 64 * c->k->n * (long long)sizeof(float);
    r->bytes_per_launch = 0;
    r->flops_per_launch = (long long)((double)c->args.total_groups * flop_per_group);
    if (cudaMemset(c->words, 0, 2 * sizeof *c->words) != cudaSuccess) {
        snprintf(skip, skip_len, "wgmma: the clock counters could not be reset");
        return 1;
    }
    r->bytes_in_flight_per_sm = 0;
    *touched_bytes = r->buffer_bytes;
    return 0;
}

static cudaError_t launch(void *sp, cudaStream_t st, unsigned long long *probe)
{
    WgmmaState *c = sp;
    c->args.probe = probe;
    c->launch.stream = st;
    return c->k->launch(&c->launch, &c->args);
}

static cudaError_t verify(void *sp, cudaStream_t st, OccRow *r, char *status, size_t len)
{
    WgmmaState *c = sp;
    const int n = c->k->n;
    const size_t blocks = (size_t)c->launch.grid_blocks, per_block = 64u * (size_t)n;
    unsigned long long cycles = 0;
    cudaError_t e = cudaMemsetAsync(c->out, 0xff, blocks * per_block * sizeof(float), st); /* NaN */
    if (e == cudaSuccess) e = launch(c, st, NULL);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(c->host, c->out, blocks * per_block * sizeof(float),
                            cudaMemcpyDeviceToHost, st);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(c->host_groups, c->args.block_groups, blocks * sizeof(unsigned int),
                            cudaMemcpyDeviceToHost, st);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(&cycles, c->args.clock_words, sizeof cycles, cudaMemcpyDeviceToHost,
                            st);
    if (e == cudaSuccess) e = cudaStreamSynchronize(st);
    if (e != cudaSuccess) return e;
    if (cycles == OCC_WGMMA_UNSUPPORTED) {
        r->verify_err = NAN;
        snprintf(status, len, "fail:the GPU ran code built without sm_90a (no wgmma)");
        return cudaSuccess;
    }
    for (int m = 0; m < 64; m++)
        for (int j = 0; j < n; j++) c->dot[m * n + j] = (float)occ_wgmma_expected(m, j, 1);
    unsigned long long bad = 0, groups = 0;
    for (size_t b = 0; b < blocks; b++) {
        const unsigned int g = c->host_groups[b];
        groups += g;
        if (g > OCC_WGMMA_MAX_GROUPS) {
            bad += per_block;
            continue;
        }
        const float *d = c->host + b * per_block;
        for (size_t i = 0; i < per_block; i++) bad += d[i] != (float)g * c->dot[i];
    }
    r->verify_err = (double)bad;
    if (groups != c->args.total_groups)
        snprintf(status, len, "fail:the blocks ran %llu groups of the launch's %u", groups,
                 c->args.total_groups);
    else if (bad)
        snprintf(status, len, "fail:%llu accumulator elements differ from the closed form", bad);
    else
        snprintf(status, len, "ok");
    return cudaSuccess;
}

/* The peak at the clock the kernel ran at (kernel_clock.h): block 0's cycles over its ns, added up
 * over the point's launches, so the clock of the same launches as the time. */
static void fill(void *sp, const OccTiming *t, OccRow *r)
{
    WgmmaState *c = sp;
    const double mhz = occ_kernel_clock_for_peak(c->words, t->clock_mhz_median,
                                                 c->dev->sm_clock_khz / 1e3,
                                                 &r->sm_clock_mhz_measured);
    r->flop_peak_gflops = occ_arch_peak(&c->dev->limits, c->v->peak, c->dev->sm_count, mhz);
}

#define WGMMA_OPS                                                                                  \
    {.setup = setup, .teardown = teardown, .kernel = kernel, .bind = bind, .launch = launch,      \
     .verify = verify, .fill = fill}
const OccFamilyOps occ_family_wgmma_f16 = WGMMA_OPS;
const OccFamilyOps occ_family_wgmma_bf16 = WGMMA_OPS;
