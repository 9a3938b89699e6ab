/* SPDX-License-Identifier: Apache-2.0 */
/* bench/measure.c: occsweep's measure command (contract in measure.h). */
#include "measure.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "exitcodes.h"
#include "family_ladder.h"
#include "loaded_levels.h"
#include "ncu_pass.h"
#include "plot_scripts.h"
#include "resume.h"
#include "run_meta.h"
#include "run_policy.h"
#include "run_summary.h"
#include "sink.h"

/* Set by SIGINT/SIGTERM/SIGHUP; the point loop stops between points once it is (OccRun.stop).
 * File-scope because a signal handler can reach nothing else. */
static volatile sig_atomic_t stop_requested = 0;
static void on_signal(int sig) { (void)sig; stop_requested = 1; }

static int fail(const char *msg)
{
    fprintf(stderr, "occsweep: %s\n", msg);
    return OCC_EXIT_FAIL;
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

int occ_measure(const OccOptions *opt, const OccDevice *dev, int argc, char **argv,
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
    /* Only now is the file path.partial: an interruption until here leaves path alone. */
    if (occ_sink_publish(&sink, path, err, sizeof err) != 0) {
        fprintf(stderr, "occsweep: %s\n", err);
        return sink.write_failed ? OCC_EXIT_FAIL : OCC_EXIT_USAGE;
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGHUP, on_signal);
    cudaError_t e = cudaSuccess;
    const int done = occ_run_points(&run, todo->points, todo->n, occ_sink_row, &sink, &e, err,
                                    sizeof err);
    occ_sink_close(&sink, pci, done, todo->n, e != cudaSuccess);
    if (run.clock_capped)
        fprintf(stderr, "occsweep: the clock watch read above the peak SM clock (%d MHz) on %d "
                        "point(s); their sm_clock_mhz_median and FLOP peak are taken at %d MHz\n",
                dev->sm_clock_khz / 1000, run.clock_capped, dev->sm_clock_khz / 1000);
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
