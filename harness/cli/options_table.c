/* SPDX-License-Identifier: Apache-2.0 */
/* harness/cli/options_table.c: the one table of occsweep options, its look-ups, and the value
 * and requires rule of an entry. Nothing here names a kernel family: which families take a
 * scoped option comes from the catalog (harness/cli/options_catalog.c). */
#include "options_table.h"

#include "options_names.h"
#include "variants.h"

#include <stdio.h>
#include <string.h>

#define AT(member) offsetof(OccOptions, member)

/* Every option, in --help order. Out of clang-format's reach, which would give each field a line
 * of its own. */
/* clang-format off */
static const OccOptSpec table[] = {
    {.name = "kernel", .kind = OCC_OPT_KERNELS, .resumed = 1,
     .field = AT(kernel_arg), .noun = "kernel",
     .unset_text = "all", .metavar = "LIST",
     .help = "the kernels to run, each in its default mode (see --mode)"},
    {.name = "mode", .kind = OCC_OPT_MODE, .resumed = 1,
     .field = AT(mode_arg), .noun = "mode", .metavar = "M",
     .help = "run each selected kernel in mode M instead"},
    {.name = "plugin", .kind = OCC_OPT_PATH, .field = AT(plugin_path),
     .accepted = "a plugin shared object (occsweep/plugin.h)", .unset_text = "none",
     .metavar = "FILE",
     .help = "sweep your own kernel: its family, from a shared object built against "
             "occsweep/plugin.h (docs/plugins.md); without --kernel, only it"},
    {.name = "unroll", .kind = OCC_OPT_LIST, .resumed = 1, .scoped = 1, .field = AT(unroll),
     .field2 = AT(n_unroll), .axis = 'u', .metavar = "LIST",
     .help = "independent loads (or chains) per thread"},
    {.name = "vec", .kind = OCC_OPT_LIST, .resumed = 1,
     .scoped = 1, .field = AT(vec_bytes), .field2 = AT(n_vec),
     .axis = 'v', .metavar = "LIST",
     .help = "bytes per load (arithmetic kernels: per element, 4 fp32, 8 fp64)"},
    {.name = "fmas", .kind = OCC_OPT_LIST, .resumed = 1, .scoped = 1, .field = AT(fma_per_element),
     .field2 = AT(n_fma_per_element), .axis = 'a', .metavar = "LIST",
     .help = "dependent FMAs per loaded float (2A/4 FLOP per byte)"},
    {.name = "occ", .kind = OCC_OPT_OCC, .resumed = 1,
     .scoped = 1, .field = AT(occ), .default_text = "6.25..100",
     .metavar = "SPEC",
     .help = "occupancy levels; LO..HI visits every level the block size can reach (a decimal "
             "point: 12,5 is refused)"},
    {.name = "block", .kind = OCC_OPT_INT_LIST, .resumed = 1,
     .scoped = 1, .field = AT(block_threads),
     .field2 = AT(n_block_threads), .lo = 32, .hi = OCC_LB_MAX_THREADS, .multiple = 32,
     .default_text = "128", .metavar = "LIST",
     .help = "threads per block; a list is a sweep axis, each block size with its own levels"},
    {.name = "lever", .kind = OCC_OPT_ENUM, .resumed = 1, .scoped = 1, .field = AT(lever),
     .names = occ_option_lever_names, .n_names = OCC_OPTION_N_LEVERS, .noun = "lever",
     .default_text = "auto", .metavar = "L", .help = "how a level is reached; see Levers"},
    {.name = "carveout", .kind = OCC_OPT_ENUM, .resumed = 1,
     .scoped = 1, .run_axis = 1, .field = AT(carveout),
     .names = occ_option_carveout_names, .n_names = OCC_OPTION_N_CARVEOUTS, .noun = "carveout",
     .default_text = "min", .metavar = "C",
     .help = "shared memory per SM for the whole run: min (the smallest carveout in which "
             "padding pins every level of the block size; the rest is L1, which stages the loads "
             "in flight) or max (maximum shared memory, the least L1)"},
    {.name = "schedule", .kind = OCC_OPT_ENUM, .resumed = 1,
     .scoped = 1, .run_axis = 1, .field = AT(schedule),
     .names = occ_option_schedule_names, .n_names = OCC_OPTION_N_SCHEDULES, .noun = "schedule",
     .default_text = "dynamic", .metavar = "S",
     .help = "how blocks share the buffer: dynamic (claim chunks until the work is gone: the set "
             "occupancy runs to the end) or static (one contiguous share per block: the tail runs "
             "at lower occupancy)"},
    {.name = "size", .kind = OCC_OPT_SIZE, .resumed = 1,
     .scoped = 1, .run_axis = 1, .field = AT(size_bytes),
     .metavar = "BYTES", .help = "buffer size; suffixes are powers of 1024"},
    {.name = "waves", .kind = OCC_OPT_INT, .resumed = 1,
     .scoped = 1, .run_axis = 1, .field = AT(waves), .lo = 1,
     .hi = 64, .default_text = "1", .metavar = "N",
     .help = "grids of N full waves; the padding still sets the occupancy (1: every block "
             "resident throughout)"},
    {.name = "footprint", .kind = OCC_OPT_FOOTPRINT, .resumed = 1,
     .scoped = 1, .field = AT(footprint_lo_bytes),
     .field2 = AT(footprint_hi_bytes), .default_text = "4K..4G", .metavar = "LO..HI",
     .help = "footprints to sweep, smallest to largest (whole lines of --stride, at "
             "least 2, at most 1 TiB)"},
    {.name = "stride", .kind = OCC_OPT_INT, .resumed = 1,
     .scoped = 1, .run_axis = 1, .field = AT(stride_bytes),
     .lo = 32, .hi = 65536, .pow2 = 1, .default_text = "128", .metavar = "BYTES",
     .help = "bytes between the lines of the chain"},
    {.name = "cold", .kind = OCC_OPT_FLAG, .resumed = 1,
     .scoped = 1, .run_axis = 1, .field = AT(cold),
     .help = "flush L2 before each of 5 single passes (cold misses) instead of a warm chain"},
    {.name = "chain", .kind = OCC_OPT_ENUM, .resumed = 1,
     .scoped = 1, .run_axis = 1, .field = AT(chain),
     .names = occ_option_chain_names, .n_names = OCC_OPTION_N_CHAINS, .noun = "chain",
     .default_text = "address", .metavar = "C",
     .help = "what each line stores: address (the next line's address: one load per hop) or "
             "index (the next line's index: address arithmetic between the loads)"},
    {.name = "index-bytes", .kind = OCC_OPT_INT, .resumed = 1, .scoped = 1, .run_axis = 1,
     .field = AT(index_bytes), .lo = 4, .hi = 8, .pow2 = 1, .requires = "chain=index",
     .default_text = "4", .metavar = "N", .help = "width of the stored next-line indices"},
    {.name = "max-noise", .kind = OCC_OPT_DOUBLE, .resumed = 1,
     .field = AT(max_noise_pct), .lo = 0, .hi = 100,
     .default_text = "0.5", .metavar = "PCT",
     .help = "stop sampling at this relative stdev, in percent"},
    {.name = "max-time", .kind = OCC_OPT_DOUBLE, .resumed = 1,
     .field = AT(max_time_s), .lo = 0, .hi = 3600,
     .default_text = "0.5", .metavar = "S", .help = "time bound per point, in seconds"},
    {.name = "min-samples", .kind = OCC_OPT_INT, .resumed = 1,
     .field = AT(min_samples), .lo = 1, .hi = 100000,
     .default_text = "10", .metavar = "N", .help = "samples before the noise test"},
    {.name = "device", .kind = OCC_OPT_DEVICES, .field = AT(devices), .field2 = AT(n_devices),
     .default_text = "0", .metavar = "LIST",
     .help = "CUDA device index; a list or all: one worker process per GPU, a CSV each, and a "
             "fleet summary"},
    {.name = "out", .kind = OCC_OPT_PATH, .field = AT(out_path), .accepted = "a file path",
     .unset_text = "runs/<gpu-slug>/<kernel>-<UTC>.csv", .metavar = "FILE",
     .help = "CSV path"},
    {.name = "force", .kind = OCC_OPT_FLAG, .field = AT(force),
     .help = "overwrite an existing --out file"},
    {.name = "resume", .kind = OCC_OPT_PATH, .field = AT(resume_path),
     .accepted = "a CSV file of an earlier run", .unset_text = "a fresh run", .metavar = "FILE",
     .help = "resume the run of FILE: its kernels, axes and timing options come from its "
             "command line (an option given must agree with it); skip the points FILE already "
             "holds, measure the rest and rewrite FILE with all rows. FILE must be of this "
             "build's git revision, name its run axes, and come from the same GPU"},
    {.name = "resume-mismatch", .kind = OCC_OPT_FLAG, .field = AT(resume_mismatch),
     .help = "with --resume: resume FILE although its git revision, timing settings (max-noise, "
             "max-time, min-samples, the sample length) or command line differ from this run's "
             "or its axis lines are missing; the options given win. Its GPU, compute capability "
             "and recorded run axes must still agree"},
    {.name = "recompute", .kind = OCC_OPT_PATH, .field = AT(recompute_path),
     .accepted = "a CSV file of an earlier run", .unset_text = "none", .metavar = "FILE",
     .help = "recompute the Little's-law model and the knee table of FILE's rows and exit (no "
             "GPU): stdout, and the markdown knee report at --out when given"},
    {.name = "json", .kind = OCC_OPT_PATH, .field = AT(json_path), .accepted = "a file path",
     .unset_text = "none", .metavar = "FILE",
     .help = "at the end, write a JSON summary of the run's CSV (with --recompute: of its "
             "FILE) to FILE, for dashboards and CI: the CSV's path and metadata, the ok/skip/fail "
             "row counts and, per variant, its U and V, plateau (best GB/s or GFLOP/s and its "
             "occupancy), knee measured and predicted and model agreement, as the knee report "
             "has them; FILE's directory must exist, an existing FILE is replaced only with "
             "--force; not with --dry-run or a --device list"},
    {.name = "plot", .kind = OCC_OPT_FLAG, .field = AT(plot),
     .help = "draw the curves beside the CSV (needs gnuplot)"},
    {.name = "ncu", .kind = OCC_OPT_FLAG, .field = AT(ncu),
     .help = "after timing, profile each point once with Nsight Compute (ncu): achieved "
             "occupancy, DRAM throughput, issue active and stall reasons as ncu_* columns"},
    {.name = "no-loaded", .kind = OCC_OPT_FLAG, .resumed = 1, .field = AT(no_loaded),
     .help = "plan no load levels (chase/loaded rows, measured before the points): the model "
             "then predicts from the unloaded DRAM latency (and says so)"},
    {.name = "report", .kind = OCC_OPT_FLAG, .field = AT(report),
     .help = "write the figures and a one-page report (<csv>-report.md and .html) beside the "
             "CSV (figures need gnuplot)"},
    {.name = "quiet", .kind = OCC_OPT_FLAG, .field = AT(quiet), .help = "no progress lines"},
    {.name = "dry-run", .kind = OCC_OPT_FLAG, .field = AT(dry_run),
     .help = "print the sweep plan; measure nothing (see OCC_FAKE_DEVICES below)"},
    {.name = "arch", .kind = OCC_OPT_ARCH, .field = AT(arch),
     .accepted = "sm_NN like sm_80, sm_90 or sm_90a", .unset_text = "the real device",
     .metavar = "sm_NN",
     .help = "with --dry-run or --calc: plan (or calculate) for this architecture, no GPU needed"},
    {.name = "calc", .kind = OCC_OPT_FLAG, .field = AT(calc),
     .help = "print the occupancy calculator for --block, --regs and --smem (the blocks/SM each "
             "limiter allows, the limiter, the occupancy; --carveout defaults to max here) and "
             "exit"},
    {.name = "regs", .kind = OCC_OPT_INT, .field = AT(regs_per_thread), .lo = 1, .hi = 255,
     .requires = "calc=1", .unset_text = "none (--calc needs it)", .metavar = "N",
     .help = "registers per thread (ptxas -v, cudaFuncAttributes.numRegs)"},
    {.name = "smem", .kind = OCC_OPT_SIZE, .field = AT(smem_bytes), .requires = "calc=1", .zero_ok = 1,
     .unset_text = "none", .metavar = "BYTES",
     .help = "shared memory per block (static and dynamic; suffixes are powers of 1024)"},
    {.name = "target-occ", .kind = OCC_OPT_DOUBLE, .field = AT(target_occ_pct), .lo = 0,
     .hi = 100, .requires = "calc=1", .unset_text = "none", .metavar = "PCT",
     .help = "also print the most registers per thread that reach PCT occupancy"},
    {.name = "target-blocks", .kind = OCC_OPT_INT, .field = AT(target_blocks), .lo = 1, .hi = 32,
     .requires = "calc=1", .unset_text = "none", .metavar = "K",
     .help = "also print the dynamic shared memory that pins exactly K blocks/SM"},
    {.name = "list", .kind = OCC_OPT_FLAG, .field = AT(list),
     .help = "print the compiled kernel variants and exit"},
    {.name = "help", .short_name = 'h', .kind = OCC_OPT_FLAG, .stops = 1, .field = AT(help),
     .help = "print this help and exit"},
    {.name = "version", .short_name = 'V', .kind = OCC_OPT_FLAG, .stops = 1, .field = AT(version),
     .help = "print the version, the git revision and where the plot scripts are, and exit"},
    {.name = "help-man", .kind = OCC_OPT_FLAG, .stops = 1, .field = AT(help_man),
     .help = "print this help as a man page (roff) and exit"},
};
/* clang-format on */
#undef AT
#define N_OPTIONS ((int)(sizeof table / sizeof table[0]))
_Static_assert(N_OPTIONS <= OCC_OPTION_MAX, "a parse keeps one bit per option in 64");

int occ_option_count(void)
{
    return N_OPTIONS;
}

const OccOptSpec *occ_option_at(int i)
{
    return i >= 0 && i < N_OPTIONS ? &table[i] : NULL;
}

const OccOptSpec *occ_option_named(const char *name, size_t len)
{
    for (int i = 0; i < N_OPTIONS; i++)
        if (strlen(table[i].name) == len && strncmp(table[i].name, name, len) == 0)
            return &table[i];
    return NULL;
}

char *occ_option_value(const OccOptions *o, const OccOptSpec *s, char *buf, size_t len)
{
    const char *at = (const char *)o + s->field;
    long long bytes = 0;
    int v = 0;
    if (s->kind == OCC_OPT_SIZE)
        memcpy(&bytes, at, sizeof bytes);
    else
        memcpy(&v, at, sizeof v);
    if (s->kind == OCC_OPT_SIZE && bytes == 0)
        snprintf(buf, len, "auto");
    else if (s->kind == OCC_OPT_SIZE)
        snprintf(buf, len, "%lld", bytes);
    else if (s->kind == OCC_OPT_ENUM && v >= 0 && v < s->n_names)
        snprintf(buf, len, "%s", s->names[v]);
    else
        snprintf(buf, len, "%d", v);
    return buf;
}

int occ_option_applies(const OccOptions *o, const OccOptSpec *s, const OccOptSpec **r, char *want,
                       size_t len)
{
    const size_t name_len = s->requires ? strcspn(s->requires, "=") : 0;
    const OccOptSpec *req = name_len ? occ_option_named(s->requires, name_len) : NULL;
    const char *value = req ? s->requires + name_len + 1 : "";
    char got[32];
    if (req == NULL || strcmp(occ_option_value(o, req, got, sizeof got), value) == 0) return 1;
    if (r != NULL) *r = req;
    if (want != NULL) snprintf(want, len, "%s", value);
    return 0;
}
