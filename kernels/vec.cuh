// kernels/vec.cuh: vector load types and the element loop shared by the streaming kernels.
#ifndef OCC_VEC_CUH
#define OCC_VEC_CUH

#include <cstddef>

// VecOf<V>::T is the type one V-byte load moves; kFloats is its element count.
template <int V> struct VecOf;
template <> struct VecOf<4> { using T = float; static constexpr int kFloats = 1; };
template <> struct VecOf<8> { using T = float2; static constexpr int kFloats = 2; };
template <> struct VecOf<16> { using T = float4; static constexpr int kFloats = 4; };

__device__ __forceinline__ float vec_sum(float a) { return a; }
__device__ __forceinline__ float vec_sum(float2 a) { return a.x + a.y; }
__device__ __forceinline__ float vec_sum(float4 a) { return (a.x + a.y) + (a.z + a.w); }

// The grid-stride walk both families share. The buffer is seen as n_vec vectors; one trip of a
// thread covers U vectors spaced blockDim.x apart, so each of the U loads is coalesced across the
// warp and all U are independent (they are issued before any is used). `body(first, count)`
// handles vectors first, first + blockDim.x, ..., count of them (count == U except in the tail).
template <int U, typename Body>
__device__ __forceinline__ void grid_stride_chunks(size_t n_vec, Body body)
{
    const size_t chunk = (size_t)blockDim.x * U;
    const size_t step = (size_t)gridDim.x * chunk;
    size_t first = (size_t)blockIdx.x * chunk + threadIdx.x;
    // Full chunks: no bounds checks inside, so the compiler keeps the U loads in flight together.
    for (; first + (size_t)(U - 1) * blockDim.x < n_vec; first += step) body(first, U);
    if (first < n_vec) body(first, (int)((n_vec - first + blockDim.x - 1) / blockDim.x));
}

#endif
