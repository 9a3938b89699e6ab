/* SPDX-License-Identifier: Apache-2.0 */
/* harness/options_table.c: the one table of run_sweep options, and the texts it and the catalog
 * give (accepted values, defaults, the families that take an option). Nothing here names a
 * kernel family: those come from the catalog. */
#include "options_table.h"

#include "catalog.h"
#include "options.h"
#include "variants.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *const occ_option_lever_names[OCC_OPTION_N_LEVERS] = {"auto", "pad", "bounds", "both"};
const char *const occ_option_schedule_names[OCC_OPTION_N_SCHEDULES] = {"dynamic", "static"};
const char *const occ_option_carveout_names[OCC_OPTION_N_CARVEOUTS] = {"min", "max"};
const char *const occ_option_chain_names[OCC_OPTION_N_CHAINS] = {"address", "index"};

#define AT(member) offsetof(OccOptions, member)

/* Every option, in --help order. Out of clang-format's reach, which would give each field a line
 * of its own. */
/* clang-format off */
static const OccOptSpec table[] = {
    {.name = "kernel", .kind = OCC_OPT_KERNELS, .field = AT(kernel_arg), .noun = "kernel",
     .unset_text = "all", .metavar = "LIST",
     .help = "the kernels to run, each in its default mode (see --mode)"},
    {.name = "mode", .kind = OCC_OPT_MODE, .field = AT(mode_arg), .noun = "mode", .metavar = "M",
     .help = "run each selected kernel in mode M instead"},
    {.name = "plugin", .kind = OCC_OPT_PATH, .field = AT(plugin_path),
     .accepted = "a plugin shared object (occsweep/plugin.h)", .unset_text = "none",
     .metavar = "FILE",
     .help = "sweep your own kernel: its family, from a shared object built against "
             "occsweep/plugin.h (README: Sweeping your own kernel); without --kernel, only it"},
    {.name = "unroll", .kind = OCC_OPT_LIST, .scoped = 1, .field = AT(unroll),
     .field2 = AT(n_unroll), .axis = 'u', .metavar = "LIST",
     .help = "independent loads (or chains) per thread"},
    {.name = "vec", .kind = OCC_OPT_LIST, .scoped = 1, .field = AT(vec_bytes), .field2 = AT(n_vec),
     .axis = 'v', .metavar = "LIST", .help = "bytes per load (arithmetic kernels: per element, 4 fp32, 8 fp64)"},
    {.name = "fmas", .kind = OCC_OPT_LIST, .scoped = 1, .field = AT(fma_per_element),
     .field2 = AT(n_fma_per_element), .axis = 'a', .metavar = "LIST",
     .help = "dependent FMAs per loaded float (2A/4 FLOP per byte)"},
    {.name = "occ", .kind = OCC_OPT_OCC, .scoped = 1, .field = AT(occ), .default_text = "6.25..100",
     .metavar = "SPEC",
     .help = "occupancy levels; LO..HI visits every level the block size can reach (a decimal "
             "point: 12,5 is refused)"},
    {.name = "block", .kind = OCC_OPT_INT_LIST, .scoped = 1, .field = AT(block_threads),
     .field2 = AT(n_block_threads), .lo = 32, .hi = OCC_LB_MAX_THREADS, .multiple = 32,
     .default_text = "128", .metavar = "LIST",
     .help = "threads per block; a list is a sweep axis, each block size with its own levels"},
    {.name = "lever", .kind = OCC_OPT_ENUM, .scoped = 1, .field = AT(lever),
     .names = occ_option_lever_names, .n_names = OCC_OPTION_N_LEVERS, .noun = "lever",
     .default_text = "auto", .metavar = "L", .help = "how a level is reached; see Levers"},
    {.name = "carveout", .kind = OCC_OPT_ENUM, .scoped = 1, .run_axis = 1, .field = AT(carveout),
     .names = occ_option_carveout_names, .n_names = OCC_OPTION_N_CARVEOUTS, .noun = "carveout",
     .default_text = "min", .metavar = "C",
     .help = "shared memory per SM for the whole run: min (the smallest carveout in which "
             "padding pins every level of the block size; the rest is L1, which stages the loads "
             "in flight) or max (maximum shared memory, the least L1)"},
    {.name = "schedule", .kind = OCC_OPT_ENUM, .scoped = 1, .run_axis = 1, .field = AT(schedule),
     .names = occ_option_schedule_names, .n_names = OCC_OPTION_N_SCHEDULES, .noun = "schedule",
     .default_text = "dynamic", .metavar = "S",
     .help = "how blocks share the buffer: dynamic (claim chunks until the work is gone: the set "
             "occupancy runs to the end) or static (fixed grid-stride shares: the tail runs at "
             "lower occupancy)"},
    {.name = "size", .kind = OCC_OPT_SIZE, .scoped = 1, .run_axis = 1, .field = AT(size_bytes),
     .metavar = "BYTES", .help = "buffer size; suffixes are powers of 1024"},
    {.name = "waves", .kind = OCC_OPT_INT, .scoped = 1, .run_axis = 1, .field = AT(waves), .lo = 1,
     .hi = 64, .default_text = "1", .metavar = "N",
     .help = "grids of N full waves; the padding still sets the occupancy (1: every block "
             "resident throughout)"},
    {.name = "footprint", .kind = OCC_OPT_FOOTPRINT, .scoped = 1, .field = AT(footprint_lo_bytes),
     .field2 = AT(footprint_hi_bytes), .default_text = "4K..4G", .metavar = "LO..HI",
     .help = "footprints to sweep, smallest to largest (whole lines of --stride, at "
             "least 2, at most 1 TiB)"},
    {.name = "stride", .kind = OCC_OPT_INT, .scoped = 1, .run_axis = 1, .field = AT(stride_bytes),
     .lo = 32, .hi = 65536, .pow2 = 1, .default_text = "128", .metavar = "BYTES",
     .help = "bytes between the lines of the chain"},
    {.name = "cold", .kind = OCC_OPT_FLAG, .scoped = 1, .run_axis = 1, .field = AT(cold),
     .help = "flush L2 before each of 5 single passes (cold misses) instead of a warm chain"},
    {.name = "chain", .kind = OCC_OPT_ENUM, .scoped = 1, .run_axis = 1, .field = AT(chain),
     .names = occ_option_chain_names, .n_names = OCC_OPTION_N_CHAINS, .noun = "chain",
     .default_text = "address", .metavar = "C",
     .help = "what each line stores: address (the next line's address: one load per hop) or "
             "index (the next line's index: address arithmetic between the loads)"},
    {.name = "index-bytes", .kind = OCC_OPT_INT, .scoped = 1, .run_axis = 1,
     .field = AT(index_bytes), .lo = 4, .hi = 8, .pow2 = 1, .requires = "chain=index",
     .default_text = "4", .metavar = "N", .help = "width of the stored next-line indices"},
    {.name = "max-noise", .kind = OCC_OPT_DOUBLE, .field = AT(max_noise_pct), .lo = 0, .hi = 100,
     .default_text = "0.5", .metavar = "PCT",
     .help = "stop sampling at this relative stdev, in percent"},
    {.name = "max-time", .kind = OCC_OPT_DOUBLE, .field = AT(max_time_s), .lo = 0, .hi = 3600,
     .default_text = "0.5", .metavar = "S", .help = "time bound per point, in seconds"},
    {.name = "min-samples", .kind = OCC_OPT_INT, .field = AT(min_samples), .lo = 1, .hi = 100000,
     .default_text = "10", .metavar = "N", .help = "samples before the noise test"},
    {.name = "device", .kind = OCC_OPT_DEVICES, .field = AT(devices), .field2 = AT(n_devices),
     .default_text = "0", .metavar = "LIST",
     .help = "CUDA device index; a list or all: one worker process per GPU, a CSV each, and a "
             "fleet summary"},
    {.name = "out", .kind = OCC_OPT_PATH, .field = AT(out_path), .accepted = "a file path",
     .unset_text = "results/<gpu-slug>/<kernel>-<UTC>.csv", .metavar = "FILE",
     .help = "CSV path"},
    {.name = "force", .kind = OCC_OPT_FLAG, .field = AT(force),
     .help = "overwrite an existing --out file"},
    {.name = "resume", .kind = OCC_OPT_PATH, .field = AT(resume_path),
     .accepted = "a CSV file of an earlier run", .unset_text = "a fresh run", .metavar = "FILE",
     .help = "skip the points FILE already holds (same GPU and run axes), measure the rest "
             "and rewrite FILE with all rows"},
    {.name = "recompute", .kind = OCC_OPT_PATH, .field = AT(recompute_path),
     .accepted = "a CSV file of an earlier run", .unset_text = "none", .metavar = "FILE",
     .help = "recompute the Little's-law model and the knee table of FILE's rows and exit (no "
             "GPU): stdout, and the markdown knee report at --out when given"},
    {.name = "plot", .kind = OCC_OPT_FLAG, .field = AT(plot),
     .help = "draw the curves beside the CSV (needs gnuplot)"},
    {.name = "ncu", .kind = OCC_OPT_FLAG, .field = AT(ncu),
     .help = "after timing, profile each point once with Nsight Compute (ncu): achieved "
             "occupancy, DRAM throughput, issue active and stall reasons as ncu_* columns"},
    {.name = "no-loaded", .kind = OCC_OPT_FLAG, .field = AT(no_loaded),
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
    {.name = "smem", .kind = OCC_OPT_SIZE, .field = AT(smem_bytes), .requires = "calc=1",
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

/* The option named name[0..len), or NULL. */
static const OccOptSpec *option_named(const char *name, size_t len)
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

int occ_option_applies(const OccOptions *o, const OccOptSpec *s, const OccOptSpec **r,
                       char *want, size_t len)
{
    const size_t name_len = s->requires ? strcspn(s->requires, "=") : 0;
    const OccOptSpec *req = name_len ? option_named(s->requires, name_len) : NULL;
    const char *value = req ? s->requires + name_len + 1 : "";
    char got[32];
    if (req == NULL || strcmp(occ_option_value(o, req, got, sizeof got), value) == 0) return 1;
    if (r != NULL) *r = req;
    if (want != NULL) snprintf(want, len, "%s", value);
    return 0;
}

void occ_option_append(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
    va_list ap;
    int n;
    if (*at >= len) return;
    va_start(ap, fmt);
    n = vsnprintf(buf + *at, len - *at, fmt, ap);
    va_end(ap);
    *at = n < 0 ? len : *at + (size_t)n < len ? *at + (size_t)n : len;
}

/* 1 when family f is the first of its kernel in the table: the way to visit each kernel once. */
static int first_of_kernel(int f)
{
    for (int g = 0; g < f; g++)
        if (strcmp(occ_family_at(g)->kernel, occ_family_at(f)->kernel) == 0) return 0;
    return 1;
}

/* Bit set of the families of f's kernel. */
static unsigned kernel_families(int f)
{
    unsigned set = 0;
    for (int g = 0; g < occ_family_count(); g++)
        if (strcmp(occ_family_at(g)->kernel, occ_family_at(f)->kernel) == 0) set |= 1u << g;
    return set;
}

unsigned occ_option_takers(const char *name)
{
    unsigned set = 0;
    for (int f = 0; f < occ_family_count(); f++)
        if (occ_family_takes(occ_family_at(f), name)) set |= 1u << f;
    return set;
}

int occ_option_compiled(const OccOptSpec *s, unsigned families, int *out, int max)
{
    int n = 0, vals[64];
    families &= occ_option_takers(s->name);
    for (int f = 0; f < occ_family_count(); f++) {
        int nv = (families >> f & 1u) ? occ_family_axis_values(f, s->axis, vals, 64) : 0;
        for (int i = 0; i < nv && i < 64; i++) {
            int at = 0;
            while (at < n && out[at] < vals[i])
                at++;
            if ((at < n && out[at] == vals[i]) || n == max) continue;
            memmove(&out[at + 1], &out[at], (size_t)(n - at) * sizeof out[0]);
            out[at] = vals[i];
            n++;
        }
    }
    return n;
}

char *occ_option_family_names(unsigned set, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int f = 0; f < occ_family_count(); f++) {
        unsigned of_kernel = kernel_families(f);
        if (!(set >> f & 1u)) continue;
        if ((set & of_kernel) == of_kernel && !first_of_kernel(f)) continue;
        if ((set & of_kernel) == of_kernel)
            occ_option_append(buf, len, &at, "%s%s", at ? ", " : "", occ_family_at(f)->kernel);
        else
            occ_option_append(buf, len, &at, "%s%s %s", at ? ", " : "", occ_family_at(f)->kernel,
                              occ_family_at(f)->mode);
    }
    return buf;
}

char *occ_option_kernel_modes(const char *kernel, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int f = 0; f < occ_family_count(); f++)
        if (strcmp(occ_family_at(f)->kernel, kernel) == 0)
            occ_option_append(buf, len, &at, "%s%s", at ? ", " : "", occ_family_at(f)->mode);
    return buf;
}

/* The powers of two in lo..hi, when there are at most three ("4 or 8"), else a range. */
static void pow2_accepted(const OccOptSpec *s, char *buf, size_t len, size_t *at)
{
    int n = 0;
    for (long long p = 1; p <= (long long)s->hi; p *= 2)
        n += p >= (long long)s->lo;
    if (n > 3) {
        occ_option_append(buf, len, at, "a power of two in %.0f..%.0f", s->lo, s->hi);
        return;
    }
    for (long long p = 1, i = 0; p <= (long long)s->hi; p *= 2)
        if (p >= (long long)s->lo)
            occ_option_append(buf, len, at, "%s%lld", i++ == 0 ? "" : i == n ? " or " : ", ", p);
}

static void modes_accepted(char *buf, size_t len, size_t *at, int defaults_only)
{
    for (int f = 0; f < occ_family_count(); f++) {
        if (!first_of_kernel(f)) continue;
        occ_option_append(buf, len, at, "%s%s ", *at ? ", " : "", occ_family_at(f)->kernel);
        for (int g = f, n = 0; g < occ_family_count(); g++)
            if ((kernel_families(f) >> g & 1u) &&
                (!defaults_only || occ_family_at(g)->default_mode))
                occ_option_append(buf, len, at, "%s%s", n++ ? "|" : "", occ_family_at(g)->mode);
    }
}

char *occ_option_accepted(const OccOptSpec *s, char *buf, size_t len)
{
    size_t at = 0;
    int vals[OCC_MAX_LIST], n;
    buf[0] = '\0';
    switch (s->kind) {
    case OCC_OPT_FLAG:
        break;
    case OCC_OPT_INT:
        if (s->pow2)
            pow2_accepted(s, buf, len, &at);
        else if (s->hi == INT_MAX)
            occ_option_append(buf, len, &at, "an integer >= %.0f", s->lo);
        else
            occ_option_append(buf, len, &at, "%.0f..%.0f", s->lo, s->hi);
        if (s->multiple > 1) occ_option_append(buf, len, &at, ", a multiple of %d", s->multiple);
        break;
    case OCC_OPT_INT_LIST:
        occ_option_append(buf, len, &at, "%.0f..%.0f", s->lo, s->hi);
        if (s->multiple > 1) occ_option_append(buf, len, &at, ", a multiple of %d", s->multiple);
        occ_option_append(buf, len, &at, "; a list like %.0f,%.0f or a range of powers of two "
                          "like %.0f..%.0f", s->lo * 4, s->lo * 8, s->lo * 4, s->hi);
        break;
    case OCC_OPT_DOUBLE:
        occ_option_append(buf, len, &at, "a number in (%g, %g]", s->lo, s->hi);
        break;
    case OCC_OPT_SIZE:
        occ_option_append(buf, len, &at,
                          "a positive byte count with optional suffix K, M, G, "
                          "KiB, MiB or GiB, like 512M");
        break;
    case OCC_OPT_LIST:
        n = occ_option_compiled(s, ~0u, vals, OCC_MAX_LIST);
        for (int i = 0; i < n; i++)
            occ_option_append(buf, len, &at, "%s%d", i ? ", " : "", vals[i]);
        if (n > 0)
            occ_option_append(buf, len, &at, " or a range like %d..%d", vals[0], vals[n - 1]);
        break;
    case OCC_OPT_ENUM:
        for (int i = 0; i < s->n_names; i++)
            occ_option_append(buf, len, &at, "%s%s", i ? ", " : "", s->names[i]);
        break;
    case OCC_OPT_OCC:
        occ_option_append(buf, len, &at,
                          "LO..HI, LO..HI:STEP or a list like 25,50,100, percent "
                          "in (0, 100]");
        break;
    case OCC_OPT_FOOTPRINT:
        occ_option_append(buf, len, &at, "LO..HI of byte sizes like 4K..1G");
        break;
    case OCC_OPT_PATH:
    case OCC_OPT_ARCH:
        occ_option_append(buf, len, &at, "%s", s->accepted);
        break;
    case OCC_OPT_KERNELS:
        n = 0;
        for (int f = 0; f < occ_family_count(); f++)
            if (first_of_kernel(f) && n < OCC_MAX_LIST) vals[n++] = f;
        for (int i = 0; i < n; i++)
            occ_option_append(buf, len, &at, "%s, ", occ_family_at(vals[i])->kernel);
        occ_option_append(buf, len, &at, "all");
        if (n > 1)
            occ_option_append(buf, len, &at, " or a comma list like %s,%s",
                              occ_family_at(vals[0])->kernel, occ_family_at(vals[1])->kernel);
        break;
    case OCC_OPT_MODE:
        modes_accepted(buf, len, &at, 0);
        break;
    case OCC_OPT_DEVICES:
        occ_option_append(buf, len, &at, "an index >= 0, a list like 0,2 or 0..3, or all");
        break;
    }
    return buf;
}

/* "auto: 8 x the L2 size, at least 4 GiB where memory allows (families), 16 x (others)", from
 * each family's size_l2_multiple and size_floor_gib. */
static void size_default(char *buf, size_t len, size_t *at)
{
    char names[256];
    unsigned done = 0;
    occ_option_append(buf, len, at, "auto:");
    for (int f = 0, n = 0; f < occ_family_count(); f++) {
        const OccFamilyInfo *fi = occ_family_at(f);
        unsigned same = 0;
        if ((done >> f & 1u) || fi->size_l2_multiple <= 0) continue;
        for (int g = f; g < occ_family_count(); g++)
            if (occ_family_at(g)->size_l2_multiple == fi->size_l2_multiple &&
                occ_family_at(g)->size_floor_gib == fi->size_floor_gib)
                same |= 1u << g;
        done |= same;
        occ_option_append(buf, len, at, "%s %d x%s", n ? "," : "", fi->size_l2_multiple,
                          n ? "" : " the L2 size");
        if (fi->size_floor_gib > 0)
            occ_option_append(buf, len, at, ", at least %d GiB where a quarter of the free "
                              "memory allows", fi->size_floor_gib);
        occ_option_append(buf, len, at, " (%s)", occ_option_family_names(same, names, sizeof names));
        n++;
    }
}

char *occ_option_default(const OccOptSpec *s, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    if (s->default_text != NULL)
        occ_option_append(buf, len, &at, "%s", s->default_text);
    else if (s->kind == OCC_OPT_LIST)
        occ_option_append(buf, len, &at, "every compiled value of the selected kernels");
    else if (s->kind == OCC_OPT_SIZE && s->unset_text == NULL)
        size_default(buf, len, &at);
    else if (s->kind == OCC_OPT_MODE)
        modes_accepted(buf, len, &at, 1);
    else if (s->unset_text != NULL)
        occ_option_append(buf, len, &at, "%s", s->unset_text);
    return buf;
}

const char *occ_schedule_name(OccSchedulePolicy s)
{
    return (unsigned)s < OCC_OPTION_N_SCHEDULES ? occ_option_schedule_names[s] : "unknown";
}

const char *occ_carveout_name(OccCarveout c)
{
    return (unsigned)c < OCC_OPTION_N_CARVEOUTS ? occ_option_carveout_names[c] : "unknown";
}

const char *occ_lever_name(OccLever l)
{
    return (unsigned)l < OCC_OPTION_N_LEVERS ? occ_option_lever_names[l] : "unknown";
}

const char *occ_chain_name(OccChain c)
{
    return (unsigned)c < OCC_OPTION_N_CHAINS ? occ_option_chain_names[c] : "unknown";
}
