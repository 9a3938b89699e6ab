/* SPDX-License-Identifier: Apache-2.0 */
/* bench/occsweep.c: the occsweep program (./run_sweep runs it): parse -> plan -> measure -> print.
 * Glue only: every step lives in harness/ (logic, measurement) or a bench/ module (README.md). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitcodes.h"
#include "build_info.h"
#include "calc.h"
#include "fake_device.h"
#include "family_ladder.h"
#include "fleet_run.h"
#include "loaded_levels.h"
#include "ncu_pass.h"
#include "nvml.h"
#include "plugin_load.h"
#include "plan_print.h"
#include "plot_scripts.h"
#include "recompute.h"
#include "resources.h"
#include "resume.h"
#include "run_meta.h"
#include "run_policy.h"
#include "run_summary.h"
#include "sink.h"
#include "summary_json.h"

/* Set by SIGINT/SIGTERM; the point loop stops between points once it is (OccRun.stop).
 * File-scope because a signal handler can reach nothing else. */
static volatile sig_atomic_t stop_requested = 0;
static void on_signal(int sig) { (void)sig; stop_requested = 1; }

static int usage_error(const char *msg)
{
    fprintf(stderr, "occsweep: %s%s\n", msg, strstr(msg, "see --help") ? "" : " (see --help)");
    return OCC_EXIT_USAGE;
}

static int fail(const char *msg)
{
    fprintf(stderr, "occsweep: %s\n", msg);
    return OCC_EXIT_FAIL;
}

/* The table entry of --arch, or NULL after a usage message naming the architectures known. */
static const OccArchLimits *known_arch(const char *name)
{
    const OccArchLimits *arch = occ_arch_find(name);
    char known[256], err[400];
    if (arch) return arch;
    occ_arch_list_names(known, sizeof known);
    snprintf(err, sizeof err, "--arch '%s' is not known (accepted: %s)", name, known);
    usage_error(err);
    return NULL;
}

/* --calc: the occupancy calculator on --arch's table entry or, without it, the device's limits. */
static int calc(const OccOptions *opt)
{
    OccDevice dev = {0};
    const OccArchLimits *arch = opt->arch ? known_arch(opt->arch) : NULL;
    char err[512], msg[600], target[300];
    const char *why = NULL;
    OccCalc c;
    if (opt->arch && !arch) return OCC_EXIT_USAGE;
    if (!opt->arch) {
        const int rc = occ_device_open(opt->device, &dev, err, sizeof err);
        if (rc != 0) {
            fprintf(stderr, "occsweep: --calc: give --arch sm_NN or run on a GPU: %s\n", err);
            return rc;
        }
        arch = &dev.limits;
    }
    snprintf(target, sizeof target, opt->arch ? "%s" : "%s (%s)", opt->arch ? arch->name : dev.name,
             dev.arch_name);
    const OccCalcInput in = {.block_threads = opt->block_threads[0],
                             .regs_per_thread = opt->regs_per_thread,
                             .smem_bytes = opt->smem_bytes, .carveout = opt->carveout,
                             .target_occ_pct = opt->target_occ_pct,
                             .target_blocks = opt->target_blocks};
    if (occ_calc_run(arch, &in, &c, &why) != 0) {
        snprintf(msg, sizeof msg, "--calc: %s cannot launch this block: %s", target, why);
        return usage_error(msg);
    }
    occ_calc_print(stdout, &c, target);
    return OCC_EXIT_OK;
}

/* The model meta line of a loaded-latency model: which traffic's curve L(X) predicts each
 * planned family that the model covers (the family table's curve_traffic), and the fallback. */
static void describe_loaded_model(const OccPlan *plan, double unloaded_ns, char *out, size_t len)
{
    size_t used = (size_t)snprintf(out, len, "loaded latency L(X) of this run's chase/loaded rows (");
    int listed[OCC_MAX_FAMILIES] = {0}, any = 0;
    for (int i = 0; i < plan->n && used < len; i++) {
        const int fam = plan->points[i].family;
        const OccFamilyInfo *f = occ_family_at(fam);
        if (!(f->dram_bytes_per_load_byte > 0) || fam >= OCC_MAX_FAMILIES || listed[fam]) continue;
        listed[fam] = 1;
        used += (size_t)snprintf(out + used, len - used, "%s%s/%s rows: %s traffic", any ? "; " : "",
                                 f->kernel, f->mode, occ_curve_traffic_name(f->curve_traffic));
        any = 1;
    }
    if (used < len)
        snprintf(out + used, len - used, "); unloaded DRAM latency %.1f ns where no level is ok",
                 unloaded_ns);
}

/* The Little's-law model's inputs, when a selected family uses it: the unloaded DRAM latency,
 * measured now on this GPU far beyond L2, and (unless --no-loaded) the loaded-latency curves by
 * background traffic, empty until the sink fills them from the load levels' rows (measured first,
 * or kept by --resume). 0 (model set, or none needed) or -1 with err. */
static int measure_model(OccRun *run, const OccPlan *plan, OccModel *model,
                         OccLatencyCurve curves[OCC_CURVE_TRAFFICS], int *have, OccMeta *m,
                         char *err, size_t err_len)
{
    *have = 0;
    for (int i = 0; i < plan->n && !*have; i++)
        *have = occ_family_at(plan->points[i].family)->dram_bytes_per_load_byte > 0;
    if (!*have) return 0;
    double ns = 0, cycles = 0;
    const size_t footprint = (size_t)(8 * run->dev->l2_bytes);
    if (occ_ladder_dram_latency(run->timer.stream, footprint, &ns, &cycles, err, err_len) != 0)
        return -1;
    *model = (OccModel){.latency_ns = ns, .roof_gbps = run->roof.memcpy_gbps,
                        .roof_read_gbps = run->roof.cub_reduce_gbps,
                        .sm_count = run->dev->sm_count};
    occ_meta_add(m, "dram_latency_ns", "%.1f", ns);
    occ_meta_add(m, "dram_latency_cycles", "%.1f", cycles);
    char which[400];
    if (!run->opt->no_loaded) {
        occ_model_use_curves(model, curves);
        describe_loaded_model(plan, ns, which, sizeof which);
    } else {
        occ_model_describe(model, which, sizeof which);
    }
    occ_meta_add(m, "model", "%s", which);
    return 0;
}

/* The size of the run's stream buffers (the roof and the streaming families) without --size: the
 * largest default of the planned families, at least 8 x L2. */
static long long stream_default_bytes(const OccPlan *plan, const OccDevice *dev)
{
    long long bytes = 8 * dev->l2_bytes;
    for (int i = 0; i < plan->n; i++) {
        const OccFamilyInfo *f = occ_family_at(plan->points[i].family);
        const long long b = occ_family_default_bytes(f, dev->l2_bytes, (long long)dev->free_bytes);
        bytes = b > bytes ? b : bytes;
    }
    return bytes;
}

/* Runs the measurement: buffers, roof, model, CSV, the points, summary and plots. */
static int measure(const OccOptions *opt, const OccDevice *dev, int argc, char **argv,
                   const OccPlan *plan, OccCsvTable *resumed, const OccPlan *todo)
{
    OccMeta meta = {0};
    OccSink sink = {0};
    OccModel model = {0};
    OccLatencyCurve curves[OCC_CURVE_TRAFFICS] = {0};
    char err[512], path[1024];
    int have_model = 0;
    OccRun run = {.dev = dev, .opt = opt, .stop = &stop_requested, .meta = occ_meta_sink,
                  .meta_user = &meta, .policy = occ_run_timing_policy(opt)};
    const long long size = opt->size_bytes ? opt->size_bytes : stream_default_bytes(plan, dev);
    if (occ_run_init(&run, size, todo->points, todo->n, err, sizeof err) != 0) return fail(err);
    if (!opt->quiet)
        fprintf(stderr, "occsweep: %s, %d SMs, %d points; measuring roof\n", dev->name,
                dev->sm_count, todo->n);
    if (occ_run_measure_roof(&run, err, sizeof err) != 0) return fail(err);
    const char *pci = dev->pci_bus_id;
    occ_meta_add_run(&meta, argc, argv, &run, opt, pci, plan->carveout_bytes);
    occ_meta_add_family_carveouts(&meta, plan);
    if (measure_model(&run, plan, &model, curves, &have_model, &meta, err, sizeof err) != 0 ||
        occ_run_setup_families(&run, todo->points, todo->n, err, sizeof err) != 0)
        return fail(err);
    occ_meta_add_resumed(&meta, resumed);
    /* the earlier run's rows this one keeps (occ_resume_keep_rows) */
    unsigned char *keep = resumed ? occ_resume_keep_mask(resumed, todo->points, todo->n) : NULL;
    if (resumed && !keep) return fail("--resume: out of memory for the rows it keeps");
    if (opt->resume_path) snprintf(path, sizeof path, "%s", opt->resume_path);
    else if (opt->out_path) snprintf(path, sizeof path, "%s", opt->out_path);
    else occ_run_default_path(path, sizeof path, dev->slug, opt->families);
    if (occ_sink_open(&sink, path, opt->force || resumed, &meta, have_model ? &model : NULL,
                      opt->quiet, err, sizeof err) != 0) {
        fprintf(stderr, "occsweep: %s\n", err);
        free(keep);
        return OCC_EXIT_USAGE;
    }
    if (have_model && model.curve) occ_sink_feed_curves(&sink, curves);
    for (int i = 0; keep && i < resumed->n_rows; i++)
        if (keep[i]) occ_sink_keep(&sink, &resumed->rows[i]);
    free(keep);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    cudaError_t e = cudaSuccess;
    const int done = occ_run_points(&run, todo->points, todo->n, occ_sink_row, &sink, &e, err,
                                    sizeof err);
    occ_sink_close(&sink, pci, done, todo->n, e != cudaSuccess);
    const int json_failed = occ_run_summary_print(&sink, &run.roof, have_model ? &model : NULL,
                                                  path, dev->name, opt->json_path) != 0;
    occ_run_free(&run);
    if (e != cudaSuccess) return fail(err);
    /* Profiling, figures and the --report page only for a finished run; none changes the exit
     * status. */
    if (opt->ncu && done == todo->n)
        occ_ncu_pass_run(argc, argv, size, plan->n, &sink, &meta, path, opt->quiet);
    if ((opt->plot || opt->report) && done == todo->n) occ_plot_scripts_figures(path);
    if (opt->report && done == todo->n) occ_plot_scripts_page(path);
    const int rc = occ_sink_exit_status(&sink, done, todo->n, path);
    return rc == OCC_EXIT_OK && json_failed ? OCC_EXIT_FAIL : rc;
}

/* --resume, once the device (or --arch) is known: the earlier rows' GPU and run axes checked,
 * the plan reduced to what is missing. The file itself was read before the GPU was opened. */
static int resume(const OccOptions *opt, const char *gpu_name, const char *cc, OccCsvTable *t,
                  OccPlan *todo, char *err, size_t err_len)
{
    OccRunAxis axes[16];
    const int n_axes = occ_options_run_axes(opt, axes, 16);
    if (occ_resume_check_device(t, opt->resume_path, gpu_name, cc, err, err_len) != 0 ||
        occ_resume_check_axes(t, axes, n_axes, err, err_len) != 0) {
        occ_csv_table_free(t);
        return -1;
    }
    todo->n = occ_resume_filter_points(t, todo->points, todo->n);
    return 0;
}

/* --json FILE of a run, refused before any GPU time is spent: not with --dry-run (nothing is
 * measured) or a --device list (a CSV per GPU), and a path occ_summary_json_check_target takes
 * that is neither the run's CSV nor its knee report. 0, or -1 with the reason in err. */
static int check_json(const OccOptions *opt, char *err, size_t err_len)
{
    const char *csv = opt->resume_path ? opt->resume_path : opt->out_path;
    char md[1100], why[1000];
    if (opt->dry_run || opt->n_devices != 1)
        return snprintf(err, err_len, "--json %.200s: %s; to summarize a CSV: --recompute CSV "
                        "--json FILE", opt->json_path, opt->dry_run ? "a dry run measures nothing"
                        : "a --device list writes one CSV per GPU"), -1;
    if (csv) occ_csv_sibling_path(csv, "-knee.md", md, sizeof md);
    const char *const others[] = {csv, csv ? md : NULL};
    if (occ_summary_json_check_target(opt->json_path, opt->force, others, 2, why, sizeof why))
        return snprintf(err, err_len, "--json %.440s", why), -1;
    return 0;
}

/* Loads the FILE of --plugin FILE (or --plugin=FILE) before the options are parsed, so that its
 * family is one the options, planner and outputs know. 0 (loaded, or none given), or -1 with
 * err. */
static int load_plugin(int argc, char **argv, char *err, size_t err_len)
{
    const char *path = NULL;
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
        const char *p = strcmp(argv[i], "--plugin") == 0 && i + 1 < argc ? argv[++i]
                        : strncmp(argv[i], "--plugin=", 9) == 0          ? argv[i] + 9
                                                                          : NULL;
        if (p && path) return snprintf(err, err_len, "--plugin: one plugin per run"), -1;
        if (p) path = p;
    }
    return path && occ_plugin_load(path, err, err_len) < 0 ? -1 : 0;
}

/* What run() allocates on its way to the measurement, freed by main however run() ends (every
 * early return included: the sanitized build's leak check holds the program to it). */
typedef struct Owned {
    OccCsvTable resumed;      /* --resume's file */
    OccVariantResources *res; /* one entry per catalog variant */
    OccPlan plan, todo;       /* every point, and those still to measure */
} Owned;

/* The program: the plugin, the options, the plan, then the run, fake run or dry run; what it
 * allocates is left in o for main to free. */
static int run(int argc, char **argv, Owned *o)
{
    OccOptions opt = {0};
    OccDevice dev = {0};
    char err[512], msg[480], notes[4096] = "", cc[8];
    if (load_plugin(argc, argv, err, sizeof err) != 0) {
        fprintf(stderr, "occsweep: %s\n", err);
        return OCC_EXIT_USAGE;
    }
    if (occ_options_parse(argc, argv, &opt, err, sizeof err) != OCC_EXIT_OK) return usage_error(err);
    if (opt.help) { occ_options_print_help(stdout, "occsweep"); return OCC_EXIT_OK; }
    if (opt.version) return occ_plot_scripts_version(stdout);
    if (opt.help_man) { occ_options_print_man(stdout, "occsweep", OCC_VERSION); return OCC_EXIT_OK; }
    /* The child run of --ncu (bench/ncu_pass.h): the same command line, measured by ncu only. */
    const int ncu_child = getenv(OCC_NCU_PASS_ENV) != NULL;
    if (ncu_child) {
        opt.ncu = opt.report = opt.plot = 0;
        opt.out_path = opt.resume_path = opt.json_path = NULL;
        opt.quiet = 1;
    }
    if (opt.list) {
        for (int i = 0; i < occ_variant_count(); i++) printf("%s\n", occ_variant_at(i)->name);
        return OCC_EXIT_OK;
    }
    if (opt.calc) return calc(&opt);
    if (opt.recompute_path) return occ_recompute(&opt);
    if (opt.json_path && check_json(&opt, msg, sizeof msg) != 0) return usage_error(msg);
    /* A device list (or all) is a fleet, unless only planned: --arch plans for no device, and a
     * real --dry-run plans for the first listed; with a fake device list a dry run is a fleet. */
    const char *fake_list = occ_fake_list();
    OccFakeDevice fake_dev = {0};
    if (fake_list && !opt.dry_run) return usage_error(OCC_FAKE_DEVICES_ENV " needs --dry-run");
    if (!opt.arch && opt.n_devices != 1 && (!opt.dry_run || fake_list))
        return occ_fleet_run(&opt, argc, argv);
    /* A bad --out or --resume file is refused before any GPU time is spent on it (a real
     * --resume run rewrites its file, as --force would). */
    if (opt.out_path && !opt.dry_run && occ_csv_check_target(opt.out_path, opt.force, msg, sizeof msg)) {
        snprintf(err, sizeof err, "--out %s", msg);
        return usage_error(err);
    }
    if (opt.resume_path &&
        (occ_resume_read(opt.resume_path, &o->resumed, msg, sizeof msg) != 0 ||
         (!opt.dry_run && occ_csv_check_target(opt.resume_path, 1, msg, sizeof msg) != 0))) {
        snprintf(err, sizeof err, "%s%s", strncmp(msg, "--resume", 8) ? "--resume " : "", msg);
        return usage_error(err);
    }
    const OccArchLimits *arch = NULL;
    const OccFakeDevice *fake = NULL;
    if (fake_list && !opt.arch) {
        const int rc = occ_fake_device(opt.device, &fake_dev, err, sizeof err);
        if (rc == OCC_EXIT_USAGE) return usage_error(err);
        if (rc != 0) { fprintf(stderr, "occsweep: %s\n", err); return rc; }
        fake = &fake_dev;
        arch = occ_arch_find(fake->arch);
    } else if (opt.arch) {
        if (!(arch = known_arch(opt.arch))) return OCC_EXIT_USAGE;
    } else {
        int rc = occ_device_open(opt.device, &dev, err, sizeof err);
        if (rc != 0) { fprintf(stderr, "occsweep: %s\n", err); return rc; }
        arch = &dev.limits;
    }
    /* One entry per catalog variant, the plugin's (loaded above) included. */
    OccVariantResources *res = o->res = calloc((size_t)occ_variant_count(), sizeof *res);
    if (!res) return fail("out of host memory for the variants' resources");
    if (occ_resources_get(arch, !opt.arch && !fake, res, err, sizeof err) != 0) {
        fprintf(stderr, "occsweep: %s\n", err);
        return opt.arch ? OCC_EXIT_USAGE : OCC_EXIT_NO_GPU;
    }
    OccLevel levels[OCC_MAX_LEVELS];
    const int n_levels =
        occ_plan_block_levels(arch, opt.block_threads, opt.n_block_threads, &opt.occ, levels,
                              OCC_MAX_LEVELS, notes, sizeof notes, err, sizeof err);
    if (n_levels < 0) return usage_error(err);
    if (occ_plan_build(arch, opt.arch ? 0 : dev.l2_bytes, &opt, res, levels, n_levels, &o->plan,
                       err, sizeof err) < 0)
        return usage_error(err);
    o->todo = o->plan;
    o->todo.points = malloc((size_t)o->plan.n * sizeof *o->todo.points);
    if (!o->todo.points) return fail("out of host memory for the plan");
    memcpy(o->todo.points, o->plan.points, (size_t)o->plan.n * sizeof *o->todo.points);
    snprintf(cc, sizeof cc, "%d.%d", arch->cc_major, arch->cc_minor);
    const char *gpu_name = fake ? fake->name : opt.arch ? NULL : dev.name;
    if (opt.resume_path && resume(&opt, gpu_name, cc, &o->resumed, &o->todo, err, sizeof err) != 0)
        return usage_error(err);
    if (opt.resume_path && !opt.quiet)
        fprintf(stderr, "occsweep: resuming %s: %d rows kept, %d points to measure\n",
                opt.resume_path, o->resumed.n_rows, o->todo.n);
    if (fake)
        return occ_fake_run(&opt, fake, &o->todo, opt.resume_path ? &o->resumed : NULL, argc, argv);
    if (opt.dry_run) {
        occ_plan_print_dry_run(&o->todo, opt.arch ? arch->name : dev.name, notes, !opt.arch, &opt);
        return OCC_EXIT_OK;
    }
    if (!opt.quiet) occ_plan_print_levels(stderr, "occsweep: levels ", notes, &o->plan);
    if (ncu_child) return occ_ncu_pass_child(&opt, &dev, &o->plan);
    return measure(&opt, &dev, argc, argv, &o->plan, opt.resume_path ? &o->resumed : NULL,
                   &o->todo);
}

int main(int argc, char **argv)
{
    Owned o = {0};
    const int rc = run(argc, argv, &o);
    occ_csv_table_free(&o.resumed);
    free(o.res);
    occ_plan_free(&o.plan);
    occ_plan_free(&o.todo);
    return rc;
}
