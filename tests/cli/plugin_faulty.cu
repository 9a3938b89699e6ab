// SPDX-License-Identifier: Apache-2.0
// tests/cli/plugin_faulty.cu: a plugin whose variants go wrong in the ways occsweep must report
// (tests/gpu/test_gpu_plugin.sh): faulty_ok copies in to out (verified), faulty_wrong adds 1 (fails
// its own verification: a fail: row), faulty_crash stores through a wild pointer (a sticky
// error: the run ends, the rows before it kept). Not persistent: its own grid (mode own_grid).
// Built for the build's archs (libfaulty) and
// for sm_80 alone (libfaulty_sm80: no code for any other GPU).
#include <cuda_runtime.h>

#include "occsweep/plugin.h"

struct Faulty {
    float *in, *out;
    size_t n;
    unsigned long long *bad;
};

template <int MODE> // 0 copy, 1 copy + 1, 2 wild store
__global__ void faulty_kernel(Faulty f, unsigned long long *probe)
{
    occ_plugin_probe_start(probe);
    float *out = MODE == 2 ? reinterpret_cast<float *>(16) : f.out;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < f.n;
         i += (size_t)gridDim.x * blockDim.x)
        out[MODE == 2 ? i * 4099 : i] = f.in[i] + (MODE == 1 ? 1.0f : 0.0f);
    occ_plugin_probe_end(probe);
}

__global__ void faulty_check(Faulty f)
{
    unsigned long long bad = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < f.n;
         i += (size_t)gridDim.x * blockDim.x)
        bad += f.out[i] != f.in[i];
    if (bad) atomicAdd(f.bad, bad);
}

namespace {
Faulty state;

template <int MODE>
cudaError_t launch(void *st, const OccPluginLaunch *l)
{
    faulty_kernel<MODE><<<l->grid_blocks, l->block_threads, l->dyn_smem_bytes, l->stream>>>(
        *static_cast<Faulty *>(st), l->probe);
    return cudaGetLastError();
}

cudaError_t setup(void **st, long long size_bytes, cudaStream_t stream)
{
    Faulty f = {};
    f.n = (size_t)size_bytes / (2 * sizeof(float));
    cudaError_t e = cudaMalloc(&f.in, f.n * sizeof(float));
    if (e == cudaSuccess) e = cudaMalloc(&f.out, f.n * sizeof(float));
    if (e == cudaSuccess) e = cudaMalloc(&f.bad, sizeof *f.bad);
    if (e == cudaSuccess) e = cudaMemsetAsync(f.in, 0x3f, f.n * sizeof(float), stream);
    state = f;
    *st = &state;
    return e;
}

void teardown(void *st)
{
    Faulty *f = static_cast<Faulty *>(st);
    cudaFree(f->in);
    cudaFree(f->out);
    cudaFree(f->bad);
}

// Its own grid (not persistent): 4 elements per thread, the grid-stride loop covers the rest.
int grid(void *st, int, int block_threads)
{
    const size_t blocks = static_cast<Faulty *>(st)->n / (4 * (size_t)block_threads);
    return blocks > 0 ? (int)blocks : 1;
}

void work(void *st, int, long long *bytes, long long *flops)
{
    *bytes = (long long)(2 * sizeof(float) * static_cast<Faulty *>(st)->n);
    *flops = 0;
}

cudaError_t verify(void *st, int v, const OccPluginLaunch *l, double *verify_err, int *ok);

const OccPluginVariant variants[] = {
    {"faulty_ok", (const void *)faulty_kernel<0>, launch<0>, 1, 4, 0},
    {"faulty_wrong", (const void *)faulty_kernel<1>, launch<1>, 1, 4, 0},
    {"faulty_crash", (const void *)faulty_kernel<2>, launch<2>, 1, 4, 0},
};

const OccPlugin plugin = {
    OCC_PLUGIN_ABI_VERSION, "faulty", 0, 2.0, variants, sizeof variants / sizeof variants[0],
    OCC_PLUGIN_RUNTIME, setup, teardown, grid, work, verify,
};

cudaError_t verify(void *st, int v, const OccPluginLaunch *l, double *verify_err, int *ok)
{
    Faulty *f = static_cast<Faulty *>(st);
    unsigned long long bad = 0;
    cudaError_t e = cudaMemsetAsync(f->bad, 0, sizeof *f->bad, l->stream);
    if (e == cudaSuccess) e = variants[v].launch(st, l);
    if (e == cudaSuccess) faulty_check<<<264, 256, 0, l->stream>>>(*f), e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaMemcpyAsync(&bad, f->bad, sizeof bad, cudaMemcpyDeviceToHost, l->stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(l->stream);
    *verify_err = (double)bad;
    *ok = e == cudaSuccess && bad == 0;
    return e;
}
} // namespace

extern "C" const OccPlugin *occ_plugin(void) { return &plugin; }
