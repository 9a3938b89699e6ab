/* SPDX-License-Identifier: Apache-2.0 */
/* bench/progress.h: the progress lines of a run on stderr, one per measured point with its GB/s
 * (or status) and the time left; on a terminal the one line is overwritten in place. */
#ifndef OCC_PROGRESS_H
#define OCC_PROGRESS_H

#include "csv.h"

/* The progress state of one run, set by occ_progress_start. */
typedef struct OccProgress {
    double start_s; /* monotonic time of the first point, for the ETA */
    int tty;        /* stderr is a terminal: overwrite one line */
    int quiet;      /* print nothing */
} OccProgress;

/* Starts the clock of the ETA now; quiet (--quiet): nothing is printed. */
void occ_progress_start(OccProgress *p, int quiet);

/* The progress line of point i (0-based) of n, whose row is r: "[i+1/n] variant occ% GB/s
 * noise ETA", the status in place of the figures when it is not ok. */
void occ_progress_point(OccProgress *p, int i, int n, const OccRow *r);

/* Ends the overwritten line with a newline (on a terminal, unless quiet). */
void occ_progress_end(OccProgress *p);

#endif
