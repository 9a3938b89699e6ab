/* SPDX-License-Identifier: Apache-2.0 */
/* harness/model/loaded_levels.c: the load levels and their rows (contract in loaded_levels.h). */
#include "loaded_levels.h"

#include <math.h>
#include <string.h>

#include "catalog.h"

static const int level_warps[OCC_LOADED_STEPS] = {0, 1, 2, 4, 4, 4, 8, 12, 16, 24, 31};
static const int level_unroll[OCC_CURVE_TRAFFICS][OCC_LOADED_STEPS] = {
    {1, 1, 1, 1, 2, 4, 4, 4, 4, 4, 4},
    {1, 1, 1, 1, 2, 4, 4, 4, 4, 4, 4},
    {4, 4, 4, 4, 8, 16, 16, 16, 16, 16, 16},
    {1, 1, 1, 1, 2, 4, 4, 4, 4, 4, 4}};
/* The CSV traffic column of each OccCurveTraffic. */
static const char *const traffic_names[OCC_CURVE_TRAFFICS] = {"read", "copy", "gather",
                                                              "sector"};
/* The names of the levels above, read, copy, gather, then sector (the unit test checks them
 * against the table). */
static const char *const level_names[OCC_LOADED_LEVELS] = {
    "loaded_read_w00_u1", "loaded_read_w01_u1", "loaded_read_w02_u1", "loaded_read_w04_u1",
    "loaded_read_w04_u2", "loaded_read_w04_u4", "loaded_read_w08_u4", "loaded_read_w12_u4",
    "loaded_read_w16_u4", "loaded_read_w24_u4", "loaded_read_w31_u4", "loaded_copy_w00_u1",
    "loaded_copy_w01_u1", "loaded_copy_w02_u1", "loaded_copy_w04_u1", "loaded_copy_w04_u2",
    "loaded_copy_w04_u4", "loaded_copy_w08_u4", "loaded_copy_w12_u4", "loaded_copy_w16_u4",
    "loaded_copy_w24_u4", "loaded_copy_w31_u4", "loaded_gather_w00_u4", "loaded_gather_w01_u4",
    "loaded_gather_w02_u4", "loaded_gather_w04_u4", "loaded_gather_w04_u8", "loaded_gather_w04_u16",
    "loaded_gather_w08_u16", "loaded_gather_w12_u16", "loaded_gather_w16_u16",
    "loaded_gather_w24_u16", "loaded_gather_w31_u16", "loaded_sector_w00_u1",
    "loaded_sector_w01_u1", "loaded_sector_w02_u1", "loaded_sector_w04_u1", "loaded_sector_w04_u2",
    "loaded_sector_w04_u4", "loaded_sector_w08_u4", "loaded_sector_w12_u4", "loaded_sector_w16_u4",
    "loaded_sector_w24_u4", "loaded_sector_w31_u4"};

void occ_loaded_level_spec(int i, OccLoadedLevel *lv)
{
    memset(lv, 0, sizeof *lv);
    lv->traffic = i / OCC_LOADED_STEPS;
    lv->stream_warps = level_warps[i % OCC_LOADED_STEPS];
    lv->unroll = level_unroll[lv->traffic][i % OCC_LOADED_STEPS];
}

const char *occ_curve_traffic_name(int traffic)
{
    return traffic >= 0 && traffic < OCC_CURVE_TRAFFICS ? traffic_names[traffic] : NULL;
}

const char *occ_loaded_level_name(int i)
{
    return i >= 0 && i < OCC_LOADED_LEVELS ? level_names[i] : NULL;
}

/* The level's figures and the row columns that hold them, one pair each: both directions of
 * the conversion come from this list (width_ns[0] is the mean, latency_mean_ns). */
#define LEVEL_FIGURES(X)                                                                           \
    X(gbps_median, gbps)                                                                           \
    X(latency_mean_ns, mean_ns)                                                                    \
    X(latency_mean_cycles, mean_cycles)                                                            \
    X(latency_p5_ns, p5_ns)                                                                        \
    X(latency_p50_ns, p50_ns)                                                                      \
    X(latency_p95_ns, p95_ns)                                                                      \
    X(latency_p99_ns, p99_ns)                                                                      \
    X(latency_max2_ns, width_ns[1])                                                                \
    X(latency_max4_ns, width_ns[2])                                                                \
    X(latency_max8_ns, width_ns[3])                                                                \
    X(latency_max16_ns, width_ns[4])                                                               \
    X(latency_max32_ns, width_ns[5])                                                               \
    X(latency_sm_min_ns, probe_min_ns)                                                             \
    X(latency_sm_max_ns, probe_max_ns)                                                             \
    X(sm_clock_mhz_measured, clock_mhz)                                                            \
    X(stream_warps_per_sm, stream_warps)                                                           \
    X(unroll, unroll)                                                                              \
    X(samples, hops)

void occ_loaded_level_to_row(const OccLoadedLevel *lv, OccRow *r)
{
#define TO_ROW(column, field) r->column = lv->field;
    LEVEL_FIGURES(TO_ROW)
#undef TO_ROW
    r->traffic = lv->traffic >= 0 && lv->traffic < OCC_CURVE_TRAFFICS ? traffic_names[lv->traffic]
                                                                      : NULL;
}

int occ_loaded_row_is_level(const OccRow *r)
{
    return r != NULL && occ_family_is_levels(r->family_info);
}

int occ_loaded_level_from_row(const OccRow *r, OccLoadedLevel *lv)
{
    if (!occ_loaded_row_is_level(r) || r->status == NULL || r->traffic == NULL ||
        strcmp(r->status, "ok") != 0)
        return 0;
    int traffic = 0;
    while (traffic < OCC_CURVE_TRAFFICS && strcmp(r->traffic, traffic_names[traffic]) != 0)
        traffic++;
    if (traffic == OCC_CURVE_TRAFFICS) return 0;
    memset(lv, 0, sizeof *lv);
#define FROM_ROW(column, field) lv->field = r->column;
    LEVEL_FIGURES(FROM_ROW)
#undef FROM_ROW
    lv->width_ns[0] = lv->mean_ns;
    lv->traffic = traffic;
    strcpy(lv->status, "ok");
    return 1;
}

/* Adds a read level's trip to c's trip-spread sums (OccLatencyCurve.trip_excess_ns): its
 * background warps each wait on U 16-byte loads of 32 lanes, k = 4U adjacent lines, per trip, and
 * keep warps x 32 x U x 16 B in flight per SM; their trip time is that x SMs / the level's GB/s
 * (which also counts the probes' 32 B a hop: under 3% at the lowest level with background). */
static void add_trip(OccLatencyCurve *c, const OccLoadedLevel *lv, long long sm_count)
{
    if (lv->traffic != OCC_CURVE_READ || lv->stream_warps <= 0 || sm_count <= 0 ||
        !(lv->gbps > 0))
        return;
    const int j = occ_curve_width_column(4 * lv->unroll);
    const double trip_ns = 32.0 * 16.0 * lv->stream_warps * lv->unroll * sm_count / lv->gbps;
    const double excess = trip_ns - lv->mean_ns, spread = lv->width_ns[j] - lv->mean_ns;
    if (!(isfinite(excess) && isfinite(spread))) return;
    c->trip_excess_ns += excess;
    c->trip_spread_ns += spread;
}

int occ_loaded_curve_take_row(OccLatencyCurve *const curves[OCC_CURVE_TRAFFICS], const OccRow *r)
{
    OccLoadedLevel lv;
    if (!occ_loaded_level_from_row(r, &lv)) return 0;
    OccLatencyCurve *c = curves[lv.traffic];
    if (c == NULL || occ_curve_add_widths(c, lv.gbps, lv.width_ns) != 0) return 0;
    add_trip(c, &lv, r->sm_count);
    return 1;
}
