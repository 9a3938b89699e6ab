/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/test_regcap.c: the register ladder per arch (harness/model/regcap.h; tests/
 * test_occupancy_vs_cudaocc.cu holds every rung to cuda_occupancy.h), the bounds lever's choice
 * of twin, and the compiled caps of kernels/variants.h against the ladder of every default arch. */
#include <stdio.h>
#include <string.h>

#include "catalog.h"
#include "check.h"
#include "regcap.h"

/* The rungs of arch for 128-thread blocks up to 64 registers, as "regs:blocks ...". */
static void ladder_text(const char *arch, char *buf, size_t len)
{
    OccRegRung r[64];
    const int n = occ_regcap_ladder(occ_arch_find(arch), 128, r, 64);
    buf[0] = '\0';
    for (int i = 0; i < n && i < 64 && r[i].regs_per_thread <= 64; i++)
        snprintf(buf + strlen(buf), len - strlen(buf), "%s%d:%d", i ? " " : "",
                 r[i].regs_per_thread, r[i].blocks_per_sm);
}

static void test_ladders(void)
{
    static const struct { const char *arch, *rungs; } want[] = {
        /* 2048 threads per SM: 100% at 32 registers, then 12, 10, 9, 8 blocks. */
        {"sm_90", "32:16 40:12 48:10 56:9 64:8"},
        {"sm_80", "32:16 40:12 48:10 56:9 64:8"},
        /* 1536 threads per SM: 12 blocks of 128 is 100%, which 40 registers allow. */
        {"sm_86", "40:12 48:10 56:9 64:8"},
        {"sm_120", "40:12 48:10 56:9 64:8"},
        /* 1024 threads per SM: 8 blocks of 128 at 64 registers. */
        {"sm_75", "64:8"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        char t[256];
        ladder_text(want[i].arch, t, sizeof t);
        CHECK_STR_EQ(t, want[i].rungs);
    }
    /* The ladder ends at one block; a block the arch cannot launch has none. */
    OccRegRung r[64];
    const int n = occ_regcap_ladder(occ_arch_find("sm_90"), 1024, r, 64);
    CHECK(n >= 1 && r[n - 1].blocks_per_sm == 1 && r[0].regs_per_thread == 32);
    CHECK_INT_EQ(occ_regcap_ladder(occ_arch_find("sm_90"), 2048, r, 64), 0);
    CHECK_INT_EQ(occ_regcap_blocks(occ_arch_find("sm_90"), 128, 55), 9);
    CHECK_INT_EQ(occ_regcap_blocks(occ_arch_find("sm_90"), 128, 24), 16); /* warps bind */
}

static void test_pick(void)
{
    const OccArchLimits *a = occ_arch_find("sm_90");
    const int regs[] = {55, 48, 40, 32}; /* _r56 (natural 55), _r48, _r40, _r32 */
    CHECK_INT_EQ(occ_regcap_pick(a, 128, 9, regs, 4), 0);
    CHECK_INT_EQ(occ_regcap_pick(a, 128, 10, regs, 4), 1);
    CHECK_INT_EQ(occ_regcap_pick(a, 128, 11, regs, 4), 2); /* 12 by registers, padded to 11 */
    CHECK_INT_EQ(occ_regcap_pick(a, 128, 13, regs, 4), 3);
    CHECK_INT_EQ(occ_regcap_pick(a, 128, 16, regs, 4), 3);
    CHECK_INT_EQ(occ_regcap_pick(a, 128, 4, regs, 4), 0);  /* below every rung: most registers */
    /* Two twins with the same count (a cap above the natural count): the first. */
    const int same[] = {40, 40};
    CHECK_INT_EQ(occ_regcap_pick(a, 128, 12, same, 2), 0);
    /* Nothing fits: the twin fitting the most, whose point then says why. */
    const int big[] = {128, 96};
    CHECK_INT_EQ(occ_regcap_pick(a, 128, 16, big, 2), 1);
    CHECK_INT_EQ(occ_regcap_pick(a, 128, 16, regs, 0), -1);
}

/* Every twin's name carries its cap, the twins of a natural variant are listed with caps
 * descending, and the compiled caps hold every rung up to 56 registers for 128-thread blocks on
 * every default arch (meson.options gpu_archs), so that a variant with a natural count above a
 * rung can reach the rung's level by registers alone. */
static void test_compiled_caps(void)
{
    int caps[16], n_caps = 0;
    for (int i = 0; i < occ_variant_count(); i++) {
        const OccVariantInfo *v = occ_variant_at(i);
        if (!v->reg_cap) {
            int twins = 0; /* every twin is in its natural variant's list (none dropped) */
            for (int j = 0; j < occ_variant_count(); j++)
                twins += occ_variant_at(j)->reg_cap && occ_variant_at(j)->natural == i;
            CHECK_INT_EQ(v->n_capped, twins);
            for (int c = 1; c < v->n_capped; c++)
                CHECK(occ_variant_at(v->capped[c - 1])->reg_cap >
                      occ_variant_at(v->capped[c])->reg_cap);
            continue;
        }
        char want[64];
        snprintf(want, sizeof want, "%s_r%d", occ_variant_at(v->natural)->name, v->reg_cap);
        CHECK_STR_EQ(v->name, want);
        int seen = 0;
        for (int c = 0; c < n_caps; c++) seen |= caps[c] == v->reg_cap;
        if (!seen && n_caps < 16) caps[n_caps++] = v->reg_cap;
    }
    static const char *const archs[] = {"sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"};
    for (size_t a = 0; a < sizeof archs / sizeof archs[0]; a++) {
        OccRegRung r[64];
        const int n = occ_regcap_ladder(occ_arch_find(archs[a]), 128, r, 64);
        for (int i = 0; i < n && i < 64 && r[i].regs_per_thread <= 56; i++) {
            int found = 0;
            for (int c = 0; c < n_caps; c++) found |= caps[c] == r[i].regs_per_thread;
            if (!found) fprintf(stderr, "    %s: rung %d registers not compiled\n", archs[a],
                                r[i].regs_per_thread);
            CHECK(found);
        }
    }
    CHECK_INT_EQ(n_caps, 4);
}

int main(void)
{
    test_ladders();
    test_pick();
    test_compiled_caps();
    return check_done();
}
