/* SPDX-License-Identifier: Apache-2.0 */
/* harness/plan/resume_meta.c: a resumed file's metadata against this run (contract in
 * harness/plan/resume_meta.h). */
#include "resume_meta.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int occ_resume_check_axes(const OccCsvTable *t, const OccRunAxis *axes, int n_axes,
                          int allow_missing, char *err, size_t err_len)
{
    for (int i = 0; i < n_axes; i++) {
        char key[64];
        snprintf(key, sizeof key, "axis.%s", axes[i].name);
        const char *got = occ_csv_meta_get(t, key);
        if (!got && !allow_missing) {
            snprintf(err, err_len,
                     "--resume: the file has no '# %s' line, so its --%s is unknown (this run: "
                     "%s); add --resume-mismatch to resume it anyway",
                     key, axes[i].name, axes[i].value);
            return -1;
        }
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

const char *occ_resume_run_command(const OccCsvTable *t)
{
    const char *first = occ_csv_meta_get(t, "resumed_from_command");
    return first ? first : occ_csv_meta_get(t, "command");
}

int occ_resume_check_run(const OccCsvTable *t, const char *git_rev, const OccResumeTiming *now,
                         char *err, size_t err_len)
{
    const char *rev = occ_csv_meta_get(t, "git_rev");
    if (!rev || strcmp(rev, git_rev) != 0)
        return snprintf(err, err_len, "--resume: the file was measured at git revision %s, this "
                        "build is %s; add --resume-mismatch to mix them",
                        rev ? rev : "(none recorded)", git_rev), -1;
    const struct {
        const char *key;
        double value;
    } settings[] = {{"max_noise_pct", now->max_noise_pct}, {"max_time_s", now->max_time_s},
                    {"min_samples", now->min_samples}, {"min_sample_ms", now->min_sample_ms}};
    for (size_t i = 0; i < sizeof settings / sizeof *settings; i++) {
        const char *text = occ_csv_meta_get(t, settings[i].key);
        char *end = NULL;
        const double v = text ? strtod(text, &end) : NAN;
        if (!text || end == text || *end != '\0' ||
            !(fabs(v - settings[i].value) <= 1e-5 * fabs(settings[i].value))) /* %g: 6 digits */
            return snprintf(err, err_len, "--resume: the file's %s is %s, this run's %g; add "
                            "--resume-mismatch to mix them", settings[i].key,
                            text ? text : "(not recorded)", settings[i].value), -1;
    }
    return 0;
}
