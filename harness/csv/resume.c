/* SPDX-License-Identifier: Apache-2.0 */
/* harness/csv/resume.c: matching planned points against the rows of an earlier run. */
#include "resume.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "catalog.h"

static int same(const char *a, const char *b)
{
    return a && b && strcmp(a, b) == 0;
}

static int same_num(double a, double b)
{
    return (isnan(a) && isnan(b)) || a == b;
}

/* 1 when rows a and b measure the same point: every key of any point shape is equal (a key that
 * does not apply to the shape is the same on all its rows). */
static int same_point(const OccRow *a, const OccRow *b)
{
    return same(a->kernel, b->kernel) && same(a->mode, b->mode) && same(a->variant, b->variant) &&
           same(a->lever, b->lever) && a->block_threads == b->block_threads &&
           same_num(a->occ_target_pct, b->occ_target_pct) && a->buffer_bytes == b->buffer_bytes;
}

int occ_resume_read(const char *path, OccCsvTable *t, char *err, size_t err_len)
{
    char why[400];
    struct stat st;
    /* Before the read: a FIFO would block it, a device would feed it without end. */
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, err_len, "--resume %.200s: %s (accepted: a CSV file of an earlier run)", path,
                 errno == ENOENT ? "does not exist" : "is not a regular file");
        return -1;
    }
    if (occ_csv_read(path, t, why, sizeof why) != 0) {
        snprintf(err, err_len, "--resume: %s", why);
        return -1;
    }
    for (int i = 0; i < t->n_rows; i++)
        for (int j = i + 1; j < t->n_rows; j++) {
            if (!same_point(&t->rows[i], &t->rows[j])) continue;
            snprintf(err, err_len,
                     "--resume %.200s: data rows %d and %d are the same point (%.40s, %.60s); a "
                     "resumable file holds each point once (remove one, or write a new file)",
                     path, i + 1, j + 1, t->rows[i].variant ? t->rows[i].variant : "-",
                     t->rows[i].lever ? t->rows[i].lever : "-");
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

int occ_resume_check_device(const OccCsvTable *t, const char *path, const char *gpu_name,
                            const char *cc, char *err, size_t err_len)
{
    if (check_meta(t, path, "cc", "compute capability", cc, err, err_len) != 0) return -1;
    return gpu_name ? check_meta(t, path, "gpu_name", "GPU", gpu_name, err, err_len) : 0;
}

int occ_resume_check_axes(const OccCsvTable *t, const OccRunAxis *axes, int n_axes, char *err,
                          size_t err_len)
{
    for (int i = 0; i < n_axes; i++) {
        char key[64];
        snprintf(key, sizeof key, "axis.%s", axes[i].name);
        const char *got = occ_csv_meta_get(t, key);
        if (got && strcmp(got, axes[i].value) != 0) {
            snprintf(err, err_len,
                     "--resume: the file was measured with --%s %s, this run asks for %s; resume "
                     "with the same --%s or write a new file",
                     axes[i].name, got, axes[i].value, axes[i].name);
            return -1;
        }
    }
    return 0;
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

int occ_resume_filter_points(const OccCsvTable *t, OccPoint *points, int n)
{
    int kept = 0;
    for (int i = 0; i < n; i++) {
        int held = 0;
        for (int j = 0; j < t->n_rows && !held; j++)
            held = !is_fail(&t->rows[j]) && row_is_point(&t->rows[j], &points[i]);
        if (!held) points[kept++] = points[i];
    }
    return kept;
}

int occ_resume_keep_row(const OccCsvTable *t, int i, const OccPoint *points, int n)
{
    if (!is_fail(&t->rows[i])) return 1;
    for (int p = 0; p < n; p++)
        if (row_is_point(&t->rows[i], &points[p])) return 0;
    return 1;
}
