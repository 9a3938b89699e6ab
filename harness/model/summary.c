/* SPDX-License-Identifier: Apache-2.0 */
/* harness/model/summary.c: the per-variant best point and knee of a run's rows (contract in
 * summary.h). */
#include "summary.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "rowfmt.h"

/* One rate's figures: the rate column and its % column, and where the results go. */
typedef struct Rate {
    size_t rate, pct;                  /* offsetof the OccRow fields */
    double *best, *best_occ, *best_pct, *knee;
    int *knee_at_lowest;
} Rate;

static double field(const OccRow *r, size_t at) { return *(const double *)((const char *)r + at); }

/* 1 for an ok row of s's variant and block size. */
static int of_entry(const OccRow *r, const OccVariantSummary *s)
{
    return occ_row_ok_of_variant(r, s->variant) && (int)r->block_threads == s->block_threads;
}

/* Best point, then knee: the knee needs the final best, so it takes a second pass. */
static void summarize_rate(const OccRow *rows, int n_rows, const OccVariantSummary *s, Rate q)
{
    *q.best = *q.best_occ = *q.best_pct = *q.knee = NAN;
    *q.knee_at_lowest = 0;
    for (int i = 0; i < n_rows; i++) {
        const OccRow *r = &rows[i];
        const double x = field(r, q.rate);
        if (!of_entry(r, s) || !isfinite(x)) continue;
        if (isnan(*q.best) || x > *q.best || (x == *q.best && r->occ_achieved_pct < *q.best_occ)) {
            *q.best = x;
            *q.best_occ = r->occ_achieved_pct;
            *q.best_pct = field(r, q.pct);
        }
    }
    if (isnan(*q.best)) return;
    double lowest = NAN;
    for (int i = 0; i < n_rows; i++) {
        const OccRow *r = &rows[i];
        const double x = field(r, q.rate);
        if (!of_entry(r, s) || !isfinite(x) || isnan(r->occ_achieved_pct))
            continue;
        if (!(r->occ_achieved_pct >= lowest)) lowest = r->occ_achieved_pct;
        if (x >= OCC_SUMMARY_KNEE_FRACTION * *q.best &&
            (isnan(*q.knee) || r->occ_achieved_pct < *q.knee))
            *q.knee = r->occ_achieved_pct;
    }
    *q.knee_at_lowest = *q.knee == lowest;
}

static void summarize_variant(const OccRow *rows, int n_rows, OccVariantSummary *s)
{
    s->n_ok = 0;
    for (int i = 0; i < n_rows; i++) s->n_ok += of_entry(&rows[i], s);
    summarize_rate(rows, n_rows, s,
                   (Rate){offsetof(OccRow, gbps_median), offsetof(OccRow, pct_of_memcpy),
                          &s->best_gbps, &s->best_occ_pct, &s->best_pct_of_memcpy,
                          &s->knee_occ_pct, &s->knee_at_lowest});
    summarize_rate(rows, n_rows, s,
                   (Rate){offsetof(OccRow, gflops_median), offsetof(OccRow, pct_of_flop_peak),
                          &s->best_gflops, &s->best_gflops_occ_pct, &s->best_pct_of_flop_peak,
                          &s->knee_gflops_occ_pct, &s->knee_gflops_at_lowest});
}

void occ_summary_print_knee(FILE *f, int width, double knee_pct, int at_lowest)
{
    char cell[64];
    if (isnan(knee_pct))
        snprintf(cell, sizeof cell, "-");
    else
        snprintf(cell, sizeof cell, "%s%.2f", at_lowest ? OCC_KNEE_LOWEST_MARK : "", knee_pct);
    fprintf(f, "  %*s", width, cell);
}

void occ_summary_print_md_knee(FILE *f, double knee_pct, int at_lowest)
{
    if (at_lowest && !isnan(knee_pct))
        fprintf(f, " %s%.2f (lowest level run) |", OCC_KNEE_LOWEST_MARK, knee_pct);
    else
        occ_row_print_md_num(f, 2, knee_pct);
}

int occ_summary_per_block(const OccVariantSummary *v, int n)
{
    for (int i = 1; i < n; i++)
        if (v[i].block_threads != v[0].block_threads) return 1;
    return 0;
}

int occ_summary_compute(const OccRow *rows, int n_rows, OccVariantSummary *out, int max_out)
{
    int n = 0;
    for (int i = 0; i < n_rows && n < max_out; i++) {
        if (!occ_row_is_ok(&rows[i])) continue;
        int seen = 0;
        for (int j = 0; j < n && !seen; j++)
            seen = occ_row_str_same(out[j].variant, rows[i].variant) &&
                   out[j].block_threads == (int)rows[i].block_threads;
        if (seen) continue;
        out[n].variant = rows[i].variant ? rows[i].variant : "-";
        out[n].block_threads = (int)rows[i].block_threads;
        summarize_variant(rows, n_rows, &out[n]);
        n++;
    }
    return n;
}
