/* SPDX-License-Identifier: Apache-2.0 */
/* harness/gpu/stream_buf.h: the input and output buffers the streaming families (copy, reduce, mixed) and
 * the roof share in one run, allocated once on first use, and the kernel-table entry those
 * families expand from their descriptors' lists (kernels/families/<name>.h). */
#ifndef OCC_STREAM_BUF_H
#define OCC_STREAM_BUF_H

#include <stddef.h>

#include "api.h"
#include "csv.h"

/* The run's streaming buffers. */
typedef struct OccStreamBuffers {
    long long want_bytes; /* size asked for each buffer (set before the first acquire) */
    float *in, *out;      /* n_floats each; in holds the pattern of `seed` (device) */
    size_t n_floats;      /* elements per buffer: want_bytes / 4 */
    unsigned int seed;    /* pattern seed */
    double host_sum;      /* double-precision sum of the pattern (every element is >= 0) */
    unsigned long long *mismatches; /* device counter for output checks */
    unsigned long long *claim;      /* device: the dynamic schedule's chunk counter (kept at 0
                                       between launches by the kernels) */
    unsigned int *done;             /* device: the dynamic schedule's finished-block counter */
} OccStreamBuffers;

/* Allocates and fills b (once; later calls return 0 at once) on `stream`. 0, or -1 with a
 * one-line err (out of memory names the size asked, the free memory and --size). */
int occ_stream_buffers_acquire(OccStreamBuffers *b, cudaStream_t stream, char *err, size_t err_len);
void occ_stream_buffers_free(OccStreamBuffers *b);

/* One compiled streaming kernel: its name, launcher and handle. */
typedef struct OccStreamKernel {
    const char *name;          /* the variant name (catalog) */
    OccStreamLaunchFn launch;  /* enqueues one launch */
    OccKernelHandleFn kernel;  /* the kernel, for the runtime's attribute and occupancy APIs */
} OccStreamKernel;

/* Expands one X(fam, u, v, lb, sfx) entry of a streaming list into an OccStreamKernel. */
#define OCC_STREAM_KERNEL_ENTRY(fam, u, v, lb, sfx)                                                \
    {#fam "_u" #u "_v" #v #sfx, occ_launch_##fam##_u##u##_v##v##sfx,                              \
     occ_kernel_##fam##_u##u##_v##v##sfx},

/* The entry of table[0..n) named name, or NULL (for tests: the families index their table by
 * the variant's slot). */
const OccStreamKernel *occ_stream_kernel_find(const OccStreamKernel *table, int n,
                                              const char *name);
/* The handle of entry `slot` of table[0..n) (a variant's OccVariantInfo.slot; NULL out of
 * range): a family's OccFamilyOps.kernel. */
const void *occ_stream_kernel_handle(const OccStreamKernel *table, int n, int slot);

/* A streaming family's bound point: the kernel, the launch shape and the work sharing. */
typedef struct OccStreamBound {
    const OccStreamKernel *k; /* the bound variant's entry */
    OccLaunch launch;         /* grid, block, padding (the stream is set per launch) */
    OccSchedule sched;        /* the schedule every launch of the point uses */
} OccStreamBound;

/* The smallest dynamic chunk, bytes of buffer x passes: a copy chunk at least 16 KiB, a reduce
 * chunk 32 KiB, so that either claims at most about 1.5e8 chunks/s at 4.7 TB/s. */
#define OCC_STREAM_MIN_CHUNK_BYTES (32 * 1024)

/* Binds kernel k (the variant's entry of its family's table) with launch and schedule `dynamic` (1:
 * chunks of about buffer / (grid x chunks_per_block), whole trips, at least
 * OCC_STREAM_MIN_CHUNK_BYTES / passes and at most one block's share, so that the tail, where
 * blocks run out of work one by one, lasts about 1/chunks_per_block of the launch; 0: static,
 * one equal contiguous share per block),
 * and fills the columns of a streaming point: schedule, chunk_bytes, buffer_bytes,
 * bytes_per_launch = passes x buffer (copy reads and writes it: 2; reduce reads it: 1),
 * bytes_in_flight_per_sm = blocks_per_sm x warps x 32 x U x V; *touched_bytes =
 * bytes_per_launch. */
void occ_stream_bind(OccStreamBound *bound, const OccStreamKernel *k, const OccLaunch *launch,
                     int blocks_per_sm,
                     const OccStreamBuffers *b, int dynamic, int chunks_per_block, int passes,
                     int unroll, int vec_bytes, OccRow *r, long long *touched_bytes);

/* The scratch of a summing family (reduce, mixed): what OccStreamArgs.block_sums, blocks_done and
 * sum point to. */
typedef struct OccSumScratch {
    float *block_sums;         /* one partial per block of the largest grid */
    unsigned int *blocks_done; /* 0 between launches (the last block resets it) */
    float *sum;                /* the total */
} OccSumScratch;

/* Allocates s for grids of up to max_grid_blocks blocks. 0, or -1 with a one-line err naming
 * `what` (s is freed then). */
int occ_sum_scratch_alloc(OccSumScratch *s, int max_grid_blocks, const char *what, char *err,
                          size_t err_len);
void occ_sum_scratch_free(OccSumScratch *s);
/* One checked launch of a summing family: poisons *s->sum, enqueues launch(state, st, NULL) and
 * reads the total into *got (synchronizes st). */
cudaError_t occ_sum_scratch_total(OccSumScratch *s, cudaStream_t st,
                                  cudaError_t (*launch)(void *state, cudaStream_t st,
                                                        unsigned long long *probe),
                                  void *state, float *got);

#endif
