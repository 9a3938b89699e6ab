/* SPDX-License-Identifier: Apache-2.0 */
/* harness/plan/plan.c: the points of a sweep, family by family, and their --dry-run lines. */
#include "plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loaded_levels.h"
#include "plan_levels.h"
#include "regcap.h"

/* 1 when value is among list[0..n). */
static int selected(const int *list, int n, int value)
{
    for (int i = 0; i < n; i++)
        if (list[i] == value) return 1;
    return 0;
}

/* Appends a copy of *p to the plan, growing it; -1 with err when out of memory. */
static int push(OccPlan *plan, const OccPoint *p, char *err, size_t err_len)
{
    if (plan->n == plan->cap) {
        int cap = plan->cap ? 2 * plan->cap : 256;
        OccPoint *grown = realloc(plan->points, (size_t)cap * sizeof *grown);
        if (!grown) {
            snprintf(err, err_len, "out of host memory for %d sweep points", cap);
            return -1;
        }
        plan->points = grown;
        plan->cap = cap;
    }
    plan->points[plan->n++] = *p;
    return 0;
}

/* Fills reachability, padding and model result of p for its variant's resources. */
static void plan_point(const OccArchLimits *arch, OccPoint *p)
{
    /* The kernel's own dynamic shared memory counts as its static does: padding comes on top. */
    OccKernelUsage use = {p->block_threads, p->res.regs_per_thread,
                          p->res.static_smem_bytes +
                              occ_variant_at(p->variant_index)->own_dyn_smem_bytes,
                          0};
    const char *why = NULL;
    p->reachable = 0;
    p->pad_bytes = 0;
    p->skip_reason[0] = '\0';
    if (occ_model_padding_for_blocks(arch, &use, p->level.blocks_per_sm, &p->pad_bytes, &why) !=
        0) {
        static const char smem[] = "static shared memory";
        const int own = occ_variant_at(p->variant_index)->own_dyn_smem_bytes > 0;
        if (own && why && strncmp(why, smem, sizeof smem - 1) == 0)
            snprintf(p->skip_reason, sizeof p->skip_reason, "its own shared memory%s",
                     why + sizeof smem - 1);
        else
            snprintf(p->skip_reason, sizeof p->skip_reason, "%s", why ? why : "not reachable");
        return;
    }
    use.dyn_smem_bytes = p->pad_bytes;
    if (occ_model_occupancy(arch, &use, &p->model, &why) != 0) {
        snprintf(p->skip_reason, sizeof p->skip_reason, "%s", why ? why : "cannot launch");
        return;
    }
    p->reachable = p->model.blocks_per_sm == p->level.blocks_per_sm;
    if (!p->reachable)
        snprintf(p->skip_reason, sizeof p->skip_reason, "padding gives %d blocks/SM",
                 p->model.blocks_per_sm);
}

/* The points of occupancy-shaped family f. */
static int build_occupancy(const OccArchLimits *arch, const OccOptions *opt, int f,
                           const OccVariantResources *res, const OccLevel *levels, int n_levels,
                           OccPoint base, OccPlan *plan, char *err, size_t err_len)
{
    const OccFamilyInfo *fi = occ_family_at(f);
    const int use_unroll = occ_family_takes(fi, "unroll"), use_vec = occ_family_takes(fi, "vec");
    const int use_fmas = occ_family_takes(fi, "fmas");
    char no_arch[sizeof base.skip_reason];
    const char *arch_skip =
        occ_family_arch_skip(fi, arch->cc_major, arch->cc_minor, no_arch, sizeof no_arch);
    OccLevel own_levels[OCC_MAX_LEVELS];
    for (int i = 0; i < occ_variant_count(); i++) {
        const OccVariantInfo *v = occ_variant_at(i);
        if (v->family != f || v->reg_cap ||
            (use_unroll && !selected(opt->unroll, opt->n_unroll, v->unroll)) ||
            (use_vec && !selected(opt->vec_bytes, opt->n_vec, v->vec_bytes)) ||
            (use_fmas &&
             !selected(opt->fma_per_element, opt->n_fma_per_element, v->fma_per_element)))
            continue;
        /* A kernel written for one block size has the levels of that size, not of --block. */
        const OccLevel *lv = levels;
        int n_lv = n_levels;
        if (v->block_threads > 0) {
            n_lv = occ_plan_levels(arch, v->block_threads, &opt->occ, own_levels, OCC_MAX_LEVELS,
                                   NULL, 0);
            lv = own_levels;
            if (n_lv < 1) continue;
        }
        /* An arch without the family's instruction: one skip point stands for the family. */
        if (arch_skip) {
            OccPoint skip = base;
            skip.variant_index = i;
            skip.lever = OCC_LEVER_PAD;
            skip.block_threads = lv[0].block_threads;
            skip.level = lv[0];
            skip.res = res[i];
            skip.reachable = 0;
            snprintf(skip.skip_reason, sizeof skip.skip_reason, "mode %s (every variant): %s",
                     fi->mode, arch_skip);
            skip.ordinal = base.ordinal++;
            return push(plan, &skip, err, err_len);
        }
        int twin_regs[OCC_MAX_REG_CAPS];
        for (int c = 0; c < v->n_capped; c++) twin_regs[c] = res[v->capped[c]].regs_per_thread;
        for (int l = 0; l < n_lv; l++) {
            /* The rung of the ladder for this level (registers alone where a rung sets it). */
            const int pick = occ_regcap_pick(arch, lv[l].block_threads, lv[l].blocks_per_sm,
                                             twin_regs, v->n_capped);
            const int twin = pick >= 0 ? v->capped[pick] : -1;
            OccPoint nat = base;
            nat.variant_index = i;
            nat.lever = OCC_LEVER_PAD;
            nat.block_threads = lv[l].block_threads;
            nat.level = lv[l];
            nat.res = res[i];
            plan_point(arch, &nat);
            OccPoint cap = nat;
            cap.lever = OCC_LEVER_BOUNDS;
            if (twin >= 0) {
                cap.variant_index = twin;
                cap.res = res[twin];
                plan_point(arch, &cap);
            } else {
                cap.reachable = 0;
                snprintf(cap.skip_reason, sizeof cap.skip_reason,
                         "no register-capped twin (natural registers reach 100%%: use pad)");
            }
            OccPoint take[2];
            int n_take = 0;
            switch (opt->lever) {
            case OCC_LEVER_PAD: take[n_take++] = nat; break;
            case OCC_LEVER_BOUNDS: take[n_take++] = cap; break;
            case OCC_LEVER_AUTO: take[n_take++] = nat.reachable || twin < 0 ? nat : cap; break;
            case OCC_LEVER_BOTH:
                take[n_take++] = nat;
                if (twin >= 0) take[n_take++] = cap;
                break;
            }
            for (int t = 0; t < n_take; t++) {
                take[t].ordinal = base.ordinal++;
                if (push(plan, &take[t], err, err_len) != 0) return -1;
            }
        }
    }
    return 0;
}

/* The points of footprint-shaped family f. */
static int build_footprints(const OccArchLimits *arch, long long l2_bytes, const OccOptions *opt,
                            OccPoint base, OccPlan *plan, char *err, size_t err_len)
{
    long long bytes[512];
    const int n =
        occ_plan_footprints(opt->footprint_lo_bytes, opt->footprint_hi_bytes, opt->stride_bytes,
                            arch->l1_smem_sram_bytes, l2_bytes, bytes, 512);
    base.variant_index = -1;
    base.block_threads = 32;
    base.reachable = 1;
    if (n == 0) {
        snprintf(err, err_len,
                 "--footprint: %lld..%lld B holds no footprint of %d lines of --stride %d B",
                 opt->footprint_lo_bytes, opt->footprint_hi_bytes, OCC_FOOTPRINT_MIN_LINES,
                 opt->stride_bytes);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        base.footprint_bytes = bytes[i];
        base.ordinal = i;
        if (push(plan, &base, err, err_len) != 0) return -1;
    }
    return 0;
}

/* The points of level-shaped family f: one per load level, ordinal = the level. */
static int build_levels(OccPoint base, OccPlan *plan, char *err, size_t err_len)
{
    base.variant_index = -1;
    base.reachable = 1;
    for (int i = 0; i < OCC_LOADED_LEVELS; i++) {
        OccLoadedLevel lv;
        occ_loaded_level_spec(i, &lv);
        base.block_threads = 32 * (1 + lv.stream_warps);
        base.ordinal = i;
        if (push(plan, &base, err, err_len) != 0) return -1;
    }
    return 0;
}

/* The families the plan measures: those selected, and with them the level-shaped ones when a
 * selected family's model uses the loaded-latency curve (unless --no-loaded). */
static unsigned int planned_families(const OccOptions *opt)
{
    unsigned int set = opt->families;
    int model = 0;
    for (int f = 0; f < occ_family_count(); f++)
        if ((set >> f & 1u) && occ_family_at(f)->dram_bytes_per_load_byte > 0) model = 1;
    if (model && !opt->no_loaded)
        for (int f = 0; f < occ_family_count(); f++)
            if (occ_family_at(f)->shape == OCC_SHAPE_LEVELS) set |= 1u << f;
    return set;
}

int occ_plan_build(const OccArchLimits *arch, long long l2_bytes, const OccOptions *opt,
                   const OccVariantResources *res, const OccLevel *levels, int n_levels,
                   OccPlan *plan, char *err, size_t err_len)
{
    /* Every occupancy point models, pads and launches within its family's carveout: the run's
     * one carveout, or for a family whose variants own shared memory, its own. */
    plan->carveout_bytes = occ_plan_run_carveout_bytes(arch, opt->carveout, opt->block_threads,
                                                       opt->n_block_threads, res, -1);
    const unsigned int families = planned_families(opt);
    /* Level-shaped families first (k = 0): the sweeps' model is built from their rows. */
    for (int k = 0; k < 2 * occ_family_count(); k++) {
        const int f = k % occ_family_count();
        const OccFamilyInfo *fi = occ_family_at(f);
        if (!(families & (1u << f)) ||
            (fi->shape == OCC_SHAPE_LEVELS) != (k < occ_family_count()))
            continue;
        OccPoint base = {.family = f, .waves = 1};
        snprintf(base.mode, sizeof base.mode, "%s%s", fi->mode,
                 occ_family_takes(fi, "cold") && opt->cold ? "-cold" : "");
        if (occ_family_takes(fi, "waves")) base.waves = opt->waves;
        if (fi->shape == OCC_SHAPE_OCCUPANCY)
            base.carveout_bytes = occ_plan_run_carveout_bytes(
                arch, opt->carveout, opt->block_threads, opt->n_block_threads, res, f);
        const OccArchLimits carved = occ_arch_in_carveout(arch, base.carveout_bytes > 0
                                                                    ? base.carveout_bytes
                                                                    : plan->carveout_bytes);
        int rc = fi->shape == OCC_SHAPE_FOOTPRINT
                     ? build_footprints(arch, l2_bytes, opt, base, plan, err, err_len)
                 : fi->shape == OCC_SHAPE_LEVELS
                     ? build_levels(base, plan, err, err_len)
                     : build_occupancy(&carved, opt, f, res, levels, n_levels, base, plan, err,
                                       err_len);
        if (rc != 0) return -1;
    }
    if (plan->n == 0)
        snprintf(err, err_len, "no compiled variant matches the selected kernels/unroll/vec");
    return plan->n == 0 ? -1 : plan->n;
}

void occ_plan_free(OccPlan *plan)
{
    free(plan->points);
    memset(plan, 0, sizeof *plan);
}

const char *occ_point_variant(const OccPoint *p)
{
    if (p->variant_index >= 0) return occ_variant_at(p->variant_index)->name;
    if (occ_family_at(p->family)->shape == OCC_SHAPE_LEVELS)
        return occ_loaded_level_name(p->ordinal);
    return occ_family_variant_name(p->family);
}

void occ_plan_format_point(const OccPoint *p, char *buf, size_t len)
{
    const char *v = occ_point_variant(p);
    if (p->variant_index < 0 && occ_family_at(p->family)->shape == OCC_SHAPE_LEVELS)
        snprintf(buf, len, "%-22s load level %d: %d background warps per SM beside the probe", v,
                 p->ordinal, p->block_threads / 32 - 1);
    else if (p->variant_index < 0)
        snprintf(buf, len, "%-22s footprint %14lld B", v, p->footprint_bytes);
    else if (p->reachable) {
        const int n = snprintf(buf, len, "%-22s block %4d  target %6.2f%%  achieved %6.2f%%  "
                                         "%2d blocks/SM  pad %6d B  regs %3d  limiter %s",
                               v, p->block_threads, p->level.asked_pct, p->model.occupancy_pct,
                               p->model.blocks_per_sm, p->pad_bytes, p->res.regs_per_thread,
                               occ_limiter_name(p->model.limiter));
        /* a kernel's own shared memory (a tile), which the padding comes after */
        const int tile = occ_variant_at(p->variant_index)->own_dyn_smem_bytes;
        if (tile > 0 && n > 0 && (size_t)n < len)
            snprintf(buf + n, len - (size_t)n, "  tile %d B", tile);
    }
    else
        snprintf(buf, len, "%-22s block %4d  target %6.2f%%  skip: %s", v, p->block_threads,
                 p->level.asked_pct, p->skip_reason);
}

int occ_plan_footprints(long long lo, long long hi, long long line_bytes, long long l1_bytes,
                        long long l2_bytes, long long *out, int max)
{
    int n = 0;
    if (line_bytes <= 0 || max <= 0) return 0;
    /* Bounded first: near 2^63 the rounding below overflows, and a loop that adds no footprint
     * never ends. */
    hi = (hi < OCC_FOOTPRINT_MAX_BYTES ? hi : OCC_FOOTPRINT_MAX_BYTES) / line_bytes * line_bytes;
    lo = lo > OCC_FOOTPRINT_MIN_LINES * line_bytes ? lo : OCC_FOOTPRINT_MIN_LINES * line_bytes;
    if (hi < OCC_FOOTPRINT_MIN_LINES * line_bytes) return 0;
    double f = (double)lo;
    while (n < max && f < (double)hi) {
        long long bytes = (long long)(f / (double)line_bytes + 0.5) * line_bytes;
        if (bytes >= hi) break;
        if (n == 0 || bytes > out[n - 1]) out[n++] = bytes;
        int near = (f >= l1_bytes / 4.0 && f <= l1_bytes * 4.0) ||
                   (f >= l2_bytes / 4.0 && f <= l2_bytes * 4.0);
        f *= pow(2.0, near ? 1.0 / 8 : 1.0 / 2);
    }
    if (n < max) out[n++] = hi;
    return n;
}
