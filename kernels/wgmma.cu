// SPDX-License-Identifier: Apache-2.0
// kernels/wgmma.cu: warp-group MMA throughput (wgmma.mma_async, sm_90a; API, variants and closed
// forms in the descriptor kernels/families/wgmma.h).
//
// One block = one warp group. It writes its A (64 x 64) and B (N x 64) tiles into shared memory,
// K-major, then runs commit groups of 4 wgmma m64nNk16 (one per 16-deep slice of the tiles) into
// the same N / 2 fp32 accumulators per thread, waiting with wgmma.wait_group G-1 so G groups stay
// in flight. The groups are claimed in chunks until the launch's are gone (block_claimed_groups),
// so every block stays resident to the end: the tensor pipe does not serve an SM's warp groups
// evenly, and blocks of a fixed share of the work would leave one by one. The operands never change, so the loop measures the tensor cores and
// the operand reads from shared memory (SS) or registers (RS) alone. The wgmma are asm volatile
// and every accumulator is stored, so none can be removed; the exact D is known (wgmma.h).
// Compiled for anything but sm_90a the kernels only write OCC_WGMMA_UNSUPPORTED.
#include <stdint.h>

#include "api.h"
#include "families/wgmma.h"
#include "occsweep/plugin.h"
#include "claims.cuh"
#include "clock_span.cuh"

namespace {

enum { kF16, kBF16 };

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)

// The 16-bit encoding of 0, 1 or 2 in each input type.
template <int T> __device__ __forceinline__ unsigned int bits(int v)
{
    return v == 0 ? 0u : v == 1 ? (T == kF16 ? 0x3C00u : 0x3F80u) : 0x4000u;
}

// Byte offset of element (r, k) of a K-major tile of 64-element rows. 128-byte swizzle: row r is
// 128 bytes at r x 128, its 16-byte chunk c stored at chunk c ^ (r mod 8), atoms of 8 rows
// (1024 bytes). No swizzle: 8 x 8 core matrices of 128 contiguous bytes, the 8 along K side by
// side (128 bytes apart), row groups 1024 bytes apart.
template <bool kSw> __device__ __forceinline__ unsigned int tile_offset(int r, int k)
{
    if (kSw) return (r >> 3) * 1024 + (r & 7) * 128 + ((((k >> 3) ^ r) & 7) << 4) + (k & 7) * 2;
    return (r >> 3) * 1024 + (k >> 3) * 128 + (r & 7) * 16 + (k & 7) * 2;
}

// A shared-memory matrix descriptor: start address, leading byte offset (no swizzle: between
// the two core matrices along K; swizzled K-major: unused, 1), stride byte offset (between
// 8-row groups), all in 16-byte units, and the swizzle mode (1: 128 bytes).
template <bool kSw> __device__ __forceinline__ uint64_t make_desc(unsigned int addr)
{
    const uint64_t lbo = kSw ? 1 : 128 >> 4, sbo = 1024 >> 4, mode = kSw ? 1 : 0;
    return (uint64_t)((addr & 0x3FFFFu) >> 4) | lbo << 16 | sbo << 32 | mode << 62;
}

// Descriptor step from one 16-deep K slice to the next, in 16-byte units: 32 bytes inside the
// swizzled row, two core matrices without swizzle.
template <bool kSw> constexpr uint64_t kSliceStep = kSw ? 2 : 16;

__device__ __forceinline__ void wg_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wg_commit()
{
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}
template <int N> __device__ __forceinline__ void wg_wait()
{
    asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}

#define WG_D32 \
    "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, " \
    "%20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}"
#define WG_D64 \
    "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, " \
    "%20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, " \
    "%38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, " \
    "%56, %57, %58, %59, %60, %61, %62, %63}"
#define WG_D128 \
    "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, " \
    "%20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, " \
    "%38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, " \
    "%56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, " \
    "%74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, " \
    "%92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, " \
    "%108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, " \
    "%123, %124, %125, %126, %127}"

#define WG_F8(i)                                                                                   \
    "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]),    \
        "+f"(d[i + 6]), "+f"(d[i + 7])
#define WG_F32 WG_F8(0), WG_F8(8), WG_F8(16), WG_F8(24)
#define WG_F64 WG_F32, WG_F8(32), WG_F8(40), WG_F8(48), WG_F8(56)
#define WG_F128 WG_F64, WG_F8(64), WG_F8(72), WG_F8(80), WG_F8(88), WG_F8(96), WG_F8(104), \
    WG_F8(112), WG_F8(120)

// D += A x B for one m64nNk16: ss with A and B through descriptors, rs with A's fragment in four
// registers (two 16-bit elements each). scale-d is a predicate set from 1: accumulate.
template <int N, int T> struct Wgmma;
#define WG_INSTR(n, t) "wgmma.mma_async.sync.aligned.m64n" #n "k16.f32." t "." t " "
#define DEFINE_WGMMA(n, T, t, DREGS, FOPS, P0, P1, P2, P3, P4, P5)                                \
    template <> struct Wgmma<n, T> {                                                               \
        static __device__ __forceinline__ void ss(float (&d)[n / 2], uint64_t da, uint64_t db)    \
        {                                                                                          \
            asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %" P2 ", 0;\n\t" WG_INSTR(n, t)   \
                             DREGS ", %" P0 ", %" P1 ", p, 1, 1, 0, 0;\n\t}"                     \
                         : FOPS                                                                    \
                         : "l"(da), "l"(db), "r"(1));                                              \
        }                                                                                          \
        static __device__ __forceinline__ void rs(float (&d)[n / 2], const unsigned int (&a)[4],  \
                                                  uint64_t db)                                     \
        {                                                                                          \
            asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %" P5 ", 0;\n\t" WG_INSTR(n, t)   \
                             DREGS ", {%" P0 ", %" P1 ", %" P2 ", %" P3 "}, %" P4                 \
                                   ", p, 1, 1, 0;\n\t}"                                            \
                         : FOPS                                                                    \
                         : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(1));          \
        }                                                                                          \
    };
DEFINE_WGMMA(64, kF16, "f16", WG_D32, WG_F32, "32", "33", "34", "35", "36", "37")
DEFINE_WGMMA(64, kBF16, "bf16", WG_D32, WG_F32, "32", "33", "34", "35", "36", "37")
DEFINE_WGMMA(128, kF16, "f16", WG_D64, WG_F64, "64", "65", "66", "67", "68", "69")
DEFINE_WGMMA(128, kBF16, "bf16", WG_D64, WG_F64, "64", "65", "66", "67", "68", "69")
DEFINE_WGMMA(256, kF16, "f16", WG_D128, WG_F128, "128", "129", "130", "131", "132", "133")
DEFINE_WGMMA(256, kBF16, "bf16", WG_D128, WG_F128, "128", "129", "130", "131", "132", "133")

// occ_claimed_trips' scheme for a whole warp group (wgmma runs the block's 128 threads together):
// thread 0 claims the next chunk of groups while the block runs the current one and hands it on
// through shared memory (two slots, so one barrier a chunk). run(n) runs n groups; returns the
// groups the block ran. A block stops claiming where one more chunk could pass
// OCC_WGMMA_MAX_GROUPS.
template <typename Run>
__device__ __forceinline__ unsigned int block_claimed_groups(const OccWgmmaArgs &a, Run run)
{
    __shared__ unsigned long long next[2];
    const unsigned long long chunk = a.chunk_groups;
    if (threadIdx.x == 0) next[0] = atomicAdd(a.claim, chunk);
    __syncthreads();
    unsigned long long first = next[0], ahead = 0;
    unsigned int ran = 0, slot = 1;
    while (first < a.total_groups) {
        const bool room = ran + 2ull * chunk <= OCC_WGMMA_MAX_GROUPS;
        if (threadIdx.x == 0) ahead = room ? atomicAdd(a.claim, chunk) : ~0ull;
        const unsigned int n = (unsigned int)min(chunk, a.total_groups - first);
        run(n);
        ran += n;
        if (threadIdx.x == 0) next[slot] = ahead;
        __syncthreads();
        first = next[slot];
        slot ^= 1u;
    }
    return ran;
}

// Keeps the compiler from moving reads or writes of an accumulator across a wgmma fence or wait.
__device__ __forceinline__ void pin(float &x) { asm volatile("" : "+f"(x)::"memory"); }

template <int N, int T, bool kRS, int G, bool kSw>
__device__ __forceinline__ void wgmma_body(const OccWgmmaArgs &a)
{
    extern __shared__ __align__(1024) unsigned char smem_raw[];
    occ_plugin_probe_start(a.probe);
    const unsigned int raw = (unsigned int)__cvta_generic_to_shared(smem_raw);
    const unsigned int base = (raw + 1023u) & ~1023u; // the swizzle atoms are 1024-byte aligned
    unsigned short *tile_a = reinterpret_cast<unsigned short *>(smem_raw + (base - raw));
    unsigned short *tile_b = tile_a + 64 * OCC_WGMMA_K;
    if (!kRS)
        for (int i = threadIdx.x; i < 64 * OCC_WGMMA_K; i += OCC_WGMMA_BLOCK_THREADS)
            tile_a[tile_offset<kSw>(i / OCC_WGMMA_K, i % OCC_WGMMA_K) / 2] =
                (unsigned short)bits<T>(occ_wgmma_a(i / OCC_WGMMA_K, i % OCC_WGMMA_K));
    for (int i = threadIdx.x; i < N * OCC_WGMMA_K; i += OCC_WGMMA_BLOCK_THREADS)
        tile_b[tile_offset<kSw>(i / OCC_WGMMA_K, i % OCC_WGMMA_K) / 2] =
            (unsigned short)bits<T>(occ_wgmma_b(i % OCC_WGMMA_K, i / OCC_WGMMA_K));
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); // the tensor cores read them next
    __syncthreads();

    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    // A's register fragment of slice j: rows 16 warp + lane / 4 (+ 8), k = 16 j + 2 (lane mod 4)
    // (+ 1, + 8): registers {(r, k), (r, k+1)}, {(r+8, k), ..}, {(r, k+8), ..}, {(r+8, k+8), ..}.
    unsigned int ra[OCC_WGMMA_PER_GROUP][4];
    const int r0 = 16 * warp + (lane >> 2);
#pragma unroll
    for (int j = 0; j < OCC_WGMMA_PER_GROUP; j++)
#pragma unroll
        for (int q = 0; q < 4; q++) {
            const int r = r0 + 8 * (q & 1), k = 16 * j + 2 * (lane & 3) + 8 * (q >> 1);
            ra[j][q] = bits<T>(occ_wgmma_a(r, k)) | bits<T>(occ_wgmma_a(r, k + 1)) << 16;
        }
    const uint64_t da = make_desc<kSw>(base), db = make_desc<kSw>(base + 64 * OCC_WGMMA_K * 2);

    float d[N / 2];
#pragma unroll
    for (int i = 0; i < N / 2; i++) {
        d[i] = 0.0f;
        pin(d[i]);
    }
    occ_clock_span_start(a.clock_words);
    const unsigned int ran = block_claimed_groups(a, [&](unsigned int n) {
#pragma unroll 1
        for (unsigned int g = 0; g < n; g++) {
            wg_fence();
#pragma unroll
            for (int j = 0; j < OCC_WGMMA_PER_GROUP; j++) {
                if (kRS)
                    Wgmma<N, T>::rs(d, ra[j], db + j * kSliceStep<kSw>);
                else
                    Wgmma<N, T>::ss(d, da + j * kSliceStep<kSw>, db + j * kSliceStep<kSw>);
            }
            wg_commit();
            wg_wait<G - 1>();
        }
    });
    wg_wait<0>();
#pragma unroll
    for (int i = 0; i < N / 2; i++) pin(d[i]);
    occ_clock_span_stop(a.clock_words);
    if (threadIdx.x == 0) a.block_groups[blockIdx.x] = ran;
    occ_claims_finish(a.claim, a.warps_done);
    // Accumulator i of a thread: row 16 warp + lane / 4 + 8 ((i / 2) mod 2), column
    // 8 (i / 4) + 2 (lane mod 4) + i mod 2.
    float *out = a.out + (size_t)blockIdx.x * 64 * N;
#pragma unroll
    for (int i = 0; i < N / 2; i++)
        out[(r0 + 8 * ((i >> 1) & 1)) * N + 8 * (i >> 2) + 2 * (lane & 3) + (i & 1)] = d[i];
    occ_plugin_probe_end(a.probe);
}

#else

template <int N, int T, bool kRS, int G, bool kSw>
__device__ __forceinline__ void wgmma_body(const OccWgmmaArgs &a)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) *a.clock_words = OCC_WGMMA_UNSUPPORTED;
}

#endif

// Compute capability 9.0 or cudaErrorNotSupported.
cudaError_t check_sm90()
{
    int dev = 0, major = 0, minor = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
    if (e == cudaSuccess && (major != 9 || minor != 0)) e = cudaErrorNotSupported;
    return e;
}

// The variant list's tokens as template arguments.
constexpr int kType_f16 = kF16, kType_bf16 = kBF16;
constexpr bool kForm_ss = false, kForm_rs = true;

} // namespace

#define DEFINE_WGMMA_VARIANT(t, n, form, g, swz, sfx)                                             \
    extern "C" __global__ void __launch_bounds__(OCC_WGMMA_BLOCK_THREADS)                         \
        occsweep_wgmma_##t##_n##n##_##form##_g##g##sfx(const OccWgmmaArgs a)                      \
    {                                                                                              \
        wgmma_body<n, kType_##t, kForm_##form, g, swz == 1>(a);                                   \
    }                                                                                              \
    extern "C" cudaError_t occ_launch_wgmma_##t##_n##n##_##form##_g##g##sfx(                      \
        const OccLaunch *l, const OccWgmmaArgs *a)                                                 \
    {                                                                                              \
        const cudaError_t e = check_sm90();                                                        \
        if (e != cudaSuccess) return e;                                                            \
        occsweep_wgmma_##t##_n##n##_##form##_g##g##sfx<<<l->grid_blocks, l->block_threads,         \
                                                          l->dyn_smem_bytes, l->stream>>>(*a);     \
        return cudaGetLastError();                                                                 \
    }                                                                                              \
    extern "C" const void *occ_kernel_wgmma_##t##_n##n##_##form##_g##g##sfx(void)                 \
    {                                                                                              \
        return reinterpret_cast<const void *>(occsweep_wgmma_##t##_n##n##_##form##_g##g##sfx);    \
    }
OCC_WGMMA_VARIANTS(DEFINE_WGMMA_VARIANT)
