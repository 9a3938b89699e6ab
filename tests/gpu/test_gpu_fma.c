/* SPDX-License-Identifier: Apache-2.0 */
/* tests/gpu/test_gpu_fma.c: the arithmetic families on the GPU. Every fma variant at odd grid,
 * block and chunk sizes (a chunk that does not divide a warp's share) against the closed form bit
 * for bit, the warps' trips adding up to the launch's and the counters back at 0 (the next launch
 * starts clean), with canary words after the output; every mixed variant at sizes that are
 * not multiples of U x V x block, static and dynamic schedules, against the closed form of its
 * sum within the stated tolerance, and with its counters back at 0. Planted errors must be seen.
 * Exit 77 without a GPU (OCC_REQUIRE_GPU=1: a failure). */
#include <math.h>
#include <stdint.h>

#include "gpu_test.h"
#include "catalog.h"
#include "family_fma.h"
#include "family_reduce.h"
#include "family_stream.h"
#include "flops.h"
#include "stream_buf.h"

enum { GUARD_BYTES = 256, TRIPS = 3 };
static const unsigned char CANARY = 0xA5;

/* Device buffers of the fma launches: chain output, per-warp trips, the two counters. */
typedef struct FmaBufs {
    unsigned char *out;
    unsigned int *warp_trips;
    unsigned long long *claim;
    unsigned int *warps_done;
} FmaBufs;

/* One launch of k on grid x block with chunk trips per claim; the host copies of the chains and
 * the warps' trips; the counters must be back at 0 afterwards. */
static void run_fma(const OccFmaKernel *k, const FmaBufs *b, int grid, int block,
                    unsigned int chunk, unsigned char *host, size_t host_bytes,
                    unsigned int *trips)
{
    const long long warps = (long long)grid * block / 32;
    GPU_OK(cudaMemset(b->out, CANARY, host_bytes));
    GPU_OK(cudaMemset(b->warp_trips, 0xff, (size_t)warps * sizeof *trips));
    OccLaunch l = {grid, block, 0, 0};
    OccFmaArgs a = {.out = b->out, .warp_trips = b->warp_trips, .step = OCC_FMA_STEP,
                    .total_trips = (unsigned int)(TRIPS * warps), .chunk_trips = chunk,
                    .claim = b->claim, .warps_done = b->warps_done, .probe = NULL};
    GPU_OK(k->launch(&l, &a));
    GPU_OK(cudaDeviceSynchronize());
    GPU_OK(cudaMemcpy(host, b->out, host_bytes, cudaMemcpyDeviceToHost));
    GPU_OK(cudaMemcpy(trips, b->warp_trips, (size_t)warps * sizeof *trips,
                      cudaMemcpyDeviceToHost));
    unsigned long long claim = 1;
    unsigned int done = 1;
    GPU_OK(cudaMemcpy(&claim, b->claim, sizeof claim, cudaMemcpyDeviceToHost));
    GPU_OK(cudaMemcpy(&done, b->warps_done, sizeof done, cudaMemcpyDeviceToHost));
    CHECK_INT_EQ(claim, 0);
    CHECK_INT_EQ(done, 0);
}

static void test_fma_variant(const OccFmaKernel *k)
{
    const int unroll = occ_variant_at(occ_variant_find(k->name))->unroll;
    const int grids[] = {1, 7, 13}, blocks[] = {32, 96, 160};
    const unsigned int chunks[] = {1, 2, 5}; /* 5 does not divide a warp's share of 3 */
    const size_t max_bytes = 13u * 160u * 8u * 8u + GUARD_BYTES;
    unsigned char *host = malloc(max_bytes);
    unsigned int trips[13 * 160 / 32];
    FmaBufs b;
    GPU_OK(cudaMalloc((void **)&b.out, max_bytes));
    GPU_OK(cudaMalloc((void **)&b.warp_trips, sizeof trips));
    GPU_OK(cudaMalloc((void **)&b.claim, sizeof *b.claim));
    GPU_OK(cudaMalloc((void **)&b.warps_done, sizeof *b.warps_done));
    GPU_OK(cudaMemset(b.claim, 0, sizeof *b.claim));
    GPU_OK(cudaMemset(b.warps_done, 0, sizeof *b.warps_done));
    for (int g = 0; g < 3; g++)
        for (int t = 0; t < 3; t++) {
            const long long threads = (long long)grids[g] * blocks[t], warps = threads / 32;
            const size_t bytes = (size_t)threads * unroll * k->elem_bytes;
            run_fma(k, &b, grids[g], blocks[t], chunks[t], host, max_bytes, trips);
            const unsigned long long bad =
                occ_fma_mismatches(host, k->elem_bytes, threads, unroll, trips);
            if (bad)
                fprintf(stderr, "%s grid=%d block=%d: %llu chains differ\n", k->name, grids[g],
                        blocks[t], bad);
            CHECK_INT_EQ(bad, 0);
            CHECK_INT_EQ(occ_fma_trips_run(trips, warps), (unsigned long long)TRIPS * warps);
            /* The check is not vacuous: one trip more for warp 0 is wrong for its chains. */
            trips[0]++;
            CHECK_INT_EQ(occ_fma_mismatches(host, k->elem_bytes, threads, unroll, trips),
                         32 * unroll);
            int smashed = 0;
            for (size_t i = bytes; i < bytes + GUARD_BYTES; i++) smashed += host[i] != CANARY;
            CHECK_INT_EQ(smashed, 0);
        }
    cudaFree(b.out);
    cudaFree(b.warp_trips);
    cudaFree(b.claim);
    cudaFree(b.warps_done);
    free(host);
}

static const size_t sizes[] = {1, 37, 4101, 100003, 1234567};

/* Block 0's clock counters (kernels/clock_span.cuh): 20 launches of one block over n floats (each
 * tens of microseconds, long against %globaltimer's microsecond granularity) add cycles and ns
 * whose ratio is an SM clock, between a fifth of the device's peak clock and the peak plus 5% (the
 * granularity over the summed spans); no counter written, or one of another unit, fails. */
static void check_kernel_clock(const OccStreamKernel *v, const float *in, size_t n,
                               float *block_sums, unsigned int *done, float *sum)
{
    int dev = 0, peak_khz = 0;
    GPU_OK(cudaGetDevice(&dev));
    GPU_OK(cudaDeviceGetAttribute(&peak_khz, cudaDevAttrClockRate, dev));
    unsigned long long *words, w[2];
    GPU_OK(cudaMalloc((void **)&words, sizeof w));
    GPU_OK(cudaMemset(words, 0, sizeof w));
    const OccLaunch l = {1, 256, 0, 0};
    const OccSchedule sch = {NULL, NULL,
                             occ_schedule_static_trips(n, OCC_MIXED_V, 1, 256, OCC_MIXED_U)};
    const OccStreamArgs a = {in, NULL, n, block_sums, done, sum, NULL, sch, OCC_MIXED_STEP, words};
    for (int i = 0; i < 20; i++) GPU_OK(v->launch(&l, &a));
    GPU_OK(cudaDeviceSynchronize());
    GPU_OK(cudaMemcpy(w, words, sizeof w, cudaMemcpyDeviceToHost));
    const double mhz = w[1] > 0 ? 1e3 * (double)w[0] / (double)w[1] : 0.0;
    if (!(mhz >= peak_khz / 5e3 && mhz <= peak_khz / 1e3 * 1.05))
        fprintf(stderr, "%s: block 0 ran %llu cycles in %llu ns, %.1f MHz (peak %d kHz)\n",
                v->name, w[0], w[1], mhz, peak_khz);
    CHECK(mhz >= peak_khz / 5e3);
    CHECK(mhz <= peak_khz / 1e3 * 1.05);
    cudaFree(words);
}

static void test_mixed_variant(const OccStreamKernel *v, int sm_count, unsigned seed)
{
    const OccVariantInfo *info = occ_variant_at(occ_variant_find(v->name));
    const size_t max_n = sizes[sizeof sizes / sizeof sizes[0] - 1];
    float *in, *block_sums, *sum;
    unsigned int *done, *walk_done;
    unsigned long long *claim;
    GPU_OK(cudaMalloc((void **)&in, max_n * 4));
    GPU_OK(cudaMalloc((void **)&block_sums, 3 * (size_t)sm_count * 4));
    GPU_OK(cudaMalloc((void **)&sum, 4));
    GPU_OK(cudaMalloc((void **)&done, 4));
    GPU_OK(cudaMalloc((void **)&walk_done, 4));
    GPU_OK(cudaMalloc((void **)&claim, sizeof *claim));
    GPU_OK(cudaMemset(done, 0, 4));
    GPU_OK(cudaMemset(walk_done, 0, 4));
    GPU_OK(cudaMemset(claim, 0, sizeof *claim));
    GPU_OK(occ_fill_pattern(in, max_n, seed, 0));
    const int grids[] = {1, 3 * sm_count}, threads[] = {96, 256};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int g = 0; g < 2; g++)
            for (int t = 0; t < 2; t++)
                for (int dynamic = 0; dynamic < 2; dynamic++) {
                    const size_t n = sizes[s];
                    OccLaunch l = {grids[g], threads[t], 0, 0};
                    OccSchedule sch = {NULL, NULL,
                                       occ_schedule_static_trips(n, info->vec_bytes, grids[g],
                                                                 threads[t], info->unroll)};
                    if (dynamic) sch = (OccSchedule){claim, walk_done, 2};
                    OccStreamArgs a = {in, NULL, n, block_sums, done, sum, NULL, sch,
                                       OCC_MIXED_STEP, NULL};
                    GPU_OK(v->launch(&l, &a)); /* twice: the counters reset themselves */
                    GPU_OK(v->launch(&l, &a));
                    GPU_OK(cudaDeviceSynchronize());
                    float got;
                    unsigned int left;
                    GPU_OK(cudaMemcpy(&got, sum, 4, cudaMemcpyDeviceToHost));
                    GPU_OK(cudaMemcpy(&left, done, 4, cudaMemcpyDeviceToHost));
                    double host = 0.0;
                    for (size_t i = 0; i < n; i++) host += occ_pattern_value(seed, i);
                    const double want = occ_mixed_expected_sum(host, n, info->fma_per_element);
                    const double tol = occ_mixed_tolerance(
                        occ_reduce_tolerance(n, grids[g], threads[t], info->unroll,
                                             dynamic ? OCC_REDUCE_DYNAMIC_SHARE : 1.0),
                        n, info->fma_per_element, want);
                    const double rel = want > 0 ? fabs(got - want) / want : fabs(got);
                    if (!(rel <= tol))
                        fprintf(stderr, "%s n=%zu grid=%d block=%d dynamic=%d: %.9g, want %.9g\n",
                                v->name, n, grids[g], threads[t], dynamic, got, want);
                    CHECK(rel <= tol);
                    CHECK_INT_EQ(left, 0);
                    /* A one off (A + 1 steps) fails the same check at every size and grid: one
                     * step adds 1 to each element of at most A + 1, a relative 1 / 258 at A = 256,
                     * over twice the loosest bound here (1.5e-3: one block of 96 threads summing
                     * 1234567 floats at the dynamic schedule's share). */
                    const double off = occ_mixed_expected_sum(host, n, info->fma_per_element + 1);
                    CHECK(fabs(got - off) / off > tol);
                }
    unsigned long long claimed;
    GPU_OK(cudaMemcpy(&claimed, claim, sizeof claimed, cudaMemcpyDeviceToHost));
    CHECK_INT_EQ(claimed, 0);
    check_kernel_clock(v, in, max_n, block_sums, done, sum);
    cudaFree(in);
    cudaFree(block_sums);
    cudaFree(sum);
    cudaFree(done);
    cudaFree(walk_done);
    cudaFree(claim);
}

int main(void)
{
    gpu_test_require_device();
    int dev = 0, sm_count = 0;
    GPU_OK(cudaGetDevice(&dev));
    GPU_OK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, dev));
    const unsigned seed = 0x5eed0fau;
    printf("seed %#x, %d SMs\n", seed, sm_count);
    int n = 0;
    const OccFmaKernel *fma = occ_fma_kernels(&n);
    for (int i = 0; i < n; i++) test_fma_variant(&fma[i]);
    const OccStreamKernel *mixed = occ_mixed_kernels(&n);
    for (int i = 0; i < n; i++) test_mixed_variant(&mixed[i], sm_count, seed);
    return check_done();
}
