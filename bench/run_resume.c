/* SPDX-License-Identifier: Apache-2.0 */
/* bench/run_resume.c: --resume FILE in a planned command (contract in bench/run_resume.h). */
#include "run_resume.h"

#include <stdio.h>
#include <string.h>

#include "build_info.h"
#include "exitcodes.h"
#include "options_resume.h"
#include "resume.h"
#include "resume_meta.h"
#include "run_policy.h"

int occ_run_resume_options(int argc, char **argv, OccOptions *opt, OccCsvTable *t,
                           char **command, char *err, size_t err_len)
{
    char msg[480];
    if (occ_resume_read(opt->resume_path, t, msg, sizeof msg) != 0)
        return snprintf(err, err_len, "%s%s", strncmp(msg, "--resume", 8) ? "--resume " : "",
                        msg), -1;
    return occ_options_resume(argc, argv, occ_resume_run_command(t), opt, command, err,
                              err_len) == OCC_EXIT_OK ? 0 : -1;
}

int occ_run_resume_plan(const OccOptions *opt, const char *gpu_name, const char *cc,
                        OccCsvTable *t, OccPlan *todo, char *err, size_t err_len)
{
    OccRunAxis axes[16];
    const int n_axes = occ_options_run_axes(opt, axes, 16);
    const OccTimingPolicy policy = occ_run_timing_policy(opt);
    const OccResumeTiming timing = {.max_noise_pct = policy.max_noise_pct,
                                    .max_time_s = policy.max_time_s,
                                    .min_samples = policy.min_samples,
                                    .min_sample_ms = policy.min_sample_ms};
    if (occ_resume_check_device(t, opt->resume_path, gpu_name, cc, err, err_len) != 0 ||
        occ_resume_check_axes(t, axes, n_axes, opt->resume_mismatch, err, err_len) != 0 ||
        (!opt->resume_mismatch &&
         occ_resume_check_run(t, OCC_GIT_REV, &timing, err, err_len) != 0)) {
        occ_csv_table_free(t);
        return -1;
    }
    todo->n = occ_resume_filter_points(t, todo->points, todo->n);
    return 0;
}
