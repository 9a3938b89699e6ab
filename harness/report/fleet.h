/* SPDX-License-Identifier: Apache-2.0 */
/* harness/report/fleet.h: the fleet summary: the same sweep on several GPUs, compared per variant.
 *
 * Each GPU's plateau (its best gbps_median for the variant) and knee (occ_summary_compute), and,
 * among GPUs of the same model (equal gpu_name), how far each plateau lies from the median of the
 * model's plateaus (its own included). A GPU further away than OCC_FLEET_NOISE_SIGMAS combined
 * standard deviations (its plateau row's noise_pct and the median of the model's, added in
 * quadrature) is an outlier. With two GPUs of a model the median is their mean, so a difference
 * beyond the noise names both.
 *
 * Only the sweep's variants are compared: the load levels of a level-shaped family (the
 * catalog's OCC_SHAPE_LEVELS, chase/loaded: the model's inputs, variants loaded_*) are left out,
 * and the printed summary gives them one line, their count per GPU. */
#ifndef OCC_FLEET_H
#define OCC_FLEET_H

#include <stdio.h>

#include "csv.h"

/* How many combined standard deviations away from its siblings make a GPU an outlier. */
#define OCC_FLEET_NOISE_SIGMAS 3.0

/* One GPU's run: its rows and what names it. */
typedef struct OccFleetMember {
    const char *label;    /* how the tables name it, e.g. "node1 gpu0 0000:19:00.0" */
    const char *gpu_name; /* the model: members with equal names are siblings */
    const OccRow *rows;   /* n_rows rows of its CSV (only ok rows count) */
    int n_rows;
} OccFleetMember;

/* One (variant, GPU) line of the summary. */
typedef struct OccFleetEntry {
    const char *variant; /* points into the member's rows */
    int member;          /* index into the members */
    double plateau_gbps; /* the variant's best gbps_median on this GPU, GB/s */
    double noise_pct;    /* noise_pct of the row holding the plateau, % */
    double knee_occ_pct; /* lowest occupancy reaching OCC_SUMMARY_KNEE_FRACTION of the
                            plateau, % (NaN: none) */
    int n_siblings;      /* other GPUs of the same model with this variant */
    double vs_model_pct; /* 100 x (plateau / median of the model's plateaus - 1), %; NaN
                            without siblings */
    double bound_pct;    /* OCC_FLEET_NOISE_SIGMAS x the combined noise, %; NaN without
                            siblings */
    int outlier;         /* 1: |vs_model_pct| > bound_pct */
} OccFleetEntry;

/* Fills out[0..max) with one entry per (variant, member) holding a finite plateau, variants in
 * order of first appearance over the members, members in order within a variant; rows of a
 * level-shaped family (the load levels) make no entry. Returns the number filled, or -1 when max
 * is too small or memory ran out. */
int occ_fleet_compute(const OccFleetMember *m, int n, OccFleetEntry *out, int max);

/* Prints the summary table of occ_fleet_compute's entries (variant, GPU, plateau GB/s, noise %,
 * knee occ %, vs model %), a spread line per (variant, model) with two or more GPUs (max - min
 * over the median of their plateaus, %), one line per outlier naming the GPU, and, when any
 * member has load levels, one "model inputs:" line with their number per GPU (distinct
 * variants, whatever their status; "lo..hi" when the members differ). Returns the number of
 * outliers, or -1 (message printed) when memory ran out. */
int occ_fleet_print(FILE *f, const OccFleetMember *m, int n);

#endif
