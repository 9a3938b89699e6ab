/* SPDX-License-Identifier: Apache-2.0 */
/* harness/families/family_mma.c: the mma family (kernels/mma.cu, kernels/smem_mma.h): U
 * independent warp-level mma.sync accumulators per warp (C_u = A x B + C_u), the input type the
 * mode (f16 and bf16: m16n8k16 with fp32 accumulators; tf32: m16n8k8; f64: m8n8k4 DMMA). The rate
 * is GFLOP/s (2 x M x N x K per mma) against the arch's headline dense tensor rate of the type
 * at the point's clock (flop_peak_gflops; harness/core/arch.c). A launch runs trips x (its
 * warps) warp trips, claimed per warp as in the fma family (claims.h), sized to last about
 * OCC_ONCHIP_LAUNCH_MS at full occupancy and the headline rate, and at most a quarter of the
 * trips that keep fp32 accumulators exact. Verified
 * exactly: A and B all ones, so every accumulator element holds its start plus trips x
 * (64 / U) x K (onchip.h), and the warps' trips must add up. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "claims.h"
#include "kernel_clock.h"
#include "family.h"
#include "flops.h"
#include "onchip.h"
#include "smem_mma.h"

typedef struct MmaKernel {
    const char *name;         /* the variant name (catalog), mma_<type>_u<U> */
    OccMmaLaunchFn launch;    /* enqueues one launch */
    OccKernelHandleFn kernel; /* the kernel, for the runtime's attribute and occupancy APIs */
    int depth;                /* K of the instruction */
    int flop;                 /* FLOP per warp mma: 2 x M x N x K */
    int acc_bytes;            /* bytes of an accumulator element: 4 (fp32) or 8 (fp64) */
} MmaKernel;

#define ENTRY(t, k, flop, acc, peak, u)                                                            \
    {"mma_" #t "_u" #u, occ_launch_mma_##t##_u##u, occ_kernel_mma_##t##_u##u, k, flop, acc},
static const MmaKernel kernels[] = {OCC_MMA_VARIANTS(ENTRY)};
#undef ENTRY
enum { N_KERNELS = sizeof kernels / sizeof kernels[0] };

/* Most accumulators per thread (the largest U) and their largest size: 8 x 4 floats (16 B). */
enum { MAX_ACC = 8, MAX_ACC_BYTES = 16 };
/* Every element of A and of B. */
static const double OPERAND = 1.0;

typedef struct MmaState {
    const OccDevice *dev;
    OccClaims b;                        /* accumulators, trips, counters (claims.h) */
    const MmaKernel *k;                 /* the bound point's kernel */
    const OccVariantInfo *v;            /* ... and variant */
    OccLaunch launch;
    OccMmaArgs args;
    int unroll;
} MmaState;

static int is_f64(const MmaKernel *k) { return k->acc_bytes == 8; }

static void teardown(void *sp)
{
    MmaState *s = sp;
    if (!s) return;
    occ_claims_free(&s->b);
    free(s);
}

static int setup(void **out, const OccRunEnv *env, char *err, size_t err_len)
{
    MmaState *s = occ_family_state_new(sizeof *s, "mma", err, err_len);
    *out = s;
    if (!s) return -1;
    s->dev = env->dev;
    const size_t threads = (size_t)env->max_grid_blocks * (size_t)env->max_block_threads;
    const cudaError_t e =
        occ_claims_alloc(&s->b, threads * MAX_ACC * MAX_ACC_BYTES, threads / 32);
    if (e != cudaSuccess) {
        occ_device_format_error(e, "allocating the mma family's buffers", err, err_len);
        teardown(s);
        *out = NULL;
        return -1;
    }
    const OccArchLimits *l = &env->dev->limits;
    env->meta(env->meta_user, "mma_flop_per_sm_clk_f16", "%d", l->mma_f16_flop_per_sm_clk);
    env->meta(env->meta_user, "mma_flop_per_sm_clk_tf32", "%d", l->mma_tf32_flop_per_sm_clk);
    env->meta(env->meta_user, "mma_flop_per_sm_clk_f64", "%d", l->mma_f64_flop_per_sm_clk);
    return 0;
}

static const void *kernel(const OccVariantInfo *v)
{
    return v->slot >= 0 && v->slot < N_KERNELS ? kernels[v->slot].kernel() : NULL;
}

static long long warps_of(const MmaState *c)
{
    return (long long)c->launch.grid_blocks * c->launch.block_threads / 32;
}

static int bind(void *sp, const OccVariantInfo *v, const OccShape *s, OccRow *r,
                long long *touched_bytes, char *skip, size_t skip_len)
{
    MmaState *c = sp;
    if (occ_kernel_clock_reset(c->b.clock_words) != cudaSuccess) {
        snprintf(skip, skip_len, "mma: the clock counters could not be reset");
        return 1;
    }
    c->k = &kernels[v->slot];
    c->v = v;
    c->launch = s->launch;
    c->unroll = v->unroll;
    const OccArchLimits *l = &c->dev->limits;
    /* A quarter of the exact limit: a warp may run more than its share of the claims. */
    const unsigned int exact = occ_mma_max_trips(v->unroll, c->k->depth) / 4;
    const unsigned int trips = occ_onchip_trips(
        (double)OCC_MMA_PER_TRIP * c->k->flop, occ_arch_rate_per_sm_clk(l, v->peak),
        l->max_warps_per_sm, c->dev->sm_clock_khz / 1000.0, is_f64(c->k) ? 1u << 16 : exact);
    const long long warps = warps_of(c);
    c->args = (OccMmaArgs){.out = c->b.out, .warp_trips = c->b.warp_trips, .a = OPERAND,
                           .b = OPERAND, .total_trips = (unsigned int)(trips * warps),
                           .chunk_trips = occ_fma_chunk_trips((int)trips), .claim = c->b.claim,
                           .warps_done = c->b.warps_done, .clock_words = c->b.clock_words};
    const long long threads = (long long)s->launch.grid_blocks * s->launch.block_threads;
    r->buffer_bytes = threads * v->unroll * 16; /* 4 floats or 2 doubles an accumulator */
    r->bytes_per_launch = 0;
    r->flops_per_launch = (long long)c->args.total_trips * OCC_MMA_PER_TRIP * c->k->flop;
    r->bytes_in_flight_per_sm = 0;
    *touched_bytes = r->buffer_bytes;
    return 0;
}

static cudaError_t launch(void *sp, cudaStream_t st, unsigned long long *probe)
{
    MmaState *c = sp;
    c->launch.stream = st;
    c->args.probe = probe;
    return c->k->launch(&c->launch, &c->args);
}

static cudaError_t verify(void *sp, cudaStream_t st, OccRow *r, char *status, size_t len)
{
    MmaState *c = sp;
    const long long threads = (long long)c->launch.grid_blocks * c->launch.block_threads;
    const long long warps = warps_of(c);
    /* 16 bytes an accumulator: 4 floats or 2 doubles */
    const size_t bytes = (size_t)threads * (size_t)c->unroll * 16u;
    const cudaError_t e = occ_claims_run_checked(&c->b, bytes, warps, st, launch, c);
    if (e != cudaSuccess) return e;
    const unsigned long long bad =
        occ_mma_mismatches(c->b.host, is_f64(c->k), c->unroll, c->k->depth, OPERAND, OPERAND,
                           threads, c->b.host_trips);
    const unsigned long long ran = occ_fma_trips_run(c->b.host_trips, warps);
    r->verify_err = (double)bad;
    if (bad)
        snprintf(status, len, "fail:%llu accumulator elements differ from the closed form", bad);
    else if (ran != c->args.total_trips)
        snprintf(status, len, "fail:the warps ran %llu trips, the launch had %u", ran,
                 c->args.total_trips);
    else
        snprintf(status, len, "ok");
    return cudaSuccess;
}

static void fill(void *sp, const OccTiming *t, OccRow *r)
{
    MmaState *c = sp;
    const double mhz = occ_kernel_clock_for_peak(c->b.clock_words, t->clock_mhz_median,
                                                 c->dev->sm_clock_khz / 1e3,
                                                 &r->sm_clock_mhz_measured);
    r->flop_peak_gflops = occ_arch_peak(&c->dev->limits, c->v->peak, c->dev->sm_count, mhz);
}

#define MMA_OPS                                                                                    \
    {.setup = setup, .teardown = teardown, .kernel = kernel, .bind = bind, .launch = launch,      \
     .verify = verify, .fill = fill}
const OccFamilyOps occ_family_mma_f16 = MMA_OPS;
const OccFamilyOps occ_family_mma_bf16 = MMA_OPS;
const OccFamilyOps occ_family_mma_tf32 = MMA_OPS;
const OccFamilyOps occ_family_mma_f64 = MMA_OPS;
