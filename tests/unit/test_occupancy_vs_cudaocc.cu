// SPDX-License-Identifier: Apache-2.0
/* tests/unit/test_occupancy_vs_cudaocc.cu: holds harness/core/occupancy.c to the toolkit's own
 * occupancy calculator, the header-only cuda_occupancy.h, for every architecture of
 * harness/core/arch.c.
 *
 * Host code only: built by nvcc, run on a CPU; no GPU and no libcuda needed. Each table entry
 * becomes a cudaOccDeviceProp, a kernel becomes cudaOccFuncAttributes that opted in to the
 * largest dynamic shared memory (as the sweep does through cudaFuncSetAttribute), and the device
 * state asks for the carveout at maximum shared memory. The register ladder (regcap.h) is held
 * to it too. */

/* cuda_occupancy.h's cudaOccLimitingFactor also names OCC_LIMIT_WARPS and OCC_LIMIT_BLOCKS;
 * renaming its copies while it is read lets both headers share this file. */
#define OCC_LIMIT_WARPS CUDAOCC_LIMIT_WARPS
#define OCC_LIMIT_BLOCKS CUDAOCC_LIMIT_BLOCKS
#include <cuda_occupancy.h>
#undef OCC_LIMIT_WARPS
#undef OCC_LIMIT_BLOCKS

extern "C" {
#include "arch.h"
#include "occupancy.h"
#include "regcap.h"
}
#include "check.h"

enum { MAX_REPORTED = 8 };

static int mismatches = 0;

static cudaOccDeviceProp device_prop(const OccArchLimits *a)
{
    cudaOccDeviceProp p;
    p.computeMajor = a->cc_major;
    p.computeMinor = a->cc_minor;
    p.maxThreadsPerBlock = a->max_threads_per_block;
    p.maxThreadsPerMultiprocessor = a->max_threads_per_sm;
    p.regsPerBlock = a->regs_per_sm;
    p.regsPerMultiprocessor = a->regs_per_sm;
    p.warpSize = a->warp_size;
    p.sharedMemPerBlock = 48 * 1024; /* the default per-block limit without opt-in */
    p.sharedMemPerMultiprocessor = (size_t)a->smem_per_sm_bytes;
    p.numSms = 1;
    p.sharedMemPerBlockOptin = (size_t)a->smem_per_block_optin_bytes;
    p.reservedSharedMemPerBlock = (size_t)a->smem_reserved_per_block_bytes;
    return p;
}

static cudaOccFuncAttributes func_attrs(const OccArchLimits *a, int regs, int static_smem)
{
    cudaOccFuncAttributes f;
    f.maxThreadsPerBlock = a->max_threads_per_block;
    f.numRegs = regs;
    f.sharedSizeBytes = (size_t)static_smem;
    f.partitionedGCConfig = PARTITIONED_GC_OFF;
    f.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
    f.maxDynamicSharedSizeBytes = (size_t)(a->smem_per_block_optin_bytes - static_smem);
    f.numBlockBarriers = 1; /* what the header assumes for a kernel from cudaFuncAttributes */
    f.virtualResourceCount = 0;
    return f;
}

static cudaOccDeviceState max_shared_state(void)
{
    cudaOccDeviceState s;
    s.carveoutConfig = SHAREDMEM_CARVEOUT_MAX_SHARED;
    return s;
}

/* Blocks per SM according to cuda_occupancy.h; 0 means the launch cannot run. */
static int cudaocc_blocks(const OccArchLimits *a, const OccKernelUsage *u, unsigned *factors)
{
    cudaOccDeviceProp p = device_prop(a);
    cudaOccFuncAttributes f = func_attrs(a, u->regs_per_thread, u->static_smem_bytes);
    cudaOccDeviceState s = max_shared_state();
    cudaOccResult r = {};
    cudaOccError e = cudaOccMaxActiveBlocksPerMultiprocessor(&r, &p, &f, &s, u->block_threads,
                                                             (size_t)u->dyn_smem_bytes);
    CHECK_INT_EQ(e, CUDA_OCC_SUCCESS);
    if (factors != NULL) *factors = r.limitingFactors;
    return e == CUDA_OCC_SUCCESS ? r.activeBlocksPerMultiprocessor : -1;
}

/* Prints the first few disagreements with their inputs; target_blocks is 0 outside padding. */
static void report(const char *what, const OccArchLimits *a, const OccKernelUsage *u,
                   int target_blocks, long ours, long theirs)
{
    if (++mismatches > MAX_REPORTED) return;
    fprintf(stderr,
            "    %s: %s block %d regs %d static %d dyn %d target %d: model %ld, "
            "cuda_occupancy.h %ld\n",
            what, a->name, u->block_threads, u->regs_per_thread, u->static_smem_bytes,
            u->dyn_smem_bytes, target_blocks, ours, theirs);
}

static unsigned limiter_bit(OccLimiter l)
{
    switch (l) {
    case OCC_LIMIT_WARPS: return CUDAOCC_LIMIT_WARPS;
    case OCC_LIMIT_BLOCKS: return CUDAOCC_LIMIT_BLOCKS;
    case OCC_LIMIT_REGS: return OCC_LIMIT_REGISTERS;
    case OCC_LIMIT_SMEM: return OCC_LIMIT_SHARED_MEMORY;
    }
    return 0;
}

/* The sweep's usual shapes, plus sizes that are not whole warps and register counts whose
 * warps do not fill whole 256-register units (multiples of 8 always do), and 0 registers. */
static const int block_sizes[] = {32, 64, 96, 128, 192, 256, 384, 512, 768, 1024,
                                  1,  33, 100, 416, 1000};
static const int reg_counts[] = {16, 24, 32, 40, 48, 64, 72, 96, 128, 168, 255,
                                 0,  1,  33, 42, 57, 65, 100, 136, 200};
static const int static_sizes[] = {0, 3000};
#define COUNT(arr) (sizeof(arr) / sizeof((arr)[0]))

/* Both accept the same launches and agree on blocks per SM; the model's limiter is among
 * cuda_occupancy.h's limiting factors. Returns how many launches both accepted. */
static int compare_grid(const OccArchLimits *a)
{
    const int dyn_sizes[] = {0,     1,      1024,   4096, 16384, 49152,
                             100000, 200000, a->smem_per_block_optin_bytes};
    int accepted = 0;
    for (size_t b = 0; b < COUNT(block_sizes); b++)
        for (size_t g = 0; g < COUNT(reg_counts); g++)
            for (size_t s = 0; s < COUNT(static_sizes); s++)
                for (size_t d = 0; d < COUNT(dyn_sizes); d++) {
                    OccKernelUsage u = {block_sizes[b], reg_counts[g], static_sizes[s],
                                        dyn_sizes[d]};
                    OccResult r;
                    unsigned factors = 0;
                    int theirs = cudaocc_blocks(a, &u, &factors);
                    int runs = occ_model_occupancy(a, &u, &r, NULL) == 0;
                    if (runs) CHECK(r.blocks_per_sm >= 1); /* a launch it accepts must run */
                    int ours = runs ? r.blocks_per_sm : 0;
                    check_count_++;
                    if (ours != theirs) {
                        report("blocks", a, &u, 0, ours, theirs);
                        check_failed_++;
                        continue;
                    }
                    if (ours == 0) continue;
                    accepted++;
                    CHECK(factors & limiter_bit(r.limiter));
                }
    return accepted;
}

/* The padding pins exactly the target in cuda_occupancy.h too, one byte more loses a block,
 * and it refuses exactly the targets cudaOccAvailableDynamicSMemPerBlock refuses. Where the
 * padding binds, that function answers the padding plus the reserved per-block smem (capped at
 * the opt-in): it divides the SM among the blocks without taking the reserve out, so that
 * cudaOccMaxActiveBlocksPerMultiprocessor itself places one block fewer at its answer. The
 * runtime's cudaOccupancyAvailableDynamicSMemPerBlock does the same (H200, driver 580: 2 blocks
 * -> 116736 bytes -> 1 block resident). The model follows the residency calculation, which the
 * runtime confirmed for every target of 32-, 256- and 1024-thread blocks on that H200. Returns
 * the number of targets pinned. */
static int compare_padding(const OccArchLimits *a)
{
    cudaOccDeviceProp p = device_prop(a);
    cudaOccDeviceState st = max_shared_state();
    int pinned = 0;
    for (size_t b = 0; b < COUNT(block_sizes); b++)
        for (size_t g = 0; g < COUNT(reg_counts); g++)
            for (size_t s = 0; s < COUNT(static_sizes); s++)
                for (int t = 1; t <= a->max_blocks_per_sm; t++) {
                    OccKernelUsage u = {block_sizes[b], reg_counts[g], static_sizes[s], 0};
                    cudaOccFuncAttributes f = func_attrs(a, u.regs_per_thread,
                                                         u.static_smem_bytes);
                    size_t avail = 0;
                    cudaOccError e = cudaOccAvailableDynamicSMemPerBlock(&avail, &p, &f, &st, t,
                                                                         u.block_threads);
                    int pad = -1;
                    int ok = occ_model_padding_for_blocks(a, &u, t, &pad, NULL) == 0;
                    check_count_++;
                    if (ok != (e == CUDA_OCC_SUCCESS)) {
                        report("target reachable", a, &u, t, ok, e == CUDA_OCC_SUCCESS);
                        check_failed_++;
                        continue;
                    }
                    if (!ok) continue;
                    pinned++;
                    u.dyn_smem_bytes = pad;
                    int at_pad = cudaocc_blocks(a, &u, NULL);
                    if (at_pad != t) report("blocks at padding", a, &u, t, t, at_pad);
                    CHECK_INT_EQ(at_pad, t);
                    if (pad == 0) continue;
                    u.dyn_smem_bytes = pad + 1;
                    CHECK(cudaocc_blocks(a, &u, NULL) < t);
                    long want = pad + a->smem_reserved_per_block_bytes;
                    if (want > a->smem_per_block_optin_bytes - u.static_smem_bytes)
                        want = a->smem_per_block_optin_bytes - u.static_smem_bytes;
                    u.dyn_smem_bytes = pad;
                    if ((long)avail != want)
                        report("available dyn smem", a, &u, t, want, (long)avail);
                    CHECK_INT_EQ(avail, want);
                    if ((long)avail > pad) {
                        u.dyn_smem_bytes = (int)avail;
                        CHECK(cudaocc_blocks(a, &u, NULL) < t);
                    }
                }
    return pinned;
}
/* The register ladder (regcap.h) in cuda_occupancy.h's terms: at each rung's register count the
 * header places the rung's blocks (no shared memory beyond the reserve: it is not the limit), one
 * register more places fewer, and every count between two rungs places the upper rung's blocks.
 * Returns the number of rungs checked. */
static int compare_ladder(const OccArchLimits *a)
{
    int checked = 0;
    for (size_t b = 0; b < COUNT(block_sizes); b++) {
        OccRegRung rungs[256];
        const int n = occ_regcap_ladder(a, block_sizes[b], rungs, 256);
        CHECK(n >= 1 && n <= 256);
        int lo = 1;
        for (int i = 0; i < n && i < 256; i++) {
            for (int r = lo; r <= rungs[i].regs_per_thread; r++) {
                OccKernelUsage u = {block_sizes[b], r, 0, 0};
                const int theirs = cudaocc_blocks(a, &u, NULL);
                check_count_++;
                if (theirs != rungs[i].blocks_per_sm) {
                    report("ladder", a, &u, rungs[i].blocks_per_sm, rungs[i].blocks_per_sm, theirs);
                    check_failed_++;
                }
            }
            OccKernelUsage next = {block_sizes[b], rungs[i].regs_per_thread + 1, 0, 0};
            CHECK(cudaocc_blocks(a, &next, NULL) < rungs[i].blocks_per_sm);
            lo = rungs[i].regs_per_thread + 1;
            checked++;
        }
    }
    return checked;
}

int main(void)
{
    for (size_t i = 0; i < occ_arch_count(); i++) {
        const OccArchLimits *a = occ_arch_at(i);
        int accepted = compare_grid(a);
        int pinned = compare_padding(a);
        int rungs = compare_ladder(a);
        CHECK(accepted > 1000);
        CHECK(pinned > 1000);
        CHECK(rungs > 40);
        printf("%-6s: %d launches agree, %d padding targets pinned, %d register rungs\n", a->name,
               accepted, pinned, rungs);
    }
    if (mismatches > MAX_REPORTED)
        fprintf(stderr, "    ... %d mismatches in all\n", mismatches);
    return check_done();
}
