/* bench/occsweep.c: the run_sweep program: options -> limits -> plan -> sweep -> CSV, summary.
 * Glue only: every step lives in harness/ (logic, measurement) or bench/report.c (output). */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog.h"
#include "exitcodes.h"
#include "kernel_resources.h"
#include "registry.h"
#include "model.h"
#include "nvml.h"
#include "report.h"
#include "resume.h"
#include "summary.h"

enum { OCC_MAX_POINTS = 4096 };

static volatile sig_atomic_t stop_requested = 0;
static void on_signal(int sig) { (void)sig; stop_requested = 1; }

/* 1 when o selects the family of that kernel and mode. */
static int selects(const OccOptions *o, const char *kernel, const char *mode)
{
    int f = occ_family_find(kernel, mode);
    return f >= 0 && (o->families >> f & 1u);
}

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
                if (e == cudaErrorNoKernelImageForDevice || e == cudaErrorInvalidDeviceFunction)
                    snprintf(err, err_len,
                             "this build has no code for %s (%s): rebuild with "
                             "meson configure build -Dgpu_archs=...,%s (or -Dgpu_ptx=%s)",
                             arch->name, cudaGetErrorName(e), arch->name + 3, arch->name + 3);
                else
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
    const OccModel *model;  /* Little's-law prediction added to every row (NULL: none) */
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
    if (st->model) occ_model_annotate(st->model, &kept->row, 1);
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

static void print_footprints(const long long *footprints, int n, const char *target)
{
    printf("latency ladder for %s: %d footprints\n", target, n);
    for (int i = 0; i < n; i++) printf("chase_latency footprint %14lld B\n", footprints[i]);
    printf("%d points\n", n);
}

/* The ladder's own summary: the latency at each footprint. */
static void print_ladder(const OccSweepRow *rows, int n, double perm_ms)
{
    printf("%16s %10s %10s %10s\n", "footprint B", "cycles", "ns", "status");
    for (int i = 0; i < n; i++)
        printf("%16lld %10.1f %10.1f %10s\n", rows[i].row.buffer_bytes,
               rows[i].row.cycles_per_hop_median, rows[i].row.ns_per_hop_median, rows[i].status);
    printf("host permutation build: %.2f s in all\n", perm_ms / 1e3);
}

/* The knee table (stdout and <csv>-knee.md) and the measured-residency check. */
static void report_model(const OccModel *m, const OccRow *rows, int n, const char *csv_path,
                         const char *gpu_name)
{
    static OccKnee knees[OCC_MAX_POINTS];
    char md[1100], err[300];
    int nk = occ_knee_compute(m, rows, n, knees, OCC_MAX_POINTS);
    if (nk <= 0) return;
    printf("model: DRAM latency %.1f ns, roof %.1f GB/s, %d SMs\n", m->latency_ns, m->roof_gbps,
           m->sm_count);
    occ_knee_print(stdout, knees, nk);
    size_t len = strlen(csv_path);
    snprintf(md, sizeof md, "%.*s-knee.md", (int)(len > 4 && !strcmp(csv_path + len - 4, ".csv") ? len - 4 : len),
             csv_path);
    if (occ_knee_write_markdown(md, gpu_name, m, knees, nk, err, sizeof err) != 0)
        fprintf(stderr, "occsweep: %s\n", err);
    else
        printf("wrote %s\n", md);
    int off = 0, probed = 0;
    for (int i = 0; i < n; i++) {
        if (isnan(rows[i].occ_measured_pct)) continue;
        probed++;
        off += fabs(rows[i].occ_measured_pct - rows[i].occ_achieved_pct) > 5.0;
    }
    printf("residency: %d of %d points measured more than 5 points away from the API's occupancy\n",
           off, probed);
}

/* Sizes the chase footprint for the planned chase points (if any) and builds it. */
static int init_chase(OccSweep *s, const OccOptions *opt, const OccPoint *points, int n,
                      int max_grid, OccMeta *meta, char *err, size_t err_len)
{
    int any = 0;
    for (int i = 0; i < n; i++) any |= occ_registry_at(points[i].variant_index)->launch_chase != NULL;
    if (!any) return 0;
    const int thread_mode = selects(opt, "chase", "thread");
    /* Thread mode has 32x the chains of warp mode at the same occupancy: 32-byte lines (one
     * sector each) and a larger default footprint keep every chain >= 8 hops long. */
    unsigned int line_words = thread_mode ? 8 : 32;
    long long bytes = opt->size_bytes ? opt->size_bytes : (thread_mode ? 16 : 8) * s->dev->l2_bytes;
    size_t max_chains = (size_t)max_grid * (size_t)opt->block_threads * 8;
    if (occ_chase_init(&s->chase, (size_t)bytes, line_words, 4, max_chains, 0xc4a5eull, err,
                       err_len))
        return -1;
    occ_meta_add(meta, "chase_footprint_bytes", "%zu", s->chase.n_lines * 4 * line_words);
    occ_meta_add(meta, "chase_line_bytes", "%u", 4 * line_words);
    occ_meta_add(meta, "chase_perm_build_ms", "%.1f", s->chase.perm_build_ms);
    return 0;
}

/* Runs the measurement: buffers, roof, CSV, the points or the ladder, summary and plots. */
static int measure(const OccOptions *opt, OccDevice *dev, int argc, char **argv,
                   const OccPoint *points, const long long *footprints, int n, int max_blocks_per_sm,
                   OccCsvTable *resumed)
{
    static OccSweep sweep;
    static OccMeta meta;
    static RunState st;
    static OccSweepRow rows[OCC_MAX_POINTS];
    static OccRow plain[OCC_MAX_POINTS];
    char err[512], path[1024];
    const int ladder = footprints && selects(opt, "chase", "latency");
    int max_grid = max_blocks_per_sm * dev->sm_count * opt->waves;
    long long size = opt->size_bytes && !ladder ? opt->size_bytes : 8 * dev->l2_bytes;
    sweep.policy = (OccTimingPolicy){.min_sample_ms = 1.0, .min_samples = opt->min_samples,
                                     .max_samples = OCC_MAX_SAMPLES,
                                     .max_noise_pct = opt->max_noise_pct,
                                     .max_time_s = opt->max_time_s,
                                     .clock_window_ns = 20000,
                                     .min_clock_fraction = 0.9};
    sweep.stop = &stop_requested;
    sweep.waves = opt->waves;
    if (occ_sweep_init(&sweep, dev, size, max_grid, err, sizeof err) != 0) {
        fprintf(stderr, "occsweep: %s\n", err);
        return OCC_EXIT_FAIL;
    }
    if (!opt->quiet)
        fprintf(stderr, "occsweep: %s, %d SMs, buffers of %.0f MiB, %d points; measuring roof\n",
                dev->name, dev->sm_count, size / 1048576.0, n);
    cudaError_t e = occ_sweep_measure_roof(&sweep);
    if (e != cudaSuccess) {
        occ_device_format_error(e, "measuring the roof", err, sizeof err);
        fprintf(stderr, "occsweep: %s\n", err);
        return OCC_EXIT_FAIL;
    }
    occ_report_metadata(&meta, argc, argv, &sweep, opt);
    char pci[32] = "", nvml[160];
    cudaDeviceGetPCIBusId(pci, sizeof pci, dev->index);
    occ_nvml_reading(pci, nvml, sizeof nvml);
    occ_meta_add(&meta, "nvml_at_start", "%s", nvml);
    static OccModel model;
    if (ladder) {
        occ_meta_add(&meta, "l1_bytes", "%d", dev->limits.l1_smem_sram_bytes);
        occ_meta_add(&meta, "chase_line_bytes", "%d", opt->stride_bytes);
        occ_meta_add(&meta, "chase_index_bytes", "%d", opt->index_bytes);
        occ_meta_add(&meta, "ladder_mode", "%s", opt->cold ? "cold: L2 flushed before each of 5 "
                     "single passes" : "warm: one pass to warm, then 11 timed segments");
    } else {
        /* The model's latency: a chase far beyond L2, measured now, on this GPU. */
        double lat_ns = 0, lat_cycles = 0;
        if (occ_chase_dram_latency(&sweep, (size_t)(8 * dev->l2_bytes), &lat_ns, &lat_cycles, err,
                                   sizeof err) != 0) {
            fprintf(stderr, "occsweep: %s\n", err);
            return OCC_EXIT_FAIL;
        }
        model = (OccModel){lat_ns, sweep.roof.memcpy_gbps, dev->sm_count};
        st.model = &model;
        occ_meta_add(&meta, "dram_latency_ns", "%.1f", lat_ns);
        occ_meta_add(&meta, "dram_latency_cycles", "%.1f", lat_cycles);
        occ_meta_add(&meta, "waves", "%d", opt->waves);
    }
    if (!ladder && init_chase(&sweep, opt, points, n, max_grid, &meta, err, sizeof err) != 0) {
        fprintf(stderr, "occsweep: %s\n", err);
        return OCC_EXIT_FAIL;
    }
    if (resumed) {
        occ_meta_add(&meta, "resumed_from_command", "%s", occ_csv_meta_get(resumed, "command"));
        occ_meta_add(&meta, "resumed_rows", "%d", resumed->n_rows);
    }
    if (opt->resume_path) snprintf(path, sizeof path, "%s", opt->resume_path);
    else if (opt->out_path) snprintf(path, sizeof path, "%s", opt->out_path);
    else occ_report_default_path(path, sizeof path, dev->slug, opt->families);
    st.rows = rows;
    if (occ_csv_make_parent_dirs(path, err, sizeof err) != 0 ||
        !(st.csv = occ_csv_open(path, opt->force || resumed, meta.keys, meta.values, meta.n, err,
                                sizeof err))) {
        fprintf(stderr, "occsweep: %s\n", err);
        return OCC_EXIT_USAGE;
    }
    /* The earlier run's rows come first, as they were. */
    for (int i = 0; resumed && i < resumed->n_rows; i++) {
        OccSweepRow *kept = &st.rows[st.n_rows++];
        kept->row = resumed->rows[i];
        snprintf(kept->status, sizeof kept->status, "%s", resumed->rows[i].status);
        kept->row.status = kept->status;
        if (occ_csv_write_row(st.csv, &kept->row) != 0) st.write_failed = 1;
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    occ_progress_start(&st.progress, opt->quiet);
    int done = ladder ? occ_chase_ladder(&sweep, footprints, n, opt->stride_bytes, opt->index_bytes,
                                         opt->cold, on_row, &st, &e, err, sizeof err)
                      : occ_sweep_run(&sweep, points, n, on_row, &st, &e, err, sizeof err);
    occ_progress_end(&st.progress);
    char end[320];
    occ_nvml_reading(pci, nvml, sizeof nvml);
    snprintf(end, sizeof end, "%s after %d of %d points; at the end: %s",
             done == n ? "complete" : e != cudaSuccess ? "cuda_error" : "interrupted", done, n, nvml);
    if (occ_csv_close(st.csv, "end_status", end) != 0) st.write_failed = 1;
    if (ladder) {
        print_ladder(rows, st.n_rows, sweep.ladder_perm_ms);
    } else {
        for (int i = 0; i < st.n_rows; i++) plain[i] = rows[i].row;
        occ_summary_print(stdout, plain, st.n_rows);
        report_model(&model, plain, st.n_rows, path, dev->name);
    }
    printf("roof: memcpy %.1f GB/s, cub reduce %.1f GB/s, DRAM peak %.1f GB/s\n%s %s (%s)\n",
           sweep.roof.memcpy_gbps, sweep.roof.cub_reduce_gbps, sweep.roof.dram_peak_gbps,
           st.write_failed ? "FAILED to write" : "wrote", path, end);
    occ_chase_free(&sweep.chase);
    occ_sweep_free(&sweep);
    if (e != cudaSuccess) { fprintf(stderr, "occsweep: %s\n", err); return OCC_EXIT_FAIL; }
    if (opt->plot && done == n) occ_report_plot(path);
    if (done < n) {
        fprintf(stderr, "occsweep: interrupted; %d rows kept in %s\n", done, path);
        return OCC_EXIT_FAIL;
    }
    if (st.write_failed) { fprintf(stderr, "occsweep: writing %s failed\n", path); return OCC_EXIT_FAIL; }
    if (st.n_fail) {
        fprintf(stderr, "occsweep: %d point(s) failed verification\n", st.n_fail);
        return OCC_EXIT_FAIL;
    }
    return OCC_EXIT_OK;
}

int main(int argc, char **argv)
{
    static OccOptions opt;
    static OccVariantInfo infos[256];
    static OccVariantResources res[256];
    static OccPoint points[OCC_MAX_POINTS];
    static long long footprints[OCC_MAX_POINTS];
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
    /* --mode latency selects the ladder family for every named kernel, so it runs alone. */
    const int ladder = selects(&opt, "chase", "latency");

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
    int n_levels = 0, n = 0;
    notes[0] = '\0';
    if (ladder) {
        long long lo = opt.footprint_lo_bytes ? opt.footprint_lo_bytes : 4096;
        long long hi = opt.footprint_hi_bytes ? opt.footprint_hi_bytes : 4LL << 30;
        n = occ_plan_footprints(lo, hi, arch->l1_smem_sram_bytes, have_device ? dev.l2_bytes : 0,
                                footprints, OCC_MAX_POINTS);
    } else {
        n_levels = occ_plan_levels(arch, opt.block_threads, &opt.occ, levels, OCC_MAX_LEVELS,
                                   notes, sizeof notes);
        n = n_levels < 0 ? -1
                         : occ_plan_build(arch, &opt, infos, res, occ_registry_count(), levels,
                                          n_levels, points, OCC_MAX_POINTS, err, sizeof err);
        if (n < 0) return usage_error(n_levels < 0 ? "--block: not runnable on this arch" : err);
    }
    if (opt.dry_run) {
        const char *target = have_device ? dev.name : arch->name;
        if (ladder) print_footprints(footprints, n, target);
        else print_plan(points, n, infos, target, notes);
        return OCC_EXIT_OK;
    }
    if (!opt.arch && notes[0] && !opt.quiet) fprintf(stderr, "occsweep: levels: %s\n", notes);
    static OccCsvTable resumed;
    if (opt.resume_path) {
        if (occ_resume_load(opt.resume_path, dev.name, &resumed, err, sizeof err) != 0)
            return usage_error(err);
        n = ladder ? occ_resume_filter_footprints(&resumed, footprints, n)
                   : occ_resume_filter_points(&resumed, infos, points, n);
        if (!opt.quiet)
            fprintf(stderr, "occsweep: resuming %s: %d rows kept, %d points to measure\n",
                    opt.resume_path, resumed.n_rows, n);
    }
    int rc = measure(&opt, &dev, argc, argv, points, footprints, n,
                     ladder ? 1 : levels[n_levels - 1].blocks_per_sm,
                     opt.resume_path ? &resumed : NULL);
    if (opt.resume_path) occ_csv_table_free(&resumed);
    return rc;
}
