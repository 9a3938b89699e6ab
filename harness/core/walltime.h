/* SPDX-License-Identifier: Apache-2.0 */
/* harness/walltime.h: the host's monotonic wall clock, for time budgets and progress figures
 * (not for kernel timing, which uses CUDA events). Pure: no CUDA header. */
#ifndef OCC_WALLTIME_H
#define OCC_WALLTIME_H

/* Seconds on CLOCK_MONOTONIC, from an arbitrary origin (only differences mean anything): never
 * steps back when the system time is changed. Resolution as the clock's, about 1 ns. */
double occ_walltime_s(void);

#endif
