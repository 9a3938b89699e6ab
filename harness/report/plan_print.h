/* SPDX-License-Identifier: Apache-2.0 */
/* harness/report/plan_print.h: the plan of harness/plan/plan.h as printed before any measurement: the
 * occupancy levels a run announces on stderr, and the whole plan of --dry-run on stdout. */
#ifndef OCC_PLAN_PRINT_H
#define OCC_PLAN_PRINT_H

#include <stdio.h>

#include "plan.h"

/* Prints each '\n'-terminated line of notes (occ_plan_block_levels) to f after prefix, when
 * plan has occupancy points (the levels mean nothing to a footprint sweep). */
void occ_plan_print_levels(FILE *f, const char *prefix, const char *notes, const OccPlan *plan);

/* Prints the carveouts of the plan's occupancy points to f: one line for the run's (when a point
 * has it), and one per family whose points have their own (a family that owns shared memory);
 * nothing for a plan of footprints only. */
void occ_plan_print_carveouts(FILE *f, const OccPlan *plan);

/* Prints the --dry-run plan on stdout: a header naming target and the number of points (with
 * "(S sweep points + L load levels)" when the plan has load levels), the level notes (when the
 * plan has occupancy points), the carveout (when a point sets one), one line per point (when
 * the plan holds more than one kind of point, the sweep points, the load levels and the
 * footprints of the latency ladder each after a line "<kind> (N):"), the count (with_l2: the
 * device's L2 size was known, so footprints near L2 are planned densely; without it, for a plan
 * with footprints, a line says so), then the estimated duration of the run under opt's timing
 * options (harness/plan/plan_estimate.h) and, when opt asks for every kernel, a line saying the
 * latency ladder is not among them and how to run it. */
void occ_plan_print_dry_run(const OccPlan *plan, const char *target, const char *notes,
                            int with_l2, const OccOptions *opt);

#endif
