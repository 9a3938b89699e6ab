// SPDX-License-Identifier: Apache-2.0
// tools/gpu/async_probe.cu: a standalone check of the asynchronous-copy and wgmma kernels on one
// GPU (sm_90a), before they join the sweep. Build (from the repository root) with one line,
// `nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o async_probe`
// followed by `tools/gpu/async_probe.cu kernels/async_copy.cu kernels/wgmma.cu`, or run
// tools/gpu/async_probe.sh, which also counts the SASS.
// Usage: async_probe [GIB [PART]]: GIB the copy buffer (default 4), PART bulk, cp, wgmma or all
// (default), so that a part that fails cannot keep the others from running. Prints CSV to stdout:
//   roof rows: cub::DeviceReduce::Sum over the same buffer (the bandwidth roof);
//   copy rows: every bulk / cp variant at each blocks-per-SM level that its shared memory allows
//     (set by padding the dynamic shared memory so that exactly that many blocks fit), with the
//     API's and the probe's residency, GB/s, the ratio to cub and the exact verification;
//   wgmma rows: every variant at each warp-group-per-SM level, TFLOP/s, the SM clock measured in
//     the kernel (clock64 against globaltimer), the % of the dense headline at that clock
//     (4096 FLOP/clk/SM for fp16 and bf16), cycles per commit group, and the verification.
// Timing: CUDA events around each launch, a warm-up then 5 samples, the median.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <cub/cub.cuh>

#include "../../kernels/async_copy.h"
#include "../../kernels/wgmma.h"

#define CHECK(expr)                                                                                \
    do {                                                                                           \
        cudaError_t e_ = (expr);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s:%d: %s: %s: %s\n", __FILE__, __LINE__, #expr, cudaGetErrorName(e_), \
                    cudaGetErrorString(e_));                                                       \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

namespace {

constexpr int kSamples = 5;
constexpr double kFlopPerClkSm = 4096.0; // dense fp16 / bf16 tensor rate of an sm_90 SM

struct Gpu {
    int sms, smem_per_sm, smem_optin, max_threads_sm;
    cudaStream_t stream;
    cudaEvent_t ev0, ev1;
};

// Median of kSamples launches of fn (after one warm-up), in ms.
template <typename Fn> double time_ms(const Gpu &g, Fn fn)
{
    CHECK(fn());
    std::vector<float> t(kSamples);
    for (int i = 0; i < kSamples; i++) {
        CHECK(cudaEventRecord(g.ev0, g.stream));
        CHECK(fn());
        CHECK(cudaEventRecord(g.ev1, g.stream));
        CHECK(cudaEventSynchronize(g.ev1));
        CHECK(cudaEventElapsedTime(&t[i], g.ev0, g.ev1));
    }
    std::sort(t.begin(), t.end());
    return t[kSamples / 2];
}

// Dynamic shared memory that makes exactly `blocks` blocks of `threads` fit per SM, at least
// `need`; 0 when `need` leaves fewer. The kernel gets the whole carveout and the opt-in limit.
size_t pad_for(const Gpu &g, const void *kernel, int blocks, int threads, size_t need, int *api)
{
    cudaFuncAttributes fa;
    CHECK(cudaFuncGetAttributes(&fa, kernel));
    CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, 100));
    CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               g.smem_optin - (int)fa.sharedSizeBytes));
    size_t avail = 0;
    CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(&avail, kernel, blocks, threads));
    *api = 0;
    if (avail < need) return 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(api, kernel, threads, avail));
    return avail;
}

// Blocks per SM resident together: blocks that started before the first block ended, per SM.
double resident_per_sm(const Gpu &g, const unsigned long long *d_probe, int grid)
{
    std::vector<unsigned long long> p((size_t)grid * OCC_PROBE_WORDS);
    CHECK(cudaMemcpy(p.data(), d_probe, p.size() * 8, cudaMemcpyDeviceToHost));
    unsigned long long first_end = ~0ull;
    for (int b = 0; b < grid; b++) first_end = std::min(first_end, p[b * 3 + 2]);
    int n = 0;
    for (int b = 0; b < grid; b++) n += p[b * 3 + 1] < first_end;
    return (double)n / g.sms;
}

struct CopyVariant {
    const char *name;
    OccAsyncLaunchFn launch;
    const void *(*kernel)(void);
    int stages, c_kib, unroll, warps; // c_kib 0 for cp, unroll 0 for bulk
};

#define BULK_ROW(s, c, w)                                                                          \
    {"async_bulk_s" #s "_c" #c "k_w" #w, occ_launch_async_bulk_s##s##_c##c##k_w##w,              \
     occ_kernel_async_bulk_s##s##_c##c##k_w##w, s, c, 0, w},
#define CP_ROW(s, u)                                                                               \
    {"async_cp_s" #s "_u" #u, occ_launch_async_cp_s##s##_u##u, occ_kernel_async_cp_s##s##_u##u, s, \
     0, u, 4},
const CopyVariant kCopy[] = {OCC_ASYNC_BULK_VARIANTS(BULK_ROW) OCC_ASYNC_CP_VARIANTS(CP_ROW)};

struct WgVariant {
    const char *name;
    OccWgmmaLaunchFn launch;
    const void *(*kernel)(void);
    const char *type, *form;
    int n, g, swizzle;
};
#define WG_ROW(t, n, form, g, swz, sfx)                                                            \
    {"wgmma_" #t "_n" #n "_" #form "_g" #g #sfx, occ_launch_wgmma_##t##_n##n##_##form##_g##g##sfx, \
     occ_kernel_wgmma_##t##_n##n##_##form##_g##g##sfx, #t, #form, n, g, swz},
const WgVariant kWgmma[] = {OCC_WGMMA_VARIANTS(WG_ROW)};

double cub_roof(const Gpu &g, const float *in, size_t n, double bytes)
{
    float *d_out;
    size_t temp_bytes = 0;
    CHECK(cudaMalloc(&d_out, sizeof(float)));
    CHECK(cub::DeviceReduce::Sum(nullptr, temp_bytes, in, d_out, n, g.stream));
    void *temp;
    CHECK(cudaMalloc(&temp, temp_bytes));
    const double ms =
        time_ms(g, [&] { return cub::DeviceReduce::Sum(temp, temp_bytes, in, d_out, n, g.stream); });
    float sum = 0;
    CHECK(cudaMemcpy(&sum, d_out, sizeof(float), cudaMemcpyDeviceToHost));
    const double want = occ_async_expected_sum(n), gbps = bytes / ms / 1e6;
    printf("roof,cub_device_reduce,%.4f,%.1f,rel_err=%.2e\n", ms, gbps, std::fabs(sum - want) / want);
    CHECK(cudaFree(temp));
    CHECK(cudaFree(d_out));
    return gbps;
}

// Vectors per claimed chunk: about 32 chunks per unit (block or warp), so the last claims leave
// a short tail, between 4 and 64 KiB, a multiple of `multiple` (a bulk stage's vectors).
unsigned int chunk_vecs(size_t n_floats, int units, unsigned int multiple)
{
    const size_t per = n_floats / 4 / ((size_t)units * 32);
    const unsigned int v = (unsigned int)std::min<size_t>(std::max<size_t>(per, 256), 4096);
    return std::max(multiple, v / multiple * multiple);
}

void copy_rows(const Gpu &g, const float *in, size_t n, double roof_gbps, bool bulk_part)
{
    static const int kLevels[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32};
    const int max_grid = 32 * g.sms;
    double *d_sums;
    unsigned long long *d_claim, *d_probe;
    unsigned int *d_done;
    CHECK(cudaMalloc(&d_sums, max_grid * sizeof(double)));
    CHECK(cudaMalloc(&d_probe, (size_t)max_grid * OCC_PROBE_WORDS * 8));
    CHECK(cudaMalloc(&d_claim, 8));
    CHECK(cudaMalloc(&d_done, 4));
    CHECK(cudaMemset(d_claim, 0, 8));
    CHECK(cudaMemset(d_done, 0, 4));
    std::vector<double> sums(max_grid);
    const double want = occ_async_expected_sum(n), bytes = (double)n * 4;
    printf("copy,variant,stages,c_kib,unroll,warps_per_block,blocks_per_sm,api_blocks_per_sm,"
           "resident_blocks_per_sm,occupancy_pct,bytes_in_flight_per_sm,dyn_smem_bytes,"
           "chunk_bytes,time_ms,gbps,ratio_cub,verify\n");
    for (const CopyVariant &v : kCopy) {
        const bool bulk = v.c_kib > 0;
        if (bulk != bulk_part) continue;
        const int threads = 32 * v.warps;
        const size_t need = bulk ? occ_async_bulk_smem_bytes(v.stages, v.c_kib)
                                 : occ_async_cp_smem_bytes(v.stages, v.unroll, threads);
        for (int k : kLevels) {
            if (k * threads > g.max_threads_sm) break;
            int api = 0;
            const size_t dyn = pad_for(g, v.kernel(), k, threads, need, &api);
            if (dyn == 0) {
                printf("copy,%s,%d,%d,%d,%d,%d,0,,,,,,,,,skip:smem\n", v.name, v.stages, v.c_kib,
                       v.unroll, v.warps, k);
                break;
            }
            OccLaunch l = {k * g.sms, threads, dyn, g.stream};
            OccAsyncArgs a = {in, n, chunk_vecs(n, bulk ? l.grid_blocks : l.grid_blocks * v.warps,
                                                bulk ? v.c_kib * 64 : 1),
                              d_claim, d_done, d_sums, nullptr};
            const double ms = time_ms(g, [&] { return v.launch(&l, &a); });
            CHECK(cudaMemcpy(sums.data(), d_sums, l.grid_blocks * sizeof(double),
                             cudaMemcpyDeviceToHost));
            double got = 0;
            for (int b = 0; b < l.grid_blocks; b++) got += sums[b];
            a.probe = d_probe;
            CHECK(v.launch(&l, &a));
            CHECK(cudaStreamSynchronize(g.stream));
            const double res = resident_per_sm(g, d_probe, l.grid_blocks);
            const double gbps = bytes / ms / 1e6;
            printf("copy,%s,%d,%d,%d,%d,%d,%d,%.2f,%.2f,%zu,%zu,%u,%.4f,%.1f,%.3f,%s\n", v.name,
                   v.stages, v.c_kib, v.unroll, v.warps, k, api, res,
                   100.0 * k * threads / g.max_threads_sm, (size_t)k * need, dyn,
                   a.chunk_vecs * 16, ms, gbps,
                   gbps / roof_gbps, got == want ? "ok" : "FAIL");
            fflush(stdout);
        }
    }
    CHECK(cudaFree(d_sums));
    CHECK(cudaFree(d_probe));
    CHECK(cudaFree(d_claim));
    CHECK(cudaFree(d_done));
}

void wgmma_rows(const Gpu &g)
{
    const int max_k = 16, max_grid = max_k * g.sms;
    float *d_out;
    unsigned long long *d_clock, *d_probe;
    CHECK(cudaMalloc(&d_out, (size_t)max_grid * 64 * 256 * sizeof(float)));
    CHECK(cudaMalloc(&d_clock, 16));
    CHECK(cudaMalloc(&d_probe, (size_t)max_grid * OCC_PROBE_WORDS * 8));
    std::vector<float> out((size_t)max_grid * 64 * 256);
    std::vector<double> want(64 * 256);
    printf("wgmma,variant,type,form,n,g,swizzle,wg_per_sm,api_wg_per_sm,resident_wg_per_sm,regs,"
           "groups,time_ms,tflops,sm_mhz,pct_headline,cycles_per_group,verify\n");
    for (const WgVariant &v : kWgmma) {
        cudaFuncAttributes fa;
        CHECK(cudaFuncGetAttributes(&fa, v.kernel()));
        for (int k = 1; k <= max_k; k++) {
            int api = 0;
            const size_t dyn =
                pad_for(g, v.kernel(), k, OCC_WGMMA_BLOCK_THREADS, occ_wgmma_smem_bytes(v.n), &api);
            if (dyn == 0 || api < k) break; // registers or shared memory: no more warp groups
            // About 2.5 ms of work at the headline rate near 1.75 GHz.
            const double per_group = occ_wgmma_flop_per_block(v.n, 1);
            double gr = 2.5e-3 * kFlopPerClkSm * 1.75e9 / (k * per_group);
            const unsigned int groups =
                (unsigned int)std::min<double>(std::max(gr, 64.0), OCC_WGMMA_MAX_GROUPS);
            OccLaunch l = {k * g.sms, OCC_WGMMA_BLOCK_THREADS, dyn, g.stream};
            OccWgmmaArgs a = {d_out, groups, d_clock, d_clock + 1, nullptr};
            const double ms = time_ms(g, [&] { return v.launch(&l, &a); });
            unsigned long long clk[2];
            CHECK(cudaMemcpy(clk, d_clock, 16, cudaMemcpyDeviceToHost));
            if (clk[0] == OCC_WGMMA_UNSUPPORTED) {
                printf("wgmma,%s,%s,%s,%d,%d,%d,%d,,,,,,,,,,skip:built without sm_90a\n", v.name,
                       v.type, v.form, v.n, v.g, v.swizzle, k);
                break;
            }
            const size_t cells = (size_t)l.grid_blocks * 64 * v.n;
            CHECK(cudaMemcpy(out.data(), d_out, cells * sizeof(float), cudaMemcpyDeviceToHost));
            for (int m = 0; m < 64; m++)
                for (int c = 0; c < v.n; c++) want[m * v.n + c] = occ_wgmma_expected(m, c, groups);
            size_t bad = 0;
            for (size_t i = 0; i < cells; i++) bad += (double)out[i] != want[i % (64 * v.n)];
            a.probe = d_probe;
            CHECK(v.launch(&l, &a));
            CHECK(cudaStreamSynchronize(g.stream));
            const double res = resident_per_sm(g, d_probe, l.grid_blocks);
            const double tflops = per_group * groups * l.grid_blocks / ms / 1e9;
            const double mhz = (double)clk[0] / (double)clk[1] * 1e3;
            const double peak = kFlopPerClkSm * g.sms * mhz * 1e6 / 1e12;
            printf("wgmma,%s,%s,%s,%d,%d,%d,%d,%d,%.2f,%d,%u,%.4f,%.1f,%.0f,%.1f,%.1f,%s\n", v.name,
                   v.type, v.form, v.n, v.g, v.swizzle, k, api, res, fa.numRegs, groups, ms, tflops,
                   mhz, 100.0 * tflops / peak, (double)clk[0] / groups,
                   bad == 0 ? "ok" : "FAIL");
            if (bad) fprintf(stderr, "%s k=%d: %zu of %zu cells wrong (cell 0: %g, want %g)\n",
                             v.name, k, bad, cells, out[0], want[0]);
            fflush(stdout);
        }
    }
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_clock));
    CHECK(cudaFree(d_probe));
}

} // namespace

int main(int argc, char **argv)
{
    const double gib = argc > 1 ? atof(argv[1]) : 4.0;
    const std::string part = argc > 2 ? argv[2] : "all";
    if (!(gib > 0 && gib <= 64) ||
        (part != "all" && part != "bulk" && part != "cp" && part != "wgmma")) {
        fprintf(stderr, "usage: %s [GIB [PART]]: GIB (the copy buffer) in (0, 64], PART one of "
                        "bulk, cp, wgmma, all\n", argv[0]);
        return 2;
    }
    Gpu g;
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    g.sms = p.multiProcessorCount;
    g.smem_per_sm = (int)p.sharedMemPerMultiprocessor;
    g.smem_optin = (int)p.sharedMemPerBlockOptin;
    g.max_threads_sm = p.maxThreadsPerMultiProcessor;
    CHECK(cudaStreamCreateWithFlags(&g.stream, cudaStreamNonBlocking));
    CHECK(cudaEventCreate(&g.ev0));
    CHECK(cudaEventCreate(&g.ev1));
    printf("# device,%s,cc %d.%d,sms %d,smem_per_sm %d,smem_optin %d,l2_bytes %d\n", p.name,
           p.major, p.minor, g.sms, g.smem_per_sm, g.smem_optin, p.l2CacheSize);
    if (part != "wgmma") {
        // 3 floats past a multiple of 4: block 0 reads the tail itself.
        const size_t n = (size_t)(gib * (1u << 30) / 4) / 4 * 4 + 3;
        float *in;
        CHECK(cudaMalloc(&in, n * sizeof(float)));
        CHECK(occ_async_fill(in, n, g.stream));
        CHECK(cudaStreamSynchronize(g.stream));
        const double roof = cub_roof(g, in, n, (double)n * 4);
        if (part != "cp") copy_rows(g, in, n, roof, true);
        if (part != "bulk") copy_rows(g, in, n, roof, false);
        CHECK(cudaFree(in));
    }
    if (part == "all" || part == "wgmma") wgmma_rows(g);
    return 0;
}
