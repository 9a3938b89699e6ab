/* SPDX-License-Identifier: Apache-2.0 */
/* harness/gpu/stream_buf.c: the run's shared streaming buffers. */
#include "stream_buf.h"

#include <stdio.h>
#include <string.h>

#include "device.h"

int occ_stream_buffers_acquire(OccStreamBuffers *b, cudaStream_t stream, char *err, size_t err_len)
{
    if (b->in) return 0;
    b->n_floats = (size_t)b->want_bytes / sizeof(float);
    b->seed = 0x0cc5eedu;
    const size_t bytes = b->n_floats * sizeof(float);
    size_t free_bytes = 0, total = 0;
    cudaError_t e = cudaMemGetInfo(&free_bytes, &total);
    if (e == cudaSuccess && 2 * bytes + 4096 > free_bytes) {
        snprintf(err, err_len,
                 "--size %lld B needs %.2f GiB of device memory (input + output) but %.2f GiB is "
                 "free; pass a smaller --size",
                 b->want_bytes, 2.0 * bytes / 1073741824.0, free_bytes / 1073741824.0);
        return -1;
    }
    if (e == cudaSuccess) e = cudaMalloc((void **)&b->in, bytes);
    if (e == cudaSuccess) e = cudaMalloc((void **)&b->out, bytes);
    if (e == cudaSuccess) e = cudaMalloc((void **)&b->mismatches, sizeof *b->mismatches);
    if (e == cudaSuccess) e = cudaMalloc((void **)&b->claim, sizeof *b->claim);
    if (e == cudaSuccess) e = cudaMalloc((void **)&b->done, sizeof *b->done);
    if (e == cudaSuccess) e = cudaMemsetAsync(b->claim, 0, sizeof *b->claim, stream);
    if (e == cudaSuccess) e = cudaMemsetAsync(b->done, 0, sizeof *b->done, stream);
    if (e == cudaSuccess) e = occ_fill_pattern(b->in, b->n_floats, b->seed, stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
    if (e != cudaSuccess) {
        occ_device_format_error(e, "allocating and filling the stream buffers", err, err_len);
        occ_stream_buffers_free(b);
        return -1;
    }
    /* The host reference, summed in double while nothing else runs. */
    double sum = 0.0;
    for (size_t i = 0; i < b->n_floats; i++) sum += occ_pattern_value(b->seed, i);
    b->host_sum = sum;
    return 0;
}

void occ_stream_buffers_free(OccStreamBuffers *b)
{
    cudaFree(b->in);
    cudaFree(b->out);
    cudaFree(b->mismatches);
    cudaFree(b->claim);
    cudaFree(b->done);
    long long want = b->want_bytes;
    memset(b, 0, sizeof *b);
    b->want_bytes = want;
}

const OccStreamKernel *occ_stream_kernel_find(const OccStreamKernel *table, int n,
                                              const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(table[i].name, name) == 0) return &table[i];
    return NULL;
}

const void *occ_stream_kernel_handle(const OccStreamKernel *table, int n, int slot)
{
    return slot >= 0 && slot < n ? table[slot].kernel() : NULL;
}

void occ_stream_bind(OccStreamBound *bound, const OccStreamKernel *k, const OccLaunch *launch,
                     int blocks_per_sm,
                     const OccStreamBuffers *b, int dynamic, int chunks_per_block, int passes,
                     int unroll, int vec_bytes, OccRow *r, long long *touched_bytes)
{
    bound->k = k;
    bound->launch = *launch;
    const long long warps = (launch->block_threads + 31) / 32;
    const long long trip_bytes = (long long)launch->block_threads * unroll * vec_bytes;
    const long long buffer = (long long)(b->n_floats * sizeof(float));
    const long long blocks = launch->grid_blocks > 0 ? launch->grid_blocks : 1;
    /* chunks_per_block chunks per block, rounded to whole trips; but no chunk under
     * OCC_STREAM_MIN_CHUNK_BYTES of loads, so that claims stay far below what one counter serves
     * (about 5e8 atomics/s on an H200: 4 KiB chunks of copy_u2_v16 at 100% took it from
     * 4.1 to 3.2 TB/s), and every block gets at least one chunk. */
    const long long all_trips = trip_bytes > 0 ? buffer / trip_bytes : 1;
    long long trips = (2 * all_trips + blocks * chunks_per_block) / (2 * blocks * chunks_per_block);
    const long long min_trips =
        trip_bytes > 0 ? (OCC_STREAM_MIN_CHUNK_BYTES / passes + trip_bytes - 1) / trip_bytes : 1;
    if (trips < min_trips) trips = min_trips;
    if (trips > all_trips / blocks) trips = all_trips / blocks;
    trips = trips < 1 ? 1 : trips > 0x7fffffff ? 0x7fffffff : trips;
    bound->sched = dynamic ? (OccSchedule){b->claim, b->done, (unsigned int)trips}
                           : (OccSchedule){NULL, NULL,
                                           occ_schedule_static_trips(b->n_floats, vec_bytes,
                                                                     (int)blocks,
                                                                     launch->block_threads,
                                                                     unroll)};
    r->schedule = dynamic ? "dynamic" : "static";
    r->chunk_bytes = trip_bytes * bound->sched.chunk_trips;
    r->buffer_bytes = buffer;
    r->bytes_per_launch = passes * r->buffer_bytes;
    r->bytes_in_flight_per_sm = blocks_per_sm * warps * 32 * unroll * vec_bytes;
    *touched_bytes = r->bytes_per_launch;
}

int occ_sum_scratch_alloc(OccSumScratch *s, int max_grid_blocks, const char *what, char *err,
                          size_t err_len)
{
    memset(s, 0, sizeof *s);
    cudaError_t e = cudaMalloc((void **)&s->block_sums, (size_t)max_grid_blocks * sizeof(float));
    if (e == cudaSuccess) e = cudaMalloc((void **)&s->blocks_done, sizeof *s->blocks_done);
    if (e == cudaSuccess) e = cudaMalloc((void **)&s->sum, sizeof *s->sum);
    if (e == cudaSuccess) e = cudaMemset(s->blocks_done, 0, sizeof *s->blocks_done);
    if (e != cudaSuccess) {
        occ_device_format_error(e, what, err, err_len);
        occ_sum_scratch_free(s);
        return -1;
    }
    return 0;
}

void occ_sum_scratch_free(OccSumScratch *s)
{
    cudaFree(s->block_sums);
    cudaFree(s->blocks_done);
    cudaFree(s->sum);
    memset(s, 0, sizeof *s);
}

cudaError_t occ_sum_scratch_total(OccSumScratch *s, cudaStream_t st,
                                  cudaError_t (*launch)(void *state, cudaStream_t st,
                                                        unsigned long long *probe),
                                  void *state, float *got)
{
    cudaError_t e = cudaMemsetAsync(s->sum, 0xff, sizeof *s->sum, st);
    if (e == cudaSuccess) e = launch(state, st, NULL);
    if (e == cudaSuccess) e = cudaMemcpyAsync(got, s->sum, sizeof *got, cudaMemcpyDeviceToHost, st);
    if (e == cudaSuccess) e = cudaStreamSynchronize(st);
    return e;
}
