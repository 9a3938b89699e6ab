/* SPDX-License-Identifier: Apache-2.0 */
/* tests/gpu/test_gpu_kernels.c: every compiled copy/reduce variant against a host reference, at
 * sizes that are not multiples of U x V x block, with canary guard regions around the output, with
 * grids of one block and of several waves' worth, and blocks of 128, 256 and 1024 threads (the
 * largest the kernels are compiled for).
 * Also: the verification counter catches planted errors, and CUB agrees with the host sum. */
#include <math.h>
#include <stdint.h>

#include "gpu_test.h"
#include "catalog.h"
#include "family_reduce.h"
#include "family_stream.h"
#include "stream_buf.h"
#include "variants.h"

enum { GUARD = 64 };                       /* floats of canary before and after the output */
static const uint32_t CANARY = 0xCAFEF00Du; /* bits no pattern value has (a NaN) */

static const size_t sizes[] = {1, 3, 31, 4097, 100003, 1234567};

static void check_canaries(const uint32_t *host, size_t n, const char *name, size_t size)
{
    int bad = 0;
    for (size_t i = 0; i < GUARD; i++) bad += host[i] != CANARY || host[GUARD + n + i] != CANARY;
    if (bad) fprintf(stderr, "%s n=%zu: %d canary words overwritten\n", name, size, bad);
    CHECK_INT_EQ(bad, 0);
}

static void test_variant(const OccStreamKernel *v, int is_copy, int sm_count, unsigned seed)
{
    const size_t max_n = sizes[sizeof sizes / sizeof sizes[0] - 1];
    const size_t words = max_n + 2 * GUARD;
    float *in, *guarded, *block_sums, *sum;
    unsigned int *done, *walk_done;
    unsigned long long *claim;
    GPU_OK(cudaMalloc((void **)&claim, sizeof *claim));
    GPU_OK(cudaMalloc((void **)&walk_done, sizeof *walk_done));
    GPU_OK(cudaMemset(claim, 0, sizeof *claim));
    GPU_OK(cudaMemset(walk_done, 0, sizeof *walk_done));
    GPU_OK(cudaMalloc((void **)&in, max_n * 4));
    GPU_OK(cudaMalloc((void **)&guarded, words * 4));
    GPU_OK(cudaMalloc((void **)&block_sums, 64 * (size_t)sm_count * 4));
    GPU_OK(cudaMalloc((void **)&sum, 4));
    GPU_OK(cudaMalloc((void **)&done, 4));
    GPU_OK(cudaMemset(done, 0, 4));
    GPU_OK(occ_fill_pattern(in, max_n, seed, 0));
    uint32_t *host = malloc(words * 4);
    const int unroll = occ_variant_at(occ_variant_find(v->name))->unroll;
    const int vec_bytes = occ_variant_at(occ_variant_find(v->name))->vec_bytes;
    const int blocks[] = {1, 3 * sm_count};
    const int threads[] = {128, 256, OCC_LB_MAX_THREADS};
    /* Static shares, and dynamic with chunks of 1 and of 3 trips (chunk edges inside and at the
     * end of the buffer). */
    OccSchedule scheds[] = {{NULL, NULL, 1}, {claim, walk_done, 1}, {claim, walk_done, 3}};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int g = 0; g < 2; g++)
            for (int t = 0; t < 3; t++)
                for (int k = 0; k < 3; k++) {
                size_t n = sizes[s];
                for (size_t i = 0; i < words; i++) host[i] = CANARY;
                GPU_OK(cudaMemcpy(guarded, host, words * 4, cudaMemcpyHostToDevice));
                OccLaunch l = {blocks[g], threads[t], 0, 0};
                scheds[0].chunk_trips =
                    occ_schedule_static_trips(n, vec_bytes, blocks[g], threads[t], unroll);
                OccStreamArgs a = {in, guarded + GUARD, n, block_sums, done, sum, NULL, scheds[k], 0, NULL};
                /* Twice: the second launch relies on the first having reset the counters. */
                GPU_OK(v->launch(&l, &a));
                GPU_OK(v->launch(&l, &a));
                GPU_OK(cudaDeviceSynchronize());
                if (is_copy) {
                    GPU_OK(cudaMemcpy(host, guarded, words * 4, cudaMemcpyDeviceToHost));
                    size_t wrong = 0;
                    for (size_t i = 0; i < n; i++) {
                        float want = occ_pattern_value(seed, i);
                        wrong += memcmp(&host[GUARD + i], &want, 4) != 0;
                    }
                    if (wrong)
                        fprintf(stderr, "%s n=%zu grid=%d block=%d sched=%d: %zu wrong\n", v->name,
                                n, l.grid_blocks, l.block_threads, k, wrong);
                    CHECK_INT_EQ(wrong, 0);
                    check_canaries(host, n, v->name, n);
                } else {
                    float got;
                    unsigned int left;
                    GPU_OK(cudaMemcpy(&got, sum, 4, cudaMemcpyDeviceToHost));
                    GPU_OK(cudaMemcpy(&left, done, 4, cudaMemcpyDeviceToHost));
                    double ref = 0.0;
                    for (size_t i = 0; i < n; i++) ref += occ_pattern_value(seed, i);
                    double tol = occ_reduce_tolerance(n, l.grid_blocks, l.block_threads, unroll,
                                                      k ? OCC_REDUCE_DYNAMIC_SHARE : 1.0);
                    double rel = ref > 0 ? fabs(got - ref) / ref : fabs(got);
                    if (!(rel <= tol))
                        fprintf(stderr, "%s n=%zu grid=%d block=%d sched=%d: sum %.9g, want %.9g\n",
                                v->name, n, l.grid_blocks, l.block_threads, k, got, ref);
                    CHECK(rel <= tol);
                    CHECK_INT_EQ(left, 0);
                    /* reduce must not write the output buffer at all */
                    GPU_OK(cudaMemcpy(host, guarded, words * 4, cudaMemcpyDeviceToHost));
                    size_t touched = 0;
                    for (size_t i = 0; i < words; i++) touched += host[i] != CANARY;
                    CHECK_INT_EQ(touched, 0);
                }
                /* The dynamic schedule's counters are back at 0 for the next launch. */
                unsigned long long claimed;
                unsigned int finished;
                GPU_OK(cudaMemcpy(&claimed, claim, sizeof claimed, cudaMemcpyDeviceToHost));
                GPU_OK(cudaMemcpy(&finished, walk_done, sizeof finished, cudaMemcpyDeviceToHost));
                CHECK_INT_EQ(claimed, 0);
                CHECK_INT_EQ(finished, 0);
            }
    free(host);
    cudaFree(claim);
    cudaFree(walk_done);
    cudaFree(in);
    cudaFree(guarded);
    cudaFree(block_sums);
    cudaFree(sum);
    cudaFree(done);
}

/* The residency probe: with it on, every block of a multi-wave-sized grid records a valid SM and
 * a start no later than its end, and the launch still computes the right result. */
static void test_probe(int sm_count)
{
    int n_reduce = 0;
    const OccStreamKernel *table = occ_reduce_kernels(&n_reduce);
    const OccStreamKernel *v = occ_stream_kernel_find(table, n_reduce, "reduce_u4_v16");
    const int grid = 4 * sm_count;
    const size_t n = 1u << 22;
    float *in, *block_sums, *sum, got;
    unsigned int *done;
    unsigned long long *probe;
    GPU_OK(cudaMalloc((void **)&in, n * 4));
    GPU_OK(cudaMalloc((void **)&block_sums, (size_t)grid * 4));
    GPU_OK(cudaMalloc((void **)&sum, 4));
    GPU_OK(cudaMalloc((void **)&done, 4));
    GPU_OK(cudaMalloc((void **)&probe, (size_t)grid * OCC_PROBE_WORDS * 8));
    GPU_OK(cudaMemset(done, 0, 4));
    GPU_OK(cudaMemset(probe, 0, (size_t)grid * OCC_PROBE_WORDS * 8));
    GPU_OK(occ_fill_pattern(in, n, 3, 0));
    OccLaunch l = {grid, 128, 0, 0};
    OccStreamArgs a = {in, NULL, n, block_sums, done, sum, probe,
                       {NULL, NULL, occ_schedule_static_trips(n, 16, grid, 128, 4)}, 0, NULL};
    GPU_OK(v->launch(&l, &a));
    GPU_OK(cudaDeviceSynchronize());
    unsigned long long *host = malloc((size_t)grid * OCC_PROBE_WORDS * 8);
    GPU_OK(cudaMemcpy(host, probe, (size_t)grid * OCC_PROBE_WORDS * 8, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int b = 0; b < grid; b++)
        bad += host[3 * b] >= (unsigned long long)sm_count || host[3 * b + 1] == 0 ||
               host[3 * b + 2] < host[3 * b + 1];
    CHECK_INT_EQ(bad, 0);
    GPU_OK(cudaMemcpy(&got, sum, 4, cudaMemcpyDeviceToHost));
    double ref = 0.0;
    for (size_t i = 0; i < n; i++) ref += occ_pattern_value(3, i);
    CHECK(fabs(got - ref) / ref <= occ_reduce_tolerance(n, grid, 128, 4, 1.0));
    free(host);
    cudaFree(in);
    cudaFree(block_sums);
    cudaFree(sum);
    cudaFree(done);
    cudaFree(probe);
}

/* The copy check of the sweep: a count of differing elements that sees planted errors. */
static void test_mismatch_counter(void)
{
    const size_t n = 1000003;
    float *a, *b;
    unsigned long long *count, got = 0;
    GPU_OK(cudaMalloc((void **)&a, n * 4));
    GPU_OK(cudaMalloc((void **)&b, n * 4));
    GPU_OK(cudaMalloc((void **)&count, sizeof *count));
    GPU_OK(occ_fill_pattern(a, n, 7, 0));
    GPU_OK(cudaMemcpy(b, a, n * 4, cudaMemcpyDeviceToDevice));
    GPU_OK(occ_count_mismatches(a, b, n, count, 0));
    GPU_OK(cudaMemcpy(&got, count, sizeof got, cudaMemcpyDeviceToHost));
    CHECK_INT_EQ(got, 0);
    const float bad = -1.0f;
    const size_t at[] = {0, 12345, n - 1};
    for (int i = 0; i < 3; i++) GPU_OK(cudaMemcpy(b + at[i], &bad, 4, cudaMemcpyHostToDevice));
    GPU_OK(occ_count_mismatches(a, b, n, count, 0));
    GPU_OK(cudaMemcpy(&got, count, sizeof got, cudaMemcpyDeviceToHost));
    CHECK_INT_EQ(got, 3);
    cudaFree(a);
    cudaFree(b);
    cudaFree(count);
}

static void test_cub_sum(void)
{
    const size_t n = 1234567;
    float *in, *sum, got = 0;
    void *temp;
    size_t temp_bytes = 0;
    GPU_OK(cudaMalloc((void **)&in, n * 4));
    GPU_OK(cudaMalloc((void **)&sum, 4));
    GPU_OK(occ_fill_pattern(in, n, 11, 0));
    GPU_OK(occ_cub_sum_temp_bytes(n, &temp_bytes));
    GPU_OK(cudaMalloc(&temp, temp_bytes ? temp_bytes : 1));
    GPU_OK(occ_cub_sum(in, n, sum, temp, temp_bytes, 0));
    GPU_OK(cudaMemcpy(&got, sum, 4, cudaMemcpyDeviceToHost));
    double ref = 0.0;
    for (size_t i = 0; i < n; i++) ref += occ_pattern_value(11, i);
    CHECK_NEAR(got / ref, 1.0, 1e-5);
    cudaFree(in);
    cudaFree(sum);
    cudaFree(temp);
}

int main(void)
{
    gpu_test_require_device();
    int sms = 0;
    GPU_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    unsigned seed = 0x5eed0000u + (unsigned)occ_variant_count();
    printf("seed %u, %d variants in the catalog\n", seed, occ_variant_count());
    fflush(stdout);
    int streaming = 0, n_copy = 0, n_reduce = 0;
    const OccStreamKernel *copy = occ_copy_kernels(&n_copy), *reduce = occ_reduce_kernels(&n_reduce);
    for (int i = 0; i < n_copy; i++, streaming++) test_variant(&copy[i], 1, sms, seed + streaming);
    for (int i = 0; i < n_reduce; i++, streaming++) test_variant(&reduce[i], 0, sms, seed + streaming);
    /* copy and reduce x U {1,2,4,8} x V {4,8,16}: 12 natural variants and 18 register-capped
     * twins (_r<cap>, kernels/variants.h) each */
    CHECK_INT_EQ(streaming, 60);
    test_mismatch_counter();
    test_cub_sum();
    test_probe(sms);
    return check_done();
}
