/* SPDX-License-Identifier: Apache-2.0 */
/* harness/report/summary_print.c: the end-of-run summary table (contract in summary_print.h). */
#include "summary_print.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rowfmt.h"
#include "summary.h"

static int has_prefix(const char *s, const char *prefix)
{
    return s != NULL && strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The name cell of entry v: the variant, and its block size when per_block. */
static void print_name(FILE *f, int name_w, const OccVariantSummary *v, int per_block, int header)
{
    if (header)
        fprintf(f, "%-*s", name_w, "variant");
    else
        fprintf(f, "%-*s", name_w, v->variant);
    if (per_block) {
        if (header)
            fprintf(f, "  %5s", "block");
        else
            fprintf(f, "  %5d", v->block_threads);
    }
}

/* The arithmetic table: variants with GFLOP/s. */
static void print_flops(FILE *f, const OccVariantSummary *v, int n_var, int name_w)
{
    const int per_block = occ_summary_per_block(v, n_var);
    int any = 0, lowest = 0;
    for (int i = 0; i < n_var; i++) {
        if (isnan(v[i].best_gflops)) continue;
        if (!any++) {
            print_name(f, name_w, NULL, per_block, 1);
            fprintf(f, "  %6s  %12s  %8s  %8s  %10s\n", "ok", "best GFLOP/s", "at occ %",
                    "% peak", "knee occ %");
        }
        print_name(f, name_w, &v[i], per_block, 0);
        fprintf(f, "  %6d", v[i].n_ok);
        occ_row_print_num(f, 12, 1, v[i].best_gflops);
        occ_row_print_num(f, 8, 1, v[i].best_gflops_occ_pct);
        occ_row_print_num(f, 8, 1, v[i].best_pct_of_flop_peak);
        occ_summary_print_knee(f, 10, v[i].knee_gflops_occ_pct, v[i].knee_gflops_at_lowest);
        fputc('\n', f);
        lowest += v[i].knee_gflops_at_lowest;
    }
    if (any)
        fprintf(f, "arithmetic: knee = lowest occupancy reaching %.0f%% of the variant's best "
                   "GFLOP/s; %% peak = of flop_peak_gflops: SMs x FMA lanes/SM/clock x 2 (mma: "
                   "the arch's headline tensor FLOP/SM/clock) x the point's clock%s\n",
                100.0 * OCC_SUMMARY_KNEE_FRACTION, lowest ? "; " OCC_KNEE_LOWEST_NOTE : "");
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
    int n_var = v ? occ_summary_compute(rows, n_rows, v, n_ok) : 0, name_w = (int)strlen("variant");
    int n_bandwidth = 0; /* variants of the GB/s table: all but those with GFLOP/s only */
    for (int i = 0; i < n_var; i++) {
        if ((int)strlen(v[i].variant) > name_w) name_w = (int)strlen(v[i].variant);
        n_bandwidth += !(isnan(v[i].best_gbps) && !isnan(v[i].best_gflops));
    }
    const int per_block = occ_summary_per_block(v, n_var);
    int lowest = 0; /* variants of the GB/s table whose knee is their lowest level */
    if (n_bandwidth > 0) {
        print_name(f, name_w, NULL, per_block, 1);
        fprintf(f, "  %6s  %10s  %8s  %8s  %10s\n", "ok", "best GB/s", "at occ %", "% memcpy",
                "knee occ %");
        for (int i = 0; i < n_var; i++) {
            if (isnan(v[i].best_gbps) && !isnan(v[i].best_gflops)) continue;
            print_name(f, name_w, &v[i], per_block, 0);
            fprintf(f, "  %6d", v[i].n_ok);
            occ_row_print_num(f, 10, 1, v[i].best_gbps);
            occ_row_print_num(f, 8, 1, v[i].best_occ_pct);
            occ_row_print_num(f, 8, 1, v[i].best_pct_of_memcpy);
            occ_summary_print_knee(f, 10, v[i].knee_occ_pct, v[i].knee_at_lowest);
            fputc('\n', f);
            lowest += v[i].knee_at_lowest;
        }
    } else if (n_var == 0) {
        fprintf(f, n_ok ? "summary unavailable: out of memory\n" : "no ok rows to summarize\n");
    }
    fprintf(f, "rows: %d ok, %d skip, %d fail", n_ok, n_skip, n_fail);
    if (n_other) fprintf(f, ", %d other", n_other);
    fprintf(f, "; knee = lowest occupancy reaching %.0f%% of the variant's best GB/s%s",
            100.0 * OCC_SUMMARY_KNEE_FRACTION, per_block ? " at its block size" : "");
    fprintf(f, "%s\n", lowest ? "; " OCC_KNEE_LOWEST_NOTE : "");
    if (n_bandwidth > 0)
        fprintf(f, "%% memcpy = best GB/s as a percentage of the run's cudaMemcpy device-to-device "
                   "GB/s (roof_memcpy_gbps), which counts a read and a write per byte: a kernel "
                   "that only reads can pass 100\n");
    if (n_var > 0) print_flops(f, v, n_var, name_w);
    free(v);
}
