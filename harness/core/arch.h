/* SPDX-License-Identifier: Apache-2.0 */
/* harness/arch.h: per-architecture limits that decide occupancy, for sm_75 .. sm_120.
 *
 * The numbers are the toolkit's own: the allocation granularities and per-architecture block
 * limits of cuda_occupancy.h (CUDA 13.0), and the "Technical Specifications per Compute
 * Capability" table of the CUDA programming guide. `--arch` uses this table when no GPU is
 * present; on a GPU the device attributes are the authority. Pure C: no CUDA header. */
#ifndef OCC_ARCH_H
#define OCC_ARCH_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Most carveout steps of any arch in the table. */
#define OCC_MAX_CARVEOUTS 12

/* The limits of one compute capability. Counts are per SM unless the name says otherwise. */
typedef struct OccArchLimits {
    const char *name;                  /* "sm_90" */
    int cc_major, cc_minor;            /* compute capability, e.g. 9 and 0 */
    int warp_size;                     /* threads per warp: 32 */
    int max_threads_per_sm;            /* resident threads per SM */
    int max_warps_per_sm;              /* resident warps per SM (max_threads_per_sm / warp_size) */
    int max_blocks_per_sm;             /* resident blocks per SM, whatever their size */
    int max_threads_per_block;         /* threads per block: 1024 */
    int regs_per_sm;                   /* 32-bit registers per SM: 65536 */
    int reg_alloc_unit;                /* registers per warp are allocated in units of this (256) */
    int max_regs_per_thread;           /* most registers the compiler gives a thread: 255 */
    int smem_per_sm_bytes;             /* shared memory per SM with the carveout at maximum shared
                                          (sm_90: 233472 = 228 KB) */
    int smem_per_block_optin_bytes;    /* most shared memory (static + dynamic) one block may use
                                          after opting in (sm_90: 232448 = 227 KB) */
    int smem_reserved_per_block_bytes; /* shared memory the driver reserves for each resident
                                          block (1024 on sm_80+, 0 on sm_75) */
    int smem_alloc_unit_bytes;         /* a block's shared memory (reserved included) is rounded
                                          up to a multiple of this: 256 on sm_75, 128 on sm_80+ */
    int l1_smem_sram_bytes;            /* combined L1 + shared memory SRAM per SM (sm_90: 262144);
                                          what the carveout leaves to L1 is this minus the shared
                                          part */
    int n_smem_carveouts;              /* entries used in smem_carveouts_kib */
    int smem_carveouts_kib[OCC_MAX_CARVEOUTS]; /* the shared memory sizes per SM the carveout
                                          can select, KiB, ascending; the last is
                                          smem_per_sm_bytes / 1024 (sm_90: 0, 8, 16, 32, 64,
                                          100, 132, 164, 196, 228) */
    int fma_fp32_per_sm_clk;           /* fp32 FMAs the SM completes per clock (sm_90: 128) */
    int fma_fp64_per_sm_clk;           /* fp64 FMAs per SM per clock (sm_90: 64); 0 unknown */
    int smem_bytes_per_sm_clk;         /* shared-memory bytes per SM per clock: 32 banks x 4 B =
                                          128 on every arch of the table */
    int mma_f16_flop_per_sm_clk;       /* the arch's headline dense tensor rate for fp16/bf16
                                          inputs with fp32 accumulation, FLOP per SM per clock
                                          (sm_80: 2048, reached by mma.sync; sm_90: 4096, reached
                                          by wgmma only); 0 unknown */
    int mma_tf32_flop_per_sm_clk;      /* the same for tf32 inputs (sm_80: 1024, sm_90: 2048) */
    int mma_f64_flop_per_sm_clk;       /* the same for fp64 DMMA (sm_80: 128, sm_90: 256) */
} OccArchLimits;

/* The entry for `name`, given as "sm_90", "90" or "9.0"; NULL if `name` is NULL, malformed or
 * not in the table (e.g. "sm_91", ""). */
const OccArchLimits *occ_arch_find(const char *name);

/* The entry for compute capability major.minor; NULL if it is not in the table. */
const OccArchLimits *occ_arch_by_cc(int major, int minor);

/* The number of entries in the table. */
size_t occ_arch_count(void);

/* Entry i (0 <= i < occ_arch_count(), ordered by compute capability); NULL if i is out of
 * range. */
const OccArchLimits *occ_arch_at(size_t i);

/* The smallest carveout step of `a` offering at least need_bytes of shared memory per SM, in
 * bytes; -1 if none does. */
int occ_arch_carveout_at_least(const OccArchLimits *a, int need_bytes);

/* *a with the carveout set to carveout_bytes of shared memory per SM: smem_per_sm_bytes is it,
 * and a block's opt-in is limited to it less the per-block reserve, so that the occupancy
 * model (occupancy.h) models and pads inside that carveout. */
OccArchLimits occ_arch_in_carveout(const OccArchLimits *a, int carveout_bytes);

/* The cudaFuncAttributePreferredSharedMemoryCarveout percentage that selects the step of
 * carveout_bytes (one of a's steps): the runtime takes pct x smem_per_sm_bytes / 100 and rounds
 * up to the next step (cuda_occupancy.h, cudaOccSMemPreferenceVoltaPlus), so this is the
 * largest pct that does not pass the step. */
int occ_arch_carveout_pct(const OccArchLimits *a, int carveout_bytes);

/* Writes the table's names as "sm_75, sm_80, ..." into buf (NUL-terminated, truncated to
 * buf_len - 1 characters), for usage messages. Does nothing if buf is NULL or buf_len is 0. */
void occ_arch_list_names(char *buf, size_t buf_len);

/* The peak a family's variant is judged against, named (kernels/families/<family>.h: a
 * variant's peak): the arch's rate of that kind per SM per clock. */
typedef enum OccArchRate {
    OCC_RATE_NONE = 0,   /* no peak */
    OCC_RATE_FMA_FP32,   /* fp32 FMA lanes x 2 FLOP (fma_fp32_per_sm_clk) */
    OCC_RATE_FMA_FP64,   /* fp64 FMA lanes x 2 FLOP (fma_fp64_per_sm_clk) */
    OCC_RATE_SMEM_BYTES, /* shared-memory bytes (smem_bytes_per_sm_clk) */
    OCC_RATE_MMA_F16,    /* dense tensor FLOP of fp16/bf16 inputs (mma_f16_flop_per_sm_clk) */
    OCC_RATE_MMA_TF32,   /* ... of tf32 inputs (mma_tf32_flop_per_sm_clk) */
    OCC_RATE_MMA_F64     /* ... of fp64 DMMA (mma_f64_flop_per_sm_clk) */
} OccArchRate;

/* The rate of a per SM per clock, FLOP or bytes (occ_arch_rate_is_bytes); 0 unknown, or a NULL,
 * or OCC_RATE_NONE. */
int occ_arch_rate_per_sm_clk(const OccArchLimits *a, OccArchRate rate);
/* 1 when the rate counts bytes (its peak is GB/s), 0 when it counts FLOP (GFLOP/s). */
int occ_arch_rate_is_bytes(OccArchRate rate);
/* The peak, GFLOP/s or GB/s: sm_count x occ_arch_rate_per_sm_clk x clock_mhz / 1000. NaN when
 * the rate is unknown (0) or sm_count or clock_mhz is not positive. */
double occ_arch_peak(const OccArchLimits *a, OccArchRate rate, int sm_count, double clock_mhz);

/* The clock a peak is taken at, MHz: mhz, or peak_mhz where mhz is above it (no SM runs above the
 * device's peak clock, cudaDevAttrClockRate; a reading above it is the clock after the load has
 * stopped). peak_mhz <= 0: unknown, mhz as it is. *capped (may be NULL) is set to 1 when mhz was
 * above peak_mhz, else 0. */
double occ_arch_clock_within_peak(double mhz, double peak_mhz, int *capped);

/* The FMA peak of an element type, GFLOP/s: occ_arch_peak of OCC_RATE_FMA_FP32 (elem_bytes 4) or
 * OCC_RATE_FMA_FP64 (elem_bytes 8); NaN for another elem_bytes. */
double occ_arch_flop_peak_gflops(const OccArchLimits *a, int elem_bytes, int sm_count,
                                 double clock_mhz);

#ifdef __cplusplus
}
#endif

#endif
