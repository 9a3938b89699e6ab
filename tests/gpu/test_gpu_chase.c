/* SPDX-License-Identifier: Apache-2.0 */
/* tests/gpu/test_gpu_chase.c: every chase kernel ends where the host's walk of the same cycle ends:
 * throughput variants (warp and thread modes, every K, start points spread and shifted along
 * the cycle, one and several waves) and the latency kernel (warm-up plus timed segments) for
 * every link: addresses, 4- and 8-byte indices. */
#include <stdlib.h>

#include "gpu_test.h"
#include "catalog.h"
#include "chase_footprint.h"
#include "family_chase.h"

/* A footprint of n_lines lines, built the way the families build theirs. */
static void build(OccFootprint *f, size_t n_lines, unsigned int line_words, OccChaseLink link,
                  size_t max_chains)
{
    char err[200];
    if (occ_footprint_init(f, n_lines * line_words * 4, line_words, link, max_chains,
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
        const OccChaseLaunchFn launch = occ_chase_launcher(v);
        if (!launch) continue;
        const int warp_mode = strcmp(v->mode, "warp") == 0;
        OccFootprint f;
        build(&f, n_lines, warp_mode ? 32 : 8, OCC_CHASE_INDEX4, (size_t)grids[1] * 128 * 8);
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

/* What an entry of f links to line `line` with, computed here from the definitions in
 * kernels/api.h (OccChaseLink), not by the footprint's own helper. */
static unsigned long long expected_link(const OccFootprint *f, size_t line)
{
    const unsigned long long line_bytes = 4ull * f->line_words;
    if (f->link == OCC_CHASE_ADDRESS)
        return (unsigned long long)(uintptr_t)f->lines + line * line_bytes;
    return line * line_bytes / (f->link == OCC_CHASE_INDEX8 ? 8 : 4);
}

/* The latency kernel with addresses and 4- and 8-byte indices, lines of 32 and 128 bytes (4 to
 * 32 entries per line), ends where the host's walk ends; footprints small enough to wrap around
 * the cycle and one that does not. */
static void test_latency_kernel(void)
{
    const size_t sizes[] = {32, 4097, 300007};
    const OccChaseLink links[] = {OCC_CHASE_ADDRESS, OCC_CHASE_INDEX4, OCC_CHASE_INDEX8};
    const char *const link_names[] = {"address", "4-byte index", "8-byte index"};
    const unsigned int line_words[] = {8, 32};
    const int warm = 1000, hops = 513, segments = 5;
    long long *cycles;
    unsigned long long *ns, *end_dev, end = 0;
    GPU_OK(cudaMalloc((void **)&cycles, segments * sizeof *cycles));
    GPU_OK(cudaMalloc((void **)&ns, segments * sizeof *ns));
    GPU_OK(cudaMalloc((void **)&end_dev, sizeof *end_dev));
    for (int i = 0; i < 3; i++)
        for (int l = 0; l < 3; l++)
            for (int w = 0; w < 2; w++) {
                OccFootprint f;
                build(&f, sizes[i], line_words[w], links[l], 1);
                const size_t last = f.host_order[(size_t)(warm + hops * segments) % sizes[i]];
                /* The first line's first entry is the link to the second line of the walk. */
                const char *first_line =
                    (const char *)f.lines + 4ull * line_words[w] * f.host_order[0];
                unsigned long long first = 0;
                GPU_OK(cudaMemcpy(&first, first_line, occ_chase_link_bytes(links[l]),
                                  cudaMemcpyDeviceToHost));
                CHECK_INT_EQ(first, expected_link(&f, f.host_order[1]));
                CHECK_INT_EQ(occ_footprint_link(&f, last), expected_link(&f, last));
                GPU_OK(cudaMemset(end_dev, 0xff, sizeof *end_dev));
                GPU_OK(occ_chase_latency(f.lines, links[l], expected_link(&f, f.host_order[0]),
                                         warm, hops, segments, cycles, ns, end_dev, 0));
                GPU_OK(cudaMemcpy(&end, end_dev, sizeof end, cudaMemcpyDeviceToHost));
                if (end != expected_link(&f, last))
                    fprintf(stderr, "%s, %u-byte lines, %zu lines: ended at %#llx, want %#llx\n",
                            link_names[l], 4 * line_words[w], sizes[i], end,
                            expected_link(&f, last));
                CHECK_INT_EQ(end, expected_link(&f, last));
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
