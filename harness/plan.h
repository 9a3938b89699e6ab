/* harness/plan.h: the sweep plan: which variant runs at which occupancy, with what padding (pure).
 *
 * Occupancy levels are whole blocks per SM: with B-thread blocks a level is K blocks, i.e.
 * K x ceil(B/32) warps out of the arch's max warps. A requested percentage maps to the nearest
 * such level; the plan says when it did. Each point is checked against the offline occupancy
 * model; a point no lever reaches is kept, marked unreachable with the reason (a skip row). */
#ifndef OCC_PLAN_H
#define OCC_PLAN_H

#include <stddef.h>

#include "arch.h"
#include "occupancy.h"
#include "options.h"
#include "variant.h"

enum { OCC_MAX_LEVELS = 64 };

/* One occupancy level of a sweep. */
typedef struct OccLevel {
    double asked_pct;  /* the percentage the user asked for (or the level itself for a range) */
    int blocks_per_sm; /* the achievable level it maps to */
    double level_pct;  /* 100 x blocks_per_sm x warps per block / max warps per SM */
} OccLevel;

/* One planned measurement. */
typedef struct OccPoint {
    int variant_index;      /* index into the variant table the plan was built from */
    OccLever lever;         /* OCC_LEVER_PAD or OCC_LEVER_BOUNDS: how this point's level is set */
    int block_threads;      /* threads per block */
    OccLevel level;         /* the target */
    OccVariantResources res; /* registers, local memory and static smem the plan used */
    int reachable;          /* 1 when the model puts exactly level.blocks_per_sm blocks per SM */
    int pad_bytes;          /* dynamic shared memory padding per block (when reachable) */
    OccResult model;        /* the model's occupancy with that padding (when reachable) */
    char skip_reason[96];   /* why not reachable, e.g. "registers allow only 8 blocks/SM" */
} OccPoint;

/* Maps spec to distinct achievable levels for blocks of block_threads on arch, ascending.
 * Returns the number of levels (>= 1), or -1 with a one-line message in err (e.g. a block size
 * the arch cannot run). notes (may be NULL) receives "asked 30% -> 31.25%"-style remarks. */
int occ_plan_levels(const OccArchLimits *arch, int block_threads, const OccOccSpec *spec,
                    OccLevel *levels, int max_levels, char *notes, size_t notes_len);

/* Builds the points for the selected kernels/unrolls/vecs/lever of opt, over levels, for the
 * variants infos[0..n_variants) with resources res[] (same order). The natural variant and its
 * _lb twin of each (U, V) are paired by name. Returns the number of points, or -1 with err. */
int occ_plan_build(const OccArchLimits *arch, const OccOptions *opt, const OccVariantInfo *infos,
                   const OccVariantResources *res, int n_variants, const OccLevel *levels,
                   int n_levels, OccPoint *points, int max_points, char *err, size_t err_len);

/* Footprints of the latency ladder: geometric from lo to hi bytes, multiples of 128 B, 8 steps
 * per octave within a factor 4 of l1_bytes or l2_bytes (to resolve the cache edges), 2 per
 * octave elsewhere, ending exactly at hi. Returns the count (<= max). */
int occ_plan_footprints(long long lo, long long hi, long long l1_bytes, long long l2_bytes,
                        long long *out, int max);

/* One line describing a point for --dry-run (no newline). */
void occ_plan_format_point(const OccPoint *p, const OccVariantInfo *infos, char *buf, size_t len);

#endif
