/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/test_summary.c: best point, knee and the printed table on synthetic rows, and the row
 * helpers (rowfmt.h) the summary and the knee report share. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "rowfmt.h"
#include "summary.h"
#include "summary_print.h"

enum { MAX_ROWS = 16 };

static OccRow rows[MAX_ROWS];
static int n_rows;

static void add(const char *variant, const char *status, double occ_pct, double gbps,
                double pct_memcpy)
{
    OccRow *r = &rows[n_rows++];
    occ_row_init(r);
    r->kernel = "copy";
    r->variant = variant;
    r->status = status;
    r->occ_achieved_pct = occ_pct;
    r->gbps_median = gbps;
    r->pct_of_memcpy = pct_memcpy;
}

/* copy_u1_v4: best 2000 at 75 %, 90 % of it (1800) first reached at 50 %.
 * copy_u4_v16: best 2600 at 50 %, 2340 first reached at 25 %.
 * chase_u1_v4: ok but no bandwidth figure.
 * The skip and fail rows would change both bests and knees if they counted. */
static void make_rows(void)
{
    n_rows = 0;
    add("copy_u1_v4", "ok", 25.0, 1000.0, 40.0);
    add("copy_u4_v16", "ok", 12.5, 2100.0, 84.0);
    add("copy_u1_v4", "ok", 50.0, 1800.0, 72.0);
    add("copy_u4_v16", "skip:occupancy 6.25% unreachable", 6.25, 9999.0, 400.0);
    add("copy_u1_v4", "ok", 75.0, 2000.0, 80.0);
    add("copy_u1_v4", "fail:verify 3 mismatches", 12.5, 5000.0, 200.0);
    add("copy_u4_v16", "ok", 25.0, 2500.0, 100.0);
    add("copy_u8_v16", "skip:regs", 100.0, NAN, NAN);
    add("copy_u4_v16", "ok", 50.0, 2600.0, 104.0);
    add("copy_u1_v4", "ok", 100.0, 1950.0, 78.0);
    add("copy_u4_v16", "ok", 100.0, 2590.0, 103.6);
    add("chase_u1_v4", "ok", 100.0, NAN, NAN);
}

static void test_compute(void)
{
    make_rows();
    OccVariantSummary v[MAX_ROWS];
    int n = occ_summary_compute(rows, n_rows, v, MAX_ROWS);
    CHECK_INT_EQ(n, 3);
    CHECK_STR_EQ(v[0].variant, "copy_u1_v4");
    CHECK_INT_EQ(v[0].n_ok, 4);
    CHECK_NEAR(v[0].best_gbps, 2000.0, 0);
    CHECK_NEAR(v[0].best_occ_pct, 75.0, 0);
    CHECK_NEAR(v[0].best_pct_of_memcpy, 80.0, 0);
    CHECK_NEAR(v[0].knee_occ_pct, 50.0, 0);
    CHECK_INT_EQ(v[0].knee_at_lowest, 0); /* its lowest ok level is 25% */

    CHECK_STR_EQ(v[1].variant, "copy_u4_v16");
    CHECK_INT_EQ(v[1].n_ok, 4);
    CHECK_NEAR(v[1].best_gbps, 2600.0, 0);
    CHECK_NEAR(v[1].best_occ_pct, 50.0, 0);
    CHECK_NEAR(v[1].best_pct_of_memcpy, 104.0, 0);
    CHECK_NEAR(v[1].knee_occ_pct, 25.0, 0);
    CHECK_INT_EQ(v[1].knee_at_lowest, 0); /* 12.5% was measured, below 90% of the best */

    CHECK_STR_EQ(v[2].variant, "chase_u1_v4");
    CHECK_INT_EQ(v[2].n_ok, 1);
    CHECK(isnan(v[2].best_gbps) && isnan(v[2].knee_occ_pct));

    /* max_out caps the entries filled */
    CHECK_INT_EQ(occ_summary_compute(rows, n_rows, v, 1), 1);
    CHECK_STR_EQ(v[0].variant, "copy_u1_v4");
}

static void test_tie_and_exact_knee(void)
{
    n_rows = 0;
    add("reduce_u2_v16", "ok", 100.0, 3000.0, 90.0);
    add("reduce_u2_v16", "ok", 37.5, 3000.0, 91.0);
    add("reduce_u2_v16", "ok", 18.75, 2700.0, 81.0); /* exactly 90 %: counts as the knee */
    add("reduce_u2_v16", "ok", 12.5, 2699.0, 80.0);
    OccVariantSummary v[1];
    CHECK_INT_EQ(occ_summary_compute(rows, n_rows, v, 1), 1);
    CHECK_NEAR(v[0].best_occ_pct, 37.5, 0);
    CHECK_NEAR(v[0].best_pct_of_memcpy, 91.0, 0);
    CHECK_NEAR(v[0].knee_occ_pct, 18.75, 0);
}

/* Reads everything printed to f. */
static char *slurp(FILE *f)
{
    long len = ftell(f);
    char *s = malloc((size_t)len + 1);
    rewind(f);
    size_t got = fread(s, 1, (size_t)len, f);
    s[got] = '\0';
    return s;
}

static const char *line_starting(const char *text, const char *prefix)
{
    for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        if (strncmp(p, prefix, strlen(prefix)) == 0) return p;
    return NULL;
}

static size_t line_len(const char *p) { return strcspn(p, "\n"); }

/* What occ_summary_print prints for r[0..n) (echoed to stdout), or NULL when no temporary file
 * could be made (a failed check). */
static char *printed_summary(const OccRow *r, int n)
{
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (f == NULL) return NULL;
    occ_summary_print(f, r, n);
    char *out = slurp(f);
    fclose(f);
    fputs(out, stdout);
    return out;
}

/* A knee at the lowest level measured: flagged, marked in the table and explained once; a
 * variant measured lower is not. */
static void test_knee_at_lowest(void)
{
    n_rows = 0;
    add("reduce_u4_v16", "ok", 25.0, 4400.0, 102.0);
    add("reduce_u4_v16", "ok", 50.0, 4550.0, 105.0);
    add("reduce_u4_v16", "skip:unreachable", 12.5, NAN, NAN); /* not measured: not the lowest */
    add("reduce_u1_v4", "ok", 25.0, 1000.0, 23.0);
    add("reduce_u1_v4", "ok", 81.25, 2500.0, 58.0);
    OccVariantSummary v[2];
    CHECK_INT_EQ(occ_summary_compute(rows, n_rows, v, 2), 2);
    CHECK_NEAR(v[0].knee_occ_pct, 25.0, 0);
    CHECK_INT_EQ(v[0].knee_at_lowest, 1);
    CHECK_NEAR(v[1].knee_occ_pct, 81.25, 0);
    CHECK_INT_EQ(v[1].knee_at_lowest, 0);
    char *out = printed_summary(rows, n_rows);
    if (out == NULL) return;
    CHECK_CONTAINS(out, "     <=25.00\n");
    CHECK_CONTAINS(out, "       81.25\n"); /* two decimals: 81.25, not 81.2 */
    CHECK_CONTAINS(out, "; <=: the knee is the lowest level measured; it may lie lower\n");
    CHECK_CONTAINS(out, "\n% memcpy = best GB/s as a percentage of the run's cudaMemcpy");
    free(out);
    /* No knee at its lowest level: no note. */
    make_rows();
    out = printed_summary(rows, n_rows);
    if (out == NULL) return;
    CHECK(strstr(out, "<=") == NULL);
    free(out);
}

static void test_print(void)
{
    make_rows();
    char *out = printed_summary(rows, n_rows);
    if (out == NULL) return;

    const char *head = line_starting(out, "variant ");
    const char *a = line_starting(out, "copy_u1_v4 ");
    const char *b = line_starting(out, "copy_u4_v16 ");
    const char *c = line_starting(out, "chase_u1_v4 ");
    CHECK(head != NULL && a != NULL && b != NULL && c != NULL);
    if (head == NULL || a == NULL || b == NULL || c == NULL) {
        free(out);
        return;
    }
    CHECK_CONTAINS(head, "best GB/s");
    CHECK_CONTAINS(head, "knee occ %");
    CHECK(head < a && a < b && b < c);
    CHECK(line_starting(out, "copy_u8_v16") == NULL);

    char name[64];
    int n_ok;
    double best, at_occ, pct, knee;
    CHECK_INT_EQ(sscanf(a, "%63s %d %lf %lf %lf %lf", name, &n_ok, &best, &at_occ, &pct, &knee), 6);
    CHECK_INT_EQ(n_ok, 4);
    CHECK_NEAR(best, 2000.0, 0.05);
    CHECK_NEAR(at_occ, 75.0, 0.05);
    CHECK_NEAR(pct, 80.0, 0.05);
    CHECK_NEAR(knee, 50.0, 0.05);
    CHECK_INT_EQ(sscanf(b, "%63s %d %lf %lf %lf %lf", name, &n_ok, &best, &at_occ, &pct, &knee), 6);
    CHECK_NEAR(best, 2600.0, 0.05);
    CHECK_NEAR(at_occ, 50.0, 0.05);
    CHECK_NEAR(pct, 104.0, 0.05);
    CHECK_NEAR(knee, 25.0, 0.05);
    CHECK_CONTAINS(c, " -");

    /* fixed width: every table line has the header's length */
    CHECK_INT_EQ(line_len(a), line_len(head));
    CHECK_INT_EQ(line_len(b), line_len(head));
    CHECK_INT_EQ(line_len(c), line_len(head));

    CHECK_CONTAINS(out, "rows: 9 ok, 2 skip, 1 fail");
    free(out);

    out = printed_summary(rows + 7, 1);
    if (out == NULL) return;
    CHECK_CONTAINS(out, "no ok rows");
    CHECK_CONTAINS(out, "rows: 0 ok, 1 skip, 0 fail");
    free(out);
}

static void test_rowfmt(void)
{
    OccRow r;
    occ_row_init(&r);
    CHECK(!occ_row_is_ok(&r));
    r.status = NULL;
    CHECK(!occ_row_is_ok(&r));
    r.status = "ok:but more";
    CHECK(!occ_row_is_ok(&r));
    r.status = "ok";
    CHECK(occ_row_is_ok(&r));

    CHECK(occ_row_str_same("copy_u1_v4", "copy_u1_v4"));
    CHECK(!occ_row_str_same("copy_u1_v4", "copy_u1_v8"));
    CHECK(occ_row_str_same(NULL, "-") && occ_row_str_same("-", NULL));
    CHECK(occ_row_str_same(NULL, NULL));
    CHECK(!occ_row_str_same(NULL, ""));

    r.variant = "reduce_u2_v4";
    CHECK(occ_row_ok_of_variant(&r, "reduce_u2_v4"));
    CHECK(!occ_row_ok_of_variant(&r, "reduce_u2_v8"));
    r.status = "skip:regs";
    CHECK(!occ_row_ok_of_variant(&r, "reduce_u2_v4"));

    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (f == NULL) return;
    occ_row_print_num(f, 6, 1, 12.345);
    occ_row_print_num(f, 4, 0, 7.6);
    occ_row_print_num(f, 5, 2, NAN);
    char *out = slurp(f);
    fclose(f);
    CHECK_STR_EQ(out, "    12.3     8      -");
    free(out);
}

/* Arithmetic rows: fma_fp32_u1 (GFLOP/s only) has best 60000 at 75% and 54000 first at 50%;
 * mixed_a64 (both rates) keeps its GB/s line and gets a GFLOP/s line too. */
static void test_flops(void)
{
    n_rows = 0;
    const double occ[] = {25, 50, 75, 100}, gflops[] = {20000, 54000, 60000, 59000};
    for (int i = 0; i < 4; i++) {
        add("fma_fp32_u1", "ok", occ[i], NAN, NAN);
        rows[n_rows - 1].gflops_median = gflops[i];
        rows[n_rows - 1].pct_of_flop_peak = gflops[i] / 600.0;
        add("mixed_u2_v16_a64", "ok", occ[i], 1000.0 * (i + 1), 25.0 * (i + 1));
        rows[n_rows - 1].gflops_median = 32000.0 * (i + 1);
    }
    OccVariantSummary v[MAX_ROWS];
    CHECK_INT_EQ(occ_summary_compute(rows, n_rows, v, MAX_ROWS), 2);
    CHECK(isnan(v[0].best_gbps));
    CHECK_NEAR(v[0].best_gflops, 60000.0, 0);
    CHECK_NEAR(v[0].best_gflops_occ_pct, 75.0, 0);
    CHECK_NEAR(v[0].best_pct_of_flop_peak, 100.0, 1e-12);
    CHECK_NEAR(v[0].knee_gflops_occ_pct, 50.0, 0);
    CHECK_NEAR(v[1].best_gflops, 128000.0, 0);
    CHECK_NEAR(v[1].knee_gflops_occ_pct, 100.0, 0); /* 90% of 4000 GB/s: only at 100% */
    CHECK_NEAR(v[1].knee_occ_pct, 100.0, 0);

    char *out = printed_summary(rows, n_rows);
    if (out == NULL) return;
    const char *bw = line_starting(out, "variant "), *mixed = line_starting(out, "mixed_u2_v16_a64 ");
    const char *ar = bw ? line_starting(bw + 1, "variant ") : NULL;
    CHECK(bw != NULL && ar != NULL && mixed != NULL);
    if (bw && ar && mixed) {
        CHECK_CONTAINS(bw, "best GB/s");
        CHECK_CONTAINS(ar, "best GFLOP/s");
        CHECK(bw < mixed && mixed < ar); /* mixed in the GB/s table, fma only in the other */
        CHECK(line_starting(out, "fma_fp32_u1 ") > ar);
        CHECK(line_starting(ar, "mixed_u2_v16_a64 ") != NULL);
        CHECK_CONTAINS(out, "arithmetic: knee = lowest occupancy reaching 90% of the variant's "
                            "best GFLOP/s");
    }
    free(out);
}

/* One variant at two block sizes: two entries, each with its own best and knee (block 256's
 * 1900 GB/s at 50% must not make block 128's knee), and the printed table names the block. */
static void test_per_block(void)
{
    n_rows = 0;
    const double occ[] = {25, 50, 25, 50}, gbps[] = {1000, 1200, 1500, 1900};
    const int block[] = {128, 128, 256, 256};
    for (int i = 0; i < 4; i++) {
        add("reduce_u4_v16", "ok", occ[i], gbps[i], 0);
        rows[i].block_threads = block[i];
    }
    OccVariantSummary v[MAX_ROWS];
    CHECK_INT_EQ(occ_summary_compute(rows, n_rows, v, MAX_ROWS), 2);
    CHECK_INT_EQ(v[0].block_threads, 128);
    CHECK_NEAR(v[0].best_gbps, 1200.0, 0);
    CHECK_NEAR(v[0].knee_occ_pct, 50.0, 0); /* 1000 < 0.9 x 1200 */
    CHECK_INT_EQ(v[1].block_threads, 256);
    CHECK_NEAR(v[1].best_gbps, 1900.0, 0);
    CHECK_INT_EQ(v[0].n_ok, 2);
    CHECK(occ_summary_per_block(v, 2));
    CHECK(!occ_summary_per_block(v, 1));
    char *out = printed_summary(rows, n_rows);
    if (out == NULL) return;
    CHECK_CONTAINS(out, "variant        block");
    CHECK_CONTAINS(out, "reduce_u4_v16    256");
    CHECK_CONTAINS(out, "at its block size");
    free(out);
}

int main(void)
{
    test_per_block();
    test_flops();
    test_compute();
    test_tie_and_exact_knee();
    test_knee_at_lowest();
    test_print();
    test_rowfmt();
    return check_done();
}
