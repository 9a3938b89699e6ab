/* SPDX-License-Identifier: Apache-2.0 */
/* harness/families/family_async.c: the async family (kernels/families/async.h, kernels/async.cu):
 * the run's buffer read into shared memory by bulk copies (mode bulk, S stages of C bytes per
 * block) or cp.async (mode cp, S commit groups of U 16-byte copies per thread), every float
 * summed. The rate is DRAM GB/s (one launch reads the buffer once), predicted by the Little's-law
 * model from the bytes in flight per SM: the stages, blocks x the kernel's own shared memory.
 * The buffer is the family's own (the size of the run's stream buffers) and holds the pattern
 * i mod 7, so every launch is verified exactly: the blocks' sums add up to
 * occ_async_expected_sum. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "family.h"
#include "families/async.h"

/* The launchers of kernels/async.cu, in the descriptor's order: kernels[v->slot] is variant v's. */
typedef cudaError_t (*AsyncLaunchFn)(const OccLaunch *launch, const OccAsyncArgs *args);
#define DECLARE_BULK(s, c, w) OCC_DECLARE_VARIANT(async_bulk_s##s##_c##c##k_w##w, OccAsyncArgs)
#define DECLARE_CP(s, u, w) OCC_DECLARE_VARIANT(async_cp_s##s##_u##u##_w##w, OccAsyncArgs)
OCC_ASYNC_BULK_VARIANTS(DECLARE_BULK)
OCC_ASYNC_CP_VARIANTS(DECLARE_CP)
#undef DECLARE_BULK
#undef DECLARE_CP
/* Writes the pattern into buf[0 .. n_floats) on `stream` (kernels/async.cu). */
cudaError_t occ_async_fill(float *buf, size_t n_floats, cudaStream_t stream);

typedef struct AsyncKernel {
    AsyncLaunchFn launch;     /* enqueues one launch */
    OccKernelHandleFn kernel; /* the kernel, for the runtime's attribute and occupancy APIs */
    int stage_vecs;           /* bulk: 16-byte vectors of one stage (C / 16); cp: of one warp's
                                 commit group (32 x U) */
    int per_block;            /* 1: blocks claim chunks (bulk), 0: warps do (cp) */
} AsyncKernel;
static const AsyncKernel kernels[] = {
#define BULK(s, c, w)                                                                              \
    {occ_launch_async_bulk_s##s##_c##c##k_w##w, occ_kernel_async_bulk_s##s##_c##c##k_w##w,         \
     (c) * 1024 / 16, 1},
#define CP(s, u, w)                                                                                \
    {occ_launch_async_cp_s##s##_u##u##_w##w, occ_kernel_async_cp_s##s##_u##u##_w##w, 32 * (u), 0},
    OCC_ASYNC_BULK_VARIANTS(BULK) OCC_ASYNC_CP_VARIANTS(CP)
#undef BULK
#undef CP
};
enum { N_KERNELS = sizeof kernels / sizeof kernels[0] };

/* Chunks each claiming unit gets of the buffer, about; a chunk holds 4 to 64 KiB (whole stages or
 * commit groups): short enough that the last claims leave a short tail, long enough that the
 * claims stay a small part of the traffic. */
enum { CHUNKS_PER_UNIT = 32, CHUNK_MIN_VECS = 4096 / 16, CHUNK_MAX_VECS = 65536 / 16 };

typedef struct AsyncState {
    float *in;                 /* the pattern, n_floats (device) */
    size_t n_floats;
    unsigned long long *claim; /* the chunk counter, 0 between launches (device) */
    unsigned int *done;        /* units finished, 0 between launches (device) */
    double *block_sums;        /* max_grid_blocks (device) */
    double *host_sums;         /* max_grid_blocks (host) */
    const AsyncKernel *k;      /* the bound point */
    OccLaunch launch;
    unsigned int chunk_vecs;
} AsyncState;

static void teardown(void *sp)
{
    AsyncState *s = sp;
    if (!s) return;
    cudaFree(s->in);
    cudaFree(s->claim);
    cudaFree(s->done);
    cudaFree(s->block_sums);
    free(s->host_sums);
    free(s);
}

static int setup(void **out, const OccRunEnv *env, char *err, size_t err_len)
{
    AsyncState *s = occ_family_state_new(sizeof *s, "async", err, err_len);
    *out = s;
    if (!s) return -1;
    s->n_floats = (size_t)env->stream->want_bytes / sizeof(float);
    const size_t grid = (size_t)env->max_grid_blocks;
    s->host_sums = malloc(grid * sizeof *s->host_sums);
    cudaError_t e = cudaMalloc((void **)&s->in, s->n_floats * sizeof(float));
    if (e == cudaSuccess) e = cudaMalloc((void **)&s->claim, sizeof *s->claim);
    if (e == cudaSuccess) e = cudaMalloc((void **)&s->done, sizeof *s->done);
    if (e == cudaSuccess) e = cudaMalloc((void **)&s->block_sums, grid * sizeof(double));
    if (e == cudaSuccess) e = cudaMemset(s->claim, 0, sizeof *s->claim);
    if (e == cudaSuccess) e = cudaMemset(s->done, 0, sizeof *s->done);
    if (e == cudaSuccess) e = occ_async_fill(s->in, s->n_floats, env->timer->stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(env->timer->stream);
    if (e == cudaSuccess && s->host_sums) return 0;
    if (e != cudaSuccess)
        occ_device_format_error(e, "allocating the async family's buffer", err, err_len);
    else
        snprintf(err, err_len, "async: out of host memory for %zu block sums", grid);
    teardown(s);
    *out = NULL;
    return -1;
}

static const void *kernel(const OccVariantInfo *v)
{
    return v->slot >= 0 && v->slot < N_KERNELS ? kernels[v->slot].kernel() : NULL;
}

/* The chunk of a launch with `units` claiming units: about CHUNKS_PER_UNIT chunks each, within
 * CHUNK_MIN_VECS..CHUNK_MAX_VECS, a whole number of the kernel's stages (at least one). */
static unsigned int chunk_vecs(const AsyncKernel *k, size_t n_vec, long long units)
{
    size_t c = units > 0 ? n_vec / ((size_t)units * CHUNKS_PER_UNIT) : 1;
    c = c < CHUNK_MIN_VECS ? CHUNK_MIN_VECS : c > CHUNK_MAX_VECS ? CHUNK_MAX_VECS : c;
    c = (c + (size_t)k->stage_vecs - 1) / (size_t)k->stage_vecs * (size_t)k->stage_vecs;
    return (unsigned int)c;
}

static int bind(void *sp, const OccVariantInfo *v, const OccShape *s, OccRow *r,
                long long *touched_bytes, char *skip, size_t skip_len)
{
    AsyncState *c = sp;
    (void)skip, (void)skip_len;
    c->k = &kernels[v->slot];
    c->launch = s->launch;
    const long long units = (long long)s->launch.grid_blocks *
                            (c->k->per_block ? 1 : s->launch.block_threads / 32);
    c->chunk_vecs = chunk_vecs(c->k, c->n_floats / 4, units);
    r->buffer_bytes = (long long)(c->n_floats * sizeof(float));
    r->bytes_per_launch = r->buffer_bytes;
    r->flops_per_launch = 0;
    /* The stages in flight: the kernel's own shared memory of each resident block. */
    r->bytes_in_flight_per_sm = (long long)s->blocks_per_sm * v->own_dyn_smem_bytes;
    *touched_bytes = r->buffer_bytes;
    return 0;
}

static cudaError_t launch(void *sp, cudaStream_t st, unsigned long long *probe)
{
    AsyncState *c = sp;
    const OccAsyncArgs a = {.in = c->in, .n_floats = c->n_floats, .chunk_vecs = c->chunk_vecs,
                            .claim = c->claim, .done = c->done, .block_sums = c->block_sums,
                            .probe = probe};
    c->launch.stream = st;
    return c->k->launch(&c->launch, &a);
}

static cudaError_t verify(void *sp, cudaStream_t st, OccRow *r, char *status, size_t len)
{
    AsyncState *c = sp;
    const size_t grid = (size_t)c->launch.grid_blocks;
    cudaError_t e = cudaMemsetAsync(c->block_sums, 0xff, grid * sizeof(double), st); /* NaN */
    if (e == cudaSuccess) e = launch(c, st, NULL);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(c->host_sums, c->block_sums, grid * sizeof(double),
                            cudaMemcpyDeviceToHost, st);
    if (e == cudaSuccess) e = cudaStreamSynchronize(st);
    if (e != cudaSuccess) return e;
    double got = 0.0;
    for (size_t b = 0; b < grid; b++) got += c->host_sums[b];
    const double want = occ_async_expected_sum(c->n_floats);
    r->verify_err = fabs(got - want) / (want > 0 ? want : 1.0);
    if (got == want)
        snprintf(status, len, "ok");
    else
        snprintf(status, len, "fail:the blocks summed %.17g, the buffer holds %.17g", got, want);
    return cudaSuccess;
}

#define ASYNC_OPS                                                                                  \
    {.setup = setup, .teardown = teardown, .kernel = kernel, .bind = bind, .launch = launch,      \
     .verify = verify}
const OccFamilyOps occ_family_async_bulk = ASYNC_OPS;
const OccFamilyOps occ_family_async_cp = ASYNC_OPS;
