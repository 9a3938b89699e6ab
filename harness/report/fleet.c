/* SPDX-License-Identifier: Apache-2.0 */
/* harness/report/fleet.c: the fleet summary (contract in fleet.h). */
#include "fleet.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "rowfmt.h"
#include "summary.h"

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of v[0..n), n >= 1; sorts v. */
static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* noise_pct of the variant's ok row holding gbps best (the first such row). */
static double noise_at(const OccFleetMember *m, const char *variant, double best)
{
    for (int i = 0; i < m->n_rows; i++)
        if (occ_row_ok_of_variant(&m->rows[i], variant) && m->rows[i].gbps_median == best)
            return m->rows[i].noise_pct;
    return NAN;
}

/* 1 when r is a row of a load level (catalog.h occ_family_is_levels), whatever its status. */
static int is_model_input(const OccRow *r) { return occ_family_is_levels(r->family_info); }

/* The number of distinct load levels (is_model_input) among m's rows, and in *first the first
 * such row (untouched when there is none). */
static int count_levels(const OccFleetMember *m, const OccRow **first)
{
    int n = 0;
    for (int i = 0; i < m->n_rows; i++) {
        if (!is_model_input(&m->rows[i])) continue;
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = occ_row_str_same(m->rows[j].variant, m->rows[i].variant) &&
                   is_model_input(&m->rows[j]);
        if (seen) continue;
        if (n++ == 0) *first = &m->rows[i];
    }
    return n;
}

static int same_model(const OccFleetMember *a, const OccFleetMember *b)
{
    return occ_row_str_same(a->gpu_name, b->gpu_name);
}

/* Each entry against the median of its model's entries, its own included (e[0..n) share a
 * variant): one slow GPU among three leaves the others at 0%. */
static int compare_siblings(const OccFleetMember *m, OccFleetEntry *e, int n)
{
    double *plateau = malloc((size_t)n * sizeof *plateau);
    double *noise = malloc((size_t)n * sizeof *noise);
    if (!plateau || !noise) {
        free(plateau);
        free(noise);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        int k = 0;
        for (int j = 0; j < n; j++) {
            if (!same_model(&m[e[i].member], &m[e[j].member])) continue;
            plateau[k] = e[j].plateau_gbps;
            noise[k++] = isfinite(e[j].noise_pct) ? e[j].noise_pct : 0;
        }
        e[i].n_siblings = k - 1;
        e[i].vs_type_pct = e[i].bound_pct = NAN;
        e[i].outlier = 0;
        if (k < 2) continue;
        const double ref = median(plateau, k), ref_noise = median(noise, k);
        const double own = isfinite(e[i].noise_pct) ? e[i].noise_pct : 0;
        e[i].vs_type_pct = 100.0 * (e[i].plateau_gbps / ref - 1.0);
        e[i].bound_pct = OCC_FLEET_NOISE_SIGMAS * sqrt(own * own + ref_noise * ref_noise);
        e[i].outlier = fabs(e[i].vs_type_pct) > e[i].bound_pct;
    }
    free(plateau);
    free(noise);
    return 0;
}

/* Appends member k's entry for variant (when it has a finite plateau: a member without the
 * variant's rows makes none). */
static int add_entry(const OccFleetMember *m, int k, const char *variant, OccFleetEntry *out,
                     int *n, int max)
{
    OccVariantSummary s[1] = {{.variant = variant, .best_gbps = NAN}};
    OccVariantSummary *all = malloc((size_t)(m[k].n_rows + 1) * sizeof *all);
    if (!all) return -1;
    const int n_var = occ_summary_compute(m[k].rows, m[k].n_rows, all, m[k].n_rows + 1);
    for (int v = 0; v < n_var; v++)
        if (occ_row_str_same(all[v].variant, variant)) s[0] = all[v];
    free(all);
    if (!isfinite(s[0].best_gbps)) return 0;
    if (*n >= max) return -1;
    out[*n] = (OccFleetEntry){.variant = s[0].variant,
                              .member = k,
                              .plateau_gbps = s[0].best_gbps,
                              .noise_pct = noise_at(&m[k], variant, s[0].best_gbps),
                              .knee_occ_pct = s[0].knee_occ_pct,
                              .knee_at_lowest = s[0].knee_at_lowest};
    (*n)++;
    return 0;
}

/* 1 when variant has an entry in out[0..n). */
static int listed(const OccFleetEntry *out, int n, const char *variant)
{
    for (int i = 0; i < n; i++)
        if (occ_row_str_same(out[i].variant, variant)) return 1;
    return 0;
}

int occ_fleet_compute(const OccFleetMember *m, int n, OccFleetEntry *out, int max)
{
    int n_out = 0;
    for (int a = 0; a < n; a++)
        for (int r = 0; r < m[a].n_rows; r++) {
            const char *variant = m[a].rows[r].variant;
            if (!occ_row_is_ok(&m[a].rows[r]) || is_model_input(&m[a].rows[r]) ||
                listed(out, n_out, variant))
                continue;
            const int first = n_out;
            for (int k = 0; k < n; k++)
                if (add_entry(m, k, variant, out, &n_out, max) != 0) return -1;
            if (n_out == first) continue; /* no finite plateau anywhere (latency rows) */
            if (compare_siblings(m, out + first, n_out - first) != 0) return -1;
        }
    return n_out;
}

/* The spread line of the entries e[0..n) (one variant) on model m[e[i].member].gpu_name, once
 * per model: at its first entry. */
static void print_spread(FILE *f, const OccFleetMember *m, const OccFleetEntry *e, int n, int i)
{
    double lo = e[i].plateau_gbps, hi = lo, v[64];
    int k = 0;
    for (int j = 0; j < n; j++) {
        if (!same_model(&m[e[i].member], &m[e[j].member])) continue;
        if (j < i) return;
        lo = fmin(lo, e[j].plateau_gbps);
        hi = fmax(hi, e[j].plateau_gbps);
        if (k < 64) v[k++] = e[j].plateau_gbps;
    }
    if (k < 2) return;
    fprintf(f, "spread %s on %s: %.2f%% over %d runs (%.1f..%.1f GB/s)\n", e[i].variant,
            m[e[i].member].gpu_name, 100.0 * (hi - lo) / median(v, k), k, lo, hi);
}

/* The one line on the load levels left out of the table, when any member has them: how many per
 * GPU (a range when the members differ, e.g. a worker killed mid-run). */
static void print_model_inputs(FILE *f, const OccFleetMember *m, int n)
{
    const OccRow *first = NULL;
    int lo = 0, hi = 0;
    for (int k = 0; k < n; k++) {
        const int c = count_levels(&m[k], &first);
        lo = k == 0 || c < lo ? c : lo;
        hi = c > hi ? c : hi;
    }
    if (hi == 0) return;
    if (lo == hi)
        fprintf(f, "model inputs: %d", hi);
    else
        fprintf(f, "model inputs: %d..%d", lo, hi);
    fprintf(f,
            " load levels per run (kernel %s, mode %s), in the runs' CSVs, not compared "
            "here\n",
            first->kernel, first->mode);
}

static const char *device_of(const OccFleetMember *m)
{
    return m->device != NULL ? m->device : m->label;
}

/* The number of distinct devices among m[0..n). */
static int count_devices(const OccFleetMember *m, int n)
{
    int count = 0;
    for (int k = 0; k < n; k++) {
        int seen = 0;
        for (int j = 0; j < k && !seen; j++)
            seen = occ_row_str_same(device_of(&m[j]), device_of(&m[k]));
        count += !seen;
    }
    return count;
}

int occ_fleet_print(FILE *f, const OccFleetMember *m, int n)
{
    int max = 0, outliers = 0;
    for (int k = 0; k < n; k++)
        max += m[k].n_rows;
    OccFleetEntry *e = malloc((size_t)(max + 1) * sizeof *e);
    const int n_e = e ? occ_fleet_compute(m, n, e, max + 1) : -1;
    if (n_e < 0) {
        fprintf(f, "fleet summary unavailable: out of memory\n");
        free(e);
        return -1;
    }
    int vw = (int)strlen("variant"), gw = (int)strlen("run"), lowest = 0;
    for (int i = 0; i < n_e; i++) {
        vw = (int)strlen(e[i].variant) > vw ? (int)strlen(e[i].variant) : vw;
        gw = (int)strlen(m[e[i].member].label) > gw ? (int)strlen(m[e[i].member].label) : gw;
    }
    fprintf(f, "%-*s  %-*s  %12s  %7s  %10s  %13s\n", vw, "variant", gw, "run", "plateau GB/s",
            "noise %", "knee occ %", "vs GPU type %");
    for (int i = 0; i < n_e; i++) {
        fprintf(f, "%-*s  %-*s", vw, e[i].variant, gw, m[e[i].member].label);
        occ_row_print_num(f, 12, 1, e[i].plateau_gbps);
        occ_row_print_num(f, 7, 2, e[i].noise_pct);
        occ_summary_print_knee(f, 10, e[i].knee_occ_pct, e[i].knee_at_lowest);
        occ_row_print_num(f, 13, 2, e[i].vs_type_pct);
        lowest += e[i].knee_at_lowest;
        fprintf(f, "%s\n", e[i].outlier ? "  outlier" : "");
    }
    for (int i = 0, start = 0; i <= n_e; i++) {
        if (i < n_e && occ_row_str_same(e[i].variant, e[start].variant)) continue;
        for (int j = start; j < i; j++)
            print_spread(f, m, e + start, i - start, j - start);
        start = i;
    }
    for (int i = 0; i < n_e; i++) {
        if (!e[i].outlier) continue;
        outliers++;
        fprintf(
            f,
            "outlier: %s on %s (%s): plateau %.1f GB/s, %+.2f%% vs the median of the %d runs on "
            "this GPU type, beyond %.0f x the combined noise (%.2f%%)\n",
            e[i].variant, m[e[i].member].label, m[e[i].member].gpu_name, e[i].plateau_gbps,
            e[i].vs_type_pct, e[i].n_siblings + 1, OCC_FLEET_NOISE_SIGMAS, e[i].bound_pct);
    }
    print_model_inputs(f, m, n);
    fprintf(f,
            "fleet: %d run(s) on %d GPU(s), %d outlier(s); plateau = best GB/s, knee = lowest "
            "occupancy reaching %.0f%% of it%s; vs GPU type = the plateau against the median "
            "of the runs on GPUs of the same name (not a model prediction); outlier = more than "
            "%.0f combined standard deviations of the plateau points from that median\n",
            n, count_devices(m, n), outliers, 100.0 * OCC_SUMMARY_KNEE_FRACTION,
            lowest ? " (" OCC_KNEE_LOWEST_NOTE ")" : "", OCC_FLEET_NOISE_SIGMAS);
    free(e);
    return outliers;
}
