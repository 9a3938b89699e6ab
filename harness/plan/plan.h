/* SPDX-License-Identifier: Apache-2.0 */
/* harness/plan/plan.h: the sweep plan: which variant runs at which occupancy, with what padding
 * (pure). The levels come from plan_levels.h, the run's carveout from plan_carveout.h; both
 * headers come with this one. Each point is checked against the offline occupancy model; a
 * point no lever reaches is kept, marked unreachable with the reason (a skip row). */
#ifndef OCC_PLAN_H
#define OCC_PLAN_H

#include <stddef.h>

#include "arch.h"
#include "catalog.h"
#include "occupancy.h"
#include "options.h"
#include "plan_carveout.h"
#include "plan_levels.h"
#include "variant.h"

/* One planned measurement. */
typedef struct OccPoint {
    int family;                /* index of its family in the catalog */
    int variant_index;         /* catalog variant; -1 for a footprint-shaped family (its variant
                                  is named "<kernel>_<mode>") or a level-shaped one (named per
                                  level) */
    int ordinal;               /* position among its family's points in the full plan (before
                                  any --resume filter): seeds what the point builds */
    char mode[24];             /* CSV mode of its row: the family's mode, "-cold" appended when
                                  the family takes --cold and it is set */
    OccLever lever;            /* OCC_LEVER_PAD or OCC_LEVER_BOUNDS: how this point's level is
                                  set */
    int block_threads;         /* threads per block */
    int waves;                 /* grid = blocks/SM x SMs x waves (1 unless the family takes
                                  --waves) */
    OccLevel level;            /* the target (occupancy-shaped families) */
    long long footprint_bytes; /* the footprint (footprint-shaped families), else 0 */
    OccVariantResources res;   /* registers, local memory and static smem the plan used */
    int reachable;             /* 1 when the model puts exactly level.blocks_per_sm blocks per
                                  SM (always 1 for footprint points) */
    int pad_bytes;             /* dynamic shared memory padding per block (when reachable), on
                                  top of the variant's own_dyn_smem_bytes */
    int carveout_bytes;        /* shared memory per SM the launch configures (its family's
                                  carveout, plan_carveout.h: the plan's carveout_bytes unless the
                                  family owns shared memory; 0 for footprint points, which set
                                  their own) */
    OccResult model;           /* the model's occupancy with that padding (when reachable) */
    char skip_reason[96];      /* why not reachable, e.g. "registers allow only 8 blocks/SM" */
} OccPoint;

/* A growable list of points. */
typedef struct OccPlan {
    OccPoint *points;   /* n points (heap) */
    int n;              /* points in use */
    int cap;            /* points allocated */
    int carveout_bytes; /* shared memory per SM of the occupancy points of every family that
                           owns no shared memory (the run's carveout, occ_plan_run_carveout_bytes
                           over opt->block_threads, family -1); L1 gets the rest of the SRAM.
                           A family with a tile (smem) has its own: OccPoint.carveout_bytes */
} OccPlan;

/* Appends the points of every family selected in opt->families, in family-table order:
 * - an occupancy-shaped family: each natural variant selected by the list options it takes
 *   (--unroll, --vec, --fmas) at every level (levels[0..n_levels), from occ_plan_block_levels,
 *   each at its own block size, one of opt->block_threads) through opt->lever, the
 *   register-capped twin standing in where the lever says so (the rung occ_regcap_pick chooses
 *   for the level from the twins' registers in res[]: registers alone set the level where a
 *   twin's count does, padding pins the rest; --lever both gives a pad and a bounds row per
 *   level, auto the natural variant where it reaches the level);
 * - a footprint-shaped family: one point per footprint of --footprint (occ_plan_footprints with
 *   lines of --stride, the arch's L1 and l2_bytes, 0 when unknown);
 * - a level-shaped family: one point per load level (harness/model/loaded_levels.h; ordinal =
 *   the level, block of 32 x (1 + background warps) threads).
 * The level-shaped families come first, and are planned also when not selected where a selected
 * family's model uses the loaded-latency curve (dram_bytes_per_load_byte > 0) and --no-loaded is
 * not given. res[] holds every catalog variant's resources. Returns the number of points, or -1
 * with err (no point selected, a footprint range too small for its stride, out of memory). */
int occ_plan_build(const OccArchLimits *arch, long long l2_bytes, const OccOptions *opt,
                   const OccVariantResources *res, const OccLevel *levels, int n_levels,
                   OccPlan *plan, char *err, size_t err_len);

/* Frees the points and zeroes the plan. */
void occ_plan_free(OccPlan *plan);

/* The CSV variant name of p ("<kernel>_<mode>" for a footprint point, occ_loaded_level_name for
 * a load level). */
const char *occ_point_variant(const OccPoint *p);

/* Footprints of the latency ladder: geometric from lo to hi bytes, whole lines of line_bytes
 * (--stride; each rounded to the nearest line, hi down to a line), 8 steps per octave within a
 * factor 4 of l1_bytes or l2_bytes (to resolve the cache edges), 2 per octave elsewhere, strictly
 * ascending (no footprint twice), ending at hi. lo is raised to OCC_FOOTPRINT_MIN_LINES lines and
 * hi lowered to OCC_FOOTPRINT_MAX_BYTES. Returns the count (<= max), 0 when hi holds fewer than
 * OCC_FOOTPRINT_MIN_LINES lines (or line_bytes or max is not positive). */
int occ_plan_footprints(long long lo, long long hi, long long line_bytes, long long l1_bytes,
                        long long l2_bytes, long long *out, int max);

/* One line describing a point for --dry-run (no newline): an occupancy point's variant, block,
 * target and achieved occupancy, blocks per SM, padding, registers and limiter, and for a
 * variant with shared memory of its own ("tile N B", the smem family's tile, a plugin's), that
 * too: the padding comes after it. */
void occ_plan_format_point(const OccPoint *p, char *buf, size_t len);

#endif
