/* SPDX-License-Identifier: Apache-2.0 */
/* harness/families/family_fma.c: the fma family: U independent FMA chains per thread, fp32 or fp64
 * (Volkov 2010's arithmetic experiment). One launch runs trips x (its warps) warp trips of
 * OCC_FMA_PER_TRIP FMAs per thread (2 FLOP each), shared out to the warps in chunks (OccFmaArgs),
 * and no memory traffic but one store per chain, so the rate is GFLOP/s (no GB/s). Verified
 * exactly: x = x * 1 + 1 from an integer start (fma_chain.h), so each chain holds start + N bit
 * for bit after the N steps its warp's trips make (tolerance 0: one step too many or too few, or
 * a wrong start, is a mismatch), and the warps' trips must add up to the launch's. */
#include <stdio.h>
#include <stdlib.h>

#include "claims.h"
#include "kernel_clock.h"
#include "family.h"
#include "family_fma.h"
#include "flops.h"

#define ENTRY(t, bytes, u)                                                                         \
    {"fma_" #t "_u" #u, occ_launch_fma_##t##_u##u, occ_kernel_fma_##t##_u##u, bytes},
static const OccFmaKernel kernels[] = {OCC_FMA_VARIANTS(ENTRY)};
#undef ENTRY
enum { N_KERNELS = sizeof kernels / sizeof kernels[0] };

/* The most chain elements one launch stores per thread (the largest U) and their largest size. */
enum { MAX_CHAINS = 8, MAX_ELEM_BYTES = 8 };

typedef struct FmaState {
    const OccDevice *dev;
    OccClaims b;              /* results (max grid x max block x MAX_CHAINS elements), trips
                                 and counters (claims.h) */
    int trips[MAX_ELEM_BYTES + 1]; /* loop trips per thread per launch, by element bytes */
    const OccFmaKernel *k;    /* the bound point's kernel */
    const OccVariantInfo *v;  /* ... and variant */
    OccLaunch launch;
    int unroll;
} FmaState;

const OccFmaKernel *occ_fma_kernels(int *n)
{
    *n = N_KERNELS;
    return kernels;
}

static void teardown(void *sp)
{
    FmaState *s = sp;
    if (!s) return;
    occ_claims_free(&s->b);
    free(s);
}

static int setup(void **out, const OccRunEnv *env, char *err, size_t err_len)
{
    FmaState *s = occ_family_state_new(sizeof *s, "fma", err, err_len);
    *out = s;
    if (!s) return -1;
    s->dev = env->dev;
    const size_t threads = (size_t)env->max_grid_blocks * (size_t)env->max_block_threads;
    const cudaError_t e =
        occ_claims_alloc(&s->b, threads * MAX_CHAINS * MAX_ELEM_BYTES, threads / 32);
    if (e != cudaSuccess) {
        occ_device_format_error(e, "allocating the fma output", err, err_len);
        teardown(s);
        *out = NULL;
        return -1;
    }
    const double clock_mhz = env->dev->sm_clock_khz / 1000.0;
    s->trips[4] = occ_fma_trips(&env->dev->limits, 4, clock_mhz);
    s->trips[8] = occ_fma_trips(&env->dev->limits, 8, clock_mhz);
    env->meta(env->meta_user, "fma_trips_fp32", "%d", s->trips[4]);
    env->meta(env->meta_user, "fma_trips_fp64", "%d", s->trips[8]);
    env->meta(env->meta_user, "fma_claims_per_warp", "%d", OCC_FMA_CLAIMS_PER_WARP);
    env->meta(env->meta_user, "fma_lanes_per_sm_clk_fp32", "%d",
              env->dev->limits.fma_fp32_per_sm_clk);
    env->meta(env->meta_user, "fma_lanes_per_sm_clk_fp64", "%d",
              env->dev->limits.fma_fp64_per_sm_clk);
    return 0;
}

static const void *kernel(const OccVariantInfo *v)
{
    return v->slot >= 0 && v->slot < N_KERNELS ? kernels[v->slot].kernel() : NULL;
}

static int bind(void *sp, const OccVariantInfo *v, const OccShape *s, OccRow *r,
                long long *touched_bytes, char *skip, size_t skip_len)
{
    FmaState *c = sp;
    if (occ_kernel_clock_reset(c->b.clock_words) != cudaSuccess) {
        snprintf(skip, skip_len, "fma: the clock counters could not be reset");
        return 1;
    }
    c->k = &kernels[v->slot];
    c->v = v;
    c->launch = s->launch;
    c->unroll = v->unroll;
    const long long threads = (long long)s->launch.grid_blocks * s->launch.block_threads;
    const int trips = c->trips[c->k->elem_bytes];
    r->buffer_bytes = threads * v->unroll * c->k->elem_bytes;
    r->bytes_per_launch = 0;
    r->flops_per_launch = 2 * threads * trips * OCC_FMA_PER_TRIP;
    r->bytes_in_flight_per_sm = 0;
    *touched_bytes = r->buffer_bytes;
    return 0;
}

/* Warps of the bound point's grid. */
static long long warps_of(const FmaState *c)
{
    return (long long)c->launch.grid_blocks * c->launch.block_threads / 32;
}

static cudaError_t launch(void *sp, cudaStream_t st, unsigned long long *probe)
{
    FmaState *c = sp;
    const int trips = c->trips[c->k->elem_bytes];
    const OccFmaArgs a = {.out = c->b.out, .warp_trips = c->b.warp_trips, .step = OCC_FMA_STEP,
                          .total_trips = (unsigned int)(trips * warps_of(c)),
                          .chunk_trips = occ_fma_chunk_trips(trips), .claim = c->b.claim,
                          .warps_done = c->b.warps_done, .probe = probe,
                          .clock_words = c->b.clock_words};
    c->launch.stream = st;
    return c->k->launch(&c->launch, &a);
}

static cudaError_t verify(void *sp, cudaStream_t st, OccRow *r, char *status, size_t len)
{
    FmaState *c = sp;
    const long long threads = (long long)c->launch.grid_blocks * c->launch.block_threads;
    const size_t bytes = (size_t)threads * (size_t)c->unroll * (size_t)c->k->elem_bytes;
    const long long warps = warps_of(c);
    const cudaError_t e = occ_claims_run_checked(&c->b, bytes, warps, st, launch, c);
    if (e != cudaSuccess) return e;
    const unsigned long long bad =
        occ_fma_mismatches(c->b.host, c->k->elem_bytes, threads, c->unroll, c->b.host_trips);
    const unsigned long long ran = occ_fma_trips_run(c->b.host_trips, warps),
                             want = (unsigned long long)c->trips[c->k->elem_bytes] * warps;
    r->verify_err = (double)bad;
    if (bad)
        snprintf(status, len, "fail:%llu fma chains differ from the closed form", bad);
    else if (ran != want)
        snprintf(status, len, "fail:the warps ran %llu trips, the launch had %llu", ran, want);
    else
        snprintf(status, len, "ok");
    return cudaSuccess;
}

static void fill(void *sp, const OccTiming *t, OccRow *r)
{
    FmaState *c = sp;
    const double mhz = occ_kernel_clock_for_peak(c->b.clock_words, t->clock_mhz_median,
                                                 c->dev->sm_clock_khz / 1e3,
                                                 &r->sm_clock_mhz_measured);
    r->flop_peak_gflops = occ_arch_peak(&c->dev->limits, c->v->peak, c->dev->sm_count, mhz);
}

const OccFamilyOps occ_family_fma = {.setup = setup, .teardown = teardown, .kernel = kernel,
                                     .bind = bind, .launch = launch, .verify = verify,
                                     .fill = fill};
