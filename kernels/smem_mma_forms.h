/* SPDX-License-Identifier: Apache-2.0 */
/* kernels/smem_mma_forms.h: the trip constants of the smem and mma families and the closed forms
 * their results are checked against (the layouts and the work sharing they assume are described
 * in smem_mma.h), shared by the kernels (C++) and the pure harness (C). No CUDA type: the pure
 * side includes it on machines without a GPU. */
#ifndef OCC_SMEM_MMA_FORMS_H
#define OCC_SMEM_MMA_FORMS_H

#include <stddef.h>

#include "fma_chain.h"

#ifdef __CUDACC__
#define OCC_FORMS_HOST_DEVICE __host__ __device__
#else
#define OCC_FORMS_HOST_DEVICE
#endif

/* Loads per warp per trip of a chase variant: K chains x OCC_SMEM_CHASE_LOADS_PER_TRIP / K hops. */
#define OCC_SMEM_CHASE_LOADS_PER_TRIP 64
/* The chase tile the harness should give (rows x 128 bytes = 4 KiB: 32 blocks of it fit an
 * sm_80/sm_90/sm_100 SM with its 1 KiB per-block reservation). Any rows in 1..65536 works if the
 * launch's dynamic shared memory holds rows x 128 bytes. */
#define OCC_SMEM_CHASE_ROWS 32
/* Loads per thread per trip of a stream variant (32 / U rounds of U). */
#define OCC_SMEM_STREAM_LOADS_PER_TRIP 32
/* Slots of region A (and B): 8 x 32 x V bytes = 1, 2 or 4 KiB per region. */
#define OCC_SMEM_STREAM_SLOTS 8

/* mma per warp per trip (U accumulators x OCC_MMA_PER_TRIP / U steps). */
#define OCC_MMA_PER_TRIP 64

/* Bytes of the stream tile of a variant: the family's own dynamic shared memory. */
static inline size_t occ_smem_stream_tile_bytes(int rw, int vec_bytes)
{
    return (size_t)(rw ? 2 : 1) * OCC_SMEM_STREAM_SLOTS * 32u * (size_t)vec_bytes;
}

/* Shared-memory bytes a stream launch moves (loads, plus stores for rw) in its trips: the tile
 * fill and the rw read-back (one vector per thread) are not counted. */
static inline unsigned long long occ_smem_stream_bytes(unsigned long long total_trips, int rw,
                                                       int vec_bytes)
{
    return total_trips * 32ull * OCC_SMEM_STREAM_LOADS_PER_TRIP * (unsigned long long)vec_bytes *
           (rw ? 2ull : 1ull);
}

/* Shared-memory bytes a chase launch loads: 128 per warp hop (one row). */
static inline unsigned long long occ_smem_chase_bytes(unsigned long long total_trips)
{
    return total_trips * OCC_SMEM_CHASE_LOADS_PER_TRIP * 128ull;
}

/* Word j of the stream tile's region A (a 32-bit integer hash of j and the seed). */
static inline OCC_FORMS_HOST_DEVICE unsigned int occ_smem_word(unsigned int seed, unsigned int j)
{
    unsigned int x = j * 0x9E3779B1u ^ seed;
    x ^= x >> 15;
    x *= 0x2C1B3C6Du;
    x ^= x >> 12;
    return x;
}

/* The checksum thread `lane` (0..31) of a stream variant stores after its warp ran `trips` trips:
 * per trip every slot is read OCC_SMEM_STREAM_LOADS_PER_TRIP / OCC_SMEM_STREAM_SLOTS times (load
 * q reads slot q mod the slots, q = 0..31), so trips x that x the lane's words of all slots, plus
 * for rw with trips >= 1 the lane's words of slot 0 (the read-back). Mod 2^32, exact. */
static inline unsigned int occ_smem_stream_checksum(unsigned int seed, int rw, int vec_bytes,
                                                    unsigned int lane, unsigned int trips)
{
    const unsigned int words = (unsigned int)vec_bytes / 4u;
    unsigned int per_pass = 0, slot0 = 0;
    for (unsigned int s = 0; s < OCC_SMEM_STREAM_SLOTS; s++)
        for (unsigned int e = 0; e < words; e++) {
            const unsigned int w = occ_smem_word(seed, (s * 32u + lane) * words + e);
            per_pass += w;
            if (s == 0) slot0 += w;
        }
    const unsigned int passes = OCC_SMEM_STREAM_LOADS_PER_TRIP / OCC_SMEM_STREAM_SLOTS;
    return trips * passes * per_pass + (rw && trips ? slot0 : 0u);
}

/* Row at cycle position p of the chase's cycle (order NULL: p x step mod rows). */
static inline unsigned int occ_smem_chase_row(const unsigned int *order, unsigned int rows,
                                              unsigned int step, unsigned long long p)
{
    const unsigned int at = (unsigned int)(p % rows);
    return order ? order[at] : (unsigned int)((unsigned long long)at * step % rows);
}

/* The word index chain k (of K) of thread `thread_in_block` stops at after its warp ran `trips`
 * trips: the row at position c x chain_spacing + trips x OCC_SMEM_CHASE_LOADS_PER_TRIP / K of the
 * cycle (c = warp x K + k), x 32, + lane. order is the host's copy of OccSmemArgs.order. */
static inline unsigned int occ_smem_chase_end(const unsigned int *order, unsigned int rows,
                                              unsigned int step, unsigned int chain_spacing,
                                              int K, unsigned int thread_in_block, int k,
                                              unsigned int trips)
{
    const unsigned long long c = (unsigned long long)(thread_in_block / 32u) * (unsigned)K +
                                 (unsigned)k;
    const unsigned long long p =
        c * chain_spacing + (unsigned long long)trips * (OCC_SMEM_CHASE_LOADS_PER_TRIP / K);
    return occ_smem_chase_row(order, rows, step, p) * 32u + thread_in_block % 32u;
}

/* What every element of accumulator u of global thread `thread` holds after its warp ran `trips`
 * trips of a variant with U accumulators and depth K (16, 8 or 4). */
static inline double occ_mma_expected(unsigned int thread, int u, int U, int K, double a,
                                      double b, unsigned int trips)
{
    return occ_fma_start(thread, u) + (double)trips * (OCC_MMA_PER_TRIP / U) * K * a * b;
}

/* The most trips per warp that keep fp32 accumulators exact with a = b = 1. */
static inline unsigned int occ_mma_max_trips(int U, int K)
{
    return (unsigned int)(((1u << 24) - 64u) / ((unsigned)(OCC_MMA_PER_TRIP / U) * (unsigned)K));
}

#endif
