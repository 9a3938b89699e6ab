/* SPDX-License-Identifier: Apache-2.0 */
/* bench/occsweep.c: the occsweep program (./run_sweep runs it): parse, then the first command of
 * commands[] the options ask for (help, list, calc, recompute, fleet, dry run, measure, ...), each
 * one function, after the checks and the plan it needs. Glue only: every step lives in harness/
 * (logic, measurement) or a bench/ module (README.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitcodes.h"
#include "build_info.h"
#include "calc.h"
#include "fake_device.h"
#include "fleet_run.h"
#include "measure.h"
#include "ncu_pass.h"
#include "nvml.h"
#include "plugin_load.h"
#include "plan_print.h"
#include "plot_scripts.h"
#include "recompute.h"
#include "report_file.h"
#include "resources.h"
#include "run_resume.h"
#include "summary_json.h"

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

/* What the planned commands allocate on their way to the measurement, freed by main however the
 * command ends (every early return included: the sanitized build's leak check holds the program
 * to it). */
typedef struct Owned {
    OccCsvTable resumed;      /* --resume's file */
    char *resume_command;     /* its run's command line, which the options point into */
    OccVariantResources *res; /* one entry per catalog variant */
    OccPlan plan, todo;       /* every point, and those still to measure */
} Owned;

/* What a command works on: the command line, and for the planned commands (OCC_CMD_PLAN) the
 * target and the plan that plan_target() made. */
typedef struct Cmd {
    int argc;
    char **argv;
    OccOptions opt;             /* as parsed (the --ncu child's outputs cleared) */
    int ncu_child;              /* 1: the child run of --ncu (bench/ncu_pass.h) */
    const char *fake_list;      /* OCC_FAKE_DEVICES_ENV, or NULL (bench/fake_device.h) */
    Owned *o;                   /* what the planned commands allocate */
    /* Set by plan_target: */
    OccDevice dev;              /* the GPU, when neither --arch nor a fake device is the target */
    const OccArchLimits *arch;  /* the target's limits */
    OccFakeDevice fake_dev;     /* the fake device, when the target is one */
    const OccFakeDevice *fake;  /* &fake_dev, or NULL */
    char notes[4096];           /* the occupancy level notes (occ_plan_block_levels) */
} Cmd;

/* What a command needs before it runs. */
enum {
    OCC_CMD_CHECKS = 1, /* the checks before any GPU time: --json, OCC_FAKE_DEVICES_ENV */
    OCC_CMD_PLAN = 2    /* the target opened and the plan built (plan_target) */
};

/* One command of the program, as perf's builtin-* are: the first entry of commands[] whose
 * wanted() holds runs. */
typedef struct OccCommand {
    int (*wanted)(const Cmd *c); /* 1 when the options ask for it */
    int needs;                   /* OCC_CMD_* bits */
    int (*run)(Cmd *c);          /* the command; returns the exit status */
} OccCommand;

static int want_help(const Cmd *c) { return c->opt.help; }
static int cmd_help(Cmd *c)
{
    (void)c;
    occ_options_print_help(stdout, "occsweep");
    return OCC_EXIT_OK;
}

static int want_version(const Cmd *c) { return c->opt.version; }
static int cmd_version(Cmd *c) { (void)c; return occ_plot_scripts_version(stdout); }

static int want_help_man(const Cmd *c) { return c->opt.help_man; }
static int cmd_help_man(Cmd *c)
{
    (void)c;
    occ_options_print_man(stdout, "occsweep", OCC_VERSION);
    return OCC_EXIT_OK;
}

static int want_list(const Cmd *c) { return c->opt.list; }
static int cmd_list(Cmd *c)
{
    (void)c;
    for (int i = 0; i < occ_variant_count(); i++) printf("%s\n", occ_variant_at(i)->name);
    return OCC_EXIT_OK;
}

static int want_calc(const Cmd *c) { return c->opt.calc; }
static int cmd_calc(Cmd *c) { return calc(&c->opt); }

static int want_recompute(const Cmd *c) { return c->opt.recompute_path != NULL; }
static int cmd_recompute(Cmd *c) { return occ_recompute(&c->opt); }

/* A device list (or all) is a fleet, unless only planned: --arch plans for no device, and a real
 * --dry-run plans for the first listed; with a fake device list a dry run is a fleet. */
static int want_fleet(const Cmd *c)
{
    return !c->opt.arch && c->opt.n_devices != 1 && (!c->opt.dry_run || c->fake_list);
}
static int cmd_fleet(Cmd *c) { return occ_fleet_run(&c->opt, c->argc, c->argv); }

static int want_fake(const Cmd *c) { return c->fake_list && !c->opt.arch; }
static int cmd_fake(Cmd *c)
{
    Owned *o = c->o;
    return occ_fake_run(&c->opt, c->fake, &o->todo, c->opt.resume_path ? &o->resumed : NULL,
                        c->argc, c->argv);
}

static int want_dry_run(const Cmd *c) { return c->opt.dry_run; }
static int cmd_dry_run(Cmd *c)
{
    occ_plan_print_dry_run(&c->o->todo, c->opt.arch ? c->arch->name : c->dev.name, c->notes,
                           !c->opt.arch, &c->opt);
    return OCC_EXIT_OK;
}

static int want_ncu_child(const Cmd *c) { return c->ncu_child; }
static int cmd_ncu_child(Cmd *c) { return occ_ncu_pass_child(&c->opt, &c->dev, &c->o->plan); }

static int want_always(const Cmd *c) { (void)c; return 1; }
static int cmd_measure(Cmd *c)
{
    Owned *o = c->o;
    if (!c->opt.quiet) occ_plan_print_levels(stderr, "occsweep: levels ", c->notes, &o->plan);
    return occ_measure(&c->opt, &c->dev, c->argc, c->argv, &o->plan,
                       c->opt.resume_path ? &o->resumed : NULL, &o->todo);
}

/* The commands, in the order they are tried: the options asking for several run the first. */
static const OccCommand commands[] = {
    {want_help, 0, cmd_help},
    {want_version, 0, cmd_version},
    {want_help_man, 0, cmd_help_man},
    {want_list, 0, cmd_list},
    {want_calc, 0, cmd_calc},
    {want_recompute, 0, cmd_recompute},
    {want_fleet, OCC_CMD_CHECKS, cmd_fleet},
    {want_fake, OCC_CMD_CHECKS | OCC_CMD_PLAN, cmd_fake},
    {want_dry_run, OCC_CMD_CHECKS | OCC_CMD_PLAN, cmd_dry_run},
    {want_ncu_child, OCC_CMD_CHECKS | OCC_CMD_PLAN, cmd_ncu_child},
    {want_always, OCC_CMD_CHECKS | OCC_CMD_PLAN, cmd_measure},
};

/* OCC_CMD_CHECKS: --json and the fake device list, refused before any GPU time is spent.
 * OCC_EXIT_OK or the exit status of the refusal. */
static int run_checks(const Cmd *c)
{
    char msg[480];
    if (c->opt.json_path && check_json(&c->opt, msg, sizeof msg) != 0) return usage_error(msg);
    if (c->fake_list && !c->opt.dry_run)
        return usage_error(OCC_FAKE_DEVICES_ENV " needs --dry-run");
    /* A plan (no fake devices) measures and writes nothing: an output option would be ignored
     * without a word. */
    if (c->opt.dry_run && !c->fake_list) {
        const char *ignored = c->opt.out_path ? "--out" : c->opt.plot ? "--plot"
                              : c->opt.report ? "--report" : c->opt.ncu ? "--ncu" : NULL;
        if (ignored) {
            snprintf(msg, sizeof msg, "%s: a dry run measures and writes nothing (leave %s out, "
                     "or run without --dry-run)", ignored, ignored);
            return usage_error(msg);
        }
    }
    return OCC_EXIT_OK;
}

/* OCC_CMD_PLAN: the --out and --resume files checked, the target (fake device, --arch or the
 * GPU) opened, the variants' resources, the plan, and what --resume leaves of it in o->todo.
 * OCC_EXIT_OK or the exit status of the failure (its message on stderr). */
static int plan_target(Cmd *c)
{
    const OccOptions *opt = &c->opt;
    Owned *o = c->o;
    char err[512], msg[480], cc[8];
    /* A bad --out or --resume file is refused before any GPU time is spent on it (a real
     * --resume run rewrites its file, as --force would). */
    if (opt->out_path && !opt->dry_run &&
        occ_csv_check_target(opt->out_path, opt->force, msg, sizeof msg)) {
        snprintf(err, sizeof err, "--out %s", msg);
        return usage_error(err);
    }
    if (opt->resume_path && !opt->dry_run &&
        occ_csv_check_target(opt->resume_path, 1, msg, sizeof msg) != 0) {
        snprintf(err, sizeof err, "%s%s", strncmp(msg, "--resume", 8) ? "--resume " : "", msg);
        return usage_error(err);
    }
    if (c->fake_list && !opt->arch) {
        const int rc = occ_fake_device(opt->device, &c->fake_dev, err, sizeof err);
        if (rc == OCC_EXIT_USAGE) return usage_error(err);
        if (rc != 0) { fprintf(stderr, "occsweep: %s\n", err); return rc; }
        c->fake = &c->fake_dev;
        c->arch = occ_arch_find(c->fake->arch);
    } else if (opt->arch) {
        if (!(c->arch = known_arch(opt->arch))) return OCC_EXIT_USAGE;
    } else {
        int rc = occ_device_open(opt->device, &c->dev, err, sizeof err);
        if (rc != 0) { fprintf(stderr, "occsweep: %s\n", err); return rc; }
        c->arch = &c->dev.limits;
    }
    const OccArchLimits *arch = c->arch;
    /* One entry per catalog variant, the plugin's (loaded before the options) included. */
    OccVariantResources *res = o->res = calloc((size_t)occ_variant_count(), sizeof *res);
    if (!res) return fail("out of host memory for the variants' resources");
    if (occ_resources_get(arch, !opt->arch && !c->fake, res, err, sizeof err) != 0) {
        fprintf(stderr, "occsweep: %s\n", err);
        return opt->arch ? OCC_EXIT_USAGE : OCC_EXIT_NO_GPU;
    }
    OccLevel levels[OCC_MAX_LEVELS];
    const int n_levels =
        occ_plan_block_levels(arch, opt->block_threads, opt->n_block_threads, &opt->occ, levels,
                              OCC_MAX_LEVELS, c->notes, sizeof c->notes, err, sizeof err);
    if (n_levels < 0) return usage_error(err);
    if (occ_plan_build(arch, opt->arch ? 0 : c->dev.l2_bytes, opt, res, levels, n_levels,
                       &o->plan, err, sizeof err) < 0)
        return usage_error(err);
    o->todo = o->plan;
    o->todo.points = malloc((size_t)o->plan.n * sizeof *o->todo.points);
    if (!o->todo.points) return fail("out of host memory for the plan");
    memcpy(o->todo.points, o->plan.points, (size_t)o->plan.n * sizeof *o->todo.points);
    snprintf(cc, sizeof cc, "%d.%d", arch->cc_major, arch->cc_minor);
    const char *gpu_name = c->fake ? c->fake->name : opt->arch ? NULL : c->dev.name;
    if (opt->resume_path &&
        occ_run_resume_plan(opt, gpu_name, cc, &o->resumed, &o->todo, err, sizeof err) != 0)
        return usage_error(err);
    if (opt->resume_path && !opt->quiet)
        fprintf(stderr, "occsweep: resuming %s: %d rows kept, %d points to measure\n",
                opt->resume_path, o->resumed.n_rows, o->todo.n);
    return OCC_EXIT_OK;
}

/* The program: the plugin, the options, then the first command the options ask for, after what
 * it needs; what it allocates is left in o for main to free. */
static int run(int argc, char **argv, Owned *o)
{
    Cmd c = {.argc = argc, .argv = argv, .o = o};
    char err[512];
    if (load_plugin(argc, argv, err, sizeof err) != 0) {
        fprintf(stderr, "occsweep: %s\n", err);
        return OCC_EXIT_USAGE;
    }
    if (occ_options_parse(argc, argv, &c.opt, err, sizeof err) != OCC_EXIT_OK)
        return usage_error(err);
    /* The child run of --ncu (bench/ncu_pass.h): the same command line, measured by ncu only. */
    const char *ncu_pass = getenv(OCC_NCU_PASS_ENV);
    if (ncu_pass != NULL && !occ_ncu_pass_is_live(ncu_pass)) {
        fprintf(stderr, "occsweep: %s is set (to '%.200s') but no --ncu pass made that file: a "
                        "leftover of the environment; unset %s\n",
                OCC_NCU_PASS_ENV, ncu_pass, OCC_NCU_PASS_ENV);
        return OCC_EXIT_USAGE;
    }
    c.ncu_child = ncu_pass != NULL;
    c.fake_list = occ_fake_list();
    const OccCommand *cmd = commands;
    while (!cmd->wanted(&c)) cmd++; /* the last one is always wanted */
    int rc = OCC_EXIT_OK;
    /* The resumed run's options first: the --ncu child of a resume profiles that run's points. */
    if ((cmd->needs & OCC_CMD_PLAN) && c.opt.resume_path &&
        occ_run_resume_options(argc, argv, &c.opt, &o->resumed, &o->resume_command, err,
                               sizeof err) != 0)
        rc = usage_error(err);
    if (c.ncu_child) {
        c.opt.ncu = c.opt.report = c.opt.plot = 0;
        c.opt.out_path = c.opt.resume_path = c.opt.json_path = NULL;
        c.opt.quiet = 1;
    }
    if (rc == OCC_EXIT_OK && (cmd->needs & OCC_CMD_CHECKS)) rc = run_checks(&c);
    if (rc == OCC_EXIT_OK && (cmd->needs & OCC_CMD_PLAN)) rc = plan_target(&c);
    return rc == OCC_EXIT_OK ? cmd->run(&c) : rc;
}

int main(int argc, char **argv)
{
    Owned o = {0};
    const int rc = run(argc, argv, &o);
    occ_csv_table_free(&o.resumed);
    free(o.resume_command);
    free(o.res);
    occ_plan_free(&o.plan);
    occ_plan_free(&o.todo);
    return occ_report_stdout_status("occsweep", rc);
}
