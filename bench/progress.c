/* SPDX-License-Identifier: Apache-2.0 */
/* bench/progress.c: the run's progress lines (contract in bench/progress.h). */
#include "progress.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "walltime.h"

void occ_progress_start(OccProgress *p, int quiet)
{
    p->start_s = occ_walltime_s();
    p->tty = isatty(STDERR_FILENO);
    p->quiet = quiet;
}

void occ_progress_point(OccProgress *p, int i, int n, const OccRow *r)
{
    if (p->quiet) return;
    double elapsed = occ_walltime_s() - p->start_s;
    double eta = elapsed / (i + 1) * (n - i - 1);
    char what[64];
    if (strcmp(r->status, "ok") == 0)
        snprintf(what, sizeof what, "%8.1f GB/s  noise %5.2f%%", r->gbps_median, r->noise_pct);
    else
        snprintf(what, sizeof what, "%.40s", r->status);
    fprintf(stderr, "%s[%3d/%d] %-20s occ %6.2f%%  %s  ETA %3.0f s%s", p->tty ? "\r" : "", i + 1,
            n, r->variant, r->occ_target_pct, what, eta, p->tty ? "\033[K" : "\n");
}

void occ_progress_end(OccProgress *p)
{
    if (!p->quiet && p->tty) fputc('\n', stderr);
}
