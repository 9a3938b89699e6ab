// Throwaway: why the harness's chunk walk is slower than the standalone one.
#include <cstdio>
#include <cuda_runtime.h>
template <int H> __device__ __forceinline__ uint4 ld(const uint4 *p) { if (H & 1) return __ldcs(p); return *p; }
template <int H> __device__ __forceinline__ void st(uint4 *p, uint4 v) { if (H & 2) __stcs(p, v); else *p = v; }
// H: bit0 ldcs, bit1 stcs, bit2 poll done, bit3 sum
template <int U, int H>
__global__ void __launch_bounds__(1024, 1) bg(const uint4 *src, uint4 *dst, size_t nvec, long long trips, unsigned *claim, const unsigned *done, unsigned long long *sink)
{
    __shared__ unsigned next[2];
    if (threadIdx.x < 32) return;
    const unsigned bt = blockDim.x - 32, t = threadIdx.x - 32;
    const size_t cv = (size_t)bt * U;
    const unsigned nch = nvec / cv;
    const size_t wf = (size_t)(t / 32) * 32 * U + (t & 31);
    unsigned long long sum = 0;
    unsigned c = blockIdx.x;
    for (long long q = 0; q < trips; q++) {
        unsigned cl = 0, d = 0;
        if (t == 0) { cl = atomicAdd(claim, 1u); if (H & 4) d = *(volatile const unsigned *)done; }
        size_t first = (size_t)(c % nch) * cv + wf;
        uint4 v[U];
#pragma unroll
        for (int u = 0; u < U; u++) v[u] = ld<H>(src + first + u * 32);
        if (H & 8) {
#pragma unroll
            for (int u = 0; u < U; u++) sum += (unsigned long long)v[u].x + v[u].y + v[u].z + v[u].w;
        }
#pragma unroll
        for (int u = 0; u < U; u++) st<H>(dst + first + u * 32, v[u]);
        if (t == 0) next[q & 1] = d > 1000000u ? 0xffffffffu : gridDim.x + cl;
        asm volatile("bar.sync 1, %0;" ::"r"(bt) : "memory");
        c = next[q & 1];
        if (c == 0xffffffffu) break;
    }
    if (sum == 12345) *sink = sum;
}
template <int U, int H>
void run(const uint4 *s, uint4 *d, size_t nvec, int sm, int warps, long long trips, unsigned *claim, unsigned *done, unsigned long long *sink)
{
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    float t[4];
    for (int rep = 0; rep < 4; rep++) {
        cudaMemset(claim, 0, 4);
        cudaDeviceSynchronize();
        cudaEventRecord(a);
        bg<U, H><<<sm, 32 * (warps + 1)>>>(s, d, nvec, trips, claim, done, sink);
        cudaEventRecord(b); cudaEventSynchronize(b);
        cudaEventElapsedTime(&t[rep], a, b);
    }
    double bytes = 32.0 * U * trips * sm * 32 * warps;
    printf("U%d H%2d warps%2d trips%5lld:", U, H, warps, trips);
    for (int r = 0; r < 4; r++) printf(" %7.1f", bytes / (t[r] * 1e6));
    printf(" GB/s (%.2f ms)\n", t[3]);
}
int main()
{
    int sm; cudaDeviceGetAttribute(&sm, cudaDevAttrMultiProcessorCount, 0);
    size_t bytes = (size_t)8 * 62914560;
    uint4 *s, *d; cudaMalloc(&s, bytes); cudaMalloc(&d, bytes); cudaMemset(s, 1, bytes);
    unsigned *claim, *done; cudaMalloc(&claim, 4); cudaMalloc(&done, 4); cudaMemset(done, 0, 4);
    unsigned long long *sink; cudaMalloc(&sink, 8);
    size_t nv = bytes / 16;
    for (long long tr : {2000LL, 500LL, 250LL}) {
        run<4, 0>(s, d, nv, sm, 31, tr, claim, done, sink);
        run<4, 3>(s, d, nv, sm, 31, tr, claim, done, sink);
        run<4, 4>(s, d, nv, sm, 31, tr, claim, done, sink);
        run<4, 8>(s, d, nv, sm, 31, tr, claim, done, sink);
        run<4, 15>(s, d, nv, sm, 31, tr, claim, done, sink);
    }
    run<4, 15>(s, d, nv, sm, 16, 500, claim, done, sink);
    run<4, 15>(s, d, nv, sm, 4, 500, claim, done, sink);
    run<4, 0>(s, d, nv, sm, 4, 500, claim, done, sink);
    return 0;
}
