/* SPDX-License-Identifier: Apache-2.0 */
/* harness/plan/plan_estimate.h: how long a planned run takes, estimated from the plan and the
 * timing options before any GPU is touched (pure: no CUDA header), for the line --dry-run prints
 * after the plan.
 *
 * The model follows the point loop (harness/gpu/points.c, harness/gpu/timing.c): a timed point
 * (a reachable occupancy point) costs a host overhead, 3 untimed launches (2 warm-ups, the
 * residency probe) and its samples, each a batch of launches lasting at least 1 ms; typically
 * --min-samples of them (the noise test passes), fewer where --max-time stops it first, at worst
 * as many as --max-time allows. A footprint point (the latency ladder) and a load level do a fixed
 * amount of work that the timing options do not change. The per-launch and per-hop times are
 * constants measured on an NVIDIA H200 (plan_estimate.c): on any other GPU the figures are an
 * estimate of the order of magnitude, nothing more. */
#ifndef OCC_PLAN_ESTIMATE_H
#define OCC_PLAN_ESTIMATE_H

#include <stddef.h>

#include "options_types.h"
#include "plan.h"

/* The estimate of one plan under one set of options. */
typedef struct OccPlanEstimate {
    double startup_s; /* before the first point: device open, buffers, the roofline probes,
                         and the plan's load levels (they start a run whose model uses them) */
    int n_levels;     /* the plan's load levels (in startup_s) */
    int n_points;     /* points after the start: the plan's points less its load levels */
    int n_timed;      /* of those, the points timed by the sampling policy (reachable occupancy
                         points): the ones --max-time and --min-samples bound */
    int n_fixed;      /* of those, the footprint points (the latency ladder): fixed work, which
                         no timing option bounds */
    double point_ms;  /* typical wall time of one of the n_points, mean, ms (0 when none) */
    double typical_s; /* typical whole run: startup_s + n_points x point_ms, s */
    double upper_s;   /* the upper bound, s: the roofline probes and every timed point stopped
                         by --max-time (noise never reached), the other points as typical;
                         >= typical_s */
} OccPlanEstimate;

/* Typical wall time of point p under opt's timing options, ms; *upper_ms (when not NULL) gets
 * its bound (a timed point stopped by --max-time; the typical time for any other). An
 * unreachable point (a skip row, no launch) costs nothing. */
double occ_plan_estimate_point_ms(const OccPoint *p, const OccOptions *opt, double *upper_ms);

/* Estimates the run of plan (the points still to measure: after any --resume filter) under
 * opt's timing options (--max-time, --min-samples, --size) into *out. */
void occ_plan_estimate(const OccPlan *plan, const OccOptions *opt, OccPlanEstimate *out);

/* A duration of s seconds rounded to what an estimate can claim, into buf: whole seconds below
 * 10 s (at least "1 s"), 5 s steps below 90 s, whole minutes below an hour, half hours below
 * 10 h, whole hours beyond ("7 s", "40 s", "3 min", "1.5 h"). Returns buf. */
char *occ_plan_format_duration(double s, char *buf, size_t len);

/* The --dry-run line of e (no newline), e.g. "estimated time (from an H200's timings): about
 * 7 s (startup 4 s with 44 load-level probes + 117 points x 27 ms); at most 65 s if every
 * point runs to --max-time 0.5 s"; for a plan without a point after the start (a resume with
 * nothing left but load levels, or nothing at all) it says so instead of "0 points". Returns
 * buf. */
char *occ_plan_format_estimate(const OccPlanEstimate *e, const OccOptions *opt, char *buf,
                               size_t len);

/* 1 when opt asks for every kernel (--kernel all, or neither --kernel nor --plugin) and the plan
 * leaves out the latency ladder (a footprint-shaped family, run on its own), else 0. */
int occ_plan_ladder_left_out(const OccOptions *opt);

/* The line that says so and how to run the ladder (no newline): its --kernel and --mode from the
 * catalog, its footprint option from the option table. Returns buf. */
char *occ_plan_format_ladder_note(char *buf, size_t len);

#endif
