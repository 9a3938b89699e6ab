/* harness/summary.c: end-of-run summary (contract in summary.h). */
#include "summary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rowfmt.h"

static int has_prefix(const char *s, const char *prefix)
{
    return s != NULL && strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Best point, then knee: the knee needs the final best, so it takes a second pass. */
static void summarize_variant(const OccRow *rows, int n_rows, OccVariantSummary *s)
{
    s->best_gbps = s->best_occ_pct = s->best_pct_of_memcpy = s->knee_occ_pct = NAN;
    s->n_ok = 0;
    for (int i = 0; i < n_rows; i++) {
        const OccRow *r = &rows[i];
        if (!occ_row_ok_of_variant(r, s->variant)) continue;
        s->n_ok++;
        if (!isfinite(r->gbps_median)) continue;
        int better = isnan(s->best_gbps) || r->gbps_median > s->best_gbps ||
                     (r->gbps_median == s->best_gbps && r->occ_achieved_pct < s->best_occ_pct);
        if (better) {
            s->best_gbps = r->gbps_median;
            s->best_occ_pct = r->occ_achieved_pct;
            s->best_pct_of_memcpy = r->pct_of_memcpy;
        }
    }
    if (isnan(s->best_gbps)) return;
    for (int i = 0; i < n_rows; i++) {
        const OccRow *r = &rows[i];
        if (!occ_row_ok_of_variant(r, s->variant) || !isfinite(r->gbps_median) ||
            isnan(r->occ_achieved_pct))
            continue;
        if (r->gbps_median >= OCC_SUMMARY_KNEE_FRACTION * s->best_gbps &&
            (isnan(s->knee_occ_pct) || r->occ_achieved_pct < s->knee_occ_pct))
            s->knee_occ_pct = r->occ_achieved_pct;
    }
}

int occ_summary_compute(const OccRow *rows, int n_rows, OccVariantSummary *out, int max_out)
{
    int n = 0;
    for (int i = 0; i < n_rows && n < max_out; i++) {
        if (!occ_row_is_ok(&rows[i])) continue;
        int seen = 0;
        for (int j = 0; j < n && !seen; j++)
            seen = occ_row_str_same(out[j].variant, rows[i].variant);
        if (seen) continue;
        out[n].variant = rows[i].variant ? rows[i].variant : "-";
        summarize_variant(rows, n_rows, &out[n]);
        n++;
    }
    return n;
}

void occ_summary_print(FILE *f, const OccRow *rows, int n_rows)
{
    int n_ok = 0, n_skip = 0, n_fail = 0, n_other = 0;
    for (int i = 0; i < n_rows; i++) {
        const char *st = rows[i].status;
        if (occ_row_is_ok(&rows[i]))
            n_ok++;
        else if (has_prefix(st, "skip"))
            n_skip++;
        else if (has_prefix(st, "fail"))
            n_fail++;
        else
            n_other++;
    }
    OccVariantSummary *v = n_ok ? malloc((size_t)n_ok * sizeof *v) : NULL;
    int n_var = v ? occ_summary_compute(rows, n_rows, v, n_ok) : 0;
    if (n_var > 0) {
        int name_w = (int)strlen("variant");
        for (int i = 0; i < n_var; i++)
            if ((int)strlen(v[i].variant) > name_w) name_w = (int)strlen(v[i].variant);
        fprintf(f, "%-*s  %6s  %10s  %8s  %8s  %10s\n", name_w, "variant", "ok", "best GB/s",
                "at occ %", "% memcpy", "knee occ %");
        for (int i = 0; i < n_var; i++) {
            fprintf(f, "%-*s  %6d", name_w, v[i].variant, v[i].n_ok);
            occ_row_print_num(f, 10, 1, v[i].best_gbps);
            occ_row_print_num(f, 8, 1, v[i].best_occ_pct);
            occ_row_print_num(f, 8, 1, v[i].best_pct_of_memcpy);
            occ_row_print_num(f, 10, 1, v[i].knee_occ_pct);
            fputc('\n', f);
        }
    } else {
        fprintf(f, n_ok ? "summary unavailable: out of memory\n" : "no ok rows to summarize\n");
    }
    free(v);
    fprintf(f, "rows: %d ok, %d skip, %d fail", n_ok, n_skip, n_fail);
    if (n_other) fprintf(f, ", %d other", n_other);
    fprintf(f, "; knee = lowest occupancy reaching %.0f%% of the variant's best GB/s\n",
            100.0 * OCC_SUMMARY_KNEE_FRACTION);
}
