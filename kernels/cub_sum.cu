// SPDX-License-Identifier: Apache-2.0
// kernels/cub_sum.cu: the library reference for the reduce roof, cub::DeviceReduce::Sum.
#include <cub/device/device_reduce.cuh>

#include "api.h"

extern "C" cudaError_t occ_cub_sum_temp_bytes(size_t n_floats, size_t *temp_bytes)
{
    *temp_bytes = 0;
    return cub::DeviceReduce::Sum(nullptr, *temp_bytes, static_cast<const float *>(nullptr),
                                  static_cast<float *>(nullptr), static_cast<long long>(n_floats));
}

extern "C" cudaError_t occ_cub_sum(const float *in, size_t n_floats, float *sum, void *temp,
                                   size_t temp_bytes, cudaStream_t stream)
{
    return cub::DeviceReduce::Sum(temp, temp_bytes, in, sum, static_cast<long long>(n_floats),
                                  stream);
}
