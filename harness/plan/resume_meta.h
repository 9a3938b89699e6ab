/* SPDX-License-Identifier: Apache-2.0 */
/* harness/plan/resume_meta.h: --resume FILE's metadata against this run (pure): the run axes
 * (`# axis.<name>`), the build (`# git_rev`), the timing settings, and the command line of the
 * run the file holds. */
#ifndef OCC_RESUME_META_H
#define OCC_RESUME_META_H

#include <stddef.h>

#include "csv.h"
#include "options.h"

/* Checks every axes[i] against t's `axis.<name>` metadata: a key the file lacks is refused
 * unless allow_missing (--resume-mismatch), when it is not compared. 0, or -1 with a one-line
 * err naming the first axis that differs or is missing, both values and the option to use. */
int occ_resume_check_axes(const OccCsvTable *t, const OccRunAxis *axes, int n_axes,
                          int allow_missing, char *err, size_t err_len);

/* The command line of the run t holds: its `resumed_from_command` (the first run's, carried
 * through every resume), else its `command`; NULL when it records neither. */
const char *occ_resume_run_command(const OccCsvTable *t);

/* How this run times a point, as a CSV's metadata records it. */
typedef struct OccResumeTiming {
    double max_noise_pct; /* --max-noise, percent */
    double max_time_s;    /* --max-time, seconds */
    int min_samples;      /* --min-samples */
    double min_sample_ms; /* the shortest sample (the timing policy's), milliseconds */
} OccResumeTiming;

/* Checks that t was measured by this build and timed as this run times: its `git_rev` is
 * git_rev, and its max_noise_pct, max_time_s, min_samples and min_sample_ms are now's (each
 * must be recorded). 0, or -1 with a one-line err naming the first that differs, both values
 * and --resume-mismatch. */
int occ_resume_check_run(const OccCsvTable *t, const char *git_rev, const OccResumeTiming *now,
                         char *err, size_t err_len);

#endif
