/* SPDX-License-Identifier: Apache-2.0 */
/* kernels/api.h: the C API of occsweep's CUDA kernels. Only this header (with the family
 * descriptors it includes, kernels/families/<family>.h, and variants.h) crosses from kernels/ into
 * harness/ and bench/: plain C structs, extern "C" launchers that return the
 * launch's cudaError_t (they never print or exit), and const void * kernel handles for
 * cudaFuncGetAttributes / cudaFuncSetAttribute / the occupancy API. */
#ifndef OCC_KERNELS_API_H
#define OCC_KERNELS_API_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#include "families/chase.h"
#include "families/copy.h"
#include "families/fma.h"
#include "families/mixed.h"
#include "families/reduce.h"
#include "fma_chain.h"
#include "variants.h"

#ifdef __CUDACC__
#define OCC_HOST_DEVICE __host__ __device__
#else
#define OCC_HOST_DEVICE
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* How one kernel is launched. */
typedef struct OccLaunch {
    int grid_blocks;       /* blocks in the grid (the sweep uses blocks_per_sm x SMs: one wave) */
    int block_threads;     /* threads per block, a multiple of 32, at most OCC_LB_MAX_THREADS */
    size_t dyn_smem_bytes; /* dynamic shared memory per block: the occupancy padding */
    cudaStream_t stream;   /* stream to launch on (the sweep's non-default stream) */
} OccLaunch;

/* How a streaming launch shares its work among blocks (kernels/vec.cuh, stream_walk). The buffer
 * is cut into chunks of chunk_trips trips of a block (block_threads x U vectors each); block b
 * starts with chunk b. */
typedef struct OccSchedule {
    unsigned long long *claim; /* NULL: static: block b does chunk b only (chunk_trips must be
                                  occ_schedule_static_trips so that the grid covers the buffer);
                                  else dynamic: blocks then claim chunks from this counter, 0
                                  before the first launch (the last block of each launch resets
                                  it) */
    unsigned int *done;        /* dynamic: blocks finished, 0 before the first launch (reset
                                  with claim) */
    unsigned int chunk_trips;  /* trips per chunk, >= 1 */
} OccSchedule;

/* The chunk_trips of a static schedule: the grid's equal contiguous shares of a buffer of
 * n_floats floats read in vec_bytes-byte vectors, U per thread per trip. */
static inline unsigned int occ_schedule_static_trips(size_t n_floats, int vec_bytes,
                                                     int grid_blocks, int block_threads,
                                                     int unroll)
{
    const size_t n_vec = n_floats / (size_t)(vec_bytes / 4);
    const size_t trip = (size_t)block_threads * (size_t)unroll;
    const size_t trips = (n_vec + trip - 1) / trip;
    const size_t share = (trips + (size_t)grid_blocks - 1) / (size_t)grid_blocks;
    return share > 0 ? (unsigned int)share : 1u;
}

/* Buffers of the streaming families. All pointers come from cudaMalloc (256-byte aligned). */
typedef struct OccStreamArgs {
    const float *in;             /* input, n_floats elements */
    float *out;                  /* copy: output, n_floats elements; unused by reduce */
    size_t n_floats;             /* elements of 4 bytes; any count (tails are handled) */
    float *block_sums;           /* reduce: grid_blocks floats of scratch */
    unsigned int *blocks_done;   /* reduce: a counter that is 0 before the first launch; the last
                                    block of each launch resets it to 0 */
    float *sum;                  /* reduce: the total, written by the last block to finish */
    unsigned long long *probe;   /* NULL, or OCC_PROBE_WORDS words per block: see below */
    OccSchedule sched;           /* how the blocks share the buffer */
    float fma_step;              /* mixed: each loaded float x goes through A steps of
                                    x = x * fma_step + fma_step (fmaf); unused by copy and
                                    reduce */
    unsigned long long *clock_words; /* reduce and mixed: NULL, or two counters to which block 0
                                    adds its SM cycles and %globaltimer ns over its walk
                                    (kernels/clock_span.cuh); unused by copy */
} OccStreamArgs;

/* The residency probe of an (untimed) instrumented launch: thread 0 of block b writes
 * probe[3b] = the SM it runs on (%smid), probe[3b + 1] = %globaltimer when the block starts and
 * probe[3b + 2] = %globaltimer when all its threads are done. */
#define OCC_PROBE_WORDS 3

/* Claim counters a launch spreads its claims over (OccChaseArgs.claim_groups at most), each in a
 * 128-byte line of its own (OCC_CLAIM_STRIDE_BYTES apart), so no one L2 address serves every
 * warp's claims. */
#define OCC_CLAIM_GROUPS_MAX 32
#define OCC_CLAIM_STRIDE_BYTES 128

/* Buffers of the pointer-chase throughput kernels. The footprint is a sequence of lines of
 * line_words 4-byte words; every word of line i holds the word index of the next line of a random
 * single cycle through all lines (next[i] x line_words). Chain c of a launch starts at position
 * (c x chain_spacing + shift) mod n_lines of the cycle. A warp trip is one dependent hop of each
 * of the warp's chains (K in warp mode, 32 x K in thread mode). Warp w claims its trips
 * chunk_trips at a time from counter w mod claim_groups, whose warps share trips_per_warp trips
 * each, so every warp walks to the end of the launch and a chain walks on past its stretch when
 * its SM is served faster; the warp stores its chains' final word indices and the trips it ran. */
typedef struct OccChaseArgs {
    const unsigned int *lines;  /* n_lines x line_words words */
    const unsigned int *order;  /* the cycle's lines in visiting order, n_lines entries */
    size_t n_lines;             /* lines in the footprint */
    unsigned int line_words;    /* 32 (128-byte lines, warp mode) or 8 (32-byte lines, thread
                                   mode) */
    size_t chain_spacing;       /* positions along the cycle between consecutive chains' starts */
    size_t shift;               /* rotation of all start points (changed per launch) */
    unsigned int trips_per_warp; /* mean warp trips per warp, so hops per chain */
    unsigned int chunk_trips;   /* trips per claim, >= 1 */
    unsigned int claim_groups;  /* counters in use, 1 .. OCC_CLAIM_GROUPS_MAX */
    unsigned int *ends;         /* per chain: the word index where it stopped */
    unsigned int *warp_trips;   /* per warp: the trips it ran */
    unsigned int *claim;        /* claim_groups counters, OCC_CLAIM_STRIDE_BYTES apart; 0 before
                                   the first launch, the launch's last warp resets them */
    unsigned int *warps_done;   /* 0 before the first launch; the launch's last warp resets it */
    unsigned long long *probe;  /* NULL, or the residency probe (OCC_PROBE_WORDS per block) */
} OccChaseArgs;

/* Arguments of the fma family: each thread runs U independent chains x[u] = x[u] * step + step
 * (fmaf / fma, no other operation; both operands the same register, see fma_chain.h), starting at
 * occ_fma_start(thread, u) (fma_chain.h). The launch's total_trips warp trips are shared out
 * dynamically: each warp claims chunk_trips trips at a time from *claim until none is left (so
 * every warp stays busy to the end and the set occupancy holds for the whole launch), running
 * OCC_FMA_PER_TRIP / U steps of its chains per trip; then it stores chain u of global thread i
 * at out[i x U + u] (float for fp32, double for fp64) and the trips it ran at warp_trips[i / 32].
 * The block size must be a multiple of 32. */
typedef struct OccFmaArgs {
    void *out;                  /* grid x block x U elements of the variant's type */
    unsigned int *warp_trips;   /* grid x block / 32 counts: the trips each warp ran */
    double step;                /* the recurrence's constant (converted to the type) */
    unsigned int total_trips;   /* warp trips of the launch, >= 1 */
    unsigned int chunk_trips;   /* trips per claim, >= 1 */
    unsigned long long *claim;  /* 0 before the first launch; the launch's last warp resets it */
    unsigned int *warps_done;   /* 0 before the first launch; the launch's last warp resets it */
    unsigned long long *probe;  /* NULL, or the residency probe (OCC_PROBE_WORDS per block) */
    unsigned long long *clock_words; /* NULL, or two counters to which block 0 adds its SM cycles
                                   and %globaltimer ns over its trips (kernels/clock_span.cuh) */
} OccFmaArgs;

/* A launcher of one compiled variant. */
typedef cudaError_t (*OccStreamLaunchFn)(const OccLaunch *launch, const OccStreamArgs *args);
typedef cudaError_t (*OccChaseLaunchFn)(const OccLaunch *launch, const OccChaseArgs *args);
typedef cudaError_t (*OccFmaLaunchFn)(const OccLaunch *launch, const OccFmaArgs *args);
/* Returns the variant's kernel as a handle for the runtime's function and occupancy APIs. */
typedef const void *(*OccKernelHandleFn)(void);

/* The C API of one compiled variant `name` whose launch takes a const Args *: its launcher
 * occ_launch_<name> and kernel handle occ_kernel_<name>, as the family's .cu defines them
 * (extern "C"). A family's host file expands its descriptor's variant list with it. */
#define OCC_DECLARE_VARIANT(name, Args)                                                            \
    cudaError_t occ_launch_##name(const OccLaunch *launch, const Args *args);                      \
    const void *occ_kernel_##name(void);

#define OCC_DECLARE_STREAM(fam, u, v, lb, sfx)                                                     \
    cudaError_t occ_launch_##fam##_u##u##_v##v##sfx(const OccLaunch *launch,                       \
                                                   const OccStreamArgs *args);                     \
    const void *occ_kernel_##fam##_u##u##_v##v##sfx(void);
OCC_COPY_VARIANTS(OCC_DECLARE_STREAM)
OCC_REDUCE_VARIANTS(OCC_DECLARE_STREAM)
#undef OCC_DECLARE_STREAM
#define OCC_DECLARE_CHASE(mode, k)                                                                 \
    cudaError_t occ_launch_chase_##mode##_k##k(const OccLaunch *launch, const OccChaseArgs *args); \
    const void *occ_kernel_chase_##mode##_k##k(void);
OCC_CHASE_VARIANTS(OCC_DECLARE_CHASE)
#undef OCC_DECLARE_CHASE

#define OCC_DECLARE_FMA(t, bytes, u)                                                               \
    cudaError_t occ_launch_fma_##t##_u##u(const OccLaunch *launch, const OccFmaArgs *args);       \
    const void *occ_kernel_fma_##t##_u##u(void);
OCC_FMA_VARIANTS(OCC_DECLARE_FMA)
#undef OCC_DECLARE_FMA
#define OCC_DECLARE_MIXED(a)                                                                       \
    cudaError_t occ_launch_mixed_a##a(const OccLaunch *launch, const OccStreamArgs *args);        \
    const void *occ_kernel_mixed_a##a(void);
OCC_MIXED_VARIANTS(OCC_DECLARE_MIXED)
#undef OCC_DECLARE_MIXED

/* What the entries of a chase footprint's lines hold: how a load finds the next line. */
typedef enum OccChaseLink {
    OCC_CHASE_ADDRESS, /* 8-byte entries: the device address of the next line's first byte; a hop
                          is one load whose address is the previous load's value */
    OCC_CHASE_INDEX4,  /* 4-byte entries: the word index of the next line (next x line_words); a
                          hop adds the index arithmetic to the load */
    OCC_CHASE_INDEX8,  /* 8-byte entries: the 8-byte index of the next line
                          (next x line_words / 2) */
} OccChaseLink;

/* Writes the footprint's lines: line i is line_words 4-byte words (even for the 8-byte links),
 * and every entry of it holds `link`'s value for line next[i] (an address needs the buffer's own
 * base, so the lines are filled on the device). On `stream`. */
cudaError_t occ_chase_fill_lines(unsigned int *lines, const unsigned int *next, size_t n_lines,
                                 unsigned int line_words, OccChaseLink link, cudaStream_t stream);

/* The latency ladder: one thread (lane 0 of one warp) starts at link `start` (what an entry of
 * `lines` holds for the first line: an address, or an index in units of the entry), follows
 * warm_hops dependent loads (warming L1 and L2 inside the same launch), then `segments` timed
 * runs of `hops` loads each, recording SM cycles (clock64) and globaltimer ns per segment into
 * cycles[] and ns[] (device memory, `segments` entries), and the final link in *end. */
cudaError_t occ_chase_latency(const unsigned int *lines, OccChaseLink link,
                              unsigned long long start, int warm_hops, int hops, int segments,
                              long long *cycles, unsigned long long *ns, unsigned long long *end,
                              cudaStream_t stream);
/* The latency kernel of `link`, for cudaFuncSetAttribute. */
const void *occ_kernel_chase_latency(OccChaseLink link);

/* The loaded-latency experiment's histogram: OCC_LOADED_BINS bins of OCC_LOADED_BIN_CYCLES SM
 * cycles per hop each (the last bin holds every longer hop). */
#define OCC_LOADED_BINS 512
#define OCC_LOADED_BIN_CYCLES 16
/* Bound on a background thread's trips (a guard: they end when every probe is done). */
#define OCC_LOADED_MAX_TRIPS (1LL << 24)

/* What one probe (one block) of occ_loaded_latency reports. */
typedef struct OccLoadedProbe {
    unsigned long long end;            /* the link the chase ended at (verify: the host's walk) */
    unsigned long long sum_hop_cycles; /* sum over the timed hops of each hop's SM cycles */
    unsigned long long loop_cycles;    /* SM cycles (clock64) of the whole timed loop */
    unsigned long long loop_ns;        /* globaltimer ns of the same loop (cycles / ns = clock) */
    unsigned long long begin_ns;       /* globaltimer ns as the block's probe and background
                                          began (after the histogram was zeroed) */
    unsigned long long chase_end_ns;   /* globaltimer ns as the probe's chase ended */
    unsigned long long stream_end_ns;  /* globaltimer ns as the background left its walk; the
                                          launch leaves it as it was (zero it before) */
    unsigned int smid;                 /* the SM the block ran on (one probe per SM: residency) */
} OccLoadedProbe;

/* The arguments of occ_loaded_latency (device pointers unless said). */
/* What the background of a load level loads and does with it (the values of OccCurveTraffic,
 * harness/model/loaded_model.h). */
typedef enum OccLoadedTraffic {
    OCC_LOADED_READ = 0,  /* 16-byte vectors, added up: read-only traffic, as reduce makes */
    OCC_LOADED_COPY = 1,  /* ... also stored to stream_dst: read + write traffic, as copy makes */
    OCC_LOADED_GATHER = 2, /* 128-byte lines at random addresses, one per warp and unroll step
                              (lane i loads word i), added up: random-line traffic, as the warp
                              chase makes */
    OCC_LOADED_SECTOR = 3  /* 32-byte sectors at random addresses, one per lane and unroll step
                              (the sector's first word), added up: random-sector traffic, as
                              the thread chase makes */
} OccLoadedTraffic;

typedef struct OccLoadedArgs {
    const unsigned int *stream_buf;     /* background buffer, stream_vecs 16-byte vectors */
    unsigned int *stream_dst;           /* OCC_LOADED_COPY: where the vectors go (stream_vecs) */
    int traffic;                        /* OccLoadedTraffic */
    size_t stream_vecs;                 /* 16-byte vectors in stream_buf */
    int stream_warps;                   /* background warps per block, 0..31 */
    int unroll;                         /* U: loads in flight per background thread: 1, 2 or
                                           4 (read, copy: 16-byte vectors; sector: 4-byte words
                                           of a sector each); 4, 8 or 16 (gather: 4-byte words
                                           of a line each) */
    const unsigned long long *probe_start; /* per block: the first link of its probe's chase */
    int warm_hops;                      /* untimed hops before the timed ones */
    int hops;                           /* timed hops per probe */
    unsigned int *hist;                 /* per block OCC_LOADED_BINS counters, written whole */
    OccLoadedProbe *probes;             /* per block: its probe's figures */
    unsigned int *probes_done;          /* one counter, zeroed before the launch */
    unsigned long long *stream_loads;   /* one counter, zeroed: loads of the background's
                                           threads (16 or 4 bytes each, as traffic says) */
    unsigned long long *stream_sum;     /* one counter, zeroed: sum of the 4-byte words loaded */
    unsigned int *stream_claim;         /* one counter, zeroed: chunks claimed (see below) */
} OccLoadedArgs;

/* One launch of grid_blocks blocks (one per SM: grid_blocks must not exceed the SMs, so that every
 * block is resident) of 32 x (1 + stream_warps) threads. Thread 0 of each block chases addresses
 * from probe_start[block] (warm_hops, then hops timed one by one into the block's histogram);
 * the other warps walk stream_buf in claimed chunks, one trip per chunk: each block claims its
 * next chunk (stream_claim) of (threads - 32) x U vectors, each warp loads U adjacent runs of 32
 * vectors of it (streaming, evict-first loads), adds up the words and, for OCC_LOADED_COPY,
 * stores each vector to the same place in stream_dst; chunks wrap around the buffer, until every
 * probe is done (probes_done == grid_blocks). OCC_LOADED_GATHER claims chunks alike, but each
 * warp loads U lines of the buffer at addresses hashed from (chunk, warp, step) instead, and
 * OCC_LOADED_SECTOR U sectors per lane at addresses hashed from (chunk, warp, step, lane). The
 * background warps meet once per trip to hand the next chunk on: copy traffic after its stores
 * (as copy.cu's walk does), read, gather and sector traffic before using what they loaded
 * (reduce's warps and the chases' never wait for each other's loads). */
cudaError_t occ_loaded_latency(const OccLoadedArgs *a, int grid_blocks, cudaStream_t stream);

/* Fills n_floats elements with the deterministic test pattern occ_pattern_value(seed, i) (below),
 * on the device, asynchronously on `stream`. */
cudaError_t occ_fill_pattern(float *buf, size_t n_floats, unsigned int seed, cudaStream_t stream);

/* Counts the elements of a and b (n_floats each) whose bits differ into *count (device memory,
 * zeroed first). Asynchronous on `stream`. */
cudaError_t occ_count_mismatches(const float *a, const float *b, size_t n_floats,
                                 unsigned long long *count, cudaStream_t stream);

/* The pattern as the host computes it, for verification: a value in [0, 1) that depends on the
 * element index and seed (a 32-bit integer hash, top 24 bits over 2^24, so it is exact in float). */
static inline OCC_HOST_DEVICE float occ_pattern_value(unsigned int seed, size_t i)
{
    unsigned int x = (unsigned int)i * 0x9E3779B1u ^ (unsigned int)(i >> 32) ^ seed;
    x ^= x >> 16;
    x *= 0x7FEB352Du;
    x ^= x >> 15;
    x *= 0x846CA68Bu;
    x ^= x >> 16;
    return (float)(x >> 8) * (1.0f / 16777216.0f);
}

/* The clock watch: one thread spins for window_ns of %globaltimer and writes out[0] = SM cycles
 * elapsed (clock64) and out[1] = ns elapsed (device memory, 2 words). Asynchronous. */
cudaError_t occ_clock_probe(unsigned long long *out, unsigned int window_ns, cudaStream_t stream);

/* The library reference for the reduce roof: cub::DeviceReduce::Sum of n_floats elements into
 * *sum. temp/temp_bytes: scratch from occ_cub_sum_temp_bytes. Asynchronous on `stream`. */
cudaError_t occ_cub_sum_temp_bytes(size_t n_floats, size_t *temp_bytes);
cudaError_t occ_cub_sum(const float *in, size_t n_floats, float *sum, void *temp, size_t temp_bytes,
                        cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
