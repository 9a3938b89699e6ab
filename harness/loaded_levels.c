/* SPDX-License-Identifier: Apache-2.0 */
/* harness/loaded_levels.c: the load levels and their rows (contract in loaded_levels.h). */
#include "loaded_levels.h"

#include <math.h>
#include <string.h>

static const int level_warps[OCC_LOADED_STEPS] = {0, 1, 2, 4, 4, 4, 8, 12, 16, 24, 31};
static const int level_unroll[OCC_LOADED_STEPS] = {1, 1, 1, 1, 2, 4, 4, 4, 4, 4, 4};
/* The names of the levels above, read then copy (the unit test checks them against the table). */
static const char *const level_names[OCC_LOADED_LEVELS] = {
    "loaded_read_w00_u1", "loaded_read_w01_u1", "loaded_read_w02_u1", "loaded_read_w04_u1",
    "loaded_read_w04_u2", "loaded_read_w04_u4", "loaded_read_w08_u4", "loaded_read_w12_u4",
    "loaded_read_w16_u4", "loaded_read_w24_u4", "loaded_read_w31_u4", "loaded_copy_w00_u1",
    "loaded_copy_w01_u1", "loaded_copy_w02_u1", "loaded_copy_w04_u1", "loaded_copy_w04_u2",
    "loaded_copy_w04_u4", "loaded_copy_w08_u4", "loaded_copy_w12_u4", "loaded_copy_w16_u4",
    "loaded_copy_w24_u4", "loaded_copy_w31_u4"};

void occ_loaded_level_spec(int i, OccLoadedLevel *lv)
{
    memset(lv, 0, sizeof *lv);
    lv->traffic = i / OCC_LOADED_STEPS;
    lv->stream_warps = level_warps[i % OCC_LOADED_STEPS];
    lv->unroll = level_unroll[i % OCC_LOADED_STEPS];
}

const char *occ_loaded_level_name(int i)
{
    return i >= 0 && i < OCC_LOADED_LEVELS ? level_names[i] : NULL;
}

void occ_loaded_level_to_row(const OccLoadedLevel *lv, OccRow *r)
{
    r->traffic = lv->traffic ? "copy" : "read";
    r->stream_warps_per_sm = lv->stream_warps;
    r->unroll = lv->unroll;
    r->gbps_median = lv->gbps;
    r->latency_mean_ns = lv->mean_ns;
    r->latency_mean_cycles = lv->mean_cycles;
    r->latency_p5_ns = lv->p5_ns;
    r->latency_p50_ns = lv->p50_ns;
    r->latency_p95_ns = lv->p95_ns;
    r->latency_p99_ns = lv->p99_ns;
    r->latency_max2_ns = lv->width_ns[1];
    r->latency_max4_ns = lv->width_ns[2];
    r->latency_max8_ns = lv->width_ns[3];
    r->latency_max16_ns = lv->width_ns[4];
    r->latency_max32_ns = lv->width_ns[5];
    r->latency_sm_min_ns = lv->probe_min_ns;
    r->latency_sm_max_ns = lv->probe_max_ns;
    r->sm_clock_mhz_measured = lv->clock_mhz;
    r->samples = lv->hops;
}

int occ_loaded_level_from_row(const OccRow *r, OccLoadedLevel *lv)
{
    if (r == NULL || r->kernel == NULL || r->mode == NULL || r->status == NULL ||
        r->traffic == NULL || strcmp(r->kernel, "chase") != 0 || strcmp(r->mode, "loaded") != 0 ||
        strcmp(r->status, "ok") != 0)
        return 0;
    memset(lv, 0, sizeof *lv);
    lv->traffic = strcmp(r->traffic, "copy") == 0;
    lv->stream_warps = (int)r->stream_warps_per_sm;
    lv->unroll = (int)r->unroll;
    lv->gbps = r->gbps_median;
    lv->mean_ns = r->latency_mean_ns;
    lv->mean_cycles = r->latency_mean_cycles;
    lv->p5_ns = r->latency_p5_ns;
    lv->p50_ns = r->latency_p50_ns;
    lv->p95_ns = r->latency_p95_ns;
    lv->p99_ns = r->latency_p99_ns;
    const double widths[OCC_CURVE_WIDTHS] = {r->latency_mean_ns, r->latency_max2_ns,
                                             r->latency_max4_ns, r->latency_max8_ns,
                                             r->latency_max16_ns, r->latency_max32_ns};
    memcpy(lv->width_ns, widths, sizeof widths);
    lv->probe_min_ns = r->latency_sm_min_ns;
    lv->probe_max_ns = r->latency_sm_max_ns;
    lv->clock_mhz = r->sm_clock_mhz_measured;
    lv->hops = r->samples;
    strcpy(lv->status, "ok");
    return 1;
}

int occ_loaded_curve_take_row(OccLatencyCurve *read, OccLatencyCurve *rw, const OccRow *r)
{
    OccLoadedLevel lv;
    if (!occ_loaded_level_from_row(r, &lv)) return 0;
    OccLatencyCurve *c = lv.traffic ? rw : read;
    return c != NULL && occ_curve_add_widths(c, lv.gbps, lv.width_ns) == 0;
}
