/* tests/test_gpu_chase.c: every chase kernel ends where the host's walk of the same cycle ends:
 * throughput variants (warp and thread modes, every K, start points spread and shifted along
 * the cycle, one and several waves) and the latency kernel (warm-up plus timed segments). */
#include <stdlib.h>

#include "gpu_test.h"
#include "perm.h"
#include "registry.h"

typedef struct Footprint {
    unsigned int *lines, *order, *ends;
    uint32_t *host_order;
    size_t n_lines;
    unsigned int line_words;
} Footprint;

static void build(Footprint *f, size_t n_lines, unsigned int line_words, unsigned int index_bytes,
                  size_t max_chains)
{
    uint32_t *next = malloc(n_lines * 4);
    unsigned int *next_dev;
    f->host_order = malloc(n_lines * 4);
    f->n_lines = n_lines;
    f->line_words = line_words;
    occ_perm_cycle(next, f->host_order, n_lines, 99 + n_lines);
    GPU_OK(cudaMalloc((void **)&f->lines, n_lines * line_words * 4));
    GPU_OK(cudaMalloc((void **)&f->order, n_lines * 4));
    GPU_OK(cudaMalloc((void **)&f->ends, max_chains * 4));
    GPU_OK(cudaMalloc((void **)&next_dev, n_lines * 4));
    GPU_OK(cudaMemcpy(next_dev, next, n_lines * 4, cudaMemcpyHostToDevice));
    GPU_OK(cudaMemcpy(f->order, f->host_order, n_lines * 4, cudaMemcpyHostToDevice));
    GPU_OK(occ_chase_fill_lines(f->lines, next_dev, n_lines, line_words, index_bytes, 0));
    GPU_OK(cudaDeviceSynchronize());
    cudaFree(next_dev);
    free(next);
}

static void release(Footprint *f)
{
    cudaFree(f->lines);
    cudaFree(f->order);
    cudaFree(f->ends);
    free(f->host_order);
}

static void test_throughput_variants(int sm_count)
{
    const size_t n_lines = 1000003; /* prime: no spacing divides it */
    const int grids[] = {1, 2 * sm_count};
    for (int i = 0; i < occ_registry_count(); i++) {
        const OccVariant *v = occ_registry_at(i);
        if (!v->launch_chase) continue;
        const int warp_mode = strcmp(v->info.mode, "warp") == 0;
        Footprint f;
        build(&f, n_lines, warp_mode ? 32 : 8, 4, (size_t)grids[1] * 128 * 8);
        for (int g = 0; g < 2; g++) {
            size_t threads = (size_t)grids[g] * 128;
            size_t chains = (warp_mode ? threads / 32 : threads) * (size_t)v->info.unroll;
            OccLaunch l = {grids[g], 128, 0, 0};
            OccChaseArgs a = {f.lines, f.order, n_lines, f.line_words, n_lines / chains,
                              777 + (size_t)g, 37, f.ends, NULL};
            GPU_OK(cudaMemset(f.ends, 0xff, chains * 4));
            GPU_OK(v->launch_chase(&l, &a));
            GPU_OK(cudaDeviceSynchronize());
            unsigned int *ends = malloc(chains * 4);
            GPU_OK(cudaMemcpy(ends, f.ends, chains * 4, cudaMemcpyDeviceToHost));
            size_t wrong = 0;
            for (size_t c = 0; c < chains; c++) {
                size_t pos = (c * a.chain_spacing + a.shift + (size_t)a.hops) % n_lines;
                wrong += ends[c] != f.host_order[pos] * f.line_words;
            }
            if (wrong) fprintf(stderr, "%s grid %d: %zu of %zu chains wrong\n", v->info.name,
                               grids[g], wrong, chains);
            CHECK_INT_EQ(wrong, 0);
            free(ends);
        }
        release(&f);
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
                Footprint f;
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
                release(&f);
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
