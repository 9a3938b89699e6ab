// SPDX-License-Identifier: Apache-2.0
// examples/stencil/stencil.cu: an occsweep plugin to copy from: a 2-D 5-point stencil (Jacobi
// step, clamped edges) on an nx x ny float grid, out = 0.5 c + 0.125 (n + s + w + e), one T x T
// output tile at a time staged with its halo in shared memory: (T + 2)^2 floats of dynamic
// shared memory the kernel asks for itself (OccPluginVariant.dyn_smem_bytes), which occsweep
// counts against the padding it adds after them (the kernel never reads past its tile). Each
// thread stages L floats at a time, L independent 4-byte loads before it stores any (the
// variant's loads in flight). One launch must move 8 bytes per point (each input read once, each
// output written once; the halo comes from L2). Persistent: blocks claim runs of tiles (at least
// 4096 points) from a counter until none is left, so a one-wave grid covers the whole field and
// every block stays resident to the end. (A kernel with a block per tile would set
// persistent = 0 and return its grid from grid_blocks: the tail of its last wave and the gaps
// between its blocks then lower the occupancy that runs.)
//
// Build:  nvcc -shared -Xcompiler -fPIC -arch=sm_90 -I<occsweep>/include stencil.cu -o libstencil.so
// Sweep:  ./run_sweep --plugin ./libstencil.so --occ 12.5..100 --plot
#include <cuda_runtime.h>

#include "occsweep/plugin.h"

namespace {
constexpr int kNx = 8192; // grid columns; the rows follow from the size asked for

__host__ __device__ inline float input_at(size_t i)
{
    return (float)((i * 2654435761u) >> 20 & 1023) * (1.0f / 1024); // a fixed, irregular field
}

__host__ __device__ inline float point(float c, float n, float s, float w, float e)
{
    return 0.5f * c + 0.125f * ((n + s) + (w + e));
}

__host__ __device__ inline int clamp_to(int v, int hi) { return v < 0 ? 0 : v > hi ? hi : v; }
} // namespace

struct Stencil {
    float *in, *out;            // nx x ny floats each, row-major
    int nx, ny;
    unsigned long long *claim;  // next tile; the last block of a launch resets it
    unsigned int *done;         // blocks finished in this launch
    unsigned long long *bad;    // mismatches found by the check
};

// Tile t: its (T + 2)^2 inputs staged in tile[], L independent loads per thread before it
// stores them, then its T x T outputs; every thread calls it.
template <int T, int L>
__device__ void stencil_tile(const Stencil &s, float *tile, unsigned long long t, int tiles_x)
{
    constexpr int W = T + 2;
    const int x0 = (int)(t % tiles_x) * T, y0 = (int)(t / tiles_x) * T;
    for (int k = threadIdx.x; k < W * W; k += L * blockDim.x) {
        float v[L];
#pragma unroll
        for (int j = 0; j < L; j++) {
            const int at = k + j * blockDim.x;
            const int gx = clamp_to(x0 + at % W - 1, s.nx - 1);
            const int gy = clamp_to(y0 + at / W - 1, s.ny - 1);
            v[j] = at < W * W ? s.in[(size_t)gy * s.nx + gx] : 0.0f;
        }
#pragma unroll
        for (int j = 0; j < L; j++)
            if (k + j * (int)blockDim.x < W * W) tile[k + j * blockDim.x] = v[j];
    }
    __syncthreads();
    for (int k = threadIdx.x; k < T * T; k += blockDim.x) {
        const int tx = k % T, ty = k / T;
        if (x0 + tx >= s.nx || y0 + ty >= s.ny) continue;
        const float *c = &tile[(ty + 1) * W + tx + 1];
        s.out[(size_t)(y0 + ty) * s.nx + x0 + tx] = point(c[0], c[-W], c[W], c[-1], c[1]);
    }
    __syncthreads(); // read before the next tile overwrites it
}

template <int T, int L>
__global__ void stencil_kernel(Stencil s, unsigned long long *probe)
{
    extern __shared__ float tile[]; // (T + 2)^2 floats used; the padding after them is not
    __shared__ unsigned long long claimed;
    // One claim: K consecutive tiles, at least 4096 points (fewer make the counter the
    // bottleneck).
    constexpr int K = T * T >= 4096 ? 1 : 4096 / (T * T);
    occ_plugin_probe_start(probe);
    const int tiles_x = (s.nx + T - 1) / T;
    const unsigned long long tiles = (unsigned long long)tiles_x * ((s.ny + T - 1) / T);
    for (;;) {
        if (threadIdx.x == 0) claimed = atomicAdd(s.claim, 1ull) * K;
        __syncthreads(); // every thread reads claimed before thread 0 writes it again (after
                         // the barriers of at least one tile)
        const unsigned long long first = claimed;
        if (first >= tiles) break;
        for (unsigned long long t = first; t < first + K && t < tiles; t++)
            stencil_tile<T, L>(s, tile, t, tiles_x);
    }
    if (threadIdx.x == 0) {
        __threadfence();
        if (atomicAdd(s.done, 1u) == gridDim.x - 1) { // every block has made its last claim
            *s.claim = 0;
            *s.done = 0;
        }
    }
    occ_plugin_probe_end(probe);
}

__global__ void stencil_init(Stencil s)
{
    const size_t n = (size_t)s.nx * s.ny;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        s.in[i] = input_at(i);
        s.out[i] = -1.0f;
    }
}

// The same point from global memory; 1e-6 relative (the compiler may contract either into FMAs).
__global__ void stencil_check(Stencil s)
{
    const size_t n = (size_t)s.nx * s.ny;
    unsigned long long bad = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        const int x = (int)(i % s.nx), y = (int)(i / s.nx);
        auto at = [&](int dx, int dy) {
            return s.in[(size_t)clamp_to(y + dy, s.ny - 1) * s.nx + clamp_to(x + dx, s.nx - 1)];
        };
        const float want = point(at(0, 0), at(0, -1), at(0, 1), at(-1, 0), at(1, 0));
        bad += fabsf(s.out[i] - want) > 1e-6f * fmaxf(1.0f, fabsf(want));
    }
    if (bad) atomicAdd(s.bad, bad);
}

namespace {
Stencil state;

template <int T, int L>
cudaError_t launch(void *st, const OccPluginLaunch *l)
{
    stencil_kernel<T, L><<<l->grid_blocks, l->block_threads, l->dyn_smem_bytes, l->stream>>>(
        *static_cast<Stencil *>(st), l->probe);
    return cudaGetLastError();
}

cudaError_t setup(void **st, long long size_bytes, cudaStream_t stream)
{
    Stencil s = {};
    s.nx = kNx;
    s.ny = (int)((size_t)size_bytes / (2 * sizeof(float)) / kNx);
    if (s.ny < 3) s.ny = 3;
    const size_t bytes = (size_t)s.nx * s.ny * sizeof(float);
    cudaError_t e = cudaMalloc(&s.in, bytes);
    if (e == cudaSuccess) e = cudaMalloc(&s.out, bytes);
    if (e == cudaSuccess) e = cudaMalloc(&s.claim, 3 * sizeof *s.claim);
    if (e != cudaSuccess) return e;
    s.done = reinterpret_cast<unsigned int *>(s.claim + 1);
    s.bad = s.claim + 2;
    e = cudaMemsetAsync(s.claim, 0, 3 * sizeof *s.claim, stream);
    if (e == cudaSuccess) stencil_init<<<1024, 256, 0, stream>>>(s), e = cudaGetLastError();
    state = s;
    *st = &state;
    return e == cudaSuccess ? cudaStreamSynchronize(stream) : e;
}

void teardown(void *st)
{
    Stencil *s = static_cast<Stencil *>(st);
    cudaFree(s->in);
    cudaFree(s->out);
    cudaFree(s->claim);
}

void work(void *st, int, long long *bytes, long long *flops)
{
    const Stencil *s = static_cast<const Stencil *>(st);
    *bytes = 2LL * sizeof(float) * s->nx * s->ny;
    *flops = 6LL * s->nx * s->ny; // 4 adds, 2 multiplies per point
}

cudaError_t verify(void *st, int v, const OccPluginLaunch *l, double *verify_err, int *ok);

constexpr size_t tile_bytes(int t) { return (size_t)(t + 2) * (t + 2) * sizeof(float); }

const OccPluginVariant variants[] = {
    {"stencil_t16_l2", (const void *)stencil_kernel<16, 2>, launch<16, 2>, 2, 4, tile_bytes(16)},
    {"stencil_t32_l4", (const void *)stencil_kernel<32, 4>, launch<32, 4>, 4, 4, tile_bytes(32)},
    {"stencil_t64_l8", (const void *)stencil_kernel<64, 8>, launch<64, 8>, 8, 4, tile_bytes(64)},
};

const OccPlugin plugin = {
    OCC_PLUGIN_ABI_VERSION, "stencil", /* persistent */ 1, /* no Little's-law model */ 0.0,
    variants, sizeof variants / sizeof variants[0], OCC_PLUGIN_RUNTIME, setup, teardown,
    /* grid_blocks: persistent */ nullptr, work, verify,
};

// One launch over an output poisoned by a fresh init, checked point by point on the device.
cudaError_t verify(void *st, int v, const OccPluginLaunch *l, double *verify_err, int *ok)
{
    Stencil *s = static_cast<Stencil *>(st);
    unsigned long long bad = 0;
    stencil_init<<<1024, 256, 0, l->stream>>>(*s);
    cudaError_t e = cudaMemsetAsync(s->bad, 0, sizeof *s->bad, l->stream);
    if (e == cudaSuccess) e = variants[v].launch(st, l);
    if (e == cudaSuccess) stencil_check<<<1024, 256, 0, l->stream>>>(*s), e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaMemcpyAsync(&bad, s->bad, sizeof bad, cudaMemcpyDeviceToHost, l->stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(l->stream);
    *verify_err = (double)bad;
    *ok = e == cudaSuccess && bad == 0;
    return e;
}
} // namespace

extern "C" const OccPlugin *occ_plugin(void) { return &plugin; }
