/* SPDX-License-Identifier: Apache-2.0 */
/* harness/families/family_wgmma.c: the wgmma family (kernels/families/wgmma.h, kernels/wgmma.cu,
 * sm_90a): each block one warp group running `groups` commit groups of 4 wgmma.mma_async
 * m64nNk16 into the same fp32 accumulators, G groups in flight; blocks per SM are warp groups per
 * SM. The rate is GFLOP/s (2 x 64 x N x 16 a wgmma) against the arch's headline dense fp16/bf16
 * tensor rate at the point's clock (flop_peak_gflops). A launch runs the groups that last about
 * OCC_ONCHIP_LAUNCH_MS at the headline rate at full occupancy (at most OCC_WGMMA_MAX_GROUPS, which
 * keeps the accumulators exact). Verified exactly: every element of every block's D equals
 * groups x (A x B)[m][n] of the tiles' integer pattern (occ_wgmma_expected). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "family.h"
#include "families/wgmma.h"
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
    unsigned long long *clock;            /* block 0's cycles and ns (device, 2 words) */
    const WgmmaKernel *k;                 /* the bound point */
    const OccVariantInfo *v;
    OccLaunch launch;
    unsigned int groups;                  /* commit groups per block */
    float want[64 * MAX_N];               /* the closed form of one block's D (verify) */
} WgmmaState;

static void teardown(void *sp)
{
    WgmmaState *s = sp;
    if (!s) return;
    cudaFree(s->out);
    cudaFree(s->clock);
    free(s->host);
    free(s);
}

static int setup(void **out, const OccRunEnv *env, char *err, size_t err_len)
{
    WgmmaState *s = occ_family_state_new(sizeof *s, "wgmma", err, err_len);
    *out = s;
    if (!s) return -1;
    s->dev = env->dev;
    const size_t floats = (size_t)env->max_grid_blocks * 64u * MAX_N;
    s->host = malloc(floats * sizeof(float));
    cudaError_t e = cudaMalloc((void **)&s->out, floats * sizeof(float));
    if (e == cudaSuccess) e = cudaMalloc((void **)&s->clock, 2 * sizeof *s->clock);
    if (e == cudaSuccess && s->host) {
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
    (void)skip, (void)skip_len;
    c->k = &kernels[v->slot];
    c->v = v;
    c->launch = s->launch;
    const OccArchLimits *l = &c->dev->limits;
    /* One group's FLOP shared by the warp group's 4 warps: trips per warp are groups. */
    const double flop_per_group = occ_wgmma_flop_per_block(c->k->n, 1);
    c->groups = occ_onchip_trips(flop_per_group / 4.0, occ_arch_rate_per_sm_clk(l, v->peak),
                                 l->max_warps_per_sm, c->dev->sm_clock_khz / 1000.0,
                                 OCC_WGMMA_MAX_GROUPS);
    const long long blocks = s->launch.grid_blocks;
    r->buffer_bytes = blocks * 64 * c->k->n * (long long)sizeof(float);
    r->bytes_per_launch = 0;
    r->flops_per_launch =
        (long long)((double)blocks * occ_wgmma_flop_per_block(c->k->n, c->groups));
    r->bytes_in_flight_per_sm = 0;
    *touched_bytes = r->buffer_bytes;
    return 0;
}

static cudaError_t launch(void *sp, cudaStream_t st, unsigned long long *probe)
{
    WgmmaState *c = sp;
    const OccWgmmaArgs a = {.out = c->out, .groups = c->groups, .clock_cycles = c->clock,
                            .clock_ns = c->clock + 1, .probe = probe};
    c->launch.stream = st;
    return c->k->launch(&c->launch, &a);
}

static cudaError_t verify(void *sp, cudaStream_t st, OccRow *r, char *status, size_t len)
{
    WgmmaState *c = sp;
    const int n = c->k->n;
    const size_t floats = (size_t)c->launch.grid_blocks * 64u * (size_t)n;
    unsigned long long cycles = 0;
    cudaError_t e = cudaMemsetAsync(c->out, 0xff, floats * sizeof(float), st); /* NaN */
    if (e == cudaSuccess) e = launch(c, st, NULL);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(c->host, c->out, floats * sizeof(float), cudaMemcpyDeviceToHost, st);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(&cycles, c->clock, sizeof cycles, cudaMemcpyDeviceToHost, st);
    if (e == cudaSuccess) e = cudaStreamSynchronize(st);
    if (e != cudaSuccess) return e;
    if (cycles == OCC_WGMMA_UNSUPPORTED) {
        r->verify_err = NAN;
        snprintf(status, len, "fail:the GPU ran code built without sm_90a (no wgmma)");
        return cudaSuccess;
    }
    /* D is the same in every block: the closed form of one block, then every block against it. */
    float *want = c->want;
    for (int m = 0; m < 64; m++)
        for (int j = 0; j < n; j++) want[m * n + j] = (float)occ_wgmma_expected(m, j, c->groups);
    unsigned long long bad = 0;
    for (size_t i = 0; i < floats; i++) bad += c->host[i] != want[i % (64u * (size_t)n)];
    r->verify_err = (double)bad;
    if (bad)
        snprintf(status, len, "fail:%llu accumulator elements differ from the closed form", bad);
    else
        snprintf(status, len, "ok");
    return cudaSuccess;
}

static void fill(void *sp, const OccTiming *t, OccRow *r)
{
    WgmmaState *c = sp;
    r->flop_peak_gflops =
        occ_arch_peak(&c->dev->limits, c->v->peak, c->dev->sm_count, t->clock_mhz_median);
}

#define WGMMA_OPS                                                                                  \
    {.setup = setup, .teardown = teardown, .kernel = kernel, .bind = bind, .launch = launch,      \
     .verify = verify, .fill = fill}
const OccFamilyOps occ_family_wgmma_f16 = WGMMA_OPS;
const OccFamilyOps occ_family_wgmma_bf16 = WGMMA_OPS;
