// SPDX-License-Identifier: Apache-2.0
// kernels/async.cu: the async family (kernels/families/async.h): asynchronous copies global ->
// shared, consumed by a sum (variants, arguments and the closed form in the descriptor).
//
// Bytes moved per element: 4 read, into shared memory with no register on the way. Bulk mode:
// one producer thread per block issues cp.async.bulk (SASS UBLKCP) of C bytes per stage, S
// stages deep; each stage has a "full" mbarrier (the producer's arrive.expect_tx plus the copy's
// complete_tx) and an "empty" one (one arrival per consumer warp) that hands the stage back. cp
// mode: each thread issues U 16-byte cp.async.cg (LDGSTS) per commit group and keeps S groups in
// flight (wait_group S-1), reading back only its own copies, so no barrier is needed. Every float
// that arrives is added (fp32 within a stage or 16 trips, fp64 beyond: exact for the pattern) and
// each block stores its sum, so no copy can be removed. Units (blocks in bulk mode, warps in cp
// mode) claim chunks from a global counter one chunk ahead of use until none is left.
#include "api.h"
#include "families/async.h"
#include "occsweep/plugin.h"

namespace {

__device__ __forceinline__ unsigned int smem_addr(const void *p)
{
    return (unsigned int)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ double warp_sum_f64(double x)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) x += __shfl_xor_sync(0xffffffffu, x, off);
    return x;
}

__device__ __forceinline__ float sum4(float4 v) { return (v.x + v.y) + (v.z + v.w); }

__device__ __forceinline__ void add4(float4 &acc, float4 v)
{
    acc.x += v.x;
    acc.y += v.y;
    acc.z += v.z;
    acc.w += v.w;
}

// A unit's walk over chunks of chunk_vecs vectors: chunk `ahead` is claimed one chunk before it
// is used, so the atomic's latency hides behind the current chunk. In a warp (kWarp) every lane
// keeps the same cursor and lane 0 alone claims; otherwise one thread uses it.
template <bool kWarp> struct ChunkCursor {
    size_t pos, end;          // vectors [pos, end) of the current chunk are left
    unsigned long long ahead; // the next chunk (valid in lane 0 / the one thread)
    bool live;                // false once a chunk past the buffer was drawn

    __device__ __forceinline__ void begin(unsigned long long first)
    {
        pos = end = 0;
        ahead = first;
        live = true;
    }
    // Moves to the next chunk when the current one is used up; false when the work is gone.
    __device__ __forceinline__ bool refill(const OccAsyncArgs &a, size_t n_vec,
                                          unsigned long long units)
    {
        if (pos < end) return true;
        unsigned long long c = ahead;
        if (kWarp) c = __shfl_sync(0xffffffffu, c, 0);
        const size_t first = (size_t)c * a.chunk_vecs;
        if (first >= n_vec) {
            live = false;
            return false;
        }
        pos = first;
        end = first + a.chunk_vecs < n_vec ? first + a.chunk_vecs : n_vec;
        if (!kWarp || (threadIdx.x & 31) == 0) ahead = units + atomicAdd(a.claim, 1ull);
        return true;
    }
};

// The end of a launch: thread `leader` (which ran the unit's claims) counts the unit done; the
// last unit resets the counters for the next launch. Every claim of this unit has returned (its
// value ended the walk), so none can follow the reset.
__device__ __forceinline__ void unit_finish(const OccAsyncArgs &a, unsigned int units)
{
    __threadfence();
    if (atomicAdd(a.done, 1u) == units - 1) {
        *a.claim = 0;
        *a.done = 0;
    }
}

// Block b stores its sum of `x` over all threads (plus the buffer's last n_floats mod 4 floats,
// added by block 0) at block_sums[b], then the residency probe ends. Every thread calls it.
template <int kWarps>
__device__ __forceinline__ void block_store(double x, const OccAsyncArgs &a, size_t n_vec)
{
    __shared__ double warp_sums[kWarps];
    if (blockIdx.x == 0 && threadIdx.x == 0)
        for (size_t i = n_vec * 4; i < a.n_floats; i++) x += (double)a.in[i];
    __syncwarp();
    x = warp_sum_f64(x);
    if ((threadIdx.x & 31) == 0) warp_sums[threadIdx.x >> 5] = x;
    __syncthreads();
    if (threadIdx.x == 0) {
        double t = 0.0;
        for (int w = 0; w < (int)(blockDim.x >> 5); w++) t += warp_sums[w];
        a.block_sums[blockIdx.x] = t;
    }
    occ_plugin_probe_end(a.probe);
}

// ---- bulk mode (sm_90+; compiled for an older arch, its kernels are empty) ----

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900

__device__ __forceinline__ void mbar_init(unsigned int bar, unsigned int count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}

__device__ __forceinline__ void mbar_arrive(unsigned int bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}

// A phase that never completes (a transaction count that does not match the bytes copied) would
// hang the launch: after 2^26 failed tries (each may suspend the thread for a while, so seconds
// at least) the kernel traps, and the launch fails instead.
__device__ __forceinline__ void mbar_wait(unsigned int bar, unsigned int parity)
{
    unsigned int done, tries = 0;
    do {
        if (++tries == (1u << 26)) __trap();
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done)
                     : "r"(bar), "r"(parity)
                     : "memory");
    } while (!done);
}

// The producer's arrival announces `bytes` of transaction, then one bulk copy brings them.
__device__ __forceinline__ void bulk_load(unsigned int dst, const void *src, unsigned int bytes,
                                          unsigned int bar)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes)
                 : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], "
                 "%2, [%3];" ::"r"(dst),
                 "l"(src), "r"(bytes), "r"(bar)
                 : "memory");
}

// One block's stage ring. Stage s's k-th use completes phase k of full[s] (the consumers wait on
// parity k & 1) and, once the consumers are done, phase k of empty[s] (the producer waits on it
// before use k + 1). stage_bytes[s] == 0 marks the end: the producer then arrives on full[s]
// with no transaction.
template <int S> struct BulkRing {
    unsigned long long full[S], empty[S];
    unsigned int stage_bytes[S];
};

// Issues the next stage into slot s (producer thread only); false (after the end mark) when the
// work is gone.
template <int S, int C>
__device__ __forceinline__ bool bulk_produce(BulkRing<S> &r, float4 *stages, int s,
                                             ChunkCursor<false> &cur, const OccAsyncArgs &a,
                                             size_t n_vec)
{
    const unsigned int full = smem_addr(&r.full[s]);
    if (!cur.live || !cur.refill(a, n_vec, gridDim.x)) {
        r.stage_bytes[s] = 0;
        mbar_arrive(full);
        return false;
    }
    const size_t left = cur.end - cur.pos;
    const unsigned int vecs = left < (size_t)(C / 16) ? (unsigned int)left : C / 16;
    r.stage_bytes[s] = vecs * 16;
    bulk_load(smem_addr(stages + (size_t)s * (C / 16)), a.in + cur.pos * 4, vecs * 16, full);
    cur.pos += vecs;
    return true;
}

// Thread i of T consumers sums its vectors of a stage of `bytes`: every T-th vector from i.
template <int C, int T>
__device__ __forceinline__ double bulk_consume(const float4 *stage, unsigned int bytes, int i)
{
    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
    if (bytes == C) {
#pragma unroll 16
        for (int j = 0; j < C / 16 / T; j++) add4(acc, stage[j * T + i]);
    } else {
        for (int j = i; j < (int)(bytes / 16); j += T) add4(acc, stage[j]);
    }
    return (double)sum4(acc);
}

// S stages of C bytes; W = 1: one warp, lane 0 produces between its own consumption; W = 5:
// warp 0's lane 0 produces, warps 1-4 consume (each warp's lane 0 arrives on empty[s]).
template <int S, int C, int W> __device__ __forceinline__ void bulk_body(const OccAsyncArgs &a)
{
    static_assert(W == 1 || W == 5, "one warp, or a producer warp and a consumer warp group");
    constexpr int kConsumers = W == 1 ? 32 : 128;
    extern __shared__ __align__(128) float4 stages[];
    __shared__ BulkRing<S> ring;
    occ_plugin_probe_start(a.probe);
    const size_t n_vec = a.n_floats / 4;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (threadIdx.x == 0) {
        for (int s = 0; s < S; s++) {
            mbar_init(smem_addr(&ring.full[s]), 1);
            mbar_init(smem_addr(&ring.empty[s]), W == 1 ? 1 : 4);
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    ChunkCursor<false> cur;
    cur.begin(blockIdx.x);
    double total = 0.0;
    if (W == 1) {
        if (lane == 0)
            for (int s = 0; s < S; s++) bulk_produce<S, C>(ring, stages, s, cur, a, n_vec);
        for (unsigned int it = 0;; it++) {
            const int s = (int)(it % S);
            mbar_wait(smem_addr(&ring.full[s]), (it / S) & 1u);
            const unsigned int bytes = ring.stage_bytes[s];
            if (bytes == 0) break;
            total += bulk_consume<C, kConsumers>(stages + (size_t)s * (C / 16), bytes, lane);
            __syncwarp();
            if (lane == 0) bulk_produce<S, C>(ring, stages, s, cur, a, n_vec);
        }
    } else if (warp == 0) {
        if (lane == 0)
            for (unsigned int it = 0;; it++) {
                const int s = (int)(it % S);
                if (it >= S) mbar_wait(smem_addr(&ring.empty[s]), (it / S - 1) & 1u);
                if (!bulk_produce<S, C>(ring, stages, s, cur, a, n_vec)) break;
            }
    } else {
        for (unsigned int it = 0;; it++) {
            const int s = (int)(it % S);
            mbar_wait(smem_addr(&ring.full[s]), (it / S) & 1u);
            const unsigned int bytes = ring.stage_bytes[s];
            if (bytes == 0) break;
            total += bulk_consume<C, kConsumers>(stages + (size_t)s * (C / 16), bytes,
                                                 threadIdx.x - 32);
            __syncwarp();
            if (lane == 0) mbar_arrive(smem_addr(&ring.empty[s]));
        }
    }
    if (threadIdx.x == 0) unit_finish(a, gridDim.x);
    block_store<W>(total, a, n_vec);
}
#else
template <int S, int C, int W> __device__ __forceinline__ void bulk_body(const OccAsyncArgs &) {}
#endif

// ---- cp mode (sm_80+) ----

// 16 bytes global -> shared, or 16 zero bytes when !valid (src-size 0 reads nothing).
__device__ __forceinline__ void cp_async16(unsigned int dst, const void *src, bool valid)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"(src),
                 "r"(valid ? 16 : 0)
                 : "memory");
}

__device__ __forceinline__ void cp_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }

template <int N> __device__ __forceinline__ void cp_wait()
{
    asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
}

// Each thread's S x U slots, slot (s, u) of thread t at [(s U + u) blockDim + t]: a warp's copies
// are 512 contiguous bytes (no bank conflict), and a thread reads back only what it copied.
// Copy u of lane l in a warp trip starting at vector p reads vector p + 32 u + l.
template <int S, int U, int W> __device__ __forceinline__ void cp_body(const OccAsyncArgs &a)
{
    extern __shared__ __align__(16) float4 slots[];
    occ_plugin_probe_start(a.probe);
    const size_t n_vec = a.n_floats / 4;
    const int lane = threadIdx.x & 31;
    constexpr unsigned int warps = W;
    const unsigned int units = gridDim.x * warps;
    ChunkCursor<true> cur;
    cur.begin((unsigned long long)blockIdx.x * warps + (threadIdx.x >> 5));
    const float4 *in4 = reinterpret_cast<const float4 *>(a.in);
    unsigned int issued = 0;
    auto issue = [&](int slot) {
        if (cur.live && cur.refill(a, n_vec, units)) {
#pragma unroll
            for (int u = 0; u < U; u++) {
                const size_t v = cur.pos + (size_t)u * 32 + lane;
                const bool ok = v < cur.end;
                cp_async16(smem_addr(&slots[(slot * U + u) * blockDim.x + threadIdx.x]),
                           in4 + (ok ? v : 0), ok);
            }
            cur.pos += 32 * U;
            issued++;
        }
        cp_commit(); // empty groups too: group k is always trip k
    };
#pragma unroll
    for (int s = 0; s < S; s++) issue(s);
    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
    double total = 0.0;
    for (unsigned int k = 0; k < issued; k++) {
        cp_wait<S - 1>(); // S + k groups committed: trip k has landed
        const int slot = (int)(k % S);
#pragma unroll
        for (int u = 0; u < U; u++) add4(acc, slots[(slot * U + u) * blockDim.x + threadIdx.x]);
        issue(slot);
        if ((k & 15u) == 15u) { // at most 16 x U x 4 floats below 7: exact in fp32
            total += (double)sum4(acc);
            acc = make_float4(0.f, 0.f, 0.f, 0.f);
        }
    }
    cp_wait<0>();
    total += (double)sum4(acc);
    if (lane == 0) unit_finish(a, units);
    block_store<W>(total, a, n_vec);
}

__global__ void fill_kernel(float *buf, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        buf[i] = (float)(unsigned int)(i % OCC_ASYNC_PERIOD);
}

} // namespace

#define DEFINE_ASYNC_BULK(s, c, w)                                                                 \
    extern "C" __global__ void __launch_bounds__(32 * w)                                           \
        occsweep_async_bulk_s##s##_c##c##k_w##w(const OccAsyncArgs a)                              \
    {                                                                                              \
        bulk_body<s, c * 1024, w>(a);                                                              \
    }                                                                                              \
    extern "C" cudaError_t occ_launch_async_bulk_s##s##_c##c##k_w##w(const OccLaunch *l,          \
                                                                     const OccAsyncArgs *a)        \
    {                                                                                              \
        occsweep_async_bulk_s##s##_c##c##k_w##w<<<l->grid_blocks, l->block_threads,                \
                                                  l->dyn_smem_bytes, l->stream>>>(*a);             \
        return cudaGetLastError();                                                                 \
    }                                                                                              \
    extern "C" const void *occ_kernel_async_bulk_s##s##_c##c##k_w##w(void)                         \
    {                                                                                              \
        return reinterpret_cast<const void *>(occsweep_async_bulk_s##s##_c##c##k_w##w);           \
    }
OCC_ASYNC_BULK_VARIANTS(DEFINE_ASYNC_BULK)

#define DEFINE_ASYNC_CP(s, u, w)                                                                   \
    extern "C" __global__ void __launch_bounds__(32 * w)                                           \
        occsweep_async_cp_s##s##_u##u##_w##w(const OccAsyncArgs a)                                 \
    {                                                                                              \
        cp_body<s, u, w>(a);                                                                       \
    }                                                                                              \
    extern "C" cudaError_t occ_launch_async_cp_s##s##_u##u##_w##w(const OccLaunch *l,             \
                                                                  const OccAsyncArgs *a)           \
    {                                                                                              \
        occsweep_async_cp_s##s##_u##u##_w##w<<<l->grid_blocks, l->block_threads,                   \
                                               l->dyn_smem_bytes, l->stream>>>(*a);                \
        return cudaGetLastError();                                                                 \
    }                                                                                              \
    extern "C" const void *occ_kernel_async_cp_s##s##_u##u##_w##w(void)                            \
    {                                                                                              \
        return reinterpret_cast<const void *>(occsweep_async_cp_s##s##_u##u##_w##w);               \
    }
OCC_ASYNC_CP_VARIANTS(DEFINE_ASYNC_CP)

extern "C" cudaError_t occ_async_fill(float *buf, size_t n_floats, cudaStream_t stream)
{
    fill_kernel<<<1024, 256, 0, stream>>>(buf, n_floats);
    return cudaGetLastError();
}
