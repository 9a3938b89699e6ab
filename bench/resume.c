/* bench/resume.c: matching planned points against the rows of an earlier run. */
#include "resume.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int occ_resume_load(const char *path, const char *gpu_name, OccCsvTable *t, char *err,
                    size_t err_len)
{
    char why[400];
    if (occ_csv_read(path, t, why, sizeof why) != 0) {
        snprintf(err, err_len, "--resume: %s", why);
        return -1;
    }
    const char *gpu = occ_csv_meta_get(t, "gpu_name");
    if (!gpu || strcmp(gpu, gpu_name) != 0) {
        snprintf(err, err_len, "--resume %.200s: measured on '%.60s', this GPU is '%.60s'", path,
                 gpu ? gpu : "(no gpu_name)", gpu_name);
        occ_csv_table_free(t);
        return -1;
    }
    return 0;
}

static int same(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

static int holds_point(const OccCsvTable *t, const OccVariantInfo *v, const OccPoint *p)
{
    for (int i = 0; i < t->n_rows; i++) {
        const OccRow *r = &t->rows[i];
        if (same(r->kernel, v->kernel) && same(r->mode, v->mode) && same(r->variant, v->name) &&
            same(r->lever, occ_lever_name(p->lever)) && r->block_threads == p->block_threads &&
            fabs(r->occ_target_pct - p->level.asked_pct) < 1e-6)
            return 1;
    }
    return 0;
}

int occ_resume_filter_points(const OccCsvTable *t, const OccVariantInfo *infos, OccPoint *points,
                             int n)
{
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (!holds_point(t, &infos[points[i].variant_index], &points[i])) points[kept++] = points[i];
    return kept;
}

int occ_resume_filter_footprints(const OccCsvTable *t, long long *footprints, int n)
{
    int kept = 0;
    for (int i = 0; i < n; i++) {
        int held = 0;
        for (int j = 0; j < t->n_rows && !held; j++)
            held = strncmp(t->rows[j].mode, "latency", 7) == 0 &&
                   t->rows[j].buffer_bytes == footprints[i];
        if (!held) footprints[kept++] = footprints[i];
    }
    return kept;
}
