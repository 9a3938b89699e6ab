/* SPDX-License-Identifier: Apache-2.0 */
/* harness/walltime.c: the monotonic wall clock (contract in walltime.h). */
#include "walltime.h"

#include <time.h>

double occ_walltime_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
