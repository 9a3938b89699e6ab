// SPDX-License-Identifier: Apache-2.0
// kernels/smem.cu: the smem family: shared-memory latency (chase) and bandwidth (stream) against
// occupancy and ILP. The layouts, closed forms and arguments are in smem_mma.h.
//
// Every shared-memory access is inline PTX (ld.shared / st.shared on a 32-bit shared-window
// address, asm volatile): the compiler can neither hoist a load out of the trip loop (the tile
// does not change while the loop runs, so plain loads of a fixed address would be loop-invariant)
// nor drop a store nobody reads, and the accesses stay in the order written. The tile is this
// translation unit's `extern __shared__` array, so it is the start of dynamic shared memory (no
// kernel here has static shared memory); whatever the launch adds beyond the tile (the harness's
// occupancy padding) is never touched.
//
// chase: K chains of one 128-byte row per hop. A row holds the addresses of the next row's words,
// so a hop is one LDS whose address is the last one's result: nothing but the load's latency on
// the dependent path (the index form, p = tile[p], would add an IMAD or LEA per hop).
//
// stream: a round is U loads (ld.volatile.shared: ptxas keeps them in program order), then
// t = (first word of the round's last load) & hold_zero (0, unknown to the compiler). The next
// round's base address is base | t, the rw stores go to base | t, and every checksum add takes t
// as its first operand (inline PTX adds, so the compiler cannot re-associate the words' adds
// ahead of it). So nothing that uses a load can issue before the round's last load has: exactly
// U loads in flight before the first use (without it ptxas interleaved uses with the loads to
// save registers: 3 of 8 LDS.128 in flight on sm_90; with plain ld.shared it also reordered the
// loads, issuing the last one first), and the next round waits for the last load, which a warp's
// shared loads complete in order behind. This is what an in-order issue does in a rolled loop of U
// loads and their use, but the trip can be unrolled (32 loads: the loop's overhead stays small at
// U = 1). Cost: 2 LOP3 per round (t, the address), one on the dependent path; U = 1 needs no hold
// (its one load's use cannot come early) and adds plainly.
// Work is claimed per warp (occ_claimed_trips, as fma.cu): every warp stays busy to the end of
// the launch, so every block stays resident and the set occupancy holds. The tile is built by
// the block before its warps start, behind one barrier.
#include "bounds.cuh"
#include "probe.cuh"
#include "smem_mma.h"

extern __shared__ __align__(16) unsigned int smem_tile[];

// The shared-window address of the tile's first byte.
__device__ __forceinline__ unsigned int tile_base()
{
    return (unsigned int)__cvta_generic_to_shared(smem_tile);
}

__device__ __forceinline__ unsigned int lds(unsigned int addr)
{
    unsigned int v;
    asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(addr));
    return v;
}

// Row at cycle position i (i < rows).
__device__ __forceinline__ unsigned int chase_row(const OccSmemArgs &a, unsigned int i)
{
    return a.order ? a.order[i] : (unsigned int)((unsigned long long)i * a.step % a.rows);
}

template <int K>
__device__ __forceinline__ void chase_body(const OccSmemArgs a)
{
    static_assert(OCC_SMEM_CHASE_LOADS_PER_TRIP % K == 0, "K divides the trip");
    constexpr int kHops = OCC_SMEM_CHASE_LOADS_PER_TRIP / K;
    probe_start(a.probe);
    const unsigned int lane = threadIdx.x % 32u, warp = threadIdx.x / 32u;
    const unsigned int base = tile_base(), rows = a.rows;
    // Word (r, l) of row r = order[i] holds the address of word (order[i + 1], l).
    for (unsigned int w = threadIdx.x; w < rows * 32u; w += blockDim.x) {
        const unsigned int i = w / 32u, l = w % 32u;
        const unsigned int r = chase_row(a, i), nx = chase_row(a, i + 1 == rows ? 0 : i + 1);
        smem_tile[r * 32u + l] = base + 4u * (nx * 32u + l);
    }
    __syncthreads();
    unsigned int p[K];
#pragma unroll
    for (int k = 0; k < K; k++) {
        const unsigned long long c = (unsigned long long)warp * K + k;
        p[k] = base + 4u * (chase_row(a, (unsigned int)(c * a.chain_spacing % rows)) * 32u + lane);
    }
    const unsigned int ran =
        occ_claimed_trips(a.claim, a.total_trips, a.chunk_trips, [&](unsigned int n) {
#pragma unroll 1
            for (unsigned int t = 0; t < n; t++) {
#pragma unroll
                for (int h = 0; h < kHops; h++)
#pragma unroll
                    for (int k = 0; k < K; k++) p[k] = lds(p[k]);
            }
        });
    const unsigned int thread = occ_thread_fresh();
#pragma unroll
    for (int k = 0; k < K; k++) a.out[(size_t)thread * K + k] = (p[k] - base) / 4u;
    if (lane == 0) a.warp_trips[thread / 32u] = ran;
    occ_claims_finish(a.claim, a.warps_done);
    probe_end(a.probe);
}

// V-byte vectors of 4-byte words: load, store, first word, sum of words.
template <int V> struct Vec;
template <> struct Vec<4> {
    typedef unsigned int T;
    template <int Off> static __device__ __forceinline__ T ld(unsigned int addr)
    {
        T v;
        asm volatile("ld.volatile.shared.u32 %0, [%1+%2];" : "=r"(v) : "r"(addr), "n"(Off));
        return v;
    }
    template <int Off> static __device__ __forceinline__ void st(unsigned int addr, T v)
    {
        asm volatile("st.shared.u32 [%0+%1], %2;" ::"r"(addr), "n"(Off), "r"(v));
    }
    static __device__ __forceinline__ unsigned int first(T v) { return v; }
    static __device__ __forceinline__ unsigned int sum(T v) { return v; }
};
template <> struct Vec<8> {
    typedef uint2 T;
    template <int Off> static __device__ __forceinline__ T ld(unsigned int addr)
    {
        T v;
        asm volatile("ld.volatile.shared.v2.u32 {%0, %1}, [%2+%3];"
                     : "=r"(v.x), "=r"(v.y)
                     : "r"(addr), "n"(Off));
        return v;
    }
    template <int Off> static __device__ __forceinline__ void st(unsigned int addr, T v)
    {
        asm volatile("st.shared.v2.u32 [%0+%1], {%2, %3};" ::"r"(addr), "n"(Off), "r"(v.x),
                     "r"(v.y));
    }
    static __device__ __forceinline__ unsigned int first(T v) { return v.x; }
    static __device__ __forceinline__ unsigned int sum(T v) { return v.x + v.y; }
};
template <> struct Vec<16> {
    typedef uint4 T;
    template <int Off> static __device__ __forceinline__ T ld(unsigned int addr)
    {
        T v;
        asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4+%5];"
                     : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                     : "r"(addr), "n"(Off));
        return v;
    }
    template <int Off> static __device__ __forceinline__ void st(unsigned int addr, T v)
    {
        asm volatile("st.shared.v4.u32 [%0+%1], {%2, %3, %4, %5};" ::"r"(addr), "n"(Off),
                     "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w));
    }
    static __device__ __forceinline__ unsigned int first(T v) { return v.x; }
    static __device__ __forceinline__ unsigned int sum(T v) { return (v.x + v.y) + (v.z + v.w); }
};

// Bytes of one region (A or B) of the stream tile.
template <int V> constexpr int kRegion = OCC_SMEM_STREAM_SLOTS * 32 * V;

// The loads (and rw stores) of round J: loads J x U .. J x U + U - 1 of the trip, load q at slot
// q mod the slots (immediate offsets from one address register).
template <int RW, int U, int V, int J, int I = 0>
struct Round {
    static __device__ __forceinline__ void load(unsigned int addr, typename Vec<V>::T (&v)[U])
    {
        constexpr int kOff = ((J * U + I) % OCC_SMEM_STREAM_SLOTS) * 32 * V;
        v[I] = Vec<V>::template ld<kOff>(addr);
        Round<RW, U, V, J, I + 1>::load(addr, v);
    }
    static __device__ __forceinline__ void store(unsigned int addr, typename Vec<V>::T (&v)[U])
    {
        constexpr int kOff = ((J * U + I) % OCC_SMEM_STREAM_SLOTS) * 32 * V;
        Vec<V>::template st<kRegion<V> + kOff>(addr, v[I]);
        Round<RW, U, V, J, I + 1>::store(addr, v);
    }
};
template <int RW, int U, int V, int J> struct Round<RW, U, V, J, U> {
    static __device__ __forceinline__ void load(unsigned int, typename Vec<V>::T (&)[U]) {}
    static __device__ __forceinline__ void store(unsigned int, typename Vec<V>::T (&)[U]) {}
};

// acc + t + the vector's words, t first: every add reads t or a sum that does, so no word is
// read before t exists; ptxas fuses the chain into IADD3s.
__device__ __forceinline__ unsigned int add_held(unsigned int acc, unsigned int t, unsigned int v)
{
    unsigned int r;
    asm("{\n\tadd.u32 %0, %1, %2;\n\tadd.u32 %0, %0, %3;\n\t}"
        : "=r"(r)
        : "r"(t), "r"(v), "r"(acc));
    return r;
}
__device__ __forceinline__ unsigned int add_held(unsigned int acc, unsigned int t, uint2 v)
{
    unsigned int r;
    asm("{\n\tadd.u32 %0, %1, %2;\n\tadd.u32 %0, %0, %3;\n\tadd.u32 %0, %0, %4;\n\t}"
        : "=r"(r)
        : "r"(t), "r"(v.x), "r"(v.y), "r"(acc));
    return r;
}
__device__ __forceinline__ unsigned int add_held(unsigned int acc, unsigned int t, uint4 v)
{
    unsigned int r;
    asm("{\n\tadd.u32 %0, %1, %2;\n\tadd.u32 %0, %0, %3;\n\tadd.u32 %0, %0, %4;\n\t"
        "add.u32 %0, %0, %5;\n\tadd.u32 %0, %0, %6;\n\t}"
        : "=r"(r)
        : "r"(t), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w), "r"(acc));
    return r;
}

// Round J of a trip and the rounds after it (see the top of the file).
template <int RW, int U, int V, int J = 0> struct Trip {
    static __device__ __forceinline__ void run(unsigned int &addr, unsigned int base,
                                               unsigned int zero, unsigned int (&acc)[U])
    {
        typename Vec<V>::T v[U];
        Round<RW, U, V, J>::load(addr, v);
        const unsigned int t = Vec<V>::first(v[U - 1]) & zero;
        addr = base | t;
        if (RW) Round<RW, U, V, J>::store(addr, v);
        if (U == 1)
            acc[0] += Vec<V>::sum(v[0]); // one load: its use cannot come before the others
        else
#pragma unroll
            for (int u = 0; u < U; u++) acc[u] = add_held(acc[u], t, v[u]);
        Trip<RW, U, V, J + 1>::run(addr, base, zero, acc);
    }
};
template <int RW, int U, int V> struct Trip<RW, U, V, OCC_SMEM_STREAM_LOADS_PER_TRIP / U> {
    static __device__ __forceinline__ void run(unsigned int &, unsigned int, unsigned int,
                                               unsigned int (&)[U])
    {
    }
};

template <int RW, int U, int V>
__device__ __forceinline__ void stream_body(const OccSmemArgs a)
{
    static_assert(OCC_SMEM_STREAM_LOADS_PER_TRIP % U == 0, "U divides the trip");
    static_assert(OCC_SMEM_STREAM_LOADS_PER_TRIP % OCC_SMEM_STREAM_SLOTS == 0,
                  "every slot is read equally often per trip");
    probe_start(a.probe);
    const unsigned int lane = threadIdx.x % 32u;
    constexpr unsigned int kWords = kRegion<V> / 4;
    for (unsigned int w = threadIdx.x; w < kWords; w += blockDim.x) {
        smem_tile[w] = occ_smem_word(a.seed, w);
        if (RW) smem_tile[kWords + w] = 0u;
    }
    __syncthreads();
    const unsigned int base = tile_base() + lane * V, zero = a.hold_zero;
    unsigned int addr = base;
    unsigned int acc[U];
#pragma unroll
    for (int u = 0; u < U; u++) acc[u] = 0;
    const unsigned int ran =
        occ_claimed_trips(a.claim, a.total_trips, a.chunk_trips, [&](unsigned int n) {
#pragma unroll 1
            for (unsigned int t = 0; t < n; t++) Trip<RW, U, V>::run(addr, base, zero, acc);
        });
    // rw: this thread's own store of slot 0 (other warps store the same value there).
    if (RW && ran) acc[0] += Vec<V>::sum(Vec<V>::template ld<kRegion<V>>(addr));
    unsigned int sum = 0;
#pragma unroll
    for (int u = 0; u < U; u++) sum += acc[u];
    const unsigned int thread = occ_thread_fresh();
    a.out[thread] = sum;
    if (lane == 0) a.warp_trips[thread / 32u] = ran;
    occ_claims_finish(a.claim, a.warps_done);
    probe_end(a.probe);
}

#define OCC_SMEM_ENTRY(name, body)                                                                 \
    extern "C" __global__ void OCC_LB_0 occsweep_##name(const OccSmemArgs a) { body(a); }          \
    extern "C" cudaError_t occ_launch_##name(const OccLaunch *l, const OccSmemArgs *a)            \
    {                                                                                              \
        occsweep_##name<<<l->grid_blocks, l->block_threads, l->dyn_smem_bytes, l->stream>>>(*a);   \
        return cudaGetLastError();                                                                 \
    }                                                                                              \
    extern "C" const void *occ_kernel_##name(void)                                                 \
    {                                                                                              \
        return reinterpret_cast<const void *>(occsweep_##name);                                    \
    }

#define DEFINE_SMEM_CHASE(k) OCC_SMEM_ENTRY(smem_chase_k##k, chase_body<k>)
OCC_SMEM_CHASE_VARIANTS(DEFINE_SMEM_CHASE)
#define DEFINE_SMEM_STREAM(mode, rw, u, v)                                                         \
    OCC_SMEM_ENTRY(smem_##mode##_u##u##_v##v, (stream_body<rw, u, v>))
OCC_SMEM_STREAM_VARIANTS(DEFINE_SMEM_STREAM)
