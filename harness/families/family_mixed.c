/* SPDX-License-Identifier: Apache-2.0 */
/* harness/families/family_mixed.c: the mixed family: the reduce walk over the run's input buffer
 * with A dependent FMAs applied to every loaded float before it is summed (Volkov's
 * arithmetic-intensity sweep). One launch reads the buffer once (GB/s) and performs 2A FLOP per
 * float (GFLOP/s). Verified against the closed form of the steps over the host's double-precision
 * sum (occ_mixed_expected_sum) within the reduce bound plus the steps' rounding. The FMA peak is
 * taken at the clock the kernel ran at (kernel_clock.h): with DRAM and the FMA pipes both busy the
 * SMs can run below the clock the watch reads between samples. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "family.h"
#include "family_reduce.h"
#include "family_stream.h"
#include "flops.h"
#include "kernel_clock.h"

#define ENTRY(a) {OCC_MIXED_NAME(OCC_MIXED_U, OCC_MIXED_V, a), occ_launch_mixed_a##a,             \
                  occ_kernel_mixed_a##a},
static const OccStreamKernel kernels[] = {OCC_MIXED_VARIANTS(ENTRY)};
#undef ENTRY
enum { N_KERNELS = sizeof kernels / sizeof kernels[0] };

/* Chunks per block of the dynamic schedule: reduce's (the same walk; at A > 0 blocks take
 * chunks more slowly, so the claim counter is further from being the bottleneck). */
enum { CHUNKS_PER_BLOCK = 64 };

typedef struct MixedState {
    const OccDevice *dev;
    OccStreamBuffers *buf;
    OccSumScratch scratch;     /* partials, counter, total */
    OccStreamBound bound;
    int dynamic;               /* --schedule dynamic */
    int fma_per_element;       /* A of the bound variant */
    OccArchRate peak;          /* ... and the rate it is judged against */
    unsigned long long *clock_words; /* device: block 0's cycles and ns over the point's launches */
} MixedState;

/* The stream buffers are the run's (env->stream): the state only points at them. */
static void teardown(void *sp)
{
    MixedState *s = sp;
    if (!s) return;
    occ_sum_scratch_free(&s->scratch);
    cudaFree(s->clock_words);
    free(s);
}

static int setup(void **out, const OccRunEnv *env, char *err, size_t err_len)
{
    MixedState *s = occ_family_state_new(sizeof *s, "mixed", err, err_len);
    *out = s;
    if (!s) return -1;
    s->dev = env->dev;
    s->buf = env->stream;
    s->dynamic = env->opt->schedule == OCC_SCHEDULE_DYNAMIC;
    if (occ_stream_buffers_acquire(env->stream, env->timer->stream, err, err_len) == 0 &&
        occ_sum_scratch_alloc(&s->scratch, env->max_grid_blocks, "allocating the mixed scratch",
                              err, err_len) == 0) {
        const cudaError_t e = occ_kernel_clock_alloc(&s->clock_words);
        if (e == cudaSuccess) return 0;
        occ_device_format_error(e, "allocating the mixed clock counters", err, err_len);
    }
    teardown(s);
    *out = NULL;
    return -1;
}

static const void *kernel(const OccVariantInfo *v)
{
    return occ_stream_kernel_handle(kernels, N_KERNELS, v->slot);
}

static int bind(void *sp, const OccVariantInfo *v, const OccShape *s, OccRow *r,
                long long *touched_bytes, char *skip, size_t skip_len)
{
    MixedState *c = sp;
    if (occ_kernel_clock_reset(c->clock_words) != cudaSuccess) {
        snprintf(skip, skip_len, "mixed: the clock counters could not be reset");
        return 1;
    }
    c->fma_per_element = v->fma_per_element;
    c->peak = v->peak;
    occ_stream_bind(&c->bound, &kernels[v->slot], &s->launch, s->blocks_per_sm, c->buf,
                    c->dynamic, CHUNKS_PER_BLOCK, 1, v->unroll, v->vec_bytes, r, touched_bytes);
    r->flops_per_launch = 2LL * v->fma_per_element * (long long)c->buf->n_floats;
    return 0;
}

static cudaError_t launch(void *sp, cudaStream_t st, unsigned long long *probe)
{
    MixedState *c = sp;
    OccStreamArgs a = {.in = c->buf->in, .n_floats = c->buf->n_floats,
                       .block_sums = c->scratch.block_sums,
                       .blocks_done = c->scratch.blocks_done, .sum = c->scratch.sum,
                       .probe = probe, .sched = c->bound.sched, .fma_step = OCC_MIXED_STEP,
                       .clock_words = c->clock_words};
    c->bound.launch.stream = st;
    return c->bound.k->launch(&c->bound.launch, &a);
}

static cudaError_t verify(void *sp, cudaStream_t st, OccRow *r, char *status, size_t len)
{
    MixedState *c = sp;
    float got = 0.0f;
    cudaError_t e = occ_sum_scratch_total(&c->scratch, st, launch, c, &got);
    const size_t n = c->buf->n_floats;
    const double want = occ_mixed_expected_sum(c->buf->host_sum, n, c->fma_per_element);
    r->verify_err = fabs((double)got - want) / want; /* all terms are >= 0 */
    const double sum_tol = occ_reduce_tolerance(n, c->bound.launch.grid_blocks,
                                                c->bound.launch.block_threads, OCC_MIXED_U,
                                                c->dynamic ? OCC_REDUCE_DYNAMIC_SHARE : 1.0);
    const double tol = occ_mixed_tolerance(sum_tol, n, c->fma_per_element, want);
    snprintf(status, len, "%s", r->verify_err <= tol ? "ok" : "fail:sum out of tolerance");
    return e;
}

static void fill(void *sp, const OccTiming *t, OccRow *r)
{
    MixedState *c = sp;
    const double mhz = occ_kernel_clock_for_peak(c->clock_words, t->clock_mhz_median,
                                                 c->dev->sm_clock_khz / 1e3,
                                                 &r->sm_clock_mhz_measured);
    r->flop_peak_gflops = occ_arch_peak(&c->dev->limits, c->peak, c->dev->sm_count, mhz);
}

const OccFamilyOps occ_family_mixed = {.setup = setup, .teardown = teardown, .kernel = kernel,
                                       .bind = bind, .launch = launch, .verify = verify,
                                       .fill = fill};

const OccStreamKernel *occ_mixed_kernels(int *n)
{
    *n = N_KERNELS;
    return kernels;
}
