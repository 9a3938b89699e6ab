/* SPDX-License-Identifier: Apache-2.0 */
/* harness/model/chain_model.c: the chain model and its report section (contract in
 * chain_model.h). */
#include "chain_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "catalog.h"
#include "rowfmt.h"
#include "summary.h"

double occ_chain_work_per_op(const OccRow *r, int *flop)
{
    const OccVariantInfo *v = r->variant_info;
    *flop = v != NULL && !occ_arch_rate_is_bytes(v->peak);
    return v != NULL ? v->work_per_op : 0.0;
}

/* The row's rate in its unit (GFLOP/s or GB/s), NaN when it has none. */
static double rate_of(const OccRow *r)
{
    int flop;
    if (occ_chain_work_per_op(r, &flop) <= 0) return NAN;
    return flop ? r->gflops_median : r->gbps_median;
}

double occ_chain_ops_per_sm_clk(const OccRow *r)
{
    int flop;
    const double work = occ_chain_work_per_op(r, &flop), rate = rate_of(r);
    if (!(work > 0) || !(rate > 0) || r->sm_count <= 0 || !(r->sm_clock_mhz_median > 0))
        return NAN;
    return rate * 1e9 / work / (double)r->sm_count / (r->sm_clock_mhz_median * 1e6);
}

/* Warps per SM of the row (the API's residency). */
static double warps_of(const OccRow *r)
{
    return (double)r->blocks_per_sm * (double)r->block_threads / 32.0;
}

double occ_chain_cycles_per_step(const OccRow *r)
{
    const double ops = occ_chain_ops_per_sm_clk(r), w = warps_of(r);
    if (!(ops > 0) || !(w > 0) || r->unroll <= 0) return NAN;
    return w * (double)r->unroll / ops;
}

static int usable(const OccRow *r) { return occ_row_is_ok(r) && rate_of(r) > 0; }

static int same_variant(const OccRow *a, const OccRow *b)
{
    return occ_row_str_same(a->variant, b->variant) && a->block_threads == b->block_threads;
}

/* Rows of one latency pool: the same kernel, mode, V and block. */
static int same_pool(const OccRow *a, const OccRow *b)
{
    return occ_row_str_same(a->kernel, b->kernel) && occ_row_str_same(a->mode, b->mode) &&
           a->vec_bytes == b->vec_bytes && a->block_threads == b->block_threads;
}

static double best_rate_of(const OccRow *rows, int n, const OccRow *like)
{
    double best = NAN;
    for (int i = 0; i < n; i++)
        if (usable(&rows[i]) && same_variant(&rows[i], like) &&
            !(rate_of(&rows[i]) <= best))
            best = rate_of(&rows[i]);
    return best;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of v[0..n) (sorted in place); NaN when n is 0. */
static double median(double *v, int n)
{
    if (n == 0) return NAN;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* L (cycles) and its ns over the pool of `like`: the rows below the plateau of their variant. */
static void pool_latency(const OccRow *rows, int n, const OccRow *like, double *cycles,
                         double *ns)
{
    const size_t cap = (size_t)(n ? n : 1);
    double *c = malloc(cap * sizeof *c), *mhz = malloc(cap * sizeof *mhz);
    int m = 0;
    for (int i = 0; c && mhz && i < n; i++) {
        const OccRow *r = &rows[i];
        if (!usable(r) || !same_pool(r, like)) continue;
        if (!(rate_of(r) < OCC_CHAIN_BELOW_PLATEAU * best_rate_of(rows, n, r))) continue;
        const double step = occ_chain_cycles_per_step(r);
        if (!isfinite(step)) continue;
        c[m] = step;
        mhz[m++] = r->sm_clock_mhz_median;
    }
    *cycles = c && mhz ? median(c, m) : NAN;
    const double clock = c && mhz ? median(mhz, m) : NAN;
    *ns = *cycles / clock * 1e3;
    free(c);
    free(mhz);
}

/* The share of its variant's peak a row's rate is, %: a byte rate against the arch's peak of
 * that rate, a FLOP rate as the row's pct_of_flop_peak. */
static double pct_of_peak(const OccRow *r)
{
    const OccVariantInfo *v = r->variant_info;
    if (v == NULL || !occ_arch_rate_is_bytes(v->peak)) return r->pct_of_flop_peak;
    const double peak =
        occ_arch_peak(occ_arch_find(r->cc), v->peak, (int)r->sm_count, r->sm_clock_mhz_median);
    return 100.0 * r->gbps_median / peak; /* NaN when the peak is */
}

/* Distinct occ_achieved_pct of the variant's rows in (lo, hi]. */
static int levels_between(const OccRow *rows, int n, const OccRow *like, double lo, double hi)
{
    int count = 0;
    for (int i = 0; i < n; i++) {
        const OccRow *r = &rows[i];
        if (!usable(r) || !same_variant(r, like)) continue;
        const double o = r->occ_achieved_pct;
        if (!(o > lo && o <= hi)) continue;
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = usable(&rows[j]) && same_variant(&rows[j], like) &&
                   rows[j].occ_achieved_pct == o;
        count += !seen;
    }
    return count;
}

static void fill_knee(const OccRow *rows, int n, const OccRow *first, OccChainKnee *k)
{
    int flop;
    occ_chain_work_per_op(first, &flop);
    *k = (OccChainKnee){.variant = first->variant, .kernel = first->kernel, .mode = first->mode,
                        .unroll = (int)first->unroll, .vec_bytes = (int)first->vec_bytes,
                        .block_threads = (int)first->block_threads, .flop = flop,
                        .best_rate = best_rate_of(rows, n, first), .best_pct_of_peak = NAN,
                        .issue_per_sm_clk = NAN, .knee_measured_pct = NAN,
                        .knee_predicted_pct = NAN, .knee_levels_apart = -1};
    pool_latency(rows, n, first, &k->latency_cycles, &k->latency_ns);
    for (int i = 0; i < n; i++) {
        const OccRow *r = &rows[i];
        if (!usable(r) || !same_variant(r, first)) continue;
        if (rate_of(r) == k->best_rate) {
            k->best_pct_of_peak = pct_of_peak(r);
            k->issue_per_sm_clk = occ_chain_ops_per_sm_clk(r);
        }
    }
    const double needed = k->latency_cycles * k->issue_per_sm_clk / k->unroll; /* W* per SM */
    k->warps_per_subpartition = needed / OCC_CHAIN_SUBPARTITIONS;
    double lowest = NAN;
    for (int i = 0; i < n; i++) {
        const OccRow *r = &rows[i];
        if (!usable(r) || !same_variant(r, first)) continue;
        const double o = r->occ_achieved_pct;
        if (!(o >= lowest)) lowest = o;
        if (rate_of(r) >= OCC_SUMMARY_KNEE_FRACTION * k->best_rate &&
            !(o >= k->knee_measured_pct))
            k->knee_measured_pct = o;
        if (warps_of(r) >= OCC_SUMMARY_KNEE_FRACTION * needed && !(o >= k->knee_predicted_pct))
            k->knee_predicted_pct = o;
    }
    k->knee_measured_at_lowest = k->knee_measured_pct == lowest;
    if (isfinite(k->knee_measured_pct) && isfinite(k->knee_predicted_pct)) {
        const double lo = fmin(k->knee_measured_pct, k->knee_predicted_pct);
        const double hi = fmax(k->knee_measured_pct, k->knee_predicted_pct);
        k->knee_levels_apart = levels_between(rows, n, first, lo, hi);
    }
}

int occ_chain_knees(const OccRow *rows, int n, OccChainKnee *out, int max_out)
{
    int nk = 0;
    for (int i = 0; i < n && nk < max_out; i++) {
        if (!usable(&rows[i])) continue;
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = usable(&rows[j]) && same_variant(&rows[j], &rows[i]);
        if (!seen) fill_knee(rows, n, &rows[i], &out[nk++]);
    }
    return nk;
}

/* How many lines have both knees, and of those how many are within one level. */
static void agreement(const OccChainKnee *k, int n, int *both, int *agree)
{
    *both = *agree = 0;
    for (int i = 0; i < n; i++) {
        if (k[i].knee_levels_apart < 0) continue;
        (*both)++;
        *agree += k[i].knee_levels_apart <= 1;
    }
}

void occ_chain_print(FILE *f, const OccChainKnee *k, int n)
{
    if (n <= 0) return;
    int w = (int)strlen("variant");
    for (int i = 0; i < n; i++)
        if ((int)strlen(k[i].variant) > w) w = (int)strlen(k[i].variant);
    int lowest = 0; /* variants whose measured knee is their lowest level */
    fprintf(f, "%-*s  %2s  %2s  %5s  %12s  %6s  %8s  %7s  %8s  %9s  %8s  %7s\n", w, "variant",
            "U", "V", "block", "best rate", "% peak", "L cycles", "L ns", "ops/SM/c",
            "warps/SP", "knee %", "model %");
    for (int i = 0; i < n; i++) {
        fprintf(f, "%-*s  %2d  %2d  %5d", w, k[i].variant, k[i].unroll, k[i].vec_bytes,
                k[i].block_threads);
        occ_row_print_num(f, 12, 1, k[i].best_rate);
        occ_row_print_num(f, 6, 1, k[i].best_pct_of_peak);
        occ_row_print_num(f, 8, 2, k[i].latency_cycles);
        occ_row_print_num(f, 7, 2, k[i].latency_ns);
        occ_row_print_num(f, 8, 3, k[i].issue_per_sm_clk);
        occ_row_print_num(f, 9, 2, k[i].warps_per_subpartition);
        occ_summary_print_knee(f, 8, k[i].knee_measured_pct, k[i].knee_measured_at_lowest);
        occ_row_print_num(f, 7, 2, k[i].knee_predicted_pct);
        fputc('\n', f);
        lowest += k[i].knee_measured_at_lowest;
    }
    int both, agree;
    agreement(k, n, &both, &agree);
    fprintf(f, "chain model: best rate in GFLOP/s (fma, mma) or GB/s (smem); L = cycles per "
               "dependent operation below the plateau; warps/SP = L x ops/SM/clock / U / %d; "
               "predicted knee within one occupancy level for %d of %d variants%s\n",
            OCC_CHAIN_SUBPARTITIONS, agree, both, lowest ? "; " OCC_KNEE_LOWEST_NOTE : "");
}

void occ_chain_write_markdown(FILE *f, const OccChainKnee *k, int n)
{
    if (n <= 0) return;
    fprintf(f, "\n## Latency chains\n\nChain model: an operation is a warp instruction (fma: an "
               "FMA; mma: an mma; smem chase: a hop; smem stream/rw: a load, with its store). "
               "With W warps per SM of U chains each, the cycles per dependent step are "
               "c = W x U / (operations per SM per clock); L is the median c of the rows below "
               "%.0f%% of their variant's best (of every U of the same kernel, mode, V and "
               "block), r the variant's best operations per SM per clock, and the warps needed "
               "W* = L x r / U (per sub-partition: / %d). Predicted knee: the lowest level with "
               "W >= %.0f%% of W*; measured: the lowest reaching %.0f%% of the best rate.\n\n",
            100.0 * OCC_CHAIN_BELOW_PLATEAU, OCC_CHAIN_SUBPARTITIONS,
            100.0 * OCC_SUMMARY_KNEE_FRACTION, 100.0 * OCC_SUMMARY_KNEE_FRACTION);
    fprintf(f, "| variant | kernel | mode | U | V | block | best rate | unit | %% of peak | L "
               "cycles | L ns | ops/SM/clock | warps/SP needed | knee occ %% measured | knee occ "
               "%% predicted | levels apart |\n");
    fprintf(f, "|---|---|---|--:|--:|--:|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|\n");
    for (int i = 0; i < n; i++) {
        fprintf(f, "| `%s` | %s | %s | %d | %d | %d |", k[i].variant, k[i].kernel, k[i].mode,
                k[i].unroll, k[i].vec_bytes, k[i].block_threads);
        occ_row_print_md_num(f, 1, k[i].best_rate);
        fprintf(f, " %s |", k[i].flop ? "GFLOP/s" : "GB/s");
        occ_row_print_md_num(f, 1, k[i].best_pct_of_peak);
        occ_row_print_md_num(f, 2, k[i].latency_cycles);
        occ_row_print_md_num(f, 2, k[i].latency_ns);
        occ_row_print_md_num(f, 3, k[i].issue_per_sm_clk);
        occ_row_print_md_num(f, 2, k[i].warps_per_subpartition);
        occ_summary_print_md_knee(f, k[i].knee_measured_pct, k[i].knee_measured_at_lowest);
        occ_row_print_md_num(f, 2, k[i].knee_predicted_pct);
        if (k[i].knee_levels_apart < 0)
            fprintf(f, " - |\n");
        else
            fprintf(f, " %d |\n", k[i].knee_levels_apart);
    }
    int both, agree;
    agreement(k, n, &both, &agree);
    fprintf(f, "\nPredicted knee within one occupancy level of the measured: %d of %d variants.\n",
            agree, both);
}
