/* SPDX-License-Identifier: Apache-2.0 */
/* bench/fake_device.c: fake GPUs for the fleet tests (contract in bench/fake_device.h). */
#include "fake_device.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arch.h"
#include "catalog.h"
#include "csv.h"
#include "exitcodes.h"
#include "build_info.h"
#include "run_meta.h"
#include "resume.h"
#include "run_policy.h"

/* The made-up GPU behind every fake row: 132 SMs, a 3000 GB/s roof, 600 ns DRAM latency. */
enum { FAKE_SM_COUNT = 132 };
#define FAKE_ROOF_GBPS  3000.0
#define FAKE_LATENCY_NS 600.0
#define FAKE_NOISE_PCT  0.2

/* Set by SIGINT/SIGTERM/SIGHUP, read between fake points. File-scope because a signal handler can reach
 * nothing else. */
static volatile sig_atomic_t fake_stop = 0;
static void on_signal(int sig)
{
    (void)sig;
    fake_stop = 1;
}

const char *occ_fake_list(void)
{
    const char *list = getenv(OCC_FAKE_DEVICES_ENV);
    return list && *list ? list : NULL;
}

int occ_fake_parse(const char *spec, OccFakeDevice *out, int max, int *n, char *err, size_t err_len)
{
    *n = 0;
    for (const char *b = spec;; b++) {
        const size_t len = strcspn(b, ",");
        char entry[64], *colon, *end = NULL;
        snprintf(entry, sizeof entry, "%.*s", (int)(len < 63 ? len : 63), b);
        if ((colon = strchr(entry, ':')) != NULL) *colon = '\0';
        const double scale = colon ? strtod(colon + 1, &end) : 1.0;
        const OccArchLimits *arch = occ_arch_find(entry);
        if (*n >= max) {
            snprintf(err, err_len, "%s: more than %d entries (a fake device list holds at most %d)",
                     OCC_FAKE_DEVICES_ENV, max, max);
            return -1;
        }
        if (!arch || len >= 63 || (colon && (end == colon + 1 || *end != '\0')) ||
            !(scale > 0 && scale <= 10)) {
            snprintf(err, err_len,
                     "%s: entry %d '%.*s' is not ARCH[:SCALE] (a known arch like sm_90, a scale "
                     "in (0, 10])",
                     OCC_FAKE_DEVICES_ENV, *n + 1, (int)(len < 40 ? len : 40), b);
            return -1;
        }
        OccFakeDevice *d = &out[*n];
        *d = (OccFakeDevice){.index = *n, .bw_scale = scale};
        snprintf(d->arch, sizeof d->arch, "%s", arch->name);
        snprintf(d->name, sizeof d->name, "Fake %s", arch->name);
        snprintf(d->slug, sizeof d->slug, "fake-%s", arch->name);
        for (char *s = d->slug; *s; s++)
            *s = *s == '_' ? '-' : *s;
        snprintf(d->pci_bus_id, sizeof d->pci_bus_id, "0000:%02x:00.0", (*n + 1) & 0xff);
        snprintf(d->uuid, sizeof d->uuid, "GPU-fa4e%04x-0000-0000-0000-000000000000", *n);
        (*n)++;
        b += len;
        if (*b == '\0') return 0;
    }
}

int occ_fake_device(int index, OccFakeDevice *d, char *err, size_t err_len)
{
    OccFakeDevice list[OCC_FAKE_MAX_DEVICES];
    int n = 0;
    if (occ_fake_parse(occ_fake_list() ? occ_fake_list() : "", list, OCC_FAKE_MAX_DEVICES, &n,
                       err, err_len) != 0)
        return OCC_EXIT_USAGE;
    if (index >= n) {
        snprintf(err, err_len, "--device %d: only %d device(s) present", index, n);
        return OCC_EXIT_NO_GPU;
    }
    *d = list[index];
    return 0;
}

/* The synthetic row of point p: min(roof, f x bytes in flight x SMs / latency) x scale. */
static void fake_row(const OccFakeDevice *d, const OccArchLimits *arch, const OccPoint *p,
                     OccRow *r, char *status, size_t status_len)
{
    const OccFamilyInfo *f = occ_family_at(p->family);
    occ_row_init(r);
    r->gpu_name = d->name;
    r->sm_count = FAKE_SM_COUNT;
    r->kernel = f->kernel;
    r->mode = p->mode;
    r->variant = occ_point_variant(p);
    r->family_info = f;
    r->variant_info = occ_variant_at(p->variant_index);
    r->block_threads = p->block_threads;
    r->lever = occ_lever_name(p->lever);
    r->occ_target_pct = p->level.asked_pct;
    /* The plan's reason first: a point no GPU of the arch could run says why. */
    if (p->variant_index >= 0 && !p->reachable) {
        snprintf(status, status_len, "skip:%s", p->skip_reason);
        return;
    }
    if (p->variant_index < 0 || !(f->dram_bytes_per_load_byte > 0)) {
        snprintf(status, status_len, "skip:a fake device has no %s figures", f->kernel);
        return;
    }
    const OccVariantInfo *v = occ_variant_at(p->variant_index);
    const int warps_per_block = (p->block_threads + 31) / 32;
    r->unroll = v->unroll;
    r->vec_bytes = v->vec_bytes;
    r->blocks_per_sm = p->level.blocks_per_sm;
    /* What the plan used: the build table's registers and spills, its padding and limiter. */
    r->reg_cap_per_thread = v->reg_cap;
    r->regs_per_thread = p->res.regs_per_thread;
    r->local_bytes_per_thread = p->res.local_bytes_per_thread;
    r->loads_in_flight_sass = p->res.loads_in_flight_sass;
    r->dyn_smem_pad_bytes = p->pad_bytes;
    r->limiter = occ_limiter_name(p->model.limiter);
    r->occ_achieved_pct = 100.0 * p->level.blocks_per_sm * warps_per_block / arch->max_warps_per_sm;
    /* In double (exact below 2^53), capped at 2^62: a product of int fields can pass a long
     * long's range (a plugin's are bounded at load, harness/families/plugin_load.c; all are
     * non-negative). */
    r->bytes_in_flight_per_sm = (long long)fmin(
        (double)p->level.blocks_per_sm * warps_per_block * 32 * v->unroll * v->vec_bytes, 0x1p62);
    r->dram_bytes_per_load_byte = f->dram_bytes_per_load_byte;
    const double model = f->dram_bytes_per_load_byte * (double)r->bytes_in_flight_per_sm *
                         FAKE_SM_COUNT / FAKE_LATENCY_NS;
    r->gbps_median = d->bw_scale * fmin(FAKE_ROOF_GBPS, model);
    r->gbps_max = r->gbps_median * (1 + FAKE_NOISE_PCT / 100);
    r->noise_pct = FAKE_NOISE_PCT;
    r->pct_of_memcpy = 100.0 * r->gbps_median / FAKE_ROOF_GBPS;
    r->samples = 10;
    snprintf(status, status_len, "ok");
}

/* The metadata of a fake device's CSV: fake_device=1 first, the build's revision, the command
 * and the device (its cc, the timing settings and the run axes, which --resume checks), the made-up GPU's figures the rows were made from, and
 * the earlier run's command when resumed. */
static void fake_meta(OccMeta *m, const OccFakeDevice *d, const OccArchLimits *arch,
                      const OccOptions *opt, const OccCsvTable *resumed, int argc, char **argv)
{
    char cmd[2048], host[256];
    occ_meta_command(cmd, sizeof cmd, argc, argv);
    occ_meta_host(host, sizeof host);
    occ_meta_add(m, "fake_device",
                 "1 (synthetic rows of the %s fake device list: no "
                 "measurement)",
                 OCC_FAKE_DEVICES_ENV);
    occ_meta_add(m, "git_rev", "%s", OCC_GIT_REV);
    occ_meta_add(m, "command", "%s", cmd);
    occ_meta_add(m, "gpu_name", "%s", d->name);
    occ_meta_add(m, "gpu_index", "%d", d->index);
    occ_meta_add(m, "gpu_uuid", "%s", d->uuid);
    occ_meta_add(m, "pci_bus_id", "%s", d->pci_bus_id);
    occ_meta_add(m, "host", "%s", host);
    occ_meta_add(m, "cc", "%d.%d", arch->cc_major, arch->cc_minor);
    occ_meta_add(m, "sm_count", "%d", FAKE_SM_COUNT);
    occ_meta_add(m, "roof_memcpy_gbps", "%.2f", FAKE_ROOF_GBPS);
    occ_meta_add(m, "dram_latency_ns", "%.1f", FAKE_LATENCY_NS);
    const OccTimingPolicy policy = occ_run_timing_policy(opt);
    occ_meta_add_timing(m, &policy);
    occ_meta_add_axes(m, opt);
    occ_meta_add_resumed(m, resumed);
}

/* The CSV of a fake run, refused (one line, exit 2) before anything is created: --resume's file
 * (rewritten, as --force would), --out or the default path; missing directories are made after
 * the check. The writer, not yet published as the .partial (occ_csv_open_unpublished), or NULL
 * after the message. */
static OccCsvWriter *fake_open(const OccOptions *opt, const char *path, const OccMeta *meta)
{
    char err[512];
    const int force = opt->force || opt->resume_path;
    const char *option = opt->resume_path ? "--resume " : opt->out_path ? "--out " : "";
    OccCsvWriter *w = NULL;
    if (occ_csv_check_target(path, force, err, sizeof err) != 0) {
        fprintf(stderr, "occsweep: %s%s\n", option, err);
        return NULL;
    }
    if (occ_csv_make_parent_dirs(path, err, sizeof err) == 0)
        w = occ_csv_open_unpublished(path, force, meta->keys, meta->values, meta->n, err,
                                     sizeof err);
    if (!w) fprintf(stderr, "occsweep: %s\n", err);
    return w;
}

/* Writes the earlier run's rows this one keeps (occ_resume_keep_mask: all but the fail rows of
 * points measured again), in file order. 0, or -1 when out of memory or a write failed. */
static int fake_keep(OccCsvWriter *w, const OccCsvTable *resumed, const OccPlan *todo)
{
    unsigned char *keep = occ_resume_keep_mask(resumed, todo->points, todo->n);
    int rc = keep ? 0 : -1;
    for (int i = 0; rc == 0 && i < resumed->n_rows; i++)
        if (keep[i]) rc = occ_csv_write_row(w, &resumed->rows[i]);
    free(keep);
    return rc;
}

int occ_fake_run(const OccOptions *opt, const OccFakeDevice *d, const OccPlan *plan,
                 const OccCsvTable *resumed, int argc, char **argv)
{
    OccMeta meta = {0};
    char path[1024], end[96], status[160];
    const OccArchLimits *arch = occ_arch_find(d->arch);
    const char *ms_text = getenv(OCC_FAKE_POINT_MS_ENV);
    const long ms = ms_text ? strtol(ms_text, NULL, 10) : 0;
    if (opt->resume_path)
        snprintf(path, sizeof path, "%s", opt->resume_path);
    else if (opt->out_path)
        snprintf(path, sizeof path, "%s", opt->out_path);
    else
        occ_run_default_path(path, sizeof path, d->slug, opt->families);
    fake_meta(&meta, d, arch, opt, resumed, argc, argv);
    OccCsvWriter *w = fake_open(opt, path, &meta);
    if (!w) return OCC_EXIT_USAGE;
    /* The kept rows go in before the file is named .partial: an interruption or a failed write
     * until then leaves the resumed file as the only copy, and the same command repeats it. */
    char err[512];
    if (resumed && fake_keep(w, resumed, plan) != 0) {
        fprintf(stderr, "occsweep: copying the kept rows of %s failed (%s); it is unchanged\n",
                path, strerror(errno));
        occ_csv_abandon(w);
        return OCC_EXIT_FAIL;
    }
    if (occ_csv_publish(w, err, sizeof err) != 0) {
        fprintf(stderr, "occsweep: %s\n", err);
        occ_csv_abandon(w);
        return OCC_EXIT_USAGE;
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGHUP, on_signal);
    int done = 0, write_failed = 0;
    char cc[8];
    snprintf(cc, sizeof cc, "%d.%d", arch->cc_major, arch->cc_minor);
    for (; done < plan->n && !fake_stop; done++) {
        OccRow r;
        fake_row(d, arch, &plan->points[done], &r, status, sizeof status);
        r.status = status;
        r.cc = cc;
        write_failed |= occ_csv_write_row(w, &r) != 0;
        if (ms > 0) nanosleep(&(struct timespec){ms / 1000, ms % 1000 * 1000000L}, NULL);
    }
    snprintf(end, sizeof end, "%s after %d of %d points (fake device)",
             done == plan->n ? "complete" : "interrupted", done, plan->n);
    write_failed |= occ_csv_close(w, "end_status", end) != 0;
    if (write_failed)
        printf("FAILED to write %s (%d of %d points measured (fake device); the rows before the "
               "failure are in %s.partial)\n", path, done, plan->n, path);
    else
        printf("wrote %s (%s)\n", path, end);
    if (write_failed)
        fprintf(stderr, "occsweep: writing %s failed; the rows written are in %s.partial\n", path,
                path);
    else if (done < plan->n)
        fprintf(stderr, "occsweep: interrupted; %d rows kept in %s; to measure the rest, run "
                        "again with --resume %s\n", done, path, path);
    return done < plan->n || write_failed ? OCC_EXIT_FAIL : OCC_EXIT_OK;
}
