/* SPDX-License-Identifier: Apache-2.0 */
/* bench/recompute.c: --recompute FILE (contract in bench/recompute.h). */
#include "recompute.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "chain_model.h"
#include "csv.h"
#include "csv_ranges.h"
#include "exitcodes.h"
#include "loaded_levels.h"
#include "model.h"
#include "resume.h"
#include "rowfmt.h"
#include "run_summary.h"
#include "summary_json.h"

/* The number metadata `key` holds, or NaN when the file lacks it or it is not a number. */
static double meta_number(const OccCsvTable *t, const char *key)
{
    const char *v = occ_csv_meta_get(t, key);
    char *end = NULL;
    const double x = v != NULL ? strtod(v, &end) : NAN;
    return v != NULL && end != v && *end == '\0' ? x : NAN;
}

static int fail(int code, const char *path, const char *what)
{
    fprintf(stderr, "occsweep: --recompute %s: %s\n", path, what);
    return code;
}

/* The largest |recomputed / recorded - 1| of gbps_predicted over the rows that have both, and
 * how many have both (*n); NaN when none does. */
static double largest_difference(const OccModel *m, const OccRow *rows, int n_rows, int *n)
{
    double worst = NAN;
    *n = 0;
    for (int i = 0; i < n_rows; i++) {
        OccRow r = rows[i];
        const double recorded = r.gbps_predicted;
        r.gbps_predicted = NAN;
        occ_model_annotate(m, &r, 1);
        if (!isfinite(recorded) || !isfinite(r.gbps_predicted) || recorded <= 0) continue;
        const double d = fabs(r.gbps_predicted / recorded - 1.0);
        worst = *n == 0 || d > worst ? d : worst;
        (*n)++;
    }
    return worst;
}

/* The refusals made before anything is read or written: FILE must pass occ_csv_check_input (a
 * regular file, a FIFO would block the read, a device feed it without end, of at most
 * OCC_CSV_MAX_INPUT_BYTES); --out must not name FILE itself (with
 * --force the report would replace the measurement) and its directory must exist (the report is
 * not written until the table is printed); --json must pass occ_summary_json_check_target, and
 * be neither FILE nor --out. 0, or -1 with the reason in err. */
static int check_paths(const char *path, const char *out, const char *json, int force, char *err,
                       size_t err_len)
{
    char why[1000];
    const char *const others[] = {path, out};
    if (json != NULL && occ_summary_json_check_target(json, force, others, 2, why, sizeof why))
        return snprintf(err, err_len, "--json %s", why), -1;
    struct stat in, o;
    if (occ_csv_check_input(path, why, sizeof why) != 0)
        return snprintf(err, err_len, "%s (accepted: a CSV file of an earlier run)", why), -1;
    if (stat(path, &in) != 0) return snprintf(err, err_len, "%s", strerror(errno)), -1;
    if (out == NULL) return 0;
    if (stat(out, &o) == 0 && o.st_dev == in.st_dev && o.st_ino == in.st_ino) {
        snprintf(err, err_len, "--out %.200s is the file being read: the report would replace it",
                 out);
        return -1;
    }
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", out);
    char *slash = strrchr(dir, '/');
    if (slash == NULL) return 0;
    slash[slash == dir] = '\0'; /* "/k.md": the root */
    if (stat(dir, &o) != 0 || !S_ISDIR(o.st_mode)) {
        snprintf(err, err_len, "--out %.200s: directory %.200s does not exist", out, dir);
        return -1;
    }
    return 0;
}

/* The model, its agreement line and the knee table (and --out, --json) of t, read from path.
 * The exit status. */
static int recompute_table(const OccOptions *opt, const char *path, const OccCsvTable *t)
{
    OccLatencyCurve curves[OCC_CURVE_TRAFFICS] = {0};
    const double sm_count = meta_number(t, "sm_count");
    OccModel m = {.latency_ns = meta_number(t, "dram_latency_ns"),
                  .roof_gbps = meta_number(t, "roof_memcpy_gbps"),
                  .roof_read_gbps = meta_number(t, "roof_cub_reduce_gbps"),
                  .sm_count = isfinite(sm_count) ? (int)sm_count : 0};
    const int have_model = isfinite(m.latency_ns) && isfinite(m.roof_gbps) && m.sm_count > 0;
    int chains = 0; /* rows of the chain model (harness/model/chain_model.h), which needs none */
    for (int i = 0; i < t->n_rows; i++)
        chains += occ_row_is_ok(&t->rows[i]) && isfinite(occ_chain_cycles_per_step(&t->rows[i]));
    if (!have_model && chains == 0)
        return fail(OCC_EXIT_USAGE, path,
                    "no model inputs (metadata dram_latency_ns, roof_memcpy_gbps and sm_count): "
                    "a run of no family the Little's-law model covers");
    OccLatencyCurve *take[OCC_CURVE_TRAFFICS];
    for (int k = 0; k < OCC_CURVE_TRAFFICS; k++) take[k] = &curves[k];
    OccRow *plain = calloc((size_t)(t->n_rows ? t->n_rows : 1), sizeof *plain);
    if (plain == NULL) return fail(OCC_EXIT_FAIL, path, "out of memory");
    int n = 0, levels = 0;
    for (int i = 0; i < t->n_rows; i++) {
        const OccRow *r = &t->rows[i];
        if (occ_loaded_row_is_level(r)) {
            levels = 1;
            occ_loaded_curve_take_row(take, r);
        } else if (!isfinite(r->latency_mean_ns)) {
            plain[n++] = *r;
        }
    }
    int measured = 0;
    for (int i = 0; i < n; i++)
        measured += occ_row_is_ok(&plain[i]) && isfinite(plain[i].gbps_median);
    if (measured == 0 && chains == 0) {
        free(plain);
        return fail(OCC_EXIT_USAGE, path, "no ok row with a measured GB/s: no knee table");
    }
    /* As the run: the curves of a run that planned load levels, even where none was ok. */
    if (levels) occ_model_use_curves(&m, curves);
    if (have_model) {
        int compared = 0;
        const double d = largest_difference(&m, plain, n, &compared);
        printf("recomputed from %s: %d rows with a prediction in the file; largest difference "
               "from its gbps_predicted %.3g%%\n",
               path, compared, compared ? 100.0 * d : 0.0);
    } else {
        printf("recomputed from %s: the chain model alone (no Little's-law model inputs)\n", path);
    }
    const char *gpu = occ_csv_meta_get(t, "gpu_name");
    const OccRunJson json = {.path = opt->json_path, .csv_path = path, .table = t};
    const int rc = occ_run_summary_knees(have_model ? &m : NULL, plain, n, opt->out_path,
                                         gpu ? gpu : "unknown GPU", opt->json_path ? &json : NULL);
    free(plain);
    return rc == 0 ? OCC_EXIT_OK : OCC_EXIT_FAIL;
}

int occ_recompute(const OccOptions *opt)
{
    OccCsvTable t = {0};
    char err[1300];
    const char *path = opt->recompute_path;
    if (check_paths(path, opt->out_path, opt->json_path, opt->force, err, sizeof err) != 0)
        return fail(OCC_EXIT_USAGE, path, err);
    if (occ_csv_read(path, &t, err, sizeof err) != 0) {
        fprintf(stderr, "occsweep: --recompute %s\n", err);
        return OCC_EXIT_USAGE;
    }
    /* Each point once (a row given twice would count twice in the agreement line), and every
     * model input within its physical range. */
    if (occ_resume_check_unique(&t, err, sizeof err) != 0 ||
        occ_csv_check_ranges(&t, err, sizeof err) != 0) {
        occ_csv_table_free(&t);
        return fail(OCC_EXIT_USAGE, path, err);
    }
    const int rc = opt->out_path != NULL &&
                           occ_csv_check_target(opt->out_path, opt->force, err, sizeof err)
                       ? fail(OCC_EXIT_USAGE, path, err)
                       : recompute_table(opt, path, &t);
    occ_csv_table_free(&t);
    return rc;
}
