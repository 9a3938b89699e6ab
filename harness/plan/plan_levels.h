/* SPDX-License-Identifier: Apache-2.0 */
/* harness/plan/plan_levels.h: the occupancy levels of a sweep (pure).
 *
 * Occupancy levels are whole blocks per SM: with B-thread blocks a level is K blocks, i.e.
 * K x ceil(B/32) warps out of the arch's max warps. A requested percentage maps to the nearest
 * such level; the notes say when it did. */
#ifndef OCC_PLAN_LEVELS_H
#define OCC_PLAN_LEVELS_H

#include <stddef.h>

#include "arch.h"
#include "options_types.h"

/* Most levels of one run: up to 32 per block size (the block limit) for each of the
 * OCC_MAX_LIST block sizes. */
enum { OCC_MAX_LEVELS = 32 * OCC_MAX_LIST };

/* One occupancy level of a sweep. */
typedef struct OccLevel {
    int block_threads; /* the block size whose whole blocks make the level */
    double asked_pct;  /* the percentage the user asked for (or the level itself for a range) */
    int blocks_per_sm; /* the achievable level it maps to */
    double level_pct;  /* 100 x blocks_per_sm x warps per block / max warps per SM */
} OccLevel;

/* The highest whole-block level blocks of block_threads reach on arch: the blocks per SM that
 * its warp slots and its block limit allow. */
int occ_plan_max_level_blocks(const OccArchLimits *arch, int block_threads);

/* Maps spec to distinct achievable levels for blocks of block_threads on arch, ascending, into
 * levels[0..max_levels). Returns the number of levels (>= 1), or -1 when arch cannot run a
 * block of block_threads (occ_plan_block_levels words the message). notes (may be NULL)
 * receives "asked 30% -> 31.25%"-style remarks, "; "-separated. */
int occ_plan_levels(const OccArchLimits *arch, int block_threads, const OccOccSpec *spec,
                    OccLevel *levels, int max_levels, char *notes, size_t notes_len);

/* occ_plan_levels for each block size of block_threads[0..n_blocks), the level lists one after
 * another (block sizes in the order given, each one's levels ascending). notes (may be NULL)
 * gets one line per block size, '\n'-terminated, saying which levels the block size can reach,
 * which the sweep visits, and which asked level mapped to which, e.g.
 * "block 1024: reaches 2 levels, 50%..100% in steps of 50%; visits 50%, 100%; asked 25% -> 50%".
 * Returns the number of levels, or -1 with a one-line message in err naming a block size arch
 * cannot run or a total above max_levels. */
int occ_plan_block_levels(const OccArchLimits *arch, const int *block_threads, int n_blocks,
                          const OccOccSpec *spec, OccLevel *levels, int max_levels, char *notes,
                          size_t notes_len, char *err, size_t err_len);

#endif
