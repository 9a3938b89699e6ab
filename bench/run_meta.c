/* SPDX-License-Identifier: Apache-2.0 */
/* bench/run_meta.c: the run's `# key=value` metadata (contract in bench/run_meta.h). */
#include "run_meta.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "build_info.h"
#include "catalog.h"
#include "nvml.h"
#include "resume_meta.h"

void occ_meta_add(OccMeta *m, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    occ_meta_vadd(m, key, fmt, ap);
    va_end(ap);
}

void occ_meta_sink(void *user, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    occ_meta_vadd(user, key, fmt, ap);
    va_end(ap);
}

/* Formats into the store; NULL when it is full. */
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

void occ_meta_utc_now(char *buf, size_t len, const char *fmt)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(buf, len, fmt, &tm);
}

void occ_meta_command(char *buf, size_t len, int argc, char **argv)
{
    snprintf(buf, len, "./run_sweep");
    for (int i = 1; i < argc; i++) {
        size_t u = strlen(buf);
        snprintf(buf + u, len - u, " %s", argv[i]);
    }
}

void occ_meta_host(char *buf, size_t len)
{
    snprintf(buf, len, "unknown");
    gethostname(buf, len);
    buf[len - 1] = '\0';
}

void occ_meta_add_run(OccMeta *m, int argc, char **argv, const OccRun *s, const OccOptions *opt,
                      const char *pci_bus_id, int carveout_bytes)
{
    const OccDevice *d = s->dev;
    char cmd[2048], date[32], host[256];
    occ_meta_command(cmd, sizeof cmd, argc, argv);
    occ_meta_utc_now(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ");
    occ_meta_add(m, "occsweep_version", "%s", OCC_VERSION);
    occ_meta_add(m, "git_rev", "%s", OCC_GIT_REV);
    occ_meta_add(m, "command", "%s", cmd);
    occ_meta_add(m, "date_utc", "%s", date);
    occ_meta_add(m, "gpu_name", "%s", d->name);
    occ_meta_add(m, "gpu_index", "%d", d->index);
    occ_meta_add(m, "gpu_uuid", "%s", d->uuid);
    occ_meta_add(m, "pci_bus_id", "%s", pci_bus_id);
    occ_meta_host(host, sizeof host);
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
    occ_meta_add_timing(m, &s->policy);
    occ_meta_add_axes(m, opt);
    char nvml[160];
    occ_nvml_reading(pci_bus_id, nvml, sizeof nvml);
    occ_meta_add(m, "nvml_at_start", "%s", nvml);
}

void occ_meta_add_timing(OccMeta *m, const OccTimingPolicy *p)
{
    occ_meta_add(m, "max_noise_pct", "%g", p->max_noise_pct);
    occ_meta_add(m, "max_time_s", "%g", p->max_time_s);
    occ_meta_add(m, "min_samples", "%d", p->min_samples);
    occ_meta_add(m, "min_sample_ms", "%g", p->min_sample_ms);
}

void occ_meta_add_axes(OccMeta *m, const OccOptions *opt)
{
    OccRunAxis axes[16];
    const int n_axes = occ_options_run_axes(opt, axes, 16);
    for (int i = 0; i < n_axes; i++) {
        char key[48];
        snprintf(key, sizeof key, "axis.%s", axes[i].name);
        occ_meta_add(m, key, "%s", axes[i].value);
    }
}

void occ_meta_add_resumed(OccMeta *m, const OccCsvTable *resumed)
{
    if (!resumed) return;
    const char *command = occ_resume_run_command(resumed);
    occ_meta_add(m, "resumed_from_command", "%s", command ? command : "(none recorded)");
    occ_meta_add(m, "resumed_rows", "%d", resumed->n_rows);
}

void occ_meta_add_family_carveouts(OccMeta *m, const OccPlan *plan)
{
    for (int i = 0; i < plan->n; i++) {
        const OccPoint *p = &plan->points[i];
        if (p->carveout_bytes <= 0 || p->carveout_bytes == plan->carveout_bytes) continue;
        int seen = 0;
        for (int j = 0; j < i && !seen; j++) seen = plan->points[j].family == p->family;
        if (seen) continue;
        char key[64];
        snprintf(key, sizeof key, "smem_carveout_kib_%s", occ_family_at(p->family)->kernel);
        occ_meta_add(m, key, "%d (the %s points: their tile needs more than smem_carveout_kib)",
                     p->carveout_bytes / 1024, occ_family_at(p->family)->kernel);
    }
}
