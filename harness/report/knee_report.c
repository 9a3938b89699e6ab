/* SPDX-License-Identifier: Apache-2.0 */
/* harness/report/knee_report.c: the knee table printed and written as markdown, and the model's
 * agreement over its natural variants (contract in knee_report.h). */
#include "knee_report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_file.h"
#include "rowfmt.h"
#include "summary.h"

/* 1 when k counts toward the agreement: a natural variant (no register cap, no spills) that
 * the model predicts. */
static int natural(const OccKnee *k)
{
    return k->reg_cap_per_thread == 0 && !k->spills && k->points > 0;
}

int occ_knee_roofs(const OccKnee *k, int n, OccTrafficRoof *out, int max)
{
    int n_out = 0;
    for (int i = 0; i < n && n_out < max; i++) {
        if (k[i].roof.name == NULL) continue;
        int seen = 0;
        for (int j = 0; j < n_out && !seen; j++)
            seen = strcmp(out[j].name, k[i].roof.name) == 0 && out[j].gbps == k[i].roof.gbps;
        if (!seen) out[n_out++] = k[i].roof;
    }
    return n_out;
}

void occ_knee_agreement(const OccKnee *k, int n, OccAgreement *a)
{
    *a = (OccAgreement){0};
    for (int i = 0; i < n; i++) {
        if (!natural(&k[i])) continue;
        a->points += k[i].points;
        a->points_agree += k[i].points_agree;
        if (k[i].knee_levels_apart < 0) continue;
        a->knees++;
        a->knees_agree += k[i].knee_levels_apart <= 1;
    }
}

/* p of q as "p of q (r%)", or "p of q" when q is 0. */
static void print_share(FILE *f, int p, int q)
{
    if (q > 0)
        fprintf(f, "%d of %d (%.0f%%)", p, q, 100.0 * p / q);
    else
        fprintf(f, "%d of %d", p, q);
}

/* Writes "NAME G GB/s" for each distinct roof of k[0..n) (OccKnee.roof), in order of first
 * appearance, separated by sep; with m, followed by ": B B" (the bytes in flight per SM that roof
 * needs: roof x m's unloaded latency / SMs). */
static void print_roofs(FILE *f, const OccKnee *k, int n, const char *sep, const OccModel *m)
{
    OccTrafficRoof roofs[OCC_KNEE_MAX_ROOFS];
    const int n_roofs = occ_knee_roofs(k, n, roofs, OCC_KNEE_MAX_ROOFS);
    for (int i = 0; i < n_roofs; i++) {
        fprintf(f, "%s%s %.1f GB/s", i ? sep : "", roofs[i].name, roofs[i].gbps);
        if (m != NULL)
            fprintf(f, ": %.0f B", m->sm_count > 0 ? roofs[i].gbps * m->latency_ns / m->sm_count
                                                    : NAN);
    }
}

/* 1 when the knees hold more than one block size (the tables then name each line's). */
static int per_block(const OccKnee *k, int n)
{
    for (int i = 1; i < n; i++)
        if (k[i].block_threads != k[0].block_threads) return 1;
    return 0;
}

void occ_knee_print(FILE *f, const OccKnee *k, int n)
{
    if (n <= 0) {
        fprintf(f, "no ok rows with a measured GB/s: no knee table\n");
        return;
    }
    int name_w = (int)strlen("variant");
    for (int i = 0; i < n; i++)
        if ((int)strlen(k[i].variant) > name_w) name_w = (int)strlen(k[i].variant);
    const int blocks = per_block(k, n);
    int lowest = 0; /* variants whose measured knee is their lowest level */
    fprintf(f, "%-*s  %2s  %2s%s  %9s  %8s  %7s  %14s  %8s  %8s\n", name_w, "variant", "U", "V",
            blocks ? "  block" : "", "best GB/s", "knee %", "model %", "B/SM at knee", "miss %",
            "at occ %");
    for (int i = 0; i < n; i++) {
        fprintf(f, "%-*s  %2d  %2d", name_w, k[i].variant, k[i].unroll, k[i].vec_bytes);
        if (blocks) fprintf(f, "  %5d", k[i].block_threads);
        occ_row_print_num(f, 9, 1, k[i].best_gbps);
        occ_summary_print_knee(f, 8, k[i].knee_measured_pct, k[i].knee_measured_at_lowest);
        lowest += k[i].knee_measured_at_lowest;
        occ_row_print_num(f, 7, 2, k[i].knee_predicted_pct);
        occ_row_print_num(f, 14, 0, k[i].bytes_in_flight_at_knee);
        occ_row_print_num(f, 8, 1, k[i].worst_miss_pct);
        occ_row_print_num(f, 8, 2, k[i].worst_miss_occ_pct);
        fputc('\n', f);
    }
    fprintf(f, "knee = lowest occupancy reaching %.0f%% of the variant's best GB/s (model %% = the "
               "same on the Little's-law prediction)%s\n",
            100.0 * OCC_SUMMARY_KNEE_FRACTION, lowest ? "; " OCC_KNEE_LOWEST_NOTE : "");
    fputs("model roof: ", f);
    print_roofs(f, k, n, "; ", NULL);
    fputc('\n', f);
    OccAgreement a;
    occ_knee_agreement(k, n, &a);
    fprintf(f, "model agreement, natural variants: within %.0f%% at ", OCC_MODEL_AGREE_PCT);
    print_share(f, a.points_agree, a.points);
    fprintf(f, " points; knee within one occupancy level for ");
    print_share(f, a.knees_agree, a.knees);
    fprintf(f, " variants\n");
    for (int i = 0; i < n; i++)
        if (k[i].cause[0] != '\0')
            fprintf(f, "model miss %s: %.1f%% at %.2f%% occupancy: %s\n", k[i].variant,
                    k[i].worst_miss_pct, k[i].worst_miss_occ_pct, k[i].cause);
}

/* The markdown "Agreement" section (model.h, occ_knee_write_markdown). */
static void write_agreement(FILE *f, const OccKnee *k, int n)
{
    OccAgreement a;
    occ_knee_agreement(k, n, &a);
    fprintf(f, "\n## Agreement\n\nOver the natural variants (no register cap, no spills):\n\n");
    fprintf(f, "- predicted within %.0f%% of measured: ", OCC_MODEL_AGREE_PCT);
    print_share(f, a.points_agree, a.points);
    fprintf(f, " points\n- predicted knee within one occupancy level of the measured: ");
    print_share(f, a.knees_agree, a.knees);
    fprintf(f, " variants\n");
    for (int i = 0; i < n; i++)
        if (natural(&k[i]) && k[i].knee_levels_apart > 1)
            fprintf(f, "- `%s`: knee %.2f%% measured, %.2f%% predicted (%d levels apart)\n",
                    k[i].variant, k[i].knee_measured_pct, k[i].knee_predicted_pct,
                    k[i].knee_levels_apart);
}

void occ_knee_markdown(FILE *f, const char *gpu_name, const OccModel *m, const OccKnee *k, int n)
{
    fprintf(f, "# Knee report: %s\n\n", gpu_name ? gpu_name : "unknown GPU");
    char which[200];
    occ_model_describe(m, which, sizeof which);
    fprintf(f, "Little's-law model: predicted GB/s = min(roof, f x bytes in flight per SM x SMs / "
               "latency), f = the row's dram_bytes_per_load_byte (DRAM bytes its GB/s counts per "
               "byte loaded: 2 where each loaded byte is stored again); with a loaded-latency "
               "curve, latency = L(X) at the predicted X (X = min(roof, f B S / L(X))).\n\n");
    fprintf(f, "- model: %s\n", which);
    fprintf(f, "- unloaded DRAM latency: %.1f ns\n", m->latency_ns);
    fputs("- roof of each variant's traffic (the `roof GB/s` column), where its prediction "
          "stops: ", f);
    print_roofs(f, k, n, "; ", NULL);
    fputc('\n', f);
    fprintf(f, "- SMs: %d\n", m->sm_count);
    const double spread = occ_curve_trip_spread(m->curve);
    if (occ_model_is_loaded(m) && !isnan(spread))
        fprintf(f, "- trip spread of a stream's adjacent lines (the read levels' own trips): %.2f "
                   "of the spread of independent latencies\n",
                spread);
    fputs("- bytes in flight per SM each roof needs (roof x unloaded latency / SMs): ", f);
    print_roofs(f, k, n, "; ", m);
    fputc('\n', f);
    fprintf(f, "- knee: lowest occupancy reaching %.0f%% of the variant's best GB/s, measured and "
               "on the prediction\n\n",
            100.0 * OCC_SUMMARY_KNEE_FRACTION);
    const int blocks = per_block(k, n);
    fprintf(f, "| variant | kernel | mode | U | V |%s best GB/s | roof GB/s | knee occ %% measured | "
               "knee occ %% predicted | bytes in flight per SM at knee | worst miss %% | at occ %% "
               "|\n",
            blocks ? " block |" : "");
    fprintf(f, "|---|---|---|--:|--:|%s--:|--:|--:|--:|--:|--:|--:|\n", blocks ? "--:|" : "");
    for (int i = 0; i < n; i++) {
        fprintf(f, "| `%s` | %s | %s | %d | %d |", k[i].variant, k[i].kernel ? k[i].kernel : "-",
                k[i].mode ? k[i].mode : "-", k[i].unroll, k[i].vec_bytes);
        if (blocks) fprintf(f, " %d |", k[i].block_threads);
        occ_row_print_md_num(f, 1, k[i].best_gbps);
        occ_row_print_md_num(f, 1, k[i].roof.gbps);
        occ_summary_print_md_knee(f, k[i].knee_measured_pct, k[i].knee_measured_at_lowest);
        occ_row_print_md_num(f, 2, k[i].knee_predicted_pct);
        occ_row_print_md_num(f, 0, k[i].bytes_in_flight_at_knee);
        occ_row_print_md_num(f, 1, k[i].worst_miss_pct);
        occ_row_print_md_num(f, 2, k[i].worst_miss_occ_pct);
        fputc('\n', f);
    }
    write_agreement(f, k, n);
    fprintf(f, "\n## Model misses > %.0f%%\n\n", OCC_KNEE_MISS_PCT);
    int listed = 0;
    for (int i = 0; i < n; i++) {
        if (k[i].cause[0] == '\0') continue;
        fprintf(f, "- `%s`: %.1f%% at %.2f%% occupancy: %s\n", k[i].variant, k[i].worst_miss_pct,
                k[i].worst_miss_occ_pct, k[i].cause);
        listed++;
    }
    if (listed == 0)
        fprintf(f, "None: the model is within %.0f%% everywhere.\n", OCC_KNEE_MISS_PCT);
}

int occ_knee_write_markdown(const char *path, const char *gpu_name, const OccModel *m,
                            const OccKnee *k, int n, const OccChainKnee *chains, int n_chains,
                            char *err, size_t err_len)
{
    char tmp[4200];
    FILE *f = occ_report_create(path, tmp, sizeof tmp, err, err_len);
    if (f == NULL) return -1;
    if (m != NULL && n > 0)
        occ_knee_markdown(f, gpu_name, m, k, n);
    else
        fprintf(f, "# Knee report: %s\n", gpu_name ? gpu_name : "unknown GPU");
    occ_chain_write_markdown(f, chains, n_chains);
    return occ_report_commit(f, tmp, path, err, err_len);
}
