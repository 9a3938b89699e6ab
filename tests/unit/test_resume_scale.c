/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/test_resume_scale.c: --resume on large files (harness/plan/resume.c). A 200,000-row
 * file written by the CSV writer: occ_resume_read finds no duplicate in it and finds one appended
 * at its end; occ_resume_filter_points and occ_resume_keep_rows on 200,000 rows and 200,000 points.
 * One row against every other (the old checks) would take many minutes there; the sorted lookups
 * take well under a second (most of the test's time is writing and reading the files), and no check
 * reads a clock. On small tables: which rows are the same point
 * (a NaN occ_target_pct equals a NaN one, -0 equals 0, another lever or block or footprint is
 * another point, "-" equals "-"), the pair the error names (the first in row order), and the
 * lookups against occ_resume_keep_row's one-row predicate on random tables. */
#define _XOPEN_SOURCE 700 /* mkdtemp */

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "catalog.h"
#include "check.h"
#include "loaded_levels.h"
#include "resume.h"

enum { BIG = 200000 };

static char dir[64];

static const char *path_in(const char *name)
{
    static char buf[4][256];
    static int next;
    char *p = buf[next++ % 4];
    snprintf(p, 256, "%s/%s", dir, name);
    return p;
}

/* An ok reduce row of point (variant, lever, block, target); every other key "not applicable". */
static OccRow reduce_row(const char *variant, const char *lever, int block, double target)
{
    OccRow r;
    occ_row_init(&r);
    r.gpu_name = "NVIDIA H200";
    r.cc = "9.0";
    r.kernel = "reduce";
    r.mode = "stream";
    r.variant = variant;
    r.lever = lever;
    r.block_threads = block;
    r.occ_target_pct = target;
    r.status = "ok";
    return r;
}

/* Row i of the big file: a distinct point per i (32 block sizes x targets 0.001 apart). */
static OccRow big_row(int i)
{
    return reduce_row("reduce_u1_v4", "pad", 32 * (1 + i % 32), (i / 32) / 1000.0 + 0.001);
}

/* Writes rows[0..n) with the CSV writer, after the first n_big rows of the big file (big_row). */
static int write_rows(const char *path, int n_big, const OccRow *rows, int n)
{
    const char *keys[] = {"gpu_name", "cc"}, *values[] = {"NVIDIA H200", "9.0"};
    char err[512];
    OccCsvWriter *w = occ_csv_open(path, 1, keys, values, 2, err, sizeof err);
    if (!w) return fprintf(stderr, "%s\n", err), -1;
    for (int i = 0; i < n_big + n; i++) {
        const OccRow r = i < n_big ? big_row(i) : rows[i - n_big];
        if (occ_csv_write_row(w, &r) != 0) return occ_csv_close(w, NULL, NULL), -1;
    }
    return occ_csv_close(w, NULL, NULL);
}

/* occ_resume_read of a file of n_big rows of the big file then rows[0..n): 0, or -1 with err. */
static int read_rows(const char *name, int n_big, const OccRow *rows, int n, char *err,
                     size_t err_len)
{
    OccCsvTable t = {0};
    err[0] = '\0';
    if (write_rows(path_in(name), n_big, rows, n) != 0)
        return snprintf(err, err_len, "write failed"), -2;
    const int rc = occ_resume_read(path_in(name), &t, err, err_len);
    if (rc == 0) occ_csv_table_free(&t);
    return rc;
}

static int read_small(const char *name, const OccRow *rows, int n, char *err, size_t err_len)
{
    return read_rows(name, 0, rows, n, err, err_len);
}

/* Which rows are the same point, and which pair the error names. */
static void test_equality(void)
{
    char err[512];
    const double nan = NAN;
    OccRow a = reduce_row("reduce_u1_v4", "pad", 256, nan), rows[5];
    rows[0] = a;
    rows[1] = a;
    CHECK_INT_EQ(read_small("nan.csv", rows, 2, err, sizeof err), -1);
    CHECK_CONTAINS(err, "data rows 1 and 2 are the same point (reduce_u1_v4, pad)");
    rows[1].lever = "bounds";
    CHECK_INT_EQ(read_small("lever.csv", rows, 2, err, sizeof err), 0);
    rows[1] = a;
    rows[1].block_threads = 128;
    CHECK_INT_EQ(read_small("block.csv", rows, 2, err, sizeof err), 0);
    rows[1] = a;
    rows[1].occ_target_pct = 50;
    CHECK_INT_EQ(read_small("nan-50.csv", rows, 2, err, sizeof err), 0);
    rows[0].occ_target_pct = 50.0000001; /* no tolerance: only == is the same */
    CHECK_INT_EQ(read_small("near.csv", rows, 2, err, sizeof err), 0);
    rows[0].occ_target_pct = -0.0, rows[1].occ_target_pct = 0.0;
    CHECK_INT_EQ(read_small("zero.csv", rows, 2, err, sizeof err), -1);
    CHECK_CONTAINS(err, "data rows 1 and 2 are the same point");
    rows[0] = a, rows[1] = a;
    rows[1].buffer_bytes = 4096;
    CHECK_INT_EQ(read_small("bytes.csv", rows, 2, err, sizeof err), 0);
    rows[1] = a;
    rows[1].status = "fail:sum out of tolerance"; /* status is no key */
    CHECK_INT_EQ(read_small("status.csv", rows, 2, err, sizeof err), -1);
    rows[0].lever = rows[1].lever = NULL; /* written "-" by the writer: "-" is "-" */
    rows[1].status = "ok";
    CHECK_INT_EQ(read_small("dash.csv", rows, 2, err, sizeof err), -1);
    CHECK_CONTAINS(err, "same point (reduce_u1_v4, -)");

    /* the first pair in row order: least first row, then least second row */
    const OccRow x = reduce_row("reduce_u1_v4", "pad", 64, 10);
    const OccRow y = reduce_row("reduce_u2_v4", "pad", 64, 10);
    const OccRow z = reduce_row("reduce_u1_v4", "pad", 64, nan);
    const struct {
        OccRow r[5];
        int n;
        const char *says;
    } order[] = {{{x, y, x, y}, 4, "data rows 1 and 3 "},
                 {{x, y, y, x}, 4, "data rows 1 and 4 "},
                 {{z, x, y, y, x}, 5, "data rows 2 and 5 "},
                 {{z, y, x, x, z}, 5, "data rows 1 and 5 "},
                 {{y, x, z, z, z}, 5, "data rows 3 and 4 "}};
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
        CHECK_INT_EQ(read_small("order.csv", order[k].r, order[k].n, err, sizeof err), -1);
        CHECK_CONTAINS(err, order[k].says);
    }
    CHECK_INT_EQ(read_small("empty.csv", rows, 0, err, sizeof err), 0);
}

/* 200,000 distinct rows: none refused; the last row once more at the end: refused, naming it. */
static void test_big_file(void)
{
    char err[512];
    OccRow last[1] = {big_row(BIG - 1)};
    CHECK_INT_EQ(read_rows("big.csv", BIG, NULL, 0, err, sizeof err), 0);
    CHECK_INT_EQ(read_rows("big-dup.csv", BIG, last, 1, err, sizeof err), -1);
    CHECK_CONTAINS(err, "data rows 200000 and 200001 are the same point (reduce_u1_v4, pad)");
    last[0].block_threads = 2048; /* another point: the file is resumable */
    CHECK_INT_EQ(read_rows("big-new.csv", BIG, last, 1, err, sizeof err), 0);
}

static OccPoint occupancy_point(const char *variant, OccLever lever, int block, double target)
{
    const int v = occ_variant_find(variant);
    OccPoint p = {.family = v >= 0 ? occ_variant_at(v)->family : 0, .variant_index = v,
                  .lever = lever, .block_threads = block, .level = {.asked_pct = target}};
    snprintf(p.mode, sizeof p.mode, "%s", v >= 0 ? occ_variant_at(v)->mode : "");
    return p;
}

/* 200,000 rows (every third a fail row) and 200,000 points (each a row's, its target 5e-7 off,
 * or one no row holds): the points kept are those of fail rows and the new ones, in order; the
 * fail rows of kept points are the rows left out of the rewritten file. */
static void test_big_lookups(void)
{
    OccRow *rows = malloc(BIG * sizeof *rows);
    OccPoint *points = malloc(BIG * sizeof *points);
    unsigned char *keep = malloc(BIG);
    CHECK(rows && points && keep);
    if (!rows || !points || !keep) {
        free(rows), free(points), free(keep);
        return;
    }
    CHECK(occ_variant_find("reduce_u1_v4") >= 0);
    for (int i = 0; i < BIG; i++) {
        rows[i] = big_row(i);
        if (i % 3 == 0) rows[i].status = "fail:sum out of tolerance";
    }
    OccCsvTable t = {.n_rows = BIG, .rows = rows};
    /* point i: row i's (target shifted by 5e-7) for even i, for odd i a block size no row has */
    for (int i = 0; i < BIG; i++) {
        const OccRow r = big_row(i);
        points[i] = occupancy_point("reduce_u1_v4", OCC_LEVER_PAD,
                                    i % 2 ? 2048 : r.block_threads, r.occ_target_pct + 5e-7);
        points[i].ordinal = i;
    }
    const int kept = occ_resume_filter_points(&t, points, BIG);
    int want = 0, in_order = 1;
    for (int i = 0; i < BIG; i++)
        if (i % 2 || i % 3 == 0) in_order &= want < kept && points[want++].ordinal == i;
    CHECK_INT_EQ(kept, want);
    CHECK(in_order);
    CHECK_INT_EQ(occ_resume_keep_rows(&t, points, kept, keep), 0);
    int wrong = 0;
    for (int i = 0; i < BIG; i++) wrong += keep[i] != !(i % 3 == 0 && i % 2 == 0);
    CHECK_INT_EQ(wrong, 0);
    free(rows);
    free(points);
    free(keep);
}

/* Random small tables of occupancy, footprint and level rows (NULL and "-" strings, NaN targets,
 * targets within and beyond 1e-6 of a point's): each point is held exactly when an ok or skip row
 * is its row by occ_resume_keep_row's predicate (asked of the table with every row a fail row),
 * and occ_resume_keep_rows says what occ_resume_keep_row says of every row. */
static void test_lookups_random(void)
{
    const char *variants[] = {"reduce_u1_v4", "reduce_u2_v4", "-", NULL};
    const char *levers[] = {"pad", "bounds", "-", NULL};
    const double offsets[] = {0, 9e-7, -9e-7, 1.1e-6, -1.1e-6, 2e-5, NAN};
    const int ladder = occ_family_find("chase", "latency");
    const int loaded = occ_family_find("chase", "loaded");
    CHECK(ladder >= 0 && loaded >= 0);
    if (ladder < 0 || loaded < 0) return;
    srand(7);
    int mismatched = 0, held_any = 0;
    for (int round = 0; round < 300; round++) {
        OccRow rows[40], failed[40];
        OccPoint points[24];
        const int n_rows = 1 + rand() % 40, n_points = 1 + rand() % 24;
        for (int i = 0; i < n_rows; i++) {
            const int kind = rand() % 4;
            OccRow r = reduce_row(variants[rand() % 4], levers[rand() % 4], 64 << (rand() % 2),
                                  25 * (1 + rand() % 2) + offsets[rand() % 7]);
            if (kind == 1) { /* a ladder row */
                r.kernel = "chase", r.mode = "latency";
                r.variant = rand() % 4 ? occ_family_variant_name(ladder) : NULL;
                r.buffer_bytes = 4096 << (rand() % 3);
            } else if (kind == 2) { /* a load level's row */
                r.kernel = "chase", r.mode = "loaded";
                r.variant = occ_loaded_level_name(rand() % 3);
            }
            r.status = rand() % 3 ? "ok" : rand() % 2 ? "skip:unreachable" : "fail:probe";
            rows[i] = r;
            failed[i] = r;
            failed[i].status = "fail";
        }
        for (int p = 0; p < n_points; p++) {
            const int kind = rand() % 3;
            const OccLever lever = rand() % 2 ? OCC_LEVER_PAD : OCC_LEVER_BOUNDS;
            points[p] = occupancy_point(variants[rand() % 2], lever, 64 << (rand() % 2),
                                        25 * (1 + rand() % 2));
            if (kind == 1) {
                points[p] = (OccPoint){.family = ladder, .variant_index = -1,
                                       .footprint_bytes = 4096 << (rand() % 3)};
                snprintf(points[p].mode, sizeof points[p].mode, "latency");
            } else if (kind == 2) {
                points[p] = (OccPoint){.family = loaded, .variant_index = -1,
                                       .ordinal = rand() % 3};
                snprintf(points[p].mode, sizeof points[p].mode, "loaded");
            }
            points[p].waves = p;
        }
        OccCsvTable t = {.n_rows = n_rows, .rows = rows};
        const OccCsvTable all_fail = {.n_rows = n_rows, .rows = failed};
        int want_kept = 0, kept_ok = 1;
        OccPoint kept[24];
        memcpy(kept, points, sizeof points);
        const int n_kept = occ_resume_filter_points(&t, kept, n_points);
        for (int p = 0; p < n_points; p++) {
            int held = 0;
            for (int i = 0; i < n_rows && !held; i++)
                held = strncmp(rows[i].status, "fail", 4) != 0 &&
                       !occ_resume_keep_row(&all_fail, i, &points[p], 1);
            held_any += held;
            /* waves tags the point (no key): the kept ones in their order */
            if (!held) kept_ok &= want_kept < n_kept && kept[want_kept++].waves == p;
        }
        mismatched += !kept_ok || want_kept != n_kept;
        unsigned char keep[40];
        CHECK_INT_EQ(occ_resume_keep_rows(&t, points, n_points, keep), 0);
        for (int i = 0; i < n_rows; i++)
            mismatched += keep[i] != occ_resume_keep_row(&t, i, points, n_points);
    }
    CHECK_INT_EQ(mismatched, 0);
    CHECK(held_any > 100); /* the tables do hold points */
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/occ_resume_XXXXXX");
    if (mkdtemp(dir) == NULL) return perror("mkdtemp"), 99;
    test_equality();
    test_lookups_random();
    test_big_file();
    test_big_lookups();
    const char *names[] = {"nan.csv",    "lever.csv",  "block.csv", "nan-50.csv", "near.csv",
                           "zero.csv",   "bytes.csv",  "status.csv", "dash.csv",  "order.csv",
                           "empty.csv",  "big.csv",    "big-dup.csv", "big-new.csv"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) remove(path_in(names[i]));
    rmdir(dir);
    return check_done();
}
