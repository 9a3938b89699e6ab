/* SPDX-License-Identifier: Apache-2.0 */
/* kernels/smem_mma.h: the C API of the shared-memory (smem) and warp-level tensor-core (mma)
 * families (kernels/smem.cu, kernels/mma.cu), in api.h's conventions: plain C structs, extern "C"
 * launchers that return the launch's cudaError_t, const void * kernel handles. The closed forms
 * the host checks results against, and the constants of a trip, are in smem_mma_forms.h (no CUDA
 * type: the pure harness includes it on a machine without a GPU).
 *
 * Both families share work out like the fma family (OccFmaArgs): a launch has total_trips warp
 * trips; lane 0 of every warp claims chunk_trips of them at a time from *claim until none is left
 * (so every warp, hence every block, stays resident to the end of the launch and the set
 * occupancy holds throughout), and each warp stores the trips it ran at warp_trips[warp]; the
 * launch's last warp resets *claim and *warps_done to 0. The closed forms below are in terms of
 * those per-warp trips. Blocks of a multiple of 32 threads, up to OCC_LB_MAX_THREADS; any grid. */
#ifndef OCC_KERNELS_SMEM_MMA_H
#define OCC_KERNELS_SMEM_MMA_H

#include <stddef.h>

#include "api.h"
#include "families/mma.h"
#include "families/smem.h"
#include "smem_mma_forms.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- smem family ---------------------------------------------------------------------------
 *
 * chase (variants smem_chase_k<K>): a pointer chase inside the block's shared memory. The tile,
 * at the start of dynamic shared memory, is `rows` rows of 32 4-byte words (rows x 128 bytes: the
 * family's own dynamic shared memory; the harness's occupancy padding comes after it). The block
 * builds it from a single cycle through the rows, order[0], order[1], .., order[rows - 1] (the
 * rows in visiting order: order[i + 1] follows order[i], order[0] follows the last): word
 * (r, lane) holds the shared-window byte address of word (next(r), lane), so a hop is one LDS
 * whose address is the value the previous one loaded, and the 32 lanes of a warp always read one
 * row: 32 distinct banks, one wavefront. order == NULL: order[i] = i x step mod rows (step
 * coprime to rows: a single cycle, no host buffer). Chain k of warp w of a block (c = w x K + k)
 * starts at cycle position p0 = c x chain_spacing mod rows and makes OCC_SMEM_CHASE_LOADS_PER_TRIP
 * / K dependent hops per trip; the K chains of a warp are interleaved (K loads in flight per
 * warp). At the end lane l of chain k of global thread i stores, at out[i x K + k], the word index
 * it stopped at (row x 32 + l): occ_smem_chase_end() (smem_mma_forms.h).
 *
 * stream (variants smem_read_u<U>_v<V>, smem_rw_u<U>_v<V>): each thread loads (read) or loads and
 * stores (rw) V-byte vectors of the tile, U independent loads at a time. The tile is region A,
 * OCC_SMEM_STREAM_SLOTS slots of 32 x V bytes (lane l's vector of slot s at byte (s x 32 + l) x V:
 * a warp request is 32 x V contiguous bytes, V / 4 wavefronts, no bank conflict), plus for rw a
 * region B of the same size right after it (occ_smem_stream_tile_bytes). The block fills word j
 * of A with occ_smem_word(seed, j) and B with 0. A trip is OCC_SMEM_STREAM_LOADS_PER_TRIP loads
 * per thread in rounds of U: load q (0-based within the trip) reads slot q mod
 * OCC_SMEM_STREAM_SLOTS; the next round's addresses and every use of this round's loads depend
 * (through `hold_zero`, which must be 0) on the first word of the round's last load, so exactly
 * U loads are in flight per thread before the first use and no round can start early (smem.cu).
 * rw stores every loaded vector, unchanged, to the same slot of B. Every loaded word is added
 * (mod 2^32) into the thread's checksum; rw threads whose warp ran >= 1 trip finally load their
 * slot-0 vector of B once and add its words too (their own store's value, so no barrier is
 * needed). Thread i stores its checksum at out[i]: occ_smem_stream_checksum(). */

/* The smem chase variants: X(K), K independent chains per warp. Name smem_chase_k<K>. The
 * stream variants: X(mode, RW, U, V), mode read (RW 0) or rw (RW 1). Name smem_<mode>_u<U>_v<V>.
 * (Listed in kernels/families/smem.h: OCC_SMEM_CHASE_VARIANTS, OCC_SMEM_STREAM_VARIANTS.) */

typedef struct OccSmemArgs {
    unsigned int *out;          /* chase: grid x block x K words; stream: grid x block words */
    unsigned int *warp_trips;   /* grid x block / 32 counts: the trips each warp ran */
    unsigned int total_trips;   /* warp trips of the launch, >= 1 */
    unsigned int chunk_trips;   /* trips per claim, >= 1 */
    unsigned long long *claim;  /* 0 before the first launch; the launch's last warp resets it */
    unsigned int *warps_done;   /* 0 before the first launch; the launch's last warp resets it */
    unsigned long long *probe;  /* NULL, or the residency probe (OCC_PROBE_WORDS per block) */
    /* chase only */
    const unsigned int *order;  /* rows entries (device memory), the cycle in visiting order;
                                   NULL: order[i] = i x step mod rows */
    unsigned int rows;          /* rows of the tile, >= 1; rows x 128 <= dynamic shared memory */
    unsigned int step;          /* order == NULL: the cycle's step, coprime to rows */
    unsigned int chain_spacing; /* cycle positions between consecutive chains' starts */
    /* stream only */
    unsigned int seed;          /* region A word j = occ_smem_word(seed, j) */
    unsigned int hold_zero;     /* must be 0 (a value the compiler cannot see: see above) */
} OccSmemArgs;

typedef cudaError_t (*OccSmemLaunchFn)(const OccLaunch *launch, const OccSmemArgs *args);

#define OCC_DECLARE_SMEM_CHASE(k)                                                                  \
    cudaError_t occ_launch_smem_chase_k##k(const OccLaunch *launch, const OccSmemArgs *args);     \
    const void *occ_kernel_smem_chase_k##k(void);
OCC_SMEM_CHASE_VARIANTS(OCC_DECLARE_SMEM_CHASE)
#undef OCC_DECLARE_SMEM_CHASE
#define OCC_DECLARE_SMEM_STREAM(mode, rw, u, v)                                                    \
    cudaError_t occ_launch_smem_##mode##_u##u##_v##v(const OccLaunch *launch,                     \
                                                     const OccSmemArgs *args);                     \
    const void *occ_kernel_smem_##mode##_u##u##_v##v(void);
OCC_SMEM_STREAM_VARIANTS(OCC_DECLARE_SMEM_STREAM)
#undef OCC_DECLARE_SMEM_STREAM

/* ---- mma family ----------------------------------------------------------------------------
 *
 * mma_<type>_u<U>: each warp runs U independent accumulators C_u = A x B + C_u of warp-level
 * mma.sync (inline PTX; one HMMA / DMMA instruction per mma on sm_80, sm_90 and sm_100), a trip
 * being OCC_MMA_PER_TRIP mma per warp (OCC_MMA_PER_TRIP / U steps of the U accumulators,
 * interleaved), fully unrolled, the trip loop rolled. Every A element is `a` and every B element
 * `b` (kernel arguments, converted to the input type once per thread; the instruction cannot be
 * folded or hoisted: inline asm volatile with register operands), so each mma adds K x a x b to
 * every element of C (K the instruction's depth). Accumulator u of global thread i starts with
 * all its elements occ_fma_start(i, u) (fma_chain.h); after its warp ran T trips each element is
 * occ_mma_expected(): exact while it stays below 2^24 for the fp32 accumulators (2^53 for fp64):
 * with a = b = 1, T x OCC_MMA_PER_TRIP / U x K + 64 < 2^24, i.e. T < 2^18 x U / K
 * (occ_mma_max_trips; a warp may run more than its share of the claims, so size the share well
 * below). Thread i stores accumulator u's elements at out[(i x U + u) x E + e] (float, E = 4, or
 * double, E = 2 for f64).
 *
 *   type  PTX                                               K   FLOP/mma  elements/thread
 *   f16   mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32   16  4096      4 float
 *   bf16  mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 16  4096      4 float
 *   tf32  mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32  8   2048      4 float
 *   f64   mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64     4   512       2 double
 * (FLOP = 2 x M x N x K per warp instruction.) */

typedef struct OccMmaArgs {
    void *out;                  /* grid x block x U x E elements (float; double for f64) */
    unsigned int *warp_trips;   /* grid x block / 32 counts: the trips each warp ran */
    double a, b;                /* every A and B element (exact in the input type: 1.0) */
    unsigned int total_trips;   /* warp trips of the launch, >= 1 */
    unsigned int chunk_trips;   /* trips per claim, >= 1 */
    unsigned long long *claim;  /* 0 before the first launch; the launch's last warp resets it */
    unsigned int *warps_done;   /* 0 before the first launch; the launch's last warp resets it */
    unsigned long long *probe;  /* NULL, or the residency probe (OCC_PROBE_WORDS per block) */
    unsigned long long *clock_words; /* NULL, or two counters to which block 0 adds its SM cycles
                                   and %globaltimer ns over its trips (kernels/clock_span.cuh) */
} OccMmaArgs;

typedef cudaError_t (*OccMmaLaunchFn)(const OccLaunch *launch, const OccMmaArgs *args);

#define OCC_DECLARE_MMA(t, k, flop, acc, peak, u)                                                  \
    cudaError_t occ_launch_mma_##t##_u##u(const OccLaunch *launch, const OccMmaArgs *args);       \
    const void *occ_kernel_mma_##t##_u##u(void);
OCC_MMA_VARIANTS(OCC_DECLARE_MMA)
#undef OCC_DECLARE_MMA

#ifdef __cplusplus
}
#endif

#ifdef __CUDACC__
#include "claims.cuh"

/* The global thread index, read afresh from the special registers (asm volatile, so the compiler
 * does not keep the value from before the trip loop live across it: ptxas spilled it to the
 * stack in mma_f64_u2 on sm_90 rather than read it again). */
__device__ __forceinline__ unsigned int occ_thread_fresh()
{
    unsigned int tid, ctaid, ntid;
    asm volatile("mov.u32 %0, %%tid.x;" : "=r"(tid));
    asm volatile("mov.u32 %0, %%ctaid.x;" : "=r"(ctaid));
    asm volatile("mov.u32 %0, %%ntid.x;" : "=r"(ntid));
    return ctaid * ntid + tid;
}
#endif

#endif
