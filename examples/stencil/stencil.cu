// SPDX-License-Identifier: Apache-2.0
// examples/stencil/stencil.cu: an occsweep plugin to copy from: a 2-D 5-point stencil (Jacobi
// step, clamped edges) on an nx x ny float grid, out = 0.5 c + 0.125 (n + s + w + e), one T x T
// output tile per block staged with its halo in shared memory: (T + 2)^2 floats of dynamic
// shared memory the kernel asks for itself (OccPluginVariant.dyn_smem_bytes), which occsweep
// counts against the padding it adds after them (the kernel never reads past its tile). One
// launch must move 8 bytes per point (each input read once, each output written once). Not
// persistent: the grid is one block per tile (many waves), so only the padding sets how many
// blocks are resident per SM.
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
    float *in, *out;          // nx x ny floats each, row-major
    int nx, ny;
    unsigned long long *bad;  // mismatches found by the check
};

template <int T>
__global__ void stencil_kernel(Stencil s, unsigned long long *probe)
{
    extern __shared__ float tile[]; // (T + 2)^2 floats used; the padding after them is not
    constexpr int W = T + 2;
    occ_plugin_probe_start(probe);
    const int tiles_x = (s.nx + T - 1) / T;
    const int x0 = (int)(blockIdx.x % tiles_x) * T, y0 = (int)(blockIdx.x / tiles_x) * T;
    for (int k = threadIdx.x; k < W * W; k += blockDim.x) {
        const int gx = clamp_to(x0 + k % W - 1, s.nx - 1), gy = clamp_to(y0 + k / W - 1, s.ny - 1);
        tile[k] = s.in[(size_t)gy * s.nx + gx];
    }
    __syncthreads();
    for (int k = threadIdx.x; k < T * T; k += blockDim.x) {
        const int tx = k % T, ty = k / T;
        if (x0 + tx >= s.nx || y0 + ty >= s.ny) continue;
        const float *c = &tile[(ty + 1) * W + tx + 1];
        s.out[(size_t)(y0 + ty) * s.nx + x0 + tx] = point(c[0], c[-W], c[W], c[-1], c[1]);
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

template <int T>
cudaError_t launch(void *st, const OccPluginLaunch *l)
{
    stencil_kernel<T><<<l->grid_blocks, l->block_threads, l->dyn_smem_bytes, l->stream>>>(
        *static_cast<Stencil *>(st), l->probe);
    return cudaGetLastError();
}

template <int T>
int grid_blocks(const Stencil *s)
{
    return ((s->nx + T - 1) / T) * ((s->ny + T - 1) / T);
}

// By variant, in the order of variants[] below.
int (*const grids[])(const Stencil *) = {grid_blocks<16>, grid_blocks<32>, grid_blocks<64>};

int grid(void *st, int v, int) { return grids[v](static_cast<const Stencil *>(st)); }

cudaError_t setup(void **st, long long size_bytes, cudaStream_t stream)
{
    Stencil s = {};
    s.nx = kNx;
    s.ny = (int)((size_t)size_bytes / (2 * sizeof(float)) / kNx);
    if (s.ny < 3) s.ny = 3;
    const size_t bytes = (size_t)s.nx * s.ny * sizeof(float);
    cudaError_t e = cudaMalloc(&s.in, bytes);
    if (e == cudaSuccess) e = cudaMalloc(&s.out, bytes);
    if (e == cudaSuccess) e = cudaMalloc(&s.bad, sizeof *s.bad);
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
    cudaFree(s->bad);
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
    {"stencil_t16", (const void *)stencil_kernel<16>, launch<16>, 0, 0, tile_bytes(16)},
    {"stencil_t32", (const void *)stencil_kernel<32>, launch<32>, 0, 0, tile_bytes(32)},
    {"stencil_t64", (const void *)stencil_kernel<64>, launch<64>, 0, 0, tile_bytes(64)},
};
static_assert(sizeof variants / sizeof variants[0] == sizeof grids / sizeof grids[0], "a grid each");

const OccPlugin plugin = {
    OCC_PLUGIN_ABI_VERSION, "stencil", /* persistent */ 0, /* no Little's-law model */ 0.0,
    variants, sizeof variants / sizeof variants[0], cudaGetKernel, cudaSetDevice, setup, teardown,
    grid, work, verify,
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
