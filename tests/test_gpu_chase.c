/* tests/test_gpu_chase.c: every chase kernel ends where the host's walk of the same cycle ends:
 * throughput variants (warp and thread modes, every K, start points spread and shifted along
 * the cycle, one and several waves) and the latency kernel (warm-up plus timed segments). */
#include <stdlib.h>

#include "gpu_test.h"
#include "catalog.h"
#include "chase_footprint.h"
#include "family_chase.h"

/* A footprint of n_lines lines, built the way the families build theirs. */
static void build(OccFootprint *f, size_t n_lines, unsigned int line_words,
                  unsigned int index_bytes, size_t max_chains)
{
    char err[200];
    if (occ_footprint_init(f, n_lines * line_words * 4, line_words, index_bytes, max_chains,
                           99 + n_lines, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        exit(1);
    }
    CHECK_INT_EQ(f->n_lines, n_lines);
}

static void test_throughput_variants(int sm_count)
{
    const size_t n_lines = 1000003; /* prime: no spacing divides it */
    const int grids[] = {1, 2 * sm_count};
    for (int i = 0; i < occ_variant_count(); i++) {
        const OccVariantInfo *v = occ_variant_at(i);
        const OccChaseLaunchFn launch = occ_chase_launcher(v->name);
        if (!launch) continue;
        const int warp_mode = strcmp(v->mode, "warp") == 0;
        OccFootprint f;
        build(&f, n_lines, warp_mode ? 32 : 8, 4, (size_t)grids[1] * 128 * 8);
        for (int g = 0; g < 2; g++) {
            size_t threads = (size_t)grids[g] * 128;
            size_t chains = (warp_mode ? threads / 32 : threads) * (size_t)v->unroll;
            OccLaunch l = {grids[g], 128, 0, 0};
            OccChaseArgs a = {f.lines, f.order, n_lines, f.line_words, n_lines / chains,
                              777 + (size_t)g, 37, f.ends, NULL};
            GPU_OK(cudaMemset(f.ends, 0xff, chains * 4));
            GPU_OK(launch(&l, &a));
            GPU_OK(cudaDeviceSynchronize());
            unsigned int *ends = malloc(chains * 4);
            GPU_OK(cudaMemcpy(ends, f.ends, chains * 4, cudaMemcpyDeviceToHost));
            size_t wrong = 0;
            for (size_t c = 0; c < chains; c++) {
                size_t pos = (c * a.chain_spacing + a.shift + (size_t)a.hops) % n_lines;
                wrong += ends[c] != f.host_order[pos] * f.line_words;
            }
            if (wrong) fprintf(stderr, "%s grid %d: %zu of %zu chains wrong\n", v->name,
                               grids[g], wrong, chains);
            CHECK_INT_EQ(wrong, 0);
            free(ends);
        }
        occ_footprint_free(&f);
    }
}

/* The latency kernel with 4- and 8-byte indices, lines of 32 and 128 bytes (8-byte indices:
 * 4 and 16 per line), ends where the host's walk ends. */
static void test_latency_kernel(void)
{
    const size_t sizes[] = {32, 4097, 300007};
    const unsigned int index_bytes[] = {4, 8}, line_words[] = {8, 32};
    long long *cycles;
    unsigned long long *ns, *end_dev, end = 0;
    GPU_OK(cudaMalloc((void **)&cycles, 5 * sizeof *cycles));
    GPU_OK(cudaMalloc((void **)&ns, 5 * sizeof *ns));
    GPU_OK(cudaMalloc((void **)&end_dev, sizeof *end_dev));
    for (int i = 0; i < 3; i++)
        for (int b = 0; b < 2; b++)
            for (int w = 0; w < 2; w++) {
                OccFootprint f;
                build(&f, sizes[i], line_words[w], index_bytes[b], 1);
                const unsigned long long per_line = line_words[w] * 4 / index_bytes[b];
                const int warm = 1000, hops = 513, segments = 5;
                GPU_OK(occ_chase_latency(f.lines, index_bytes[b], f.host_order[0] * per_line, warm,
                                         hops, segments, cycles, ns, end_dev, 0));
                GPU_OK(cudaMemcpy(&end, end_dev, sizeof end, cudaMemcpyDeviceToHost));
                CHECK_INT_EQ(end, f.host_order[(size_t)(warm + hops * segments) % sizes[i]] * per_line);
                long long c[5];
                GPU_OK(cudaMemcpy(c, cycles, sizeof c, cudaMemcpyDeviceToHost));
                for (int s = 0; s < segments; s++) CHECK(c[s] >= hops); /* >= 1 cycle a load */
                occ_footprint_free(&f);
            }
    cudaFree(cycles);
    cudaFree(ns);
    cudaFree(end_dev);
}

int main(void)
{
    gpu_test_require_device();
    int sms = 0;
    GPU_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    test_throughput_variants(sms);
    test_latency_kernel();
    return check_done();
}
