/* SPDX-License-Identifier: Apache-2.0 */
/* tests/gpu/test_gpu_chase.c: every chase kernel ends where the host's walk of the same cycle ends:
 * throughput variants (warp and thread modes, every K, start points spread and shifted along
 * the cycle, one and several waves, one to OCC_CLAIM_GROUPS_MAX claim counters, every warp's
 * chains as far as its claimed trips took them, the launch's trips run exactly) and the latency
 * kernel (warm-up plus timed segments) for
 * every link: addresses, 4- and 8-byte indices. */
#include <stdlib.h>

#include "gpu_test.h"
#include "catalog.h"
#include "chase_footprint.h"
#include "claims.h"
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

/* Launches twice (the counters the first launch's last warp resets serve the second) and checks
 * the second: every chain ends where the host's walk ends after its warp's trips, and the warps ran
 * exactly the launch's trips. */
static void check_launch(OccChaseLaunchFn launch, const char *name, const OccFootprint *f,
                         OccClaims *b, int grid, unsigned int unroll, int warp_mode,
                         unsigned int groups, unsigned int chunk)
{
    const size_t warps = (size_t)grid * 128 / 32;
    const size_t per_warp = (warp_mode ? 1 : 32) * (size_t)unroll, chains = warps * per_warp;
    const OccLaunch l = {grid, 128, 0, 0};
    OccChaseArgs a = {.lines = f->lines, .order = f->order, .n_lines = f->n_lines,
                      .line_words = f->line_words, .chain_spacing = f->n_lines / chains,
                      .shift = 777, .trips_per_warp = 37, .chunk_trips = chunk,
                      .claim_groups = groups, .ends = b->out, .warp_trips = b->warp_trips,
                      .claim = (unsigned int *)b->claim, .warps_done = b->warps_done, .probe = NULL};
    GPU_OK(launch(&l, &a));
    a.shift = 1234567 % f->n_lines;
    GPU_OK(cudaMemset(b->out, 0xff, chains * 4));
    GPU_OK(cudaMemset(b->warp_trips, 0xff, warps * 4));
    GPU_OK(launch(&l, &a));
    GPU_OK(cudaDeviceSynchronize());
    GPU_OK(cudaMemcpy(b->host, b->out, chains * 4, cudaMemcpyDeviceToHost));
    GPU_OK(cudaMemcpy(b->host_trips, b->warp_trips, warps * 4, cudaMemcpyDeviceToHost));
    const unsigned int *ends = b->host, *trips = b->host_trips;
    size_t wrong = 0, ran = 0;
    for (size_t w = 0; w < warps; w++) ran += trips[w];
    for (size_t c = 0; c < chains; c++) {
        size_t pos = (c * a.chain_spacing + a.shift + trips[c / per_warp]) % f->n_lines;
        wrong += ends[c] != f->host_order[pos] * f->line_words;
    }
    if (wrong || ran != warps * a.trips_per_warp)
        fprintf(stderr, "%s grid %d groups %u chunk %u: %zu of %zu chains wrong, %zu trips run\n",
                name, grid, groups, chunk, wrong, chains, ran);
    CHECK_INT_EQ(wrong, 0);
    CHECK_INT_EQ(ran, warps * a.trips_per_warp);
}

static void test_throughput_variants(int sm_count)
{
    const size_t n_lines = 1000003; /* prime: no spacing divides it */
    const int grids[] = {1, 2 * sm_count};
    const unsigned int groups[] = {1, 3, OCC_CLAIM_GROUPS_MAX}, chunks[] = {1, 5};
    const size_t max_threads = (size_t)grids[1] * 128;
    OccClaims b;
    GPU_OK(occ_claims_alloc(&b, max_threads * 8 * 4, max_threads / 32));
    for (int i = 0; i < occ_variant_count(); i++) {
        const OccVariantInfo *v = occ_variant_at(i);
        const OccChaseLaunchFn launch = occ_chase_launcher(v);
        if (!launch) continue;
        const int warp_mode = strcmp(v->mode, "warp") == 0;
        OccFootprint f;
        build(&f, n_lines, warp_mode ? 32 : 8, OCC_CHASE_INDEX4, 1);
        for (int g = 0; g < 2; g++)
            for (int n = 0; n < 3; n++)
                for (int k = 0; k < 2; k++) {
                    const unsigned int warps = (unsigned int)grids[g] * 4;
                    if (groups[n] > warps) continue;
                    check_launch(launch, v->name, &f, &b, grids[g], (unsigned int)v->unroll,
                                 warp_mode, groups[n], chunks[k]);
                }
        occ_footprint_free(&f);
    }
    occ_claims_free(&b);
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
