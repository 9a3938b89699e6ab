/* harness/resume.c: matching planned points against the rows of an earlier run. */
#include "resume.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "catalog.h"

int occ_resume_load(const char *path, const char *gpu_name, const char *cc, OccCsvTable *t,
                    char *err, size_t err_len)
{
    char why[400];
    if (occ_csv_read(path, t, why, sizeof why) != 0) {
        snprintf(err, err_len, "--resume: %s", why);
        return -1;
    }
    const char *key = gpu_name ? "gpu_name" : "cc";
    const char *want = gpu_name ? gpu_name : cc;
    const char *got = occ_csv_meta_get(t, key);
    if (!got || strcmp(got, want) != 0) {
        snprintf(err, err_len, "--resume %.200s: measured on %s '%.60s', this %s is '%.60s'", path,
                 gpu_name ? "GPU" : "compute capability", got ? got : "(none recorded)",
                 gpu_name ? "GPU" : "plan", want);
        occ_csv_table_free(t);
        return -1;
    }
    return 0;
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

static int same(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

int occ_resume_row_is_point(const OccRow *r, const OccPoint *p)
{
    const OccFamilyInfo *f = occ_family_at(p->family);
    if (!same(r->kernel, f->kernel) || !same(r->mode, p->mode) ||
        !same(r->variant, occ_point_variant(p)))
        return 0;
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
            held = !is_fail(&t->rows[j]) && occ_resume_row_is_point(&t->rows[j], &points[i]);
        if (!held) points[kept++] = points[i];
    }
    return kept;
}

int occ_resume_keep_row(const OccCsvTable *t, int i, const OccPoint *points, int n)
{
    if (!is_fail(&t->rows[i])) return 1;
    for (int p = 0; p < n; p++)
        if (occ_resume_row_is_point(&t->rows[i], &points[p])) return 0;
    return 1;
}
