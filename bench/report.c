/* SPDX-License-Identifier: Apache-2.0 */
/* bench/report.c: metadata, progress and plotting around a sweep. */
#include "report.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "build_info.h"
#include "nvml.h"
#include "catalog.h"
#include "walltime.h"

void occ_meta_add(OccMeta *m, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    occ_meta_vadd(m, key, fmt, ap);
    va_end(ap);
}

/* Copies str into the store; NULL when it is full. */
static const char *store(OccMeta *m, const char *fmt, va_list ap)
{
    if (m->used >= sizeof m->store) return NULL;
    int w = vsnprintf(m->store + m->used, sizeof m->store - m->used, fmt, ap);
    if (w < 0 || (size_t)w >= sizeof m->store - m->used) return NULL;
    const char *at = m->store + m->used;
    m->used += (size_t)w + 1;
    return at;
}

static const char *store_key(OccMeta *m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const char *at = store(m, fmt, ap);
    va_end(ap);
    return at;
}

void occ_meta_vadd(OccMeta *m, const char *key, const char *fmt, va_list ap)
{
    if (m->n == OCC_MAX_META) return;
    const char *k = store_key(m, "%s", key);
    const char *v = k ? store(m, fmt, ap) : NULL;
    if (!v) return;
    m->keys[m->n] = k;
    m->values[m->n++] = v;
}

static void utc_stamp(char *buf, size_t len, const char *fmt)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(buf, len, fmt, &tm);
}

void occ_report_metadata(OccMeta *m, int argc, char **argv, const OccRun *s,
                         const OccOptions *opt, const char *pci_bus_id, int carveout_bytes)
{
    const OccDevice *d = s->dev;
    char cmd[2048] = "./run_sweep";
    for (int i = 1; i < argc; i++) {
        size_t u = strlen(cmd);
        snprintf(cmd + u, sizeof cmd - u, " %s", argv[i]);
    }
    char date[32];
    utc_stamp(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ");
    occ_meta_add(m, "occsweep_version", "%s", OCC_VERSION);
    occ_meta_add(m, "git_rev", "%s", OCC_GIT_REV);
    occ_meta_add(m, "command", "%s", cmd);
    occ_meta_add(m, "date_utc", "%s", date);
    occ_meta_add(m, "gpu_name", "%s", d->name);
    occ_meta_add(m, "gpu_index", "%d", d->index);
    occ_meta_add(m, "gpu_uuid", "%s", d->uuid);
    occ_meta_add(m, "pci_bus_id", "%s", pci_bus_id);
    char host[256] = "unknown";
    gethostname(host, sizeof host);
    host[sizeof host - 1] = '\0';
    occ_meta_add(m, "host", "%s", host);
    occ_meta_add(m, "cc", "%s", s->cc);
    occ_meta_add(m, "sm_count", "%d", d->sm_count);
    occ_meta_add(m, "sm_clock_mhz", "%d", d->sm_clock_khz / 1000);
    occ_meta_add(m, "mem_clock_mhz", "%d", d->mem_clock_khz / 1000);
    occ_meta_add(m, "mem_bus_bits", "%d", d->mem_bus_bits);
    occ_meta_add(m, "l2_bytes", "%lld", d->l2_bytes);
    occ_meta_add(m, "smem_per_sm_bytes", "%d", d->limits.smem_per_sm_bytes);
    occ_meta_add(m, "max_warps_per_sm", "%d", d->limits.max_warps_per_sm);
    occ_meta_add(m, "driver_version", "%d", d->driver_version);
    occ_meta_add(m, "runtime_version", "%d", d->runtime_version);
    occ_meta_add(m, "nvcc_version", "%s", OCC_NVCC_VERSION);
    occ_meta_add(m, "gencode", "%s", OCC_GENCODE);
    occ_meta_add(m, "smem_carveout_kib", "%d (--carveout %s; every occupancy point)",
                 carveout_bytes / 1024, occ_carveout_name(opt->carveout));
    occ_meta_add(m, "l1_kib", "%d (the rest of the %d KiB L1/shared SRAM)",
                 (d->limits.l1_smem_sram_bytes - carveout_bytes) / 1024,
                 d->limits.l1_smem_sram_bytes / 1024);
    occ_meta_add(m, "roof_memcpy_gbps", "%.2f", s->roof.memcpy_gbps);
    occ_meta_add(m, "roof_memcpy_noise_pct", "%.3f", s->roof.memcpy_noise_pct);
    occ_meta_add(m, "roof_cub_reduce_gbps", "%.2f", s->roof.cub_reduce_gbps);
    occ_meta_add(m, "roof_cub_noise_pct", "%.3f", s->roof.cub_noise_pct);
    occ_meta_add(m, "roof_dram_peak_gbps", "%.2f", s->roof.dram_peak_gbps);
    occ_meta_add(m, "buffer_bytes", "%zu", s->stream.n_floats * sizeof(float));
    occ_meta_add(m, "pattern_seed", "%u", s->stream.seed);
    occ_meta_add(m, "max_noise_pct", "%g", opt->max_noise_pct);
    occ_meta_add(m, "max_time_s", "%g", opt->max_time_s);
    occ_meta_add(m, "min_samples", "%d", opt->min_samples);
    occ_meta_add(m, "min_sample_ms", "%g", s->policy.min_sample_ms);
    OccRunAxis axes[16];
    const int n_axes = occ_options_run_axes(opt, axes, 16);
    for (int i = 0; i < n_axes; i++) {
        char key[48];
        snprintf(key, sizeof key, "axis.%s", axes[i].name);
        occ_meta_add(m, key, "%s", axes[i].value);
    }
    char nvml[160];
    occ_nvml_reading(pci_bus_id, nvml, sizeof nvml);
    occ_meta_add(m, "nvml_at_start", "%s", nvml);
}

void occ_report_resumed_meta(OccMeta *m, const OccCsvTable *resumed)
{
    if (!resumed) return;
    occ_meta_add(m, "resumed_from_command", "%s", occ_csv_meta_get(resumed, "command"));
    occ_meta_add(m, "resumed_rows", "%d", resumed->n_rows);
}

OccTimingPolicy occ_report_policy(const OccOptions *opt)
{
    return (OccTimingPolicy){.min_sample_ms = 1.0, .min_samples = opt->min_samples,
                             .max_samples = OCC_MAX_SAMPLES, .max_noise_pct = opt->max_noise_pct,
                             .max_time_s = opt->max_time_s, .clock_window_ns = 20000,
                             .min_clock_fraction = 0.9};
}

void occ_report_default_path(char *buf, size_t len, const char *gpu_slug, unsigned families)
{
    char stamp[32], name[64] = "all";
    utc_stamp(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ");
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
    snprintf(buf, len, "results/%s/%s-%s.csv", gpu_slug, name, stamp);
}

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

/* The directory of this program's binary into buf (no trailing '/'); -1 when unknown. */
static int exe_dir(char *buf, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", buf, len - 1);
    if (n <= 0) return -1;
    buf[n] = '\0';
    char *slash = strrchr(buf, '/');
    if (!slash) return -1;
    *slash = '\0';
    return 0;
}

int occ_report_plots_dir(char *buf, size_t len)
{
    const char *env = getenv("OCC_PLOTS_DIR");
    if (env && *env) {
        snprintf(buf, len, "%s", env);
        return 0;
    }
    char dir[1024], plot[1200];
    if (exe_dir(dir, sizeof dir) != 0) return -1;
    const char *rel[] = {OCC_PLOTS_REL_INSTALLED, OCC_PLOTS_REL_BUILD};
    for (size_t i = 0; i < sizeof rel / sizeof *rel; i++) {
        snprintf(plot, sizeof plot, "%s/%s/plot", dir, rel[i]);
        if (access(plot, X_OK) == 0) {
            snprintf(buf, len, "%s/%s", dir, rel[i]);
            return 0;
        }
    }
    return -1;
}

int occ_report_version(FILE *f)
{
    char plots[1024];
    fprintf(f, "occsweep %s (git %s)\n", OCC_VERSION, OCC_GIT_REV);
    if (occ_report_plots_dir(plots, sizeof plots) == 0)
        fprintf(f, "plots: %s\n", plots);
    else
        fprintf(f, "plots: not found (no plot beside this binary; set OCC_PLOTS_DIR)\n");
    return 0;
}

/* Runs '<plots dir>/<tool>' ['<arg>'] '<csv>' through the shell; what it says stands (a missing
 * gnuplot is its one line, not a failure of the sweep). */
static void run_plots_tool(const char *flag, const char *tool, const char *arg,
                           const char *csv_path)
{
    char dir[1024], cmd[4096];
    if (occ_report_plots_dir(dir, sizeof dir) != 0) {
        fprintf(stderr, "occsweep: %s: the plot scripts are not beside this binary (set "
                        "OCC_PLOTS_DIR); run plots/plot on %s\n", flag, csv_path);
        return;
    }
    /* The paths came from us or the user; quoted for the shell, refusing embedded quotes. */
    if (strchr(csv_path, '\'') || strchr(dir, '\'')) {
        fprintf(stderr, "occsweep: %s: cannot quote path %s; run plots/plot on it\n", flag,
                csv_path);
        return;
    }
    snprintf(cmd, sizeof cmd, "%s'%s/%s' %s '%s'", arg ? "\"${PYTHON:-python3}\" " : "", dir,
             tool, arg ? arg : "", csv_path);
    if (system(cmd) == -1) fprintf(stderr, "occsweep: %s: could not run %s\n", flag, tool);
}

void occ_report_plot(const char *csv_path)
{
    run_plots_tool("--plot", "plot", NULL, csv_path);
}

void occ_report_page(const char *csv_path)
{
    run_plots_tool("--report", "report.py", "--", csv_path);
}
