/* SPDX-License-Identifier: Apache-2.0 */
/* harness/plan/plan_estimate.c: the estimated duration of a planned run (contract in
 * harness/plan/plan_estimate.h). */
#include "plan_estimate.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "catalog.h"
#include "options_table.h"

/* Calibration: measured on an NVIDIA H200 (132 SMs, sm_90) with the default options, whole runs
 * of `--kernel reduce --unroll 1,2,4 --occ 25..100` (117 points, ~7.2 s), `--kernel all` (961
 * points, ~40 s) and the latency ladder (89 points, ~15.5 s). Elsewhere, an estimate. */

/* Before the first point: device open, buffers, the two roofline probes (3.0-4.3 s). */
#define STARTUP_S 3.5
/* Host time of one point besides its launches: configure, bind, verify, the row (4-7 ms). */
#define HOST_MS_PER_POINT 4.0
/* One load level (chase loaded): one launch of a few ms at most, ~1.3 ms measured. */
#define LOAD_LEVEL_MS 1.3
/* Used for a family whose descriptor gives no launch_ms (not measured: a guess). */
#define OTHER_LAUNCH_MS 3.0

/* The point loop's policy, as bench/run_policy.c and harness/gpu/timing.c set it (not
 * calibration): a sample lasts at least MIN_SAMPLE_MS (its batch of launches, at most
 * MAX_BATCH), at most MAX_SAMPLES samples; --max-time stops no point before it has
 * min(--min-samples, 3) samples; 2 warm-ups and the residency probe are untimed. */
#define MIN_SAMPLE_MS 1.0
#define MAX_BATCH 1000
#define MAX_SAMPLES 2000
#define TIME_FLOOR_SAMPLES 3
#define UNTIMED_LAUNCHES 3
/* The roofline probes (harness/gpu/run.c) sample like a point: --max-time bounds each. */
#define ROOFLINE_PROBES 2

/* A family's per-launch time on the H200 is its descriptor's launch_ms (OccFamilyInfo) at the
 * default size (4 GiB for the streams): tools/results/estimate_fit.py fits it from the H200
 * reference set's CSVs (the launches each point timed, samples x launches_per_sample plus the
 * untimed ones, times time_ms_median), so it also absorbs the points that needed more samples,
 * and the publish_estimate test holds each constant's estimate within 25% of that set's. */

/* The latency ladder (harness/families/family_ladder.c): a warm point walks the footprint once
 * (only 8192 hops beyond 2^20 lines) then times 11 segments of its lines, at least 8192 and at
 * most 65536 hops; a cold one times 5 single passes of at most 65536 hops after an L2 flush. */
#define LADDER_SEGMENTS 11
#define LADDER_MIN_HOPS 8192.0
#define LADDER_MAX_HOPS 65536.0
#define LADDER_FULL_WARM_LINES 1048576.0
#define LADDER_COLD_PASSES 5
/* Host time to build the chain's random cycle, per line, ns (7-27 ns on a build machine). */
#define LADDER_BUILD_NS_PER_LINE 10.0
/* One dependent load on the H200, ns, and the caches' sizes: a hop of a random cycle through
 * F bytes hits a cache of C bytes with probability min(1, C / F). L1 (the L1 + shared memory
 * SRAM, 256 KiB), L2 (50 MiB) and DRAM: the H200 reference set's latency ladder at its smallest
 * footprint, at 4 MiB and at its largest (tools/results/estimate_fit.py; the publish_estimate
 * test holds them within 25% of that set's). */
#define L1_BYTES (256.0 * 1024)
#define L1_HOP_NS 20.0
#define L2_BYTES (50.0 * 1024 * 1024)
#define L2_HOP_NS 140.0
#define DRAM_HOP_NS 340.0

/* The H200's per-launch time of family fi at opt's --size: a stream (a family with a size floor
 * walks its whole buffer each launch) scales with its bytes; any other keeps its constant. */
static double launch_ms(const OccFamilyInfo *fi, const OccOptions *opt)
{
    double ms = fi->launch_ms > 0 ? fi->launch_ms : OTHER_LAUNCH_MS;
    if (fi->size_floor_gib > 0 && opt->size_bytes > 0)
        ms *= (double)opt->size_bytes / ((double)fi->size_floor_gib * 1024 * 1024 * 1024);
    return ms;
}

/* Launches per sample of launches of l_ms: enough for MIN_SAMPLE_MS, 1..MAX_BATCH. */
static double batch_of(double l_ms)
{
    const double batch = l_ms > 0 ? ceil(MIN_SAMPLE_MS / l_ms) : MAX_BATCH;
    return batch < 1 ? 1 : batch > MAX_BATCH ? MAX_BATCH : batch;
}

/* A timed point with launches of l_ms: host, untimed launches and n samples of batch launches. */
static double timed_ms(double l_ms, int n)
{
    return HOST_MS_PER_POINT + (UNTIMED_LAUNCHES + n * batch_of(l_ms)) * l_ms;
}

/* Samples until --max-time stops a point of samples of sample_ms (noise never reached). */
static int samples_to_max_time(const OccOptions *opt, double sample_ms)
{
    const int floor_n = opt->min_samples < TIME_FLOOR_SAMPLES ? opt->min_samples
                                                              : TIME_FLOOR_SAMPLES;
    const double n = ceil(opt->max_time_s * 1e3 / sample_ms);
    return n < floor_n ? floor_n : n > MAX_SAMPLES ? MAX_SAMPLES : (int)n;
}

/* A ladder point: the chain's build and its hops (a cold pass misses every cache). */
static double ladder_ms(const OccPoint *p, const OccOptions *opt)
{
    const double bytes = (double)p->footprint_bytes;
    const double lines = bytes / (opt->stride_bytes > 0 ? opt->stride_bytes : 128);
    const double l1 = fmin(1, L1_BYTES / bytes), l2 = fmin(1, L2_BYTES / bytes);
    double hops, ns = DRAM_HOP_NS;
    if (opt->cold) {
        hops = LADDER_COLD_PASSES * fmin(lines, LADDER_MAX_HOPS);
    } else {
        hops = (lines <= LADDER_FULL_WARM_LINES ? lines : LADDER_MIN_HOPS) +
               LADDER_SEGMENTS * fmin(fmax(lines, LADDER_MIN_HOPS), LADDER_MAX_HOPS);
        ns = l1 * L1_HOP_NS + (1 - l1) * (l2 * L2_HOP_NS + (1 - l2) * DRAM_HOP_NS);
    }
    return HOST_MS_PER_POINT + lines * LADDER_BUILD_NS_PER_LINE * 1e-6 + hops * ns * 1e-6;
}

double occ_plan_estimate_point_ms(const OccPoint *p, const OccOptions *opt, double *upper_ms)
{
    const OccFamilyInfo *fi = occ_family_at(p->family);
    double typical = 0, upper = -1;
    if (fi && fi->shape == OCC_SHAPE_LEVELS) {
        typical = LOAD_LEVEL_MS;
    } else if (p->variant_index < 0) {
        typical = ladder_ms(p, opt);
    } else if (p->reachable && fi) {
        const double l_ms = launch_ms(fi, opt);
        const int n_max = samples_to_max_time(opt, batch_of(l_ms) * l_ms);
        const int n_typ = opt->min_samples < n_max ? opt->min_samples : n_max;
        typical = timed_ms(l_ms, n_typ);
        upper = timed_ms(l_ms, n_max);
    }
    if (upper_ms) *upper_ms = upper < typical ? typical : upper;
    return typical;
}

void occ_plan_estimate(const OccPlan *plan, const OccOptions *opt, OccPlanEstimate *out)
{
    double sum_ms = 0, upper_ms = 0;
    memset(out, 0, sizeof *out);
    out->startup_s = STARTUP_S;
    for (int i = 0; i < plan->n; i++) {
        const OccPoint *p = &plan->points[i];
        const OccFamilyInfo *fi = occ_family_at(p->family);
        double up;
        const double ms = occ_plan_estimate_point_ms(p, opt, &up);
        if (fi && fi->shape == OCC_SHAPE_LEVELS) {
            out->startup_s += ms * 1e-3;
            out->n_levels++;
            continue;
        }
        out->n_points++;
        out->n_timed += p->variant_index >= 0 && p->reachable;
        out->n_fixed += p->variant_index < 0;
        sum_ms += ms;
        upper_ms += up;
    }
    out->point_ms = out->n_points > 0 ? sum_ms / out->n_points : 0;
    out->typical_s = out->startup_s + sum_ms * 1e-3;
    out->upper_s = out->startup_s + ROOFLINE_PROBES * opt->max_time_s + upper_ms * 1e-3;
}

char *occ_plan_format_duration(double s, char *buf, size_t len)
{
    if (!(s >= 0)) s = 0;                   /* NaN: the smallest claim */
    if (s > 1e6 * 3600) s = 1e6 * 3600; /* beyond a million hours: no longer a duration */
    if (s < 9.5)
        snprintf(buf, len, "%.0f s", s < 1 ? 1.0 : floor(s + 0.5));
    else if (s < 87.5)
        snprintf(buf, len, "%.0f s", 5 * floor(s / 5 + 0.5));
    else if (s < 3570)
        snprintf(buf, len, "%.0f min", fmax(2, floor(s / 60 + 0.5)));
    else if (s < 9.75 * 3600)
        snprintf(buf, len, "%g h", 0.5 * floor(s / 1800 + 0.5));
    else
        snprintf(buf, len, "%.0f h", floor(s / 3600 + 0.5));
    return buf;
}

/* A point's typical time: 2 significant digits in ms below a second, else a duration. */
static char *format_ms(double ms, char *buf, size_t len)
{
    if (ms >= 999.5) return occ_plan_format_duration(ms * 1e-3, buf, len);
    if (ms >= 99.5)
        snprintf(buf, len, "%.0f ms", 10 * floor(ms / 10 + 0.5));
    else
        snprintf(buf, len, ms >= 9.95 ? "%.0f ms" : "%.1f ms", ms);
    return buf;
}

char *occ_plan_format_estimate(const OccPlanEstimate *e, const OccOptions *opt, char *buf,
                               size_t len)
{
    char typ[24], start[24], point[24], up[24], levels[48] = "";
    if (e->n_points == 0 && e->n_levels == 0) {
        snprintf(buf, len, "estimated time: none: no point left to measure");
        return buf;
    }
    if (e->n_levels > 0)
        snprintf(levels, sizeof levels, " with %d load-level probe%s", e->n_levels,
                 e->n_levels == 1 ? "" : "s");
    int at = snprintf(buf, len, "estimated time (from an H200's timings): about %s (startup %s%s",
                      occ_plan_format_duration(e->typical_s, typ, sizeof typ),
                      occ_plan_format_duration(e->startup_s, start, sizeof start), levels);
    if (at < 0 || (size_t)at >= len) return buf;
    if (e->n_points == 0) {
        snprintf(buf + at, len - (size_t)at, "; no other point left to measure)");
        return buf;
    }
    at += snprintf(buf + at, len - (size_t)at, " + %d point%s x %s)", e->n_points,
                   e->n_points == 1 ? "" : "s", format_ms(e->point_ms, point, sizeof point));
    if (at < 0 || (size_t)at >= len) return buf;
    if (e->n_timed > 0)
        at += snprintf(buf + at, len - (size_t)at, "; at most %s if every %spoint runs to "
                       "--max-time %g s",
                       occ_plan_format_duration(e->upper_s, up, sizeof up),
                       e->n_fixed > 0 ? "timed " : "", opt->max_time_s);
    else
        at += snprintf(buf + at, len - (size_t)at, "; fixed work: --max-time does not bound it");
    if (opt->ncu && at > 0 && (size_t)at < len)
        snprintf(buf + at, len - (size_t)at, "; the --ncu pass comes on top");
    return buf;
}

/* Index of the latency ladder (the footprint-shaped family), or -1. */
static int ladder_family(void)
{
    for (int f = 0; f < occ_family_count(); f++)
        if (occ_family_at(f)->shape == OCC_SHAPE_FOOTPRINT) return f;
    return -1;
}

int occ_plan_ladder_left_out(const OccOptions *opt)
{
    const int f = ladder_family();
    if (f < 0 || (opt->families >> f & 1u)) return 0;
    if (opt->kernel_arg == NULL) return opt->plugin_path == NULL;
    for (const char *b = opt->kernel_arg;; b++) {
        const size_t n = strcspn(b, ",");
        if (n == 3 && strncmp(b, "all", 3) == 0) return 1;
        b += n;
        if (*b == '\0') return 0;
    }
}

char *occ_plan_format_ladder_note(char *buf, size_t len)
{
    const OccFamilyInfo *fi = occ_family_at(ladder_family());
    const OccOptSpec *fp = occ_option_named("footprint", strlen("footprint"));
    if (!fi) {
        snprintf(buf, len, "%s", "");
        return buf;
    }
    snprintf(buf, len,
             "latency ladder: not part of --kernel all; run it on its own with --kernel %s --mode "
             "%s (footprints: --%s %s, default %s)",
             fi->kernel, fi->mode, fp ? fp->name : "footprint",
             fp && fp->metavar ? fp->metavar : "LO..HI",
             fp && fp->default_text ? fp->default_text : "4K..4G");
    return buf;
}
