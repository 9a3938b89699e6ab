/* bench/occsweep.c: the run_sweep program: options -> limits -> plan -> sweep -> CSV, summary.
 * Glue only: every step lives in harness/ (logic, measurement) or bench/report.c (output). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exitcodes.h"
#include "kernel_resources.h"
#include "registry.h"
#include "report.h"
#include "summary.h"

enum { OCC_MAX_POINTS = 4096 };

static volatile sig_atomic_t stop_requested = 0;
static void on_signal(int sig) { (void)sig; stop_requested = 1; }

static int usage_error(const char *msg)
{
    fprintf(stderr, "occsweep: %s%s\n", msg, strstr(msg, "see --help") ? "" : " (see --help)");
    return OCC_EXIT_USAGE;
}

/* Refuses an --out that cannot be written before any GPU time is spent on it. */
static int check_out_path(const char *path, int force, char *err, size_t err_len)
{
    if (access(path, F_OK) == 0 && !force) {
        snprintf(err, err_len, "--out %.400s exists; pass --force to overwrite it", path);
        return -1;
    }
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == dir) dir[1] = '\0';
    else *slash = '\0';
    /* Walk up to the nearest existing directory: that is where the file or its parents go. */
    while (access(dir, F_OK) != 0 && (slash = strrchr(dir, '/')) != NULL) *slash = '\0';
    if (access(dir[0] ? dir : "/", W_OK) != 0) {
        snprintf(err, err_len, "--out %.300s: directory %.150s is not writable", path,
                 dir[0] ? dir : "/");
        return -1;
    }
    return 0;
}

/* Resources of every variant: the device's runtime attributes, or the build-time table for an
 * arch when there is no device. Returns 0 or -1 with err. */
static int variant_resources(const OccArchLimits *arch, int have_device, OccVariantResources *res,
                             char *err, size_t err_len)
{
    for (int i = 0; i < occ_registry_count(); i++) {
        const OccVariant *v = occ_registry_at(i);
        if (have_device) {
            cudaError_t e;
            if (occ_device_kernel_resources(v->kernel(), &res[i], &e) != 0) {
                occ_device_format_error(e, v->info.name, err, err_len);
                return -1;
            }
            continue;
        }
        int found = 0;
        for (int k = 0; k < occ_kernel_resources_count && !found; k++) {
            const OccKernelResources *r = &occ_kernel_resources[k];
            if (strcmp(r->variant, v->info.name) != 0 || strcmp(r->arch, arch->name) != 0) continue;
            /* cuobjdump counts the reserved per-block smem in SHARED when a kernel has any. */
            int smem = r->static_smem_bytes;
            if (smem >= arch->smem_reserved_per_block_bytes && arch->smem_reserved_per_block_bytes)
                smem -= arch->smem_reserved_per_block_bytes;
            res[i] = (OccVariantResources){r->regs_per_thread, r->stack_bytes_per_thread, smem};
            found = 1;
        }
        if (!found) {
            snprintf(err, err_len, "--arch %s: this build has no code for it (rebuild with "
                                   "-Dgpu_archs=...,%s)", arch->name, arch->name + 3);
            return -1;
        }
    }
    return 0;
}

/* State the row callback needs. */
typedef struct RunState {
    OccCsvWriter *csv;
    OccProgress progress;
    OccSweepRow *rows;
    int n_rows, n_fail, write_failed;
} RunState;

static void on_row(void *user, int i, int n, const OccSweepRow *row)
{
    RunState *st = user;
    OccSweepRow *kept = &st->rows[st->n_rows++];
    *kept = *row;
    kept->row.status = kept->status;
    if (strncmp(kept->status, "fail", 4) == 0) st->n_fail++;
    if (occ_csv_write_row(st->csv, &kept->row) != 0) st->write_failed = 1;
    occ_progress_point(&st->progress, i, n, &kept->row);
}

static void print_plan(const OccPoint *points, int n, const OccVariantInfo *infos,
                       const char *arch_name, const char *notes)
{
    char line[256];
    printf("plan for %s: %d points\n", arch_name, n);
    if (notes[0]) printf("levels: %s\n", notes);
    for (int i = 0; i < n; i++) {
        occ_plan_format_point(&points[i], infos, line, sizeof line);
        printf("%s\n", line);
    }
    printf("%d points\n", n);
}

int main(int argc, char **argv)
{
    static OccOptions opt;
    static OccVariantInfo infos[256];
    static OccVariantResources res[256];
    static OccPoint points[OCC_MAX_POINTS];
    static OccDevice dev;
    char err[512], notes[512];
    if (occ_options_parse(argc, argv, &opt, err, sizeof err) != OCC_EXIT_OK) return usage_error(err);
    if (opt.help) { occ_options_print_help(stdout, "run_sweep"); return OCC_EXIT_OK; }
    if (opt.version) { printf("occsweep %s\n", OCC_VERSION); return OCC_EXIT_OK; }
    occ_registry_infos(infos);
    if (opt.list) {
        for (int i = 0; i < occ_registry_count(); i++) printf("%s\n", infos[i].name);
        return OCC_EXIT_OK;
    }
    if (opt.kernels == OCC_KERNEL_CHASE)
        return usage_error("--kernel chase: the pointer-chase kernels are not built yet "
                           "(accepted now: copy, reduce)");
    opt.kernels &= (unsigned)~OCC_KERNEL_CHASE;
    if (opt.block_threads > OCC_LB_MAX_THREADS) {
        snprintf(err, sizeof err, "--block %d: kernels are compiled for blocks of at most %d threads",
                 opt.block_threads, OCC_LB_MAX_THREADS);
        return usage_error(err);
    }

    if (opt.out_path && !opt.dry_run && check_out_path(opt.out_path, opt.force, err, sizeof err))
        return usage_error(err);

    const OccArchLimits *arch = NULL;
    int have_device = 0;
    if (opt.arch) {
        if (!(arch = occ_arch_find(opt.arch))) {
            char known[256];
            occ_arch_list_names(known, sizeof known);
            snprintf(err, sizeof err, "--arch '%s' is not known (accepted: %s)", opt.arch, known);
            return usage_error(err);
        }
    } else {
        int rc = occ_device_open(opt.device, &dev, err, sizeof err);
        if (rc != 0) { fprintf(stderr, "occsweep: %s\n", err); return rc; }
        arch = &dev.limits;
        have_device = 1;
    }
    if (variant_resources(arch, have_device, res, err, sizeof err) != 0) {
        fprintf(stderr, "occsweep: %s\n", err);
        return have_device ? OCC_EXIT_NO_GPU : OCC_EXIT_USAGE;
    }
    OccLevel levels[OCC_MAX_LEVELS];
    int n_levels = occ_plan_levels(arch, opt.block_threads, &opt.occ, levels, OCC_MAX_LEVELS,
                                   notes, sizeof notes);
    int n = n_levels < 0 ? -1
                         : occ_plan_build(arch, &opt, infos, res, occ_registry_count(), levels,
                                          n_levels, points, OCC_MAX_POINTS, err, sizeof err);
    if (n < 0) return usage_error(n_levels < 0 ? "--block: not runnable on this arch" : err);
    if (opt.dry_run) {
        print_plan(points, n, infos, have_device ? dev.name : arch->name, notes);
        return OCC_EXIT_OK;
    }
    if (!opt.arch && notes[0] && !opt.quiet) fprintf(stderr, "occsweep: levels: %s\n", notes);

    /* Measure. */
    static OccSweep sweep;
    int max_grid = levels[n_levels - 1].blocks_per_sm * dev.sm_count;
    long long size = opt.size_bytes ? opt.size_bytes : 8 * dev.l2_bytes;
    sweep.policy = (OccTimingPolicy){.min_sample_ms = 1.0, .min_samples = opt.min_samples,
                                     .max_samples = OCC_MAX_SAMPLES,
                                     .max_noise_pct = opt.max_noise_pct,
                                     .max_time_s = opt.max_time_s};
    sweep.stop = &stop_requested;
    if (occ_sweep_init(&sweep, &dev, size, max_grid, err, sizeof err) != 0) {
        fprintf(stderr, "occsweep: %s\n", err);
        return OCC_EXIT_FAIL;
    }
    if (!opt.quiet)
        fprintf(stderr, "occsweep: %s, %d SMs, buffers of %.0f MiB, %d points; measuring roof\n",
                dev.name, dev.sm_count, size / 1048576.0, n);
    cudaError_t e = occ_sweep_measure_roof(&sweep);
    if (e != cudaSuccess) {
        occ_device_format_error(e, "measuring the roof", err, sizeof err);
        fprintf(stderr, "occsweep: %s\n", err);
        return OCC_EXIT_FAIL;
    }
    char path[1024];
    if (opt.out_path) snprintf(path, sizeof path, "%s", opt.out_path);
    else occ_report_default_path(path, sizeof path, dev.slug, opt.kernels);
    static OccMeta meta;
    occ_report_metadata(&meta, argc, argv, &sweep, &opt);
    static RunState st;
    static OccSweepRow rows[OCC_MAX_POINTS];
    st.rows = rows;
    if (occ_csv_make_parent_dirs(path, err, sizeof err) != 0 ||
        !(st.csv = occ_csv_open(path, opt.force, meta.keys, meta.values, meta.n, err, sizeof err))) {
        fprintf(stderr, "occsweep: %s\n", err);
        return OCC_EXIT_USAGE;
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    occ_progress_start(&st.progress, opt.quiet);
    int done = occ_sweep_run(&sweep, points, n, on_row, &st, &e, err, sizeof err);
    occ_progress_end(&st.progress);
    char end[160];
    snprintf(end, sizeof end, "%s after %d of %d points",
             done == n ? "complete" : e != cudaSuccess ? "cuda_error" : "interrupted", done, n);
    if (occ_csv_close(st.csv, "end_status", end) != 0) st.write_failed = 1;
    static OccRow plain[OCC_MAX_POINTS];
    for (int i = 0; i < st.n_rows; i++) plain[i] = rows[i].row;
    occ_summary_print(stdout, plain, st.n_rows);
    printf("roof: memcpy %.1f GB/s, cub reduce %.1f GB/s, DRAM peak %.1f GB/s\n%s %s (%s)\n",
           sweep.roof.memcpy_gbps, sweep.roof.cub_reduce_gbps, sweep.roof.dram_peak_gbps,
           st.write_failed ? "FAILED to write" : "wrote", path, end);
    occ_sweep_free(&sweep);
    if (e != cudaSuccess) { fprintf(stderr, "occsweep: %s\n", err); return OCC_EXIT_FAIL; }
    if (opt.plot && done == n) occ_report_plot(path);
    if (done < n) { fprintf(stderr, "occsweep: interrupted; %d rows kept in %s\n", done, path); return OCC_EXIT_FAIL; }
    if (st.write_failed) { fprintf(stderr, "occsweep: writing %s failed\n", path); return OCC_EXIT_FAIL; }
    if (st.n_fail) { fprintf(stderr, "occsweep: %d point(s) failed verification\n", st.n_fail); return OCC_EXIT_FAIL; }
    return OCC_EXIT_OK;
}
