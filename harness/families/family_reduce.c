/* SPDX-License-Identifier: Apache-2.0 */
/* harness/families/family_reduce.c: the reduce family: a float sum of the run's input buffer; one
 * launch reads the buffer once. Verified against the host's double-precision sum within a bound on
 * the float32 rounding of the kernel's summation order. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "family.h"
#include "family_reduce.h"
#include "family_stream.h"

static const OccStreamKernel kernels[] = {OCC_REDUCE_VARIANTS(OCC_STREAM_KERNEL_ENTRY)};
enum { N_KERNELS = sizeof kernels / sizeof kernels[0] };

/* Chunks per block of the dynamic schedule (walked without a barrier per chunk: kernels/vec.cuh).
 * Measured on an H200 (4 GiB, U 2-8, V 8-16, 25 to 100% occupancy, 224 KiB of L1): 64 keeps the
 * measured residency within 2 points of the set occupancy at every point and gives 1.005x CUB;
 * 32 and 16 lengthen the tail (residency down to 2.0 and 3.3 points below, no faster). */
enum { CHUNKS_PER_BLOCK = 64 };

typedef struct ReduceState {
    OccStreamBuffers *buf;
    OccSumScratch scratch;     /* partials, counter, total */
    OccStreamBound bound;
    int dynamic;              /* --schedule dynamic */
    int unroll;
} ReduceState;

double occ_reduce_tolerance(size_t n_floats, int grid_blocks, int block_threads, int unroll,
                            double share)
{
    /* Each accumulator adds about share x n / (threads x U) terms; the shuffle and shared-memory
     * trees add log2(block) levels each; the last block adds grid / block partials per thread.
     * The error of a float sum of m terms is at most m x 2^-24 of the sum of magnitudes. */
    double threads = (double)grid_blocks * block_threads;
    double chain = ceil(share * (double)n_floats / (threads * unroll)) + unroll;
    double tree = 2.0 * log2((double)block_threads) + ceil((double)grid_blocks / block_threads);
    return (chain + tree + 8.0) * ldexp(1.0, -24);
}

/* The stream buffers are the run's (env->stream): the state only points at them. */
static void teardown(void *sp)
{
    ReduceState *s = sp;
    if (s) occ_sum_scratch_free(&s->scratch);
    free(s);
}

static int setup(void **out, const OccRunEnv *env, char *err, size_t err_len)
{
    ReduceState *s = occ_family_state_new(sizeof *s, "reduce", err, err_len);
    *out = s;
    if (!s) return -1;
    s->buf = env->stream;
    s->dynamic = env->opt->schedule == OCC_SCHEDULE_DYNAMIC;
    if (occ_stream_buffers_acquire(env->stream, env->timer->stream, err, err_len) == 0 &&
        occ_sum_scratch_alloc(&s->scratch, env->max_grid_blocks, "allocating the reduce scratch",
                              err, err_len) == 0)
        return 0;
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
    ReduceState *c = sp;
    (void)skip, (void)skip_len;
    c->unroll = v->unroll;
    occ_stream_bind(&c->bound, &kernels[v->slot], &s->launch, s->blocks_per_sm, c->buf,
                    c->dynamic, CHUNKS_PER_BLOCK, 1, v->unroll, v->vec_bytes, r, touched_bytes);
    return 0;
}

static cudaError_t launch(void *sp, cudaStream_t st, unsigned long long *probe)
{
    ReduceState *c = sp;
    OccStreamArgs a = {.in = c->buf->in, .n_floats = c->buf->n_floats,
                       .block_sums = c->scratch.block_sums,
                       .blocks_done = c->scratch.blocks_done, .sum = c->scratch.sum,
                       .probe = probe, .sched = c->bound.sched};
    c->bound.launch.stream = st;
    return c->bound.k->launch(&c->bound.launch, &a);
}

static cudaError_t verify(void *sp, cudaStream_t st, OccRow *r, char *status, size_t len)
{
    ReduceState *c = sp;
    float got = 0.0f;
    cudaError_t e = occ_sum_scratch_total(&c->scratch, st, launch, c, &got);
    const double host = c->buf->host_sum;
    r->verify_err = fabs((double)got - host) / host; /* all terms are >= 0 */
    const double tol = occ_reduce_tolerance(c->buf->n_floats, c->bound.launch.grid_blocks,
                                            c->bound.launch.block_threads, c->unroll,
                                            c->dynamic ? OCC_REDUCE_DYNAMIC_SHARE : 1.0);
    snprintf(status, len, "%s", r->verify_err <= tol ? "ok" : "fail:sum out of tolerance");
    return e;
}

const OccFamilyOps occ_family_reduce = {.setup = setup, .teardown = teardown, .kernel = kernel,
                                        .bind = bind, .launch = launch, .verify = verify};

const OccStreamKernel *occ_reduce_kernels(int *n)
{
    *n = N_KERNELS;
    return kernels;
}
