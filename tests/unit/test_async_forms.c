/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/test_async_forms.c: the closed forms the async and wgmma kernels and their host files
 * share (kernels/families/async.h, wgmma.h), on the CPU: the pattern's sum against a direct sum
 * for lengths around whole periods and vectors, D = groups x A x B against a direct product of
 * the tile patterns (whose values are the small integers the exactness argument needs), and the
 * catalog's view of the variants: a stage's own shared memory S x C (bulk) or W x 32 x S x U x 16
 * (cp), the block each is written for, a wgmma's FLOP as the chain model's work. */
#include <stddef.h>
#include <string.h>

#include "catalog.h"
#include "check.h"
#include "families/async.h"
#include "families/wgmma.h"

static void test_async_sum(void)
{
    double direct = 0.0;
    size_t n = 0;
    const size_t ends[] = {0, 1, 6, 7, 8, 13, 14, 4096, 4099, 1000003};
    for (size_t e = 0; e < sizeof ends / sizeof ends[0]; e++) {
        for (; n < ends[e]; n++) direct += (double)(n % OCC_ASYNC_PERIOD);
        CHECK(occ_async_expected_sum(n) == direct);
    }
    /* 4 GiB of floats: an integer well below 2^53, so the blocks' fp64 partial sums are exact */
    const size_t big = (size_t)1 << 30;
    CHECK(occ_async_expected_sum(big) < 9007199254740992.0);
    const size_t r = big % 7;
    CHECK(occ_async_expected_sum(big) == (double)(big / 7) * 21.0 + (double)(r * (r - 1) / 2));
}

static void test_wgmma_product(void)
{
    int most_a = 0, most_b = 0;
    for (int m = 0; m < 64; m++)
        for (int k = 0; k < OCC_WGMMA_K; k++)
            most_a = occ_wgmma_a(m, k) > most_a ? occ_wgmma_a(m, k) : most_a;
    for (int k = 0; k < OCC_WGMMA_K; k++)
        for (int n = 0; n < 256; n++)
            most_b = occ_wgmma_b(k, n) > most_b ? occ_wgmma_b(k, n) : most_b;
    CHECK_INT_EQ(most_a, 1);
    CHECK_INT_EQ(most_b, 2);
    int differ = 0;
    for (int m = 0; m < 64; m++)
        for (int n = 0; n < 256; n += 5) {
            double dot = 0.0;
            for (int k = 0; k < OCC_WGMMA_K; k++) dot += occ_wgmma_a(m, k) * occ_wgmma_b(k, n);
            CHECK(occ_wgmma_expected(m, n, 3) == 3.0 * dot);
            differ += occ_wgmma_expected(m, n, 1) != occ_wgmma_expected((m + 1) % 64, n, 1);
        }
    CHECK(differ > 0); /* a swapped row changes D */
    /* the most groups keep every element at or below 2^22: exact in fp32 */
    CHECK(OCC_WGMMA_MAX_GROUPS * 64.0 * 2.0 <= 4194304.0);
    CHECK(occ_wgmma_flop_per_block(128, 10) == 10.0 * 4 * 2 * 64 * 128 * 16);
}

static void test_catalog_view(void)
{
    const OccVariantInfo *b = occ_variant_at(occ_variant_find("async_bulk_s6_c16k_w5"));
    const OccVariantInfo *c = occ_variant_at(occ_variant_find("async_cp_s4_u8_w4"));
    const OccVariantInfo *w = occ_variant_at(occ_variant_find("wgmma_bf16_n256_rs_g4"));
    CHECK(b && c && w);
    if (!(b && c && w)) return;
    CHECK_INT_EQ(b->own_dyn_smem_bytes, 6 * 16 * 1024);
    CHECK_INT_EQ(b->block_threads, 160);
    CHECK_INT_EQ(b->unroll * 32 * b->vec_bytes, 16 * 1024); /* U x V a lane: one stage */
    CHECK_INT_EQ(b->unroll, 1);
    CHECK_INT_EQ(c->own_dyn_smem_bytes, 4 * 32 * 4 * 8 * 16);
    CHECK_INT_EQ(c->block_threads, 128);
    CHECK_INT_EQ(c->unroll, 8);
    CHECK_INT_EQ(w->block_threads, OCC_WGMMA_BLOCK_THREADS);
    CHECK_INT_EQ(w->unroll, 4);
    CHECK_INT_EQ(w->own_dyn_smem_bytes, (64 + 256) * 64 * 2 + 1024);
    CHECK(w->work_per_op == 2.0 * 64 * 256 * 16);
    CHECK_INT_EQ(w->peak, OCC_RATE_MMA_F16);
    /* every other family's variants take any block */
    CHECK_INT_EQ(occ_variant_at(occ_variant_find("reduce_u4_v16"))->block_threads, 0);
}

int main(void)
{
    test_async_sum();
    test_wgmma_product();
    test_catalog_view();
    return check_done();
}
