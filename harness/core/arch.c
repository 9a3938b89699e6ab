/* SPDX-License-Identifier: Apache-2.0 */
/* harness/arch.c: the architecture table and its lookups.
 *
 * Sources, per field: max_blocks_per_sm, reg_alloc_unit and smem_alloc_unit_bytes follow
 * cuda_occupancy.h (cudaOccMaxBlocksPerMultiprocessor, cudaOccRegAllocationGranularity,
 * cudaOccSMemAllocationGranularity); the shared memory sizes are the largest carveout steps of
 * cudaOccAlignUpShmemSizeVoltaPlus and the programming guide's table (per block opt-in = per SM
 * minus the 1 KB the driver reserves for each block); the carveout steps are its cases.
 * cuda_occupancy.h allows 256 registers per thread on sm_7x+, but ptxas never assigns more than
 * 255, which is what a kernel can report.
 *
 * FMA lanes per SM per clock (fma_fp32/fp64_per_sm_clk) are the "results per clock cycle per
 * multiprocessor" of 32- and 64-bit floating-point fused multiply-add in the programming guide's
 * arithmetic-instruction throughput table: fp32 64 on sm_75 and sm_80, 128 from sm_86 on (sm_90,
 * H100/H200: 4 sub-partitions x 32 lanes); fp64 2 on sm_75, sm_86, sm_87, sm_89 and sm_120, 32 on
 * sm_80 (A100), 64 on sm_90 (H100/H200) and sm_100 (B200). sm_103's fp64 rate is not in the
 * table we cite, so it is 0 (unknown: no peak). */
#include "arch.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const OccArchLimits arch_table[] = {
    {.name = "sm_75", .cc_major = 7, .cc_minor = 5, .warp_size = 32,
     .max_threads_per_sm = 1024, .max_warps_per_sm = 32, .max_blocks_per_sm = 16,
     .max_threads_per_block = 1024, .regs_per_sm = 65536, .reg_alloc_unit = 256,
     .max_regs_per_thread = 255, .smem_per_sm_bytes = 64 * 1024,
     .smem_per_block_optin_bytes = 64 * 1024, .smem_reserved_per_block_bytes = 0,
     .smem_alloc_unit_bytes = 256, .l1_smem_sram_bytes = 96 * 1024,
     .n_smem_carveouts = 2, .smem_carveouts_kib = {32, 64},
     .fma_fp32_per_sm_clk = 64, .fma_fp64_per_sm_clk = 2,
     .smem_bytes_per_sm_clk = 128, .mma_f16_flop_per_sm_clk = 0,
     .mma_tf32_flop_per_sm_clk = 0, .mma_f64_flop_per_sm_clk = 0},
    {.name = "sm_80", .cc_major = 8, .cc_minor = 0, .warp_size = 32,
     .max_threads_per_sm = 2048, .max_warps_per_sm = 64, .max_blocks_per_sm = 32,
     .max_threads_per_block = 1024, .regs_per_sm = 65536, .reg_alloc_unit = 256,
     .max_regs_per_thread = 255, .smem_per_sm_bytes = 164 * 1024,
     .smem_per_block_optin_bytes = 163 * 1024, .smem_reserved_per_block_bytes = 1024,
     .smem_alloc_unit_bytes = 128, .l1_smem_sram_bytes = 192 * 1024,
     .n_smem_carveouts = 8, .smem_carveouts_kib = {0, 8, 16, 32, 64, 100, 132, 164},
     .fma_fp32_per_sm_clk = 64, .fma_fp64_per_sm_clk = 32,
     .smem_bytes_per_sm_clk = 128, .mma_f16_flop_per_sm_clk = 2048,
     .mma_tf32_flop_per_sm_clk = 1024, .mma_f64_flop_per_sm_clk = 128},
    {.name = "sm_86", .cc_major = 8, .cc_minor = 6, .warp_size = 32,
     .max_threads_per_sm = 1536, .max_warps_per_sm = 48, .max_blocks_per_sm = 16,
     .max_threads_per_block = 1024, .regs_per_sm = 65536, .reg_alloc_unit = 256,
     .max_regs_per_thread = 255, .smem_per_sm_bytes = 100 * 1024,
     .smem_per_block_optin_bytes = 99 * 1024, .smem_reserved_per_block_bytes = 1024,
     .smem_alloc_unit_bytes = 128, .l1_smem_sram_bytes = 128 * 1024,
     .n_smem_carveouts = 6, .smem_carveouts_kib = {0, 8, 16, 32, 64, 100},
     .fma_fp32_per_sm_clk = 128, .fma_fp64_per_sm_clk = 2,
     .smem_bytes_per_sm_clk = 128, .mma_f16_flop_per_sm_clk = 0,
     .mma_tf32_flop_per_sm_clk = 0, .mma_f64_flop_per_sm_clk = 0},
    {.name = "sm_87", .cc_major = 8, .cc_minor = 7, .warp_size = 32,
     .max_threads_per_sm = 1536, .max_warps_per_sm = 48, .max_blocks_per_sm = 16,
     .max_threads_per_block = 1024, .regs_per_sm = 65536, .reg_alloc_unit = 256,
     .max_regs_per_thread = 255, .smem_per_sm_bytes = 164 * 1024,
     .smem_per_block_optin_bytes = 163 * 1024, .smem_reserved_per_block_bytes = 1024,
     .smem_alloc_unit_bytes = 128, .l1_smem_sram_bytes = 192 * 1024,
     .n_smem_carveouts = 8, .smem_carveouts_kib = {0, 8, 16, 32, 64, 100, 132, 164},
     .fma_fp32_per_sm_clk = 128, .fma_fp64_per_sm_clk = 2,
     .smem_bytes_per_sm_clk = 128, .mma_f16_flop_per_sm_clk = 0,
     .mma_tf32_flop_per_sm_clk = 0, .mma_f64_flop_per_sm_clk = 0},
    {.name = "sm_89", .cc_major = 8, .cc_minor = 9, .warp_size = 32,
     .max_threads_per_sm = 1536, .max_warps_per_sm = 48, .max_blocks_per_sm = 24,
     .max_threads_per_block = 1024, .regs_per_sm = 65536, .reg_alloc_unit = 256,
     .max_regs_per_thread = 255, .smem_per_sm_bytes = 100 * 1024,
     .smem_per_block_optin_bytes = 99 * 1024, .smem_reserved_per_block_bytes = 1024,
     .smem_alloc_unit_bytes = 128, .l1_smem_sram_bytes = 128 * 1024,
     .n_smem_carveouts = 6, .smem_carveouts_kib = {0, 8, 16, 32, 64, 100},
     .fma_fp32_per_sm_clk = 128, .fma_fp64_per_sm_clk = 2,
     .smem_bytes_per_sm_clk = 128, .mma_f16_flop_per_sm_clk = 0,
     .mma_tf32_flop_per_sm_clk = 0, .mma_f64_flop_per_sm_clk = 0},
    {.name = "sm_90", .cc_major = 9, .cc_minor = 0, .warp_size = 32,
     .max_threads_per_sm = 2048, .max_warps_per_sm = 64, .max_blocks_per_sm = 32,
     .max_threads_per_block = 1024, .regs_per_sm = 65536, .reg_alloc_unit = 256,
     .max_regs_per_thread = 255, .smem_per_sm_bytes = 228 * 1024,
     .smem_per_block_optin_bytes = 227 * 1024, .smem_reserved_per_block_bytes = 1024,
     .smem_alloc_unit_bytes = 128, .l1_smem_sram_bytes = 256 * 1024,
     .n_smem_carveouts = 10, .smem_carveouts_kib = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228},
     .fma_fp32_per_sm_clk = 128, .fma_fp64_per_sm_clk = 64,
     .smem_bytes_per_sm_clk = 128, .mma_f16_flop_per_sm_clk = 4096,
     .mma_tf32_flop_per_sm_clk = 2048, .mma_f64_flop_per_sm_clk = 256},
    {.name = "sm_100", .cc_major = 10, .cc_minor = 0, .warp_size = 32,
     .max_threads_per_sm = 2048, .max_warps_per_sm = 64, .max_blocks_per_sm = 32,
     .max_threads_per_block = 1024, .regs_per_sm = 65536, .reg_alloc_unit = 256,
     .max_regs_per_thread = 255, .smem_per_sm_bytes = 228 * 1024,
     .smem_per_block_optin_bytes = 227 * 1024, .smem_reserved_per_block_bytes = 1024,
     .smem_alloc_unit_bytes = 128, .l1_smem_sram_bytes = 256 * 1024,
     .n_smem_carveouts = 10, .smem_carveouts_kib = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228},
     .fma_fp32_per_sm_clk = 128, .fma_fp64_per_sm_clk = 64,
     .smem_bytes_per_sm_clk = 128, .mma_f16_flop_per_sm_clk = 0,
     .mma_tf32_flop_per_sm_clk = 0, .mma_f64_flop_per_sm_clk = 0},
    {.name = "sm_103", .cc_major = 10, .cc_minor = 3, .warp_size = 32,
     .max_threads_per_sm = 2048, .max_warps_per_sm = 64, .max_blocks_per_sm = 32,
     .max_threads_per_block = 1024, .regs_per_sm = 65536, .reg_alloc_unit = 256,
     .max_regs_per_thread = 255, .smem_per_sm_bytes = 228 * 1024,
     .smem_per_block_optin_bytes = 227 * 1024, .smem_reserved_per_block_bytes = 1024,
     .smem_alloc_unit_bytes = 128, .l1_smem_sram_bytes = 256 * 1024,
     .n_smem_carveouts = 10, .smem_carveouts_kib = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228},
     .fma_fp32_per_sm_clk = 128, .fma_fp64_per_sm_clk = 0,
     .smem_bytes_per_sm_clk = 128, .mma_f16_flop_per_sm_clk = 0,
     .mma_tf32_flop_per_sm_clk = 0, .mma_f64_flop_per_sm_clk = 0},
    {.name = "sm_120", .cc_major = 12, .cc_minor = 0, .warp_size = 32,
     .max_threads_per_sm = 1536, .max_warps_per_sm = 48, .max_blocks_per_sm = 24,
     .max_threads_per_block = 1024, .regs_per_sm = 65536, .reg_alloc_unit = 256,
     .max_regs_per_thread = 255, .smem_per_sm_bytes = 100 * 1024,
     .smem_per_block_optin_bytes = 99 * 1024, .smem_reserved_per_block_bytes = 1024,
     .smem_alloc_unit_bytes = 128, .l1_smem_sram_bytes = 128 * 1024,
     .n_smem_carveouts = 6, .smem_carveouts_kib = {0, 8, 16, 32, 64, 100},
     .fma_fp32_per_sm_clk = 128, .fma_fp64_per_sm_clk = 2,
     .smem_bytes_per_sm_clk = 128, .mma_f16_flop_per_sm_clk = 0,
     .mma_tf32_flop_per_sm_clk = 0, .mma_f64_flop_per_sm_clk = 0},
};

enum { ARCH_COUNT = sizeof arch_table / sizeof arch_table[0] };

/* Reads one or more decimal digits; returns the position after them, or NULL if there are none
 * or the value would exceed 999 (no compute capability needs more). */
static const char *parse_digits(const char *s, int *value)
{
    int v = 0;
    const char *p = s;
    while (*p >= '0' && *p <= '9') {
        v = v * 10 + (*p - '0');
        if (v > 999) return NULL;
        p++;
    }
    if (p == s) return NULL;
    *value = v;
    return p;
}

const OccArchLimits *occ_arch_find(const char *name)
{
    if (name == NULL) return NULL;
    int has_prefix = strncmp(name, "sm_", 3) == 0;
    int first = 0;
    const char *p = parse_digits(has_prefix ? name + 3 : name, &first);
    if (p == NULL) return NULL;
    if (*p == '.' && !has_prefix) {
        int minor = 0;
        const char *q = parse_digits(p + 1, &minor);
        if (q == NULL || *q != '\0') return NULL;
        return occ_arch_by_cc(first, minor);
    }
    /* "90" / "sm_90": the last digit is the minor version, as in nvcc's arch names. The
     * arch-specific and family suffixes (sm_90a, sm_100f) have the same occupancy limits. */
    if (has_prefix && (*p == 'a' || *p == 'f')) p++;
    if (*p != '\0' || first < 10) return NULL;
    return occ_arch_by_cc(first / 10, first % 10);
}

const OccArchLimits *occ_arch_by_cc(int major, int minor)
{
    for (size_t i = 0; i < ARCH_COUNT; i++)
        if (arch_table[i].cc_major == major && arch_table[i].cc_minor == minor)
            return &arch_table[i];
    return NULL;
}

size_t occ_arch_count(void)
{
    return ARCH_COUNT;
}

const OccArchLimits *occ_arch_at(size_t i)
{
    return i < ARCH_COUNT ? &arch_table[i] : NULL;
}

void occ_arch_list_names(char *buf, size_t buf_len)
{
    if (buf == NULL || buf_len == 0) return;
    buf[0] = '\0';
    size_t used = 0;
    for (size_t i = 0; i < ARCH_COUNT && used + 1 < buf_len; i++) {
        int n = snprintf(buf + used, buf_len - used, "%s%s", i ? ", " : "", arch_table[i].name);
        if (n < 0) return;
        used += (size_t)n;
    }
}

int occ_arch_carveout_at_least(const OccArchLimits *a, int need_bytes)
{
    for (int i = 0; i < a->n_smem_carveouts; i++)
        if (a->smem_carveouts_kib[i] * 1024 >= need_bytes) return a->smem_carveouts_kib[i] * 1024;
    return -1;
}

OccArchLimits occ_arch_in_carveout(const OccArchLimits *a, int carveout_bytes)
{
    OccArchLimits c = *a;
    c.smem_per_sm_bytes = carveout_bytes;
    const int optin_left = carveout_bytes - a->smem_reserved_per_block_bytes;
    if (c.smem_per_block_optin_bytes > optin_left) c.smem_per_block_optin_bytes = optin_left;
    return c;
}

int occ_arch_carveout_pct(const OccArchLimits *a, int carveout_bytes)
{
    return (int)((long long)carveout_bytes * 100 / a->smem_per_sm_bytes);
}

int occ_arch_rate_per_sm_clk(const OccArchLimits *a, OccArchRate rate)
{
    if (!a) return 0;
    switch (rate) {
    case OCC_RATE_FMA_FP32: return 2 * a->fma_fp32_per_sm_clk;
    case OCC_RATE_FMA_FP64: return 2 * a->fma_fp64_per_sm_clk;
    case OCC_RATE_SMEM_BYTES: return a->smem_bytes_per_sm_clk;
    case OCC_RATE_MMA_F16: return a->mma_f16_flop_per_sm_clk;
    case OCC_RATE_MMA_TF32: return a->mma_tf32_flop_per_sm_clk;
    case OCC_RATE_MMA_F64: return a->mma_f64_flop_per_sm_clk;
    case OCC_RATE_NONE: break;
    }
    return 0;
}

int occ_arch_rate_is_bytes(OccArchRate rate) { return rate == OCC_RATE_SMEM_BYTES; }

double occ_arch_peak(const OccArchLimits *a, OccArchRate rate, int sm_count, double clock_mhz)
{
    const int per_sm_clk = occ_arch_rate_per_sm_clk(a, rate);
    if (per_sm_clk <= 0 || sm_count <= 0 || !(clock_mhz > 0)) return NAN;
    return (double)sm_count * per_sm_clk * clock_mhz * 1e-3;
}

double occ_arch_clock_within_peak(double mhz, double peak_mhz, int *capped)
{
    const int above = peak_mhz > 0 && mhz > peak_mhz;
    if (capped) *capped = above;
    return above ? peak_mhz : mhz;
}

double occ_arch_flop_peak_gflops(const OccArchLimits *a, int elem_bytes, int sm_count,
                                 double clock_mhz)
{
    const OccArchRate rate = elem_bytes == 4   ? OCC_RATE_FMA_FP32
                             : elem_bytes == 8 ? OCC_RATE_FMA_FP64
                                               : OCC_RATE_NONE;
    return occ_arch_peak(a, rate, sm_count, clock_mhz);
}
