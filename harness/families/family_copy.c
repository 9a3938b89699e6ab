/* SPDX-License-Identifier: Apache-2.0 */
/* harness/families/family_copy.c: the copy family: out = in over the run's stream buffers; one
 * launch moves 2 x buffer bytes (every loaded byte is stored). Verified in full on the device
 * against the input after the output was poisoned. */
#include <stdio.h>
#include <stdlib.h>

#include "family.h"
#include "family_stream.h"

static const OccStreamKernel kernels[] = {OCC_COPY_VARIANTS(OCC_STREAM_KERNEL_ENTRY)};
enum { N_KERNELS = sizeof kernels / sizeof kernels[0] };

/* Chunks per block of the dynamic schedule (one block barrier per chunk: kernels/vec.cuh), at
 * least 16 KiB each (stream_buf.h). Measured on an H200 (4 GiB, U 2-8, V 8-16, 25 to 100%
 * occupancy, 224 KiB of L1): 256 gives 0.991x cudaMemcpy at best, 64 about 0.95x; chunks of
 * 4 KiB (256 per block at 100% before the 16 KiB floor) made the claims the bottleneck. */
enum { CHUNKS_PER_BLOCK = 256 };

typedef struct CopyState {
    OccStreamBuffers *buf;
    OccStreamBound bound;
    int dynamic;              /* --schedule dynamic */
} CopyState;

/* The stream buffers are the run's (env->stream): the state only points at them. */
static void teardown(void *sp) { free(sp); }

static int setup(void **out, const OccRunEnv *env, char *err, size_t err_len)
{
    CopyState *s = occ_family_state_new(sizeof *s, "copy", err, err_len);
    *out = s;
    if (!s) return -1;
    s->buf = env->stream;
    s->dynamic = env->opt->schedule == OCC_SCHEDULE_DYNAMIC;
    if (occ_stream_buffers_acquire(env->stream, env->timer->stream, err, err_len) == 0) return 0;
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
    CopyState *c = sp;
    (void)skip, (void)skip_len;
    occ_stream_bind(&c->bound, &kernels[v->slot], &s->launch, s->blocks_per_sm, c->buf,
                    c->dynamic, CHUNKS_PER_BLOCK, 2, v->unroll, v->vec_bytes, r, touched_bytes);
    return 0;
}

static cudaError_t launch(void *sp, cudaStream_t st, unsigned long long *probe)
{
    CopyState *c = sp;
    OccStreamArgs a = {.in = c->buf->in, .out = c->buf->out, .n_floats = c->buf->n_floats,
                       .probe = probe, .sched = c->bound.sched};
    c->bound.launch.stream = st;
    return c->bound.k->launch(&c->bound.launch, &a);
}

static cudaError_t verify(void *sp, cudaStream_t st, OccRow *r, char *status, size_t len)
{
    CopyState *c = sp;
    OccStreamBuffers *b = c->buf;
    unsigned long long bad = 0;
    cudaError_t e = cudaMemsetAsync(b->out, 0xff, b->n_floats * sizeof(float), st);
    if (e == cudaSuccess) e = launch(c, st, NULL);
    if (e == cudaSuccess) e = occ_count_mismatches(b->in, b->out, b->n_floats, b->mismatches, st);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(&bad, b->mismatches, sizeof bad, cudaMemcpyDeviceToHost, st);
    if (e == cudaSuccess) e = cudaStreamSynchronize(st);
    r->verify_err = (double)bad;
    snprintf(status, len, "%s", bad == 0 ? "ok" : "fail:copy output differs from input");
    return e;
}

const OccFamilyOps occ_family_copy = {.setup = setup, .teardown = teardown, .kernel = kernel,
                                      .bind = bind, .launch = launch, .verify = verify};

const OccStreamKernel *occ_copy_kernels(int *n)
{
    *n = N_KERNELS;
    return kernels;
}
