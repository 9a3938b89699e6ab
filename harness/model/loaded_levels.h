/* SPDX-License-Identifier: Apache-2.0 */
/* harness/model/loaded_levels.h: the load levels of the loaded-latency experiment (the chase/loaded
 * family) as a plan knows them, and their CSV rows: what each level runs, its variant name, the
 * row it fills, and the curve L(X) the model builds from a run's ok rows (read back as they are
 * on --resume). Pure logic: no CUDA header. */
#ifndef OCC_LOADED_LEVELS_H
#define OCC_LOADED_LEVELS_H

#include "csv.h"
#include "loaded_hist.h"
#include "loaded_model.h"

/* The load steps, idle to saturation, of each traffic (OccCurveTraffic: read, copy, gather,
 * sector). */
#define OCC_LOADED_STEPS 11
#define OCC_LOADED_LEVELS (OCC_CURVE_TRAFFICS * OCC_LOADED_STEPS)

/* Level i (0 <= i < OCC_LOADED_LEVELS): sets lv's traffic (i / OCC_LOADED_STEPS), stream_warps
 * and unroll and zeroes the rest of lv. The steps of read and copy: 0, 1, 2, 4 warps of U = 1, 4
 * warps of U = 2 and 4, then 8, 12, 16, 24 and 31 warps of U = 4 (63 KiB per SM in flight, past
 * what the roof needs at any loaded latency); of gather the same warps with 4 x U lines per warp
 * and trip (4 to 16: the same bytes in flight); of sector the same warps and U as read, each lane
 * U random 32-byte sectors per trip (32 x U a warp). */
void occ_loaded_level_spec(int i, OccLoadedLevel *lv);

/* The CSV traffic column of an OccCurveTraffic ("read", "copy", "gather", "sector"); NULL outside
 * 0..OCC_CURVE_TRAFFICS-1. */
const char *occ_curve_traffic_name(int traffic);

/* The CSV variant of level i, loaded_<read|copy|gather|sector>_w<WW>_u<U> (e.g. loaded_read_w08_u4);
 * NULL outside 0..OCC_LOADED_LEVELS-1. */
const char *occ_loaded_level_name(int i);

/* Fills the chase/loaded columns of r from lv: traffic, stream_warps_per_sm, unroll, gbps_median,
 * the latency_* columns, sm_clock_mhz_measured, samples (timed hops, all probes). */
void occ_loaded_level_to_row(const OccLoadedLevel *lv, OccRow *r);

/* 1 when r is a row of a level-shaped family (its kernel and mode name an OCC_SHAPE_LEVELS
 * entry of the family table: chase/loaded), whatever its status; else 0 (r may be NULL). */
int occ_loaded_row_is_level(const OccRow *r);

/* 1 when r is an ok row of a load level (occ_loaded_row_is_level, status ok), with its traffic
 * and figures in *lv (width_ns from the latency_mean and latency_max* columns); else 0. */
int occ_loaded_level_from_row(const OccRow *r, OccLoadedLevel *lv);

/* Adds r, when it is an ok load level (occ_loaded_level_from_row), to curves[its traffic]
 * (OccCurveTraffic), and a read level with background warps also to that curve's trip-spread
 * sums (OccLatencyCurve.trip_excess_ns; r->sm_count SMs). Returns 1 when added, 0 otherwise (any
 * other row, a NULL or full curve or a figure out of range). */
int occ_loaded_curve_take_row(OccLatencyCurve *const curves[OCC_CURVE_TRAFFICS], const OccRow *r);

#endif
