/* SPDX-License-Identifier: Apache-2.0 */
/* bench/run_policy.c: the timing policy and the default CSV path (contract in
 * bench/run_policy.h). */
#include "run_policy.h"

#include <stdio.h>
#include <string.h>

#include "catalog.h"
#include "run_meta.h"

OccTimingPolicy occ_run_timing_policy(const OccOptions *opt)
{
    return (OccTimingPolicy){.min_sample_ms = 1.0, .min_samples = opt->min_samples,
                             .max_samples = OCC_MAX_SAMPLES, .max_noise_pct = opt->max_noise_pct,
                             .max_time_s = opt->max_time_s, .clock_window_ns = 20000,
                             .min_clock_fraction = 0.9};
}

void occ_run_default_path(char *buf, size_t len, const char *gpu_slug, unsigned families)
{
    char stamp[32], name[64] = "all";
    occ_meta_utc_now(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ");
    int only = -1, n = 0;
    for (int f = 0; f < occ_family_count(); f++)
        if (families & (1u << f)) only = f, n++;
    if (n == 1) {
        const OccFamilyInfo *fi = occ_family_at(only);
        int modes = 0;
        for (int f = 0; f < occ_family_count(); f++)
            modes += strcmp(occ_family_at(f)->kernel, fi->kernel) == 0;
        snprintf(name, sizeof name, "%s%s%s", fi->kernel, modes > 1 ? "-" : "",
                 modes > 1 ? fi->mode : "");
    }
    snprintf(buf, len, "runs/%s/%s-%s.csv", gpu_slug, name, stamp);
}
