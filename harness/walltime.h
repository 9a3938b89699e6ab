/* harness/walltime.h: the monotonic wall clock (pure). */
#ifndef OCC_WALLTIME_H
#define OCC_WALLTIME_H

/* Seconds of CLOCK_MONOTONIC: for intervals only. */
double occ_walltime_s(void);

#endif
