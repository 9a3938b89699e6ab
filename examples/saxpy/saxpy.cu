// SPDX-License-Identifier: Apache-2.0
// examples/saxpy/saxpy.cu: an occsweep plugin to copy from: y = a x + y over float arrays, with
// an ILP template parameter: each thread loads ILP elements of x and ILP of y before it stores
// any (2 x ILP independent 4-byte loads in flight per thread). Per element it moves 12 bytes
// (x and y read, y written) for 2 FLOP. The kernel is persistent: blocks claim 32 KiB chunks
// from a counter until none is left, so a one-wave grid covers any size and every block stays
// resident to the end (the occupancy set is the occupancy that runs). It never touches the
// dynamic shared memory occsweep pads it with.
//
// Build:  nvcc -shared -Xcompiler -fPIC -arch=sm_90 -I<occsweep>/include saxpy.cu -o libsaxpy.so
// Sweep:  ./run_sweep --plugin ./libsaxpy.so --occ 12.5..100 --plot
#include <cuda_runtime.h>

#include "occsweep/plugin.h"

namespace {
constexpr float kA = 2.0f;                // a: 2 x + y is exact for the integer-valued inputs
constexpr unsigned kChunkFloats = 8192;   // one claim: 32 KiB of x (small chunks make the
                                          // counter the bottleneck)

// The inputs, a function of the index: the check needs no copy of them.
__host__ __device__ inline float x_at(size_t i) { return (float)(i & 1023); }
__host__ __device__ inline float y0_at(size_t i) { return (float)((i >> 10) & 1023); }

} // namespace

// The buffers, passed to the kernels by value.
struct Saxpy {
    float *x, *y;                // n floats each
    size_t n;
    unsigned long long *claim;   // next chunk; the last block of a launch resets it
    unsigned int *done;          // blocks finished in this launch
    unsigned long long *bad;     // mismatches found by the check
};

template <int ILP>
__global__ void saxpy_kernel(Saxpy s, unsigned long long *probe)
{
    __shared__ unsigned long long chunk;
    occ_plugin_probe_start(probe);
    for (;;) {
        if (threadIdx.x == 0) chunk = atomicAdd(s.claim, 1ull);
        __syncthreads();
        const size_t begin = chunk * kChunkFloats;
        __syncthreads(); // every thread has read chunk before thread 0 claims the next
        if (begin >= s.n) break;
        const size_t end = begin + kChunkFloats < s.n ? begin + kChunkFloats : s.n;
        for (size_t i = begin + threadIdx.x; i < end; i += (size_t)ILP * blockDim.x) {
            float xv[ILP], yv[ILP];
#pragma unroll
            for (int k = 0; k < ILP; k++) {
                const size_t at = i + (size_t)k * blockDim.x;
                xv[k] = at < end ? s.x[at] : 0.0f;
                yv[k] = at < end ? s.y[at] : 0.0f;
            }
#pragma unroll
            for (int k = 0; k < ILP; k++) {
                const size_t at = i + (size_t)k * blockDim.x;
                if (at < end) s.y[at] = kA * xv[k] + yv[k];
            }
        }
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

__global__ void saxpy_init(Saxpy s)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < s.n;
         i += (size_t)gridDim.x * blockDim.x) {
        s.x[i] = x_at(i);
        s.y[i] = y0_at(i);
    }
}

__global__ void saxpy_check(Saxpy s)
{
    unsigned long long bad = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < s.n;
         i += (size_t)gridDim.x * blockDim.x)
        bad += s.y[i] != kA * x_at(i) + y0_at(i);
    if (bad) atomicAdd(s.bad, bad);
}

namespace {
Saxpy state;

template <int ILP>
cudaError_t launch(void *st, const OccPluginLaunch *l)
{
    saxpy_kernel<ILP><<<l->grid_blocks, l->block_threads, l->dyn_smem_bytes, l->stream>>>(
        *static_cast<Saxpy *>(st), l->probe);
    return cudaGetLastError();
}

cudaError_t setup(void **st, long long size_bytes, cudaStream_t stream)
{
    Saxpy s = {};
    s.n = (size_t)size_bytes / (2 * sizeof(float));
    cudaError_t e = cudaMalloc(&s.x, s.n * sizeof(float));
    if (e == cudaSuccess) e = cudaMalloc(&s.y, s.n * sizeof(float));
    // Three 8-byte counters in one allocation: claim, done (the low 4 bytes of the second), bad.
    if (e == cudaSuccess) e = cudaMalloc(&s.claim, 3 * sizeof *s.claim);
    if (e != cudaSuccess) return e;
    s.done = reinterpret_cast<unsigned int *>(s.claim + 1);
    s.bad = s.claim + 2;
    e = cudaMemsetAsync(s.claim, 0, 3 * sizeof *s.claim, stream);
    if (e == cudaSuccess) saxpy_init<<<1024, 256, 0, stream>>>(s), e = cudaGetLastError();
    state = s;
    *st = &state;
    return e == cudaSuccess ? cudaStreamSynchronize(stream) : e;
}

void teardown(void *st)
{
    Saxpy *s = static_cast<Saxpy *>(st);
    cudaFree(s->x);
    cudaFree(s->y);
    cudaFree(s->claim);
}

void work(void *st, int, long long *bytes, long long *flops)
{
    const Saxpy *s = static_cast<const Saxpy *>(st);
    *bytes = (long long)(3 * sizeof(float) * s->n);
    *flops = (long long)(2 * s->n);
}

// One launch from the initial y, checked element by element on the device.
cudaError_t verify(void *st, int v, const OccPluginLaunch *l, double *verify_err, int *ok);

const OccPluginVariant variants[] = {
    {"saxpy_ilp1", (const void *)saxpy_kernel<1>, launch<1>, 2, 4, 0},
    {"saxpy_ilp2", (const void *)saxpy_kernel<2>, launch<2>, 4, 4, 0},
    {"saxpy_ilp4", (const void *)saxpy_kernel<4>, launch<4>, 8, 4, 0},
    {"saxpy_ilp8", (const void *)saxpy_kernel<8>, launch<8>, 16, 4, 0},
};

const OccPlugin plugin = {
    OCC_PLUGIN_ABI_VERSION, "saxpy", /* persistent */ 1, /* dram_bytes_per_load_byte */ 1.5,
    variants, sizeof variants / sizeof variants[0], OCC_PLUGIN_RUNTIME, setup, teardown,
    /* grid_blocks: persistent */ nullptr, work, verify,
};

cudaError_t verify(void *st, int v, const OccPluginLaunch *l, double *verify_err, int *ok)
{
    Saxpy *s = static_cast<Saxpy *>(st);
    unsigned long long bad = 0;
    saxpy_init<<<1024, 256, 0, l->stream>>>(*s);
    cudaError_t e = cudaMemsetAsync(s->bad, 0, sizeof *s->bad, l->stream);
    if (e == cudaSuccess) e = variants[v].launch(st, l);
    if (e == cudaSuccess) saxpy_check<<<1024, 256, 0, l->stream>>>(*s), e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaMemcpyAsync(&bad, s->bad, sizeof bad, cudaMemcpyDeviceToHost, l->stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(l->stream);
    *verify_err = (double)bad;
    *ok = e == cudaSuccess && bad == 0;
    return e;
}
} // namespace

extern "C" const OccPlugin *occ_plugin(void) { return &plugin; }
