/* SPDX-License-Identifier: Apache-2.0 */
/* bench/run_resume.h: --resume FILE in a planned command (a real, fake or dry run). Before the
 * target is opened: FILE read and the options of its run taken from its command line
 * (harness/cli/options_resume.h). Once the target is known: FILE's GPU, rows, run axes, git
 * revision and timing settings checked against this run (harness/plan/resume.h,
 * harness/plan/resume_meta.h; --resume-mismatch relaxes the last two and a missing axis line),
 * and the plan reduced to the points FILE lacks. */
#ifndef OCC_RUN_RESUME_H
#define OCC_RUN_RESUME_H

#include <stddef.h>

#include "csv.h"
#include "options.h"
#include "plan.h"

/* opt->resume_path into t (occ_resume_read: no GPU is touched), then opt merged with the options
 * of its run; *command: what opt's kernel and mode point into, for the caller to free after opt
 * and t. 0, or -1 with a one-line err. */
int occ_run_resume_options(int argc, char **argv, OccOptions *opt, OccCsvTable *t,
                           char **command, char *err, size_t err_len);

/* t (read from opt->resume_path) checked against this run: measured on compute capability cc
 * and, when gpu_name is not NULL, on that GPU; the run axes; the build's git revision and the
 * timing policy of opt (unless opt->resume_mismatch); then todo reduced to the points t lacks.
 * 0, or -1 with a one-line err (t is then freed). */
int occ_run_resume_plan(const OccOptions *opt, const char *gpu_name, const char *cc,
                        OccCsvTable *t, OccPlan *todo, char *err, size_t err_len);

#endif
