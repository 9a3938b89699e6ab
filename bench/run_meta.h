/* SPDX-License-Identifier: Apache-2.0 */
/* bench/run_meta.h: a run's metadata, the `# key=value` lines at the head of its CSV: the table
 * they are collected in and the keys a real run (and a fake device's, bench/fake_device.h) writes.
 * No CUDA calls here. */
#ifndef OCC_RUN_META_H
#define OCC_RUN_META_H

#include <stdarg.h>
#include <stddef.h>

#include "csv.h"
#include "options.h"
#include "plan.h"
#include "run.h"

/* Most keys one run's metadata holds. */
enum { OCC_MAX_META = 96 };

/* The `# key=value` lines of a run, in the order added; zero-initialised before the first add. */
typedef struct OccMeta {
    const char *keys[OCC_MAX_META];   /* keys[0..n): each a string in store */
    const char *values[OCC_MAX_META]; /* values[0..n): each a string in store */
    int n;                            /* entries added */
    char store[8192];                 /* the keys' and values' text, NUL-terminated, packed */
    size_t used;                      /* bytes of store taken */
} OccMeta;

/* Adds key=formatted value (silently dropped when the table or its store is full: both are sized
 * for the run's keys). */
void occ_meta_add(OccMeta *m, const char *key, const char *fmt, ...);

/* occ_meta_add with a va_list. */
void occ_meta_vadd(OccMeta *m, const char *key, const char *fmt, va_list ap);

/* occ_meta_add on the OccMeta at user: the OccRun.meta callback (harness/gpu/run.h) through which
 * the run and its families add their keys. */
void occ_meta_sink(void *user, const char *key, const char *fmt, ...);

/* The current UTC time into buf, formatted by strftime's fmt. */
void occ_meta_utc_now(char *buf, size_t len, const char *fmt);

/* The `command` key's value into buf: "./run_sweep" and argv[1..argc), one space apart. */
void occ_meta_command(char *buf, size_t len, int argc, char **argv);

/* This machine's host name into buf, "unknown" when gethostname fails. */
void occ_meta_host(char *buf, size_t len);

/* Adds the run's metadata: build, command line, GPU, roof, measurement policy, the run axes
 * (`axis.<name>`, harness/cli/options.h occ_options_run_axes) and the NVML reading at the start
 * of the GPU at pci_bus_id; carveout_bytes is the plan's carveout (smem_carveout_kib, l1_kib).
 * s: initialised and its roof measured (harness/gpu/run.h). */
void occ_meta_add_run(OccMeta *m, int argc, char **argv, const OccRun *s, const OccOptions *opt,
                      const char *pci_bus_id, int carveout_bytes);

/* Adds smem_carveout_kib_<kernel> for every family whose occupancy points have a carveout of
 * their own (a family that owns shared memory, plan.h), after occ_meta_add_run. */
void occ_meta_add_family_carveouts(OccMeta *m, const OccPlan *plan);

/* Adds how each point is timed (max_noise_pct, max_time_s, min_samples, min_sample_ms), keys
 * --resume compares (a real run's, through occ_meta_add_run, and a fake device's). */
void occ_meta_add_timing(OccMeta *m, const OccTimingPolicy *p);

/* Adds the run axes of opt, `axis.<name>` (harness/cli/options.h occ_options_run_axes), the keys
 * --resume compares (a real run's, through occ_meta_add_run, and a fake device's). */
void occ_meta_add_axes(OccMeta *m, const OccOptions *opt);

/* Adds resumed_from_command (the command line of the earlier file's run, occ_resume_run_command:
 * the first run's through every resume) and resumed_rows of an earlier run's table (nothing
 * when resumed is NULL). */
void occ_meta_add_resumed(OccMeta *m, const OccCsvTable *resumed);

#endif
