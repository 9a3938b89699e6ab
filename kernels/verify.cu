// SPDX-License-Identifier: Apache-2.0
// kernels/verify.cu: input pattern and full-buffer verification on the device.
#include "api.h"

// Same hash as occ_pattern_value in api.h, so the host can check any element it likes.
__global__ void fill_pattern_kernel(float *buf, size_t n, unsigned int seed)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        buf[i] = occ_pattern_value(seed, i);
}

extern "C" cudaError_t occ_fill_pattern(float *buf, size_t n_floats, unsigned int seed,
                                        cudaStream_t stream)
{
    fill_pattern_kernel<<<4096, 256, 0, stream>>>(buf, n_floats, seed);
    return cudaGetLastError();
}

// Counts positions where the bit patterns differ (so NaN poison never compares equal).
__global__ void count_mismatches_kernel(const unsigned int *a, const unsigned int *b, size_t n,
                                        unsigned long long *count)
{
    unsigned int mine = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        mine += a[i] != b[i];
    mine = __reduce_add_sync(0xffffffffu, mine);
    if ((threadIdx.x & 31) == 0 && mine) atomicAdd(count, (unsigned long long)mine);
}

extern "C" cudaError_t occ_count_mismatches(const float *a, const float *b, size_t n_floats,
                                            unsigned long long *count, cudaStream_t stream)
{
    cudaError_t e = cudaMemsetAsync(count, 0, sizeof *count, stream);
    if (e != cudaSuccess) return e;
    count_mismatches_kernel<<<4096, 256, 0, stream>>>(reinterpret_cast<const unsigned int *>(a),
                                                      reinterpret_cast<const unsigned int *>(b),
                                                      n_floats, count);
    return cudaGetLastError();
}
