/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/test_occupancy.c: the architecture table and the occupancy model on worked examples
 * (sm_80 at block 256 and others), the shared-memory edge cases, and the padding inverse over
 * every target. */
#include "arch.h"
#include "check.h"
#include "occupancy.h"

static OccResult occ(const char *arch, int block, int regs, int static_smem, int dyn_smem)
{
    OccKernelUsage use = {.block_threads = block, .regs_per_thread = regs,
                          .static_smem_bytes = static_smem, .dyn_smem_bytes = dyn_smem};
    OccResult r = {.blocks_per_sm = -1};
    const char *why = NULL;
    if (occ_model_occupancy(occ_arch_find(arch), &use, &r, &why) != 0)
        fprintf(stderr, "    %s block %d regs %d smem %d+%d rejected: %s\n", arch, block, regs,
                static_smem, dyn_smem, why);
    return r;
}

static const char *rejection(const char *arch, int block, int regs, int static_smem, int dyn_smem)
{
    OccKernelUsage use = {.block_threads = block, .regs_per_thread = regs,
                          .static_smem_bytes = static_smem, .dyn_smem_bytes = dyn_smem};
    OccResult r;
    const char *why = NULL;
    return occ_model_occupancy(occ_arch_find(arch), &use, &r, &why) == -1 ? why : "accepted";
}

static void test_arch_table(void)
{
    const OccArchLimits *h = occ_arch_find("sm_90");
    CHECK(h != NULL);
    CHECK_STR_EQ(h->name, "sm_90");
    CHECK(occ_arch_find("90") == h);
    CHECK(occ_arch_find("9.0") == h);
    CHECK(occ_arch_by_cc(9, 0) == h);
    CHECK(occ_arch_find("sm_91") == NULL);
    CHECK(occ_arch_find("") == NULL);
    CHECK(occ_arch_find(NULL) == NULL);
    CHECK(occ_arch_find("9") == NULL);
    CHECK(occ_arch_find("sm_9.0") == NULL);
    CHECK(occ_arch_find("sm_90x") == NULL);
    CHECK(occ_arch_find("9.") == NULL);
    CHECK_STR_EQ(occ_arch_find("10.3")->name, "sm_103");
    CHECK_STR_EQ(occ_arch_find("120")->name, "sm_120");
    CHECK_STR_EQ(occ_arch_by_cc(8, 6)->name, "sm_86");
    CHECK(occ_arch_by_cc(7, 0) == NULL);

    CHECK_INT_EQ(occ_arch_count(), 9);
    CHECK(occ_arch_at(occ_arch_count()) == NULL);
    char names[128];
    occ_arch_list_names(names, sizeof names);
    CHECK_STR_EQ(names, "sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_100, sm_103, sm_120");
    char short_buf[8];
    occ_arch_list_names(short_buf, sizeof short_buf);
    CHECK_STR_EQ(short_buf, "sm_75, ");

    /* The published figures the model depends on. */
    CHECK_INT_EQ(h->smem_per_sm_bytes, 233472);
    CHECK_INT_EQ(h->smem_per_block_optin_bytes, 232448);
    CHECK_INT_EQ(h->l1_smem_sram_bytes, 262144);
    CHECK_INT_EQ(occ_arch_find("sm_80")->smem_per_sm_bytes, 167936);
    CHECK_INT_EQ(occ_arch_find("sm_75")->max_warps_per_sm, 32);
    CHECK_INT_EQ(occ_arch_find("sm_75")->max_blocks_per_sm, 16);
    CHECK_INT_EQ(occ_arch_find("sm_89")->max_blocks_per_sm, 24);
    CHECK_INT_EQ(occ_arch_find("sm_120")->max_warps_per_sm, 48);

    for (size_t i = 0; i < occ_arch_count(); i++) {
        const OccArchLimits *a = occ_arch_at(i);
        CHECK(occ_arch_find(a->name) == a);
        CHECK_INT_EQ(a->max_warps_per_sm * a->warp_size, a->max_threads_per_sm);
        /* One block with the whole opt-in must fit the SM, or the padding for 1 block fails. */
        CHECK_INT_EQ(a->smem_per_block_optin_bytes + a->smem_reserved_per_block_bytes,
                     a->smem_per_sm_bytes);
        CHECK(a->smem_per_sm_bytes < a->l1_smem_sram_bytes);
        CHECK_INT_EQ(a->smem_reserved_per_block_bytes, a->cc_major >= 8 ? 1024 : 0);
        CHECK_INT_EQ(a->smem_alloc_unit_bytes, a->cc_major >= 8 ? 128 : 256);
        if (i > 0) CHECK(a->cc_major * 10 + a->cc_minor >
                         occ_arch_at(i - 1)->cc_major * 10 + occ_arch_at(i - 1)->cc_minor);
    }
}

static void test_worked_examples(void)
{
    /* sm_80, 256 threads, 32 regs, 16 KB: min(8, 32, 8, 9) = 8 blocks. The hand count's smem
     * term is 10 without the 1 KB reserve; with it a block costs 17 KB and 164 / 17 = 9. */
    OccResult r = occ("sm_80", 256, 32, 16384, 0);
    CHECK_INT_EQ(r.blocks_per_sm, 8);
    CHECK_INT_EQ(r.warps_per_sm, 64);
    CHECK_NEAR(r.occupancy_pct, 100.0, 1e-9);
    CHECK_INT_EQ(r.by_warps, 8);
    CHECK_INT_EQ(r.by_blocks, 32);
    CHECK_INT_EQ(r.by_regs, 8);
    CHECK_INT_EQ(r.by_smem, 9);
    CHECK_INT_EQ(r.limiter, OCC_LIMIT_WARPS); /* warps and regs tie: warps comes first */

    /* 40 regs: 1280 per warp, 12 warps per quarter of the file, 48 warps = 6 blocks. */
    r = occ("sm_80", 256, 40, 0, 0);
    CHECK_INT_EQ(r.blocks_per_sm, 6);
    CHECK_INT_EQ(r.warps_per_sm, 48);
    CHECK_NEAR(r.occupancy_pct, 75.0, 1e-9);
    CHECK_INT_EQ(r.limiter, OCC_LIMIT_REGS);

    r = occ("sm_80", 256, 64, 0, 0);
    CHECK_INT_EQ(r.blocks_per_sm, 4);
    CHECK_NEAR(r.occupancy_pct, 50.0, 1e-9);
    CHECK_INT_EQ(r.limiter, OCC_LIMIT_REGS);

    /* 48 KB per block on a 100 KB SM (sm_86): 49 KB with the reserve, 2 blocks. */
    r = occ("sm_86", 256, 32, 0, 48 * 1024);
    CHECK_INT_EQ(r.blocks_per_sm, 2);
    CHECK_INT_EQ(r.limiter, OCC_LIMIT_SMEM);
    CHECK_INT_EQ(r.by_warps, 6);

    r = occ("sm_90", 256, 32, 0, 0);
    CHECK_INT_EQ(r.blocks_per_sm, 8);
    CHECK_NEAR(r.occupancy_pct, 100.0, 1e-9);

    /* Register budget for 75% on sm_90: 65536 / (0.75 x 2048) = 42, but 42 x 32 = 1344 rounds
     * to 1536 per warp (10 warps per quarter: 62.5%); 40 regs = 1280 exactly is the largest. */
    int budget = 0;
    for (int regs = 1; regs <= 255; regs++)
        if (occ("sm_90", 256, regs, 0, 0).occupancy_pct >= 75.0) budget = regs;
    CHECK_INT_EQ(budget, 40);
    CHECK_NEAR(occ("sm_90", 256, 42, 0, 0).occupancy_pct, 62.5, 1e-9);

    /* __launch_bounds__(256, 4) caps at 65536 / (256 x 4) = 64 regs: 4 blocks; 65 would give 3. */
    CHECK_INT_EQ(occ("sm_90", 256, 64, 0, 0).blocks_per_sm, 4);
    CHECK_INT_EQ(occ("sm_90", 256, 65, 0, 0).blocks_per_sm, 3);

    /* Whole blocks are placed. At 40 regs the 48 register-limited warps split evenly (6 x 8 or
     * 3 x 16); at 48 regs there are 40 warps: 5 blocks of 8 but only 2 of 16. */
    r = occ("sm_90", 256, 40, 0, 0);
    CHECK_INT_EQ(r.blocks_per_sm, 6);
    CHECK_INT_EQ(r.warps_per_sm, 48);
    r = occ("sm_90", 512, 40, 0, 0);
    CHECK_INT_EQ(r.blocks_per_sm, 3);
    CHECK_INT_EQ(r.warps_per_sm, 48);
    r = occ("sm_90", 256, 48, 0, 0);
    CHECK_INT_EQ(r.blocks_per_sm, 5);
    CHECK_INT_EQ(r.warps_per_sm, 40);
    r = occ("sm_90", 512, 48, 0, 0);
    CHECK_INT_EQ(r.blocks_per_sm, 2);
    CHECK_INT_EQ(r.warps_per_sm, 32);
    CHECK_NEAR(r.occupancy_pct, 50.0, 1e-9);

    /* Registers per sub-partition: 96 regs = 3072 per warp, 5 warps per quarter = 20 per SM,
     * where dividing the whole file (65536 / 3072 = 21.3) would claim 21. */
    CHECK_INT_EQ(occ("sm_90", 32, 96, 0, 0).by_regs, 20);
}

static void test_smem_edges(void)
{
    /* sm_90: 113 KB + 1 KB reserved = 114 KB, twice fills 228 KB; one byte more rounds up by a
     * whole 128-byte unit and only 1 block fits. */
    CHECK_INT_EQ(occ("sm_90", 256, 32, 0, 113 * 1024).blocks_per_sm, 2);
    CHECK_INT_EQ(occ("sm_90", 256, 32, 0, 113 * 1024 + 1).blocks_per_sm, 1);
    CHECK_INT_EQ(occ("sm_90", 256, 32, 0, 114 * 1024).blocks_per_sm, 1);
    CHECK_INT_EQ(occ("sm_90", 256, 32, 0, 114 * 1024).limiter, OCC_LIMIT_SMEM);
    CHECK_INT_EQ(occ("sm_90", 256, 32, 0, 227 * 1024).blocks_per_sm, 1);
    CHECK_INT_EQ(occ("sm_90", 256, 32, 1024, 226 * 1024).blocks_per_sm, 1);

    /* Allocation unit: with the reserve alone a block costs 1024 (228 fit); 1 byte of dynamic
     * smem costs a whole unit (1152: 202 fit), as do 128 bytes; 129 costs two (1280: 182). */
    CHECK_INT_EQ(occ("sm_90", 32, 16, 0, 0).by_smem, 228);
    CHECK_INT_EQ(occ("sm_90", 32, 16, 0, 1).by_smem, 202);
    CHECK_INT_EQ(occ("sm_90", 32, 16, 0, 128).by_smem, 202);
    CHECK_INT_EQ(occ("sm_90", 32, 16, 0, 129).by_smem, 182);
    CHECK_INT_EQ(occ("sm_90", 32, 16, 64, 64).by_smem, 202);

    /* sm_75: no reserve, 256-byte unit, 64 KB, 32 warps, 16 blocks. */
    OccResult r = occ("sm_75", 32, 32, 0, 0);
    CHECK_INT_EQ(r.by_smem, 16); /* a block that allocates nothing: the block limit stands in */
    CHECK_INT_EQ(r.blocks_per_sm, 16);
    CHECK_INT_EQ(r.limiter, OCC_LIMIT_BLOCKS);
    CHECK_NEAR(r.occupancy_pct, 50.0, 1e-9);
    CHECK_INT_EQ(occ("sm_75", 1024, 32, 0, 0).blocks_per_sm, 1);
    CHECK_NEAR(occ("sm_75", 1024, 32, 0, 0).occupancy_pct, 100.0, 1e-9);
    CHECK_INT_EQ(occ("sm_75", 32, 32, 0, 4096).blocks_per_sm, 16);
    CHECK_INT_EQ(occ("sm_75", 32, 32, 0, 4097).blocks_per_sm, 15);
    CHECK_INT_EQ(occ("sm_75", 32, 32, 0, 32 * 1024).blocks_per_sm, 2);
    CHECK_INT_EQ(occ("sm_75", 32, 32, 0, 64 * 1024).blocks_per_sm, 1);
    CHECK_CONTAINS(rejection("sm_75", 32, 32, 0, 64 * 1024 + 1), "shared memory");
}

static void test_rejections(void)
{
    CHECK_STR_EQ(rejection("sm_90", 1024, 64, 0, 0), "accepted");
    CHECK_STR_EQ(rejection("sm_90", 992, 64, 0, 0), "accepted");
    CHECK_STR_EQ(rejection("sm_90", 256, 255, 0, 0), "accepted");
    CHECK_STR_EQ(rejection("sm_90", 32, 16, 0, 227 * 1024), "accepted");
    CHECK_CONTAINS(rejection("sm_90", 0, 32, 0, 0), "block size");
    CHECK_CONTAINS(rejection("sm_90", 1025, 32, 0, 0), "block size");
    CHECK_CONTAINS(rejection("sm_90", 256, 256, 0, 0), "registers per thread");
    CHECK_CONTAINS(rejection("sm_90", 256, -1, 0, 0), "registers per thread");
    CHECK_CONTAINS(rejection("sm_90", 256, 32, -1, 0), "negative");
    CHECK_CONTAINS(rejection("sm_90", 32, 16, 0, 227 * 1024 + 1), "per-block shared memory");
    CHECK_CONTAINS(rejection("sm_90", 32, 16, 1, 227 * 1024), "per-block shared memory");
    /* 1024 threads x 65 regs: 32 warps x 2304 = 73728 registers > 65536. */
    CHECK_CONTAINS(rejection("sm_90", 1024, 65, 0, 0), "register file");
    /* 416 threads = 13 warps of 136 regs (4352 each): 13 x 4352 = 56576 would fit, but the warps
     * are checked as 16 (4 sub-partitions): 69632 > 65536. 12 warps pass. */
    CHECK_CONTAINS(rejection("sm_90", 416, 136, 0, 0), "register file");
    CHECK_INT_EQ(occ("sm_90", 384, 136, 0, 0).blocks_per_sm, 1);

    CHECK_STR_EQ(occ_limiter_name(OCC_LIMIT_WARPS), "warps");
    CHECK_STR_EQ(occ_limiter_name(OCC_LIMIT_BLOCKS), "blocks");
    CHECK_STR_EQ(occ_limiter_name(OCC_LIMIT_REGS), "regs");
    CHECK_STR_EQ(occ_limiter_name(OCC_LIMIT_SMEM), "smem");
}

static int padding(const OccArchLimits *a, int block, int regs, int static_smem, int target,
                   int *pad, const char **why)
{
    OccKernelUsage use = {.block_threads = block, .regs_per_thread = regs,
                          .static_smem_bytes = static_smem, .dyn_smem_bytes = 12345};
    *why = NULL;
    return occ_model_padding_for_blocks(a, &use, target, pad, why);
}

/* Every target on an architecture: a padding found pins exactly the target and is the largest
 * one that does; a refusal happens only where dynamic smem 0 already gives fewer blocks. */
static int round_trip(const char *arch_name)
{
    static const int blocks[] = {32, 64, 96, 128, 256, 512, 1024};
    static const int regs[] = {0, 16, 32, 40, 64, 96, 128, 255};
    static const int statics[] = {0, 1, 4096, 40000};
    const OccArchLimits *a = occ_arch_find(arch_name);
    int pinned = 0;
    for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++)
        for (size_t g = 0; g < sizeof regs / sizeof regs[0]; g++)
            for (size_t s = 0; s < sizeof statics / sizeof statics[0]; s++) {
                OccKernelUsage use = {blocks[b], regs[g], statics[s], 0};
                OccResult base;
                if (occ_model_occupancy(a, &use, &base, NULL) != 0) continue;
                for (int t = 1; t <= a->max_blocks_per_sm; t++) {
                    int pad = -1;
                    const char *why;
                    if (padding(a, use.block_threads, use.regs_per_thread, use.static_smem_bytes,
                                t, &pad, &why) != 0) {
                        CHECK(base.blocks_per_sm < t);
                        CHECK(why != NULL && why[0] != '\0');
                        continue;
                    }
                    OccResult r;
                    use.dyn_smem_bytes = pad;
                    CHECK(occ_model_occupancy(a, &use, &r, NULL) == 0);
                    CHECK_INT_EQ(r.blocks_per_sm, t);
                    if (pad > 0) {
                        use.dyn_smem_bytes = pad + 1;
                        CHECK(occ_model_occupancy(a, &use, &r, NULL) != 0 ||
                              r.blocks_per_sm < t);
                    } else {
                        CHECK_INT_EQ(base.blocks_per_sm, t);
                    }
                    use.dyn_smem_bytes = 0;
                    pinned++;
                }
            }
    return pinned;
}

static void test_padding(void)
{
    const OccArchLimits *h = occ_arch_find("sm_90");
    int pad = -1;
    const char *why;
    CHECK_INT_EQ(padding(h, 256, 32, 0, 8, &pad, &why), 0);
    CHECK_INT_EQ(pad, 0); /* threads and registers already give exactly 8 */
    CHECK_INT_EQ(padding(h, 256, 32, 0, 4, &pad, &why), 0);
    CHECK_INT_EQ(pad, 56 * 1024); /* 228 KB / 4 = 57 KB, less the 1 KB reserve */
    CHECK_INT_EQ(padding(h, 256, 32, 0, 3, &pad, &why), 0);
    CHECK_INT_EQ(pad, 75 * 1024);
    CHECK_INT_EQ(padding(h, 256, 32, 0, 2, &pad, &why), 0);
    CHECK_INT_EQ(pad, 113 * 1024);
    CHECK_INT_EQ(padding(h, 256, 32, 0, 1, &pad, &why), 0);
    CHECK_INT_EQ(pad, 227 * 1024);
    CHECK_INT_EQ(padding(h, 256, 32, 4096, 2, &pad, &why), 0);
    CHECK_INT_EQ(pad, 109 * 1024);
    /* sm_80, 3 blocks: 164 KB / 3 = 55978.7, down to 437 units of 128 = 55936, less 1024. */
    CHECK_INT_EQ(padding(occ_arch_find("sm_80"), 256, 32, 0, 3, &pad, &why), 0);
    CHECK_INT_EQ(pad, 54912);
    /* sm_75, 15 blocks: 65536 / 15 = 4369, down to 17 units of 256, no reserve. */
    CHECK_INT_EQ(padding(occ_arch_find("sm_75"), 32, 32, 0, 15, &pad, &why), 0);
    CHECK_INT_EQ(pad, 4352);

    CHECK_INT_EQ(padding(h, 128, 64, 0, 9, &pad, &why), -1);
    CHECK_STR_EQ(why, "registers allow only 8 blocks/SM");
    CHECK_INT_EQ(padding(h, 256, 16, 0, 9, &pad, &why), -1);
    CHECK_STR_EQ(why, "threads allow only 8 blocks/SM");
    CHECK_INT_EQ(padding(h, 32, 16, 100000, 3, &pad, &why), -1);
    CHECK_STR_EQ(why, "static shared memory allows only 2 blocks/SM");
    CHECK_INT_EQ(padding(h, 32, 16, 0, 33, &pad, &why), -1);
    CHECK_STR_EQ(why, "target exceeds the SM's block limit");
    CHECK_INT_EQ(padding(h, 32, 16, 0, 0, &pad, &why), -1);
    CHECK_CONTAINS(why, "at least 1");
    CHECK_INT_EQ(padding(h, 0, 16, 0, 1, &pad, &why), -1);
    CHECK_CONTAINS(why, "block size");

    /* An SM with more shared memory than one block may opt into cannot hold a lone block of
     * a small kernel: the padding is capped and 2 still fit. */
    OccArchLimits small_optin = *h;
    small_optin.smem_per_block_optin_bytes = 100 * 1024;
    CHECK_INT_EQ(padding(&small_optin, 1024, 32, 0, 1, &pad, &why), -1);
    CHECK_STR_EQ(why, "exceeds per-block shared memory limit");
    /* A unit a quarter of the SM cannot make 3 blocks: 1 KB units fit 4, 2 KB units fit 2. */
    OccArchLimits coarse = *occ_arch_find("sm_75");
    coarse.smem_per_sm_bytes = coarse.smem_per_block_optin_bytes = 4096;
    coarse.smem_alloc_unit_bytes = 1024;
    CHECK_INT_EQ(padding(&coarse, 32, 16, 0, 3, &pad, &why), -1);
    CHECK_CONTAINS(why, "allocation unit");

    /* A device reporting more than 32 blocks/SM: counts from 32 on are left out of the reason. */
    OccArchLimits many_blocks = *h;
    many_blocks.max_blocks_per_sm = 64;
    CHECK_INT_EQ(padding(&many_blocks, 32, 40, 0, 50, &pad, &why), -1);
    CHECK_STR_EQ(why, "registers allow fewer blocks/SM than the target"); /* 48 fit */
    CHECK_INT_EQ(padding(&many_blocks, 32, 40, 0, 40, &pad, &why), 0);
    CHECK_INT_EQ(pad, 233472 / 40 / 128 * 128 - 1024);

    int pinned80 = round_trip("sm_80");
    int pinned90 = round_trip("sm_90");
    int pinned75 = round_trip("sm_75");
    CHECK(pinned80 > 1000);
    CHECK(pinned90 > 1000);
    CHECK(pinned75 > 300);
    printf("padding round trip: %d (sm_80) + %d (sm_90) + %d (sm_75) targets pinned\n", pinned80,
           pinned90, pinned75);
}

int main(void)
{
    test_arch_table();
    test_worked_examples();
    test_smem_edges();
    test_rejections();
    test_padding();
    return check_done();
}
