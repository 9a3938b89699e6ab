/* SPDX-License-Identifier: Apache-2.0 */
/* harness/report/fleet.h: the fleet summary: the same sweep on several GPUs, compared per variant.
 *
 * Each run's plateau (its best gbps_median for the variant) and knee (occ_summary_compute), and,
 * among runs on GPUs of the same type (equal gpu_name, e.g. "NVIDIA H200"), how far each plateau
 * lies from the median of the type's plateaus (its own included). A run further away than
 * OCC_FLEET_NOISE_SIGMAS combined standard deviations (its plateau row's noise_pct and the median
 * of the type's, added in quadrature) is an outlier. With two runs of a type the median is their
 * mean, so a difference beyond the noise names both. A run is usually one GPU; two runs of one
 * GPU (equal OccFleetMember.device) are compared like two GPUs and counted as one GPU.
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
    const char *label;    /* how the tables name the run, e.g. "node1 gpu0 0000:19:00.0"; two
                             runs of one GPU need labels that tell them apart (occfleet adds
                             the file name) */
    const char *device;   /* the GPU the run measured (its UUID, or e.g. "node1 gpu0
                             0000:19:00.0"): runs with equal devices are runs of one GPU; NULL:
                             the label */
    const char *gpu_name; /* the GPU type (its name, e.g. "NVIDIA H200"): members with equal
                             names are siblings */
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
    int knee_at_lowest;  /* 1 when knee_occ_pct is the lowest level the run measured
                            (OccVariantSummary.knee_at_lowest) */
    int n_siblings;      /* other runs on GPUs of the same type with this variant */
    double vs_type_pct;  /* 100 x (plateau / median of the plateaus of the runs on GPUs of the
                            same type (gpu_name), its own included - 1), %; NaN without
                            siblings. A comparison between GPUs, not the Little's-law model */
    double bound_pct;    /* OCC_FLEET_NOISE_SIGMAS x the combined noise, %; NaN without
                            siblings */
    int outlier;         /* 1: |vs_type_pct| > bound_pct */
} OccFleetEntry;

/* Fills out[0..max) with one entry per (variant, member) holding a finite plateau, variants in
 * order of first appearance over the members, members in order within a variant; rows of a
 * level-shaped family (the load levels) make no entry. Returns the number filled, or -1 when max
 * is too small or memory ran out. */
int occ_fleet_compute(const OccFleetMember *m, int n, OccFleetEntry *out, int max);

/* Prints the summary table of occ_fleet_compute's entries (variant, run label, plateau GB/s,
 * noise %, knee occ % with 2 decimals (OCC_KNEE_LOWEST_MARK at the lowest level run), vs GPU
 * type %), a spread line per (variant, GPU type) with two or more runs (max - min over the
 * median of their plateaus, %), one line per outlier naming the run, when any member has load
 * levels one "model inputs:" line with their number per run (distinct variants, whatever their
 * status; "lo..hi" when the members differ), and a closing line: the runs, the distinct GPUs
 * (devices) among them, the outliers and what the columns mean. Returns the number of outliers,
 * or -1 (message printed) when memory ran out. */
int occ_fleet_print(FILE *f, const OccFleetMember *m, int n);

#endif
