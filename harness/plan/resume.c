/* SPDX-License-Identifier: Apache-2.0 */
/* harness/plan/resume.c: matching planned points against the rows of an earlier run. The duplicate
 * check, occ_resume_filter_points and occ_resume_keep_rows compare rows through arrays of pointers
 * to them sorted by their keys (qsort) and binary searches in them, O((rows + points) log rows),
 * not each row against every other row or point. */
#include "resume.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"

static int same(const char *a, const char *b)
{
    return a && b && strcmp(a, b) == 0;
}

/* The orders below sort rows by their keys with same()'s equality for strings, which must not be
 * NULL (same() finds a NULL string equal to none, so rows with one are left out of the sorted
 * arrays), and for numbers ==, except that every NaN equals every other (and sorts after every
 * number). */
static int cmp_num(double a, double b)
{
    if (isnan(a) || isnan(b)) return (isnan(a) != 0) - (isnan(b) != 0);
    return (a > b) - (a < b);
}

static int cmp_int(long long a, long long b) { return (a > b) - (a < b); }

/* By kernel, mode and variant: the keys of every point shape (a load level's only keys). */
static int cmp_kmv(const OccRow *a, const OccRow *b)
{
    int c = strcmp(a->kernel, b->kernel);
    if (c == 0) c = strcmp(a->mode, b->mode);
    return c ? c : strcmp(a->variant, b->variant);
}

/* Then by footprint (buffer_bytes): a footprint point's keys. */
static int cmp_footprint(const OccRow *a, const OccRow *b)
{
    const int c = cmp_kmv(a, b);
    return c ? c : cmp_int(a->buffer_bytes, b->buffer_bytes);
}

/* Then by lever and block_threads (lever not NULL) ... */
static int cmp_block(const OccRow *a, const OccRow *b)
{
    int c = cmp_kmv(a, b);
    if (c == 0) c = strcmp(a->lever, b->lever);
    return c ? c : cmp_int(a->block_threads, b->block_threads);
}

/* ... and occ_target_pct: an occupancy point's keys. */
static int cmp_target(const OccRow *a, const OccRow *b)
{
    const int c = cmp_block(a, b);
    return c ? c : cmp_num(a->occ_target_pct, b->occ_target_pct);
}

/* Then by buffer_bytes: every key of any point shape (a key that does not apply to the shape is
 * the same on all its rows). 0 exactly when the rows measure the same point. */
static int cmp_point(const OccRow *a, const OccRow *b)
{
    const int c = cmp_target(a, b);
    return c ? c : cmp_int(a->buffer_bytes, b->buffer_bytes);
}

typedef const OccRow *RowRef; /* a row of the table, in the arrays sorted below */

static int by_footprint(const void *a, const void *b)
{
    return cmp_footprint(*(const RowRef *)a, *(const RowRef *)b);
}

static int by_point(const void *a, const void *b)
{
    return cmp_point(*(const RowRef *)a, *(const RowRef *)b);
}

/* By point, and rows of one point in file order (all pointers into one array of rows). */
static int by_point_then_row(const void *a, const void *b)
{
    const RowRef x = *(const RowRef *)a, y = *(const RowRef *)b;
    const int c = cmp_point(x, y);
    return c ? c : (x > y) - (x < y);
}

static int has_kmv(const OccRow *r) { return r->kernel && r->mode && r->variant; }

/* Rows i < j of t that are the same point, the first pair in row order (i least, then j): 1, or
 * 0 when every point is held once, or -1 when out of memory. */
static int find_duplicate(const OccCsvTable *t, int *i, int *j)
{
    RowRef *s = t->n_rows ? malloc((size_t)t->n_rows * sizeof *s) : NULL;
    if (t->n_rows && !s) return -1;
    int n = 0;
    for (int k = 0; k < t->n_rows; k++)
        if (has_kmv(&t->rows[k]) && t->rows[k].lever) s[n++] = &t->rows[k];
    if (n) qsort(s, (size_t)n, sizeof *s, by_point_then_row);
    /* A point's rows are neighbours, in file order: of the neighbours that are the same point,
     * the pair whose first row comes first is a point's first two rows, the file's first pair. */
    *i = -1;
    for (int k = 1; k < n; k++)
        if (cmp_point(s[k - 1], s[k]) == 0 && (*i < 0 || s[k - 1] - t->rows < *i)) {
            *i = (int)(s[k - 1] - t->rows);
            *j = (int)(s[k] - t->rows);
        }
    free(s);
    return *i >= 0;
}

int occ_resume_check_unique(const OccCsvTable *t, char *err, size_t err_len)
{
    int i = -1, j = -1;
    const int dup = find_duplicate(t, &i, &j);
    if (dup < 0)
        snprintf(err, err_len, "out of memory for the check of its %d rows", t->n_rows);
    else if (dup)
        snprintf(err, err_len, "data rows %d and %d are the same point (%.40s, %.60s)", i + 1,
                 j + 1, t->rows[i].variant, t->rows[i].lever);
    return dup;
}

int occ_resume_read(const char *path, OccCsvTable *t, char *err, size_t err_len)
{
    char why[400];
    /* Before the read: a FIFO would block it, a device or a huge file exhaust memory. */
    if (occ_csv_check_input(path, why, sizeof why) != 0) {
        snprintf(err, err_len, "--resume %.200s: %s (accepted: a CSV file of an earlier run)", path,
                 why);
        return -1;
    }
    if (occ_csv_read(path, t, why, sizeof why) != 0) {
        snprintf(err, err_len, "--resume: %s", why);
        return -1;
    }
    const int dup = occ_resume_check_unique(t, why, sizeof why);
    if (dup < 0)
        snprintf(err, err_len, "--resume %.200s: %s", path, why);
    else if (dup)
        snprintf(err, err_len,
                 "--resume %.200s: %s; a resumable file holds each point once (remove one, or "
                 "write a new file)", path, why);
    if (dup) {
        occ_csv_table_free(t);
        return -1;
    }
    return 0;
}

/* The file's metadata key against this run's value: 0, or -1 with err. */
static int check_meta(const OccCsvTable *t, const char *path, const char *key, const char *what,
                      const char *want, char *err, size_t err_len)
{
    const char *got = occ_csv_meta_get(t, key);
    if (got && strcmp(got, want) == 0) return 0;
    snprintf(err, err_len,
             "--resume %.200s: measured on %s '%.60s', this run's is '%.60s'; resume on the same "
             "%s or write a new file",
             path, what, got ? got : "(none recorded)", want, what);
    return -1;
}

/* Every row of t is of the GPU and compute capability its metadata names, and of a family and
 * (for a sweep) a variant this build has: 0, or -1 with err naming the first row that is not. */
static int check_rows(const OccCsvTable *t, const char *path, char *err, size_t err_len)
{
    const char *gpu = occ_csv_meta_get(t, "gpu_name"), *cc = occ_csv_meta_get(t, "cc");
    for (int i = 0; i < t->n_rows; i++) {
        const OccRow *r = &t->rows[i];
        const char *why = gpu && !same(r->gpu_name, gpu) ? "names another GPU than the file's"
                          : cc && !same(r->cc, cc)       ? "names another compute capability "
                                                           "than the file's"
                          : !r->family_info              ? "is of a kernel and mode this build "
                                                           "does not have"
                          : r->family_info->shape == OCC_SHAPE_OCCUPANCY && !r->variant_info
                              ? "is of a variant this build does not have"
                              : NULL;
        if (why) {
            snprintf(err, err_len,
                     "--resume %.200s: data row %d (%.40s %.20s %.60s, %.60s) %s; a resumable "
                     "file holds the rows of one run of this build (write a new file)",
                     path, i + 1, r->kernel, r->mode, r->variant, r->gpu_name, why);
            return -1;
        }
    }
    return 0;
}

int occ_resume_check_device(const OccCsvTable *t, const char *path, const char *gpu_name,
                            const char *cc, char *err, size_t err_len)
{
    if (check_meta(t, path, "cc", "compute capability", cc, err, err_len) != 0) return -1;
    if (gpu_name && check_meta(t, path, "gpu_name", "GPU", gpu_name, err, err_len) != 0)
        return -1;
    return check_rows(t, path, err, err_len);
}

/* 1 when row r is the row of point p (the keys in resume.h, status not considered). */
static int row_is_point(const OccRow *r, const OccPoint *p)
{
    const OccFamilyInfo *f = occ_family_at(p->family);
    if (!same(r->kernel, f->kernel) || !same(r->mode, p->mode) ||
        !same(r->variant, occ_point_variant(p)))
        return 0;
    if (f->shape == OCC_SHAPE_LEVELS) return 1; /* one variant name per load level */
    if (p->variant_index < 0) return r->buffer_bytes == p->footprint_bytes;
    return same(r->lever, occ_lever_name(p->lever)) && r->block_threads == p->block_threads &&
           fabs(r->occ_target_pct - p->level.asked_pct) < 1e-6;
}

static int is_fail(const OccRow *r) { return r->status && strncmp(r->status, "fail", 4) == 0; }

/* The fail rows of a table, or its other rows, sorted for the points' lookups. */
typedef struct RowIndex {
    const OccRow *rows; /* the table's rows */
    RowRef *by_footprint, *by_target;
    int n_footprint;    /* rows with a kernel, mode and variant, by cmp_footprint */
    int n_target;       /* those of them with a lever, by cmp_point */
} RowIndex;

/* The rows of t whose is_fail() is fail. 0, or -1 when out of memory (ix then holds nothing). */
static int index_build(RowIndex *ix, const OccCsvTable *t, int fail)
{
    const size_t n = (size_t)t->n_rows;
    *ix = (RowIndex){.rows = t->rows};
    ix->by_footprint = n ? malloc(n * sizeof *ix->by_footprint) : NULL;
    ix->by_target = n ? malloc(n * sizeof *ix->by_target) : NULL;
    if (n && (!ix->by_footprint || !ix->by_target)) {
        free(ix->by_footprint);
        free(ix->by_target);
        *ix = (RowIndex){0};
        return -1;
    }
    for (size_t k = 0; k < n; k++) {
        const OccRow *r = &t->rows[k];
        if (!has_kmv(r) || is_fail(r) != fail) continue;
        ix->by_footprint[ix->n_footprint++] = r;
        if (r->lever) ix->by_target[ix->n_target++] = r;
    }
    if (ix->n_footprint)
        qsort(ix->by_footprint, (size_t)ix->n_footprint, sizeof(RowRef), by_footprint);
    if (ix->n_target) qsort(ix->by_target, (size_t)ix->n_target, sizeof(RowRef), by_point);
    return 0;
}

static void index_free(RowIndex *ix)
{
    free(ix->by_footprint);
    free(ix->by_target);
    *ix = (RowIndex){0};
}

/* The first of s[0..n) (sorted by an order that cmp refines) not before key by cmp. */
static int lower_bound(const RowRef *s, int n, const OccRow *key,
                       int (*cmp)(const OccRow *, const OccRow *))
{
    int lo = 0, hi = n;
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (cmp(s[mid], key) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* The rows of ix that are point p's row (row_is_point): with mark NULL, 1 at the first one (or 0);
 * else marks each, mark[row - ix->rows] = 1, and returns how many. Only the run of candidates is
 * read: the rows of p's kernel, mode and variant and, for a footprint point, footprint, or, for an
 * occupancy point, lever and block size whose target is within 1e-5 of p's (row_is_point asks for
 * 1e-6: the wider window loses no row to rounding; a NaN or infinite target is no point's). */
static int point_rows(const RowIndex *ix, const OccPoint *p, unsigned char *mark)
{
    const OccFamilyInfo *f = occ_family_at(p->family);
    const double asked = p->level.asked_pct;
    OccRow key = {.kernel = f->kernel, .mode = p->mode, .variant = occ_point_variant(p)};
    const RowRef *s = ix->by_footprint;
    int n = ix->n_footprint, windowed = 0;
    int (*cmp)(const OccRow *, const OccRow *) = cmp_footprint;
    if (!key.kernel || !key.variant) return 0;
    if (f->shape == OCC_SHAPE_LEVELS) {
        cmp = cmp_kmv;
    } else if (p->variant_index < 0) {
        key.buffer_bytes = p->footprint_bytes;
    } else {
        key.lever = occ_lever_name(p->lever);
        if (!key.lever || !isfinite(asked)) return 0;
        key.block_threads = p->block_threads;
        key.occ_target_pct = asked - 1e-5;
        s = ix->by_target;
        n = ix->n_target;
        cmp = cmp_target;
        windowed = 1;
    }
    int hits = 0;
    for (int k = lower_bound(s, n, &key, cmp); k < n; k++) {
        if (windowed ? cmp_block(s[k], &key) != 0 || cmp_num(s[k]->occ_target_pct, asked + 1e-5) > 0
                     : cmp(s[k], &key) != 0)
            break;
        if (!row_is_point(s[k], p)) continue;
        if (!mark) return 1;
        mark[s[k] - ix->rows] = 1;
        hits++;
    }
    return hits;
}

/* 1 when an ok or skip row of t is point p's, by reading every row. */
static int held_by_scan(const OccCsvTable *t, const OccPoint *p)
{
    for (int j = 0; j < t->n_rows; j++)
        if (!is_fail(&t->rows[j]) && row_is_point(&t->rows[j], p)) return 1;
    return 0;
}

int occ_resume_filter_points(const OccCsvTable *t, OccPoint *points, int n)
{
    RowIndex ix;
    /* out of memory for the index: every row is read for every point (slow, same answer) */
    const int indexed = index_build(&ix, t, 0) == 0;
    int kept = 0;
    for (int i = 0; i < n; i++) {
        const int held = indexed ? point_rows(&ix, &points[i], NULL) : held_by_scan(t, &points[i]);
        if (!held) points[kept++] = points[i];
    }
    index_free(&ix);
    return kept;
}

int occ_resume_keep_row(const OccCsvTable *t, int i, const OccPoint *points, int n)
{
    if (!is_fail(&t->rows[i])) return 1;
    for (int p = 0; p < n; p++)
        if (row_is_point(&t->rows[i], &points[p])) return 0;
    return 1;
}

int occ_resume_keep_rows(const OccCsvTable *t, const OccPoint *points, int n, unsigned char *keep)
{
    RowIndex ix;
    if (index_build(&ix, t, 1) != 0) return -1;
    unsigned char *replaced = t->n_rows ? calloc((size_t)t->n_rows, 1) : NULL;
    if (t->n_rows && !replaced) {
        index_free(&ix);
        return -1;
    }
    for (int p = 0; p < n; p++) point_rows(&ix, &points[p], replaced);
    for (int i = 0; i < t->n_rows; i++) keep[i] = !replaced[i];
    free(replaced);
    index_free(&ix);
    return 0;
}

unsigned char *occ_resume_keep_mask(const OccCsvTable *t, const OccPoint *points, int n)
{
    unsigned char *keep = malloc((size_t)t->n_rows + 1);
    if (keep && occ_resume_keep_rows(t, points, n, keep) != 0) {
        free(keep);
        keep = NULL;
    }
    return keep;
}
