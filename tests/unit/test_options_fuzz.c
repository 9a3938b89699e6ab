/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/test_options_fuzz.c: occ_options_parse against thousands of generated command lines;
 * meant to run under -fsanitize=address,undefined, where a crash or an overflow is a finding.
 *
 * Structured vectors are built from tokens whose effect is known (valid values with their parsed
 * form, known-bad values, unknown options, positionals, --help), so the exit code, the option the
 * message names and, on success, every field (last one wins) are predicted. Chaos vectors
 * (garbage options and values: huge numbers, separators, 10 KB strings, non-UTF-8 bytes, '%n')
 * are held to the invariants options.h documents. The rules between options (selection by
 * --kernel/--mode, scoped options, --index-bytes only with --chain index, compiled unroll/vec
 * values, --lever bounds) are predicted from the catalog (harness/core/catalog.h). Each vector is
 * parsed again with err NULL and err_len 0, 1 and 8. Every argv string is its own heap block, so
 * ASan sees a read past one. The seed is printed; OCC_FUZZ_SEED=N replays a run. Fixed vectors first: every
 * valued option given a value that looks like an option (--out --force), a 10,000-entry list and a
 * 100 KB value (the message quotes a prefix and ends with the reason), and footprint extremes. */
#include "catalog.h"
#include "check.h"
#include "exitcodes.h"
#include "options.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>

enum {
    N_STRUCTURED = 4000,
    N_CHAOS = 6000,
    MAX_ARGS = 40,
    ERR_LEN = 512, /* the buffer occsweep parses into (bench/occsweep.c) */
    GUARD = 32,
    LONG_BYTES = 10 * 1024,
    DESC_LEN = 160,
    MAX_SHOWN = 8,
};

/* The options of harness/cli/options_table.c; unambiguous prefixes are derived from them. */
enum {
    F_KERNEL,
    F_UNROLL,
    F_VEC,
    F_OCC,
    F_BLOCK,
    F_LEVER,
    F_SIZE,
    F_MAX_NOISE,
    F_MAX_TIME,
    F_MIN_SAMPLES,
    F_OUT,
    F_PLOT,
    F_FORCE,
    F_RESUME,
    F_DEVICE,
    F_DRY_RUN,
    F_ARCH,
    F_LIST,
    F_QUIET,
    F_MODE,
    F_FOOTPRINT,
    F_STRIDE,
    F_COLD,
    F_CHAIN,
    F_INDEX_BYTES,
    F_WAVES,
    F_NCU,
    F_REPORT,
    F_HELP,
    F_VERSION,
    F_HELP_MAN,
    N_FLAG
};

static const struct {
    const char *name;
    int takes_value;
    const char *default_parsed; /* the default options.h documents, spelled as describe() does;
                                   NULL: the catalog's compiled values (default_list) */
    int scoped;                 /* 1: only for the families whose options list names it */
} flag_info[N_FLAG] = {
    {"kernel", 1, "(null)", 0},  {"unroll", 1, NULL, 1},
    {"vec", 1, NULL, 1},         {"occ", 1, "range:6.25..100:0", 1},
    {"block", 1, "128", 1},      {"lever", 1, "auto", 1},
    {"size", 1, "0", 1},         {"max-noise", 1, "0.5", 0},
    {"max-time", 1, "0.5", 0},   {"min-samples", 1, "10", 0},
    {"out", 1, "(null)", 0},     {"plot", 0, "0", 0},
    {"force", 0, "0", 0},        {"resume", 1, "(null)", 0},
    {"device", 1, "0", 0},       {"dry-run", 0, "0", 0},
    {"arch", 1, "(null)", 0},    {"list", 0, "0", 0},
    {"quiet", 0, "0", 0},        {"mode", 1, "(null)", 0},
    {"footprint", 1, "4096..4294967296", 1}, {"stride", 1, "128", 1},
    {"cold", 0, "0", 1},         {"chain", 1, "address", 1},
    {"index-bytes", 1, "4", 1},
    {"waves", 1, "1", 1},        {"ncu", 0, "0", 0},
    {"report", 0, "0", 0},       {"help", 0, "0", 0},
    {"version", 0, "0", 0},      {"help-man", 0, "0", 0},
};

typedef struct Sample {
    int flag;
    const char *text;   /* the value as typed; NULL for an option without one */
    const char *parsed; /* the field afterwards, spelled as describe() does */
} Sample;

static const Sample valid[] = {
    {F_KERNEL, "copy", "copy"},
    {F_KERNEL, "reduce", "reduce"},
    {F_KERNEL, "chase", "chase"},
    {F_KERNEL, "all", "all"},
    {F_KERNEL, "chase,copy,chase", "chase,copy,chase"},
    {F_KERNEL, "reduce,all", "reduce,all"},
    /* Well-formed lists; those not compiled (3, 16, 0, 32) are refused once the selection is
     * known, after every option is read. */
    {F_UNROLL, "1..8", "1,2,4,8"},
    {F_UNROLL, "8,1,8", "8,1"},
    {F_UNROLL, "3..8", "4,8"},
    {F_UNROLL, "2", "2"},
    {F_UNROLL, "-3..1,4", "1,4"},
    {F_UNROLL, "3", "3"},
    {F_UNROLL, "16", "16"},
    {F_UNROLL, "0", "0"},
    {F_UNROLL, "32..64", "32,64"},
    {F_VEC, "16", "16"},
    {F_VEC, "4..16", "4,8,16"},
    {F_VEC, "16,4,16", "16,4"},
    {F_VEC, "5..8", "8"},
    {F_VEC, "2", "2"},
    {F_VEC, "4,8,16,4,32", "4,8,16,32"},
    {F_OCC, "25,100,25", "list:25,100"},
    {F_OCC, "50", "list:50"},
    {F_OCC, "+50,5e1,50.0", "list:50"},
    {F_OCC, "6.25..100", "range:6.25..100:0"},
    {F_OCC, "10..100:10", "range:10..100:10"},
    {F_OCC, "1e1..1E2", "range:10..100:0"},
    {F_OCC, ".5..5.", "range:0.5..5:0"},
    {F_OCC, "100..100:100", "range:100..100:100"},
    {F_BLOCK, "32", "32"},
    {F_BLOCK, "256", "256"},
    {F_BLOCK, "0064", "64"},
    {F_BLOCK, "1024", "1024"},
    {F_BLOCK, "128,256,128,1024", "128,256,1024"},
    {F_BLOCK, "128..1024", "128,256,512,1024"},
    {F_LEVER, "auto", "auto"},
    {F_LEVER, "pad", "pad"},
    {F_LEVER, "bounds", "bounds"},
    {F_LEVER, "both", "both"},
    {F_SIZE, "4096", "4096"},
    {F_SIZE, "4M", "4194304"},
    {F_SIZE, "1GiB", "1073741824"},
    {F_SIZE, "0001K", "1024"},
    {F_SIZE, "8589934591G", "9223372035781033984"},
    {F_SIZE, "9223372036854775807", "9223372036854775807"},
    {F_MAX_NOISE, "0.5", "0.5"},
    {F_MAX_NOISE, "100", "100"},
    {F_MAX_NOISE, "1e-300", "1e-300"},
    {F_MAX_TIME, "0.01", "0.01"},
    {F_MAX_TIME, "3600", "3600"},
    {F_MAX_TIME, "+1E0", "1"},
    {F_MIN_SAMPLES, "1", "1"},
    {F_MIN_SAMPLES, "100000", "100000"},
    {F_MIN_SAMPLES, "007", "7"},
    {F_DEVICE, "0", "0"},
    {F_DEVICE, "2147483647", "2147483647"},
    {F_DEVICE, "-0", "0"},
    {F_OUT, "x.csv", "x.csv"},
    {F_OUT, "-", "-"},
    {F_OUT, "%n%s", "%n%s"},
    {F_OUT, "a b,c..d=e", "a b,c..d=e"},
    {F_RESUME, "old.csv", "old.csv"},
    {F_ARCH, "sm_90", "sm_90"},
    {F_ARCH, "sm_90a", "sm_90a"},
    {F_ARCH, "sm_100f", "sm_100f"},
    {F_MODE, "warp", "warp"},
    {F_MODE, "thread", "thread"},
    {F_MODE, "latency", "latency"},
    {F_MODE, "stream", "stream"},
    {F_FOOTPRINT, "4K..64K", "4096..65536"},
    {F_FOOTPRINT, "1..1", "1..1"},
    {F_FOOTPRINT, "1G..1GiB", "1073741824..1073741824"},
    /* Well-formed, but refused once --stride is known: fewer than 2 lines (predict_rules). */
    {F_FOOTPRINT, "100..200", "100..200"},
    {F_FOOTPRINT, "64K..64K", "65536..65536"},
    {F_FOOTPRINT, "1..1024G", "1..1099511627776"},
    {F_STRIDE, "32", "32"},
    {F_STRIDE, "4096", "4096"},
    {F_STRIDE, "65536", "65536"},
    {F_COLD, NULL, "1"},
    {F_CHAIN, "address", "address"},
    {F_CHAIN, "index", "index"},
    {F_CHAIN, "index", "index"}, /* twice: --index-bytes needs it */
    {F_INDEX_BYTES, "8", "8"},
    {F_INDEX_BYTES, "4", "4"},
    {F_WAVES, "1", "1"},
    {F_WAVES, "64", "64"},
    {F_WAVES, "4", "4"},
    {F_PLOT, NULL, "1"},
    {F_NCU, NULL, "1"},
    {F_REPORT, NULL, "1"},
    {F_FORCE, NULL, "1"},
    {F_LIST, NULL, "1"},
    {F_QUIET, NULL, "1"},
    {F_DRY_RUN, NULL, "1"},
    {F_DRY_RUN, NULL, "1"}, /* twice: every --arch needs it */
};

static const Sample bad[] = {
    {F_KERNEL, "cop", 0},
    {F_KERNEL, "copy,", 0},
    {F_KERNEL, ",copy", 0},
    {F_KERNEL, "COPY", 0},
    {F_KERNEL, "copy reduce", 0},
    {F_KERNEL, "all,", 0},
    {F_UNROLL, "1..", 0},
    {F_UNROLL, "..8", 0},
    {F_UNROLL, "8..1", 0},
    {F_UNROLL, "1,,2", 0},
    {F_UNROLL, "1.5", 0},
    {F_UNROLL, "1..2..4", 0},
    {F_UNROLL, "5..7", 0},
    {F_UNROLL, "99999999999999999999", 0},
    {F_VEC, "0x10", 0},
    {F_VEC, "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17", 0},
    {F_OCC, "0", 0},
    {F_OCC, "101", 0},
    {F_OCC, "-0", 0},
    {F_OCC, "1e308", 0},
    {F_OCC, "nan", 0},
    {F_OCC, "inf", 0},
    {F_OCC, "50..25", 0},
    {F_OCC, "..50", 0},
    {F_OCC, "25..", 0},
    {F_OCC, "25..50:0", 0},
    {F_OCC, "25:50", 0},
    {F_OCC, "0x10", 0},
    {F_OCC, "1e-400", 0},
    {F_OCC, "25,,50", 0},
    {F_OCC, " 50", 0},
    {F_OCC, "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17", 0},
    {F_BLOCK, "33", 0},
    {F_BLOCK, "48", 0},
    {F_BLOCK, "1000", 0},
    {F_BLOCK, "0", 0},
    {F_BLOCK, "2048", 0},
    {F_BLOCK, "128,1056", 0},
    {F_BLOCK, "128,48", 0},
    {F_BLOCK, "128,", 0},
    {F_BLOCK, "1056", 0},
    {F_BLOCK, "1e3", 0},
    {F_BLOCK, "-32", 0},
    {F_BLOCK, " 64", 0},
    {F_BLOCK, "99999999999999999999", 0},
    {F_LEVER, "Auto", 0},
    {F_LEVER, "pad,both", 0},
    {F_SIZE, "0", 0},
    {F_SIZE, "-1", 0},
    {F_SIZE, "4k", 0},
    {F_SIZE, "4KB", 0},
    {F_SIZE, "1.5M", 0},
    {F_SIZE, "8589934592G", 0},
    {F_SIZE, "+4K", 0},
    {F_SIZE, "99999999999999999999", 0},
    {F_MAX_NOISE, "0", 0},
    {F_MAX_NOISE, "100.5", 0},
    {F_MAX_NOISE, "1e999", 0},
    {F_MAX_NOISE, "0x1", 0},
    {F_MAX_TIME, "3600.001", 0},
    {F_MAX_TIME, "inf", 0},
    {F_MAX_TIME, "1,2", 0},
    {F_MIN_SAMPLES, "100001", 0},
    {F_MIN_SAMPLES, "1.0", 0},
    {F_MIN_SAMPLES, "1e3", 0},
    {F_DEVICE, "-1", 0},
    {F_DEVICE, "2147483648", 0},
    {F_MODE, "Warp", 0},
    {F_MODE, "all", 0},
    {F_MODE, "warp,thread", 0},
    {F_FOOTPRINT, "4K", 0},
    {F_FOOTPRINT, "4K..", 0},
    {F_FOOTPRINT, "64K..4K", 0},
    {F_FOOTPRINT, "0..4K", 0},
    {F_FOOTPRINT, "4K...8K", 0},
    {F_FOOTPRINT, "4K..1T", 0},
    {F_FOOTPRINT, "17..9223372036854775807", 0},
    {F_FOOTPRINT, "1..1025G", 0},
    /* values that look like options: "--out --force" must not write a file named --force */
    {F_OUT, "--help", 0},
    {F_OUT, "--force", 0},
    {F_OUT, "-h", 0},
    {F_RESUME, "--out", 0},
    {F_KERNEL, "-V", 0},
    {F_FOOTPRINT, "--4K..8K", 0},
    {F_ARCH, "sm_9", 0},
    {F_ARCH, "sm_1000", 0},
    {F_ARCH, "sm_90b", 0},
    {F_ARCH, "gfx90a", 0},
    {F_ARCH, "sm_90a ", 0},
    {F_STRIDE, "96", 0},
    {F_STRIDE, "16", 0},
    {F_STRIDE, "131072", 0},
    {F_STRIDE, "128B", 0},
    {F_CHAIN, "Index", 0},
    {F_CHAIN, "pointer", 0},
    {F_CHAIN, "address,index", 0},
    {F_INDEX_BYTES, "6", 0},
    {F_INDEX_BYTES, "16", 0},
    {F_WAVES, "0", 0},
    {F_WAVES, "65", 0},
    {F_WAVES, "2.5", 0},
};

/* The scoped options in table order: the order in which their rules are checked. */
static const int scoped_order[] = {F_UNROLL, F_VEC,  F_OCC,   F_BLOCK,
                                   F_LEVER,  F_SIZE, F_WAVES, F_FOOTPRINT,
                                   F_STRIDE, F_COLD, F_CHAIN, F_INDEX_BYTES};

/* Options and words that stop parsing; needle: what the message must quote. */
static const struct {
    const char *arg, *needle;
} unknown_opts[] =
    {
        {"--bogus", "--bogus"},   {"--kernels=copy", "--kernels=copy"},
        {"--m", "--m"},           {"--max=1", "--max=1"},
        {"--=x", "--=x"},         {"---", "---"},
        {"--KERNEL", "--KERNEL"}, {"-x", "'-x'"},
        {"-xh", "'-x'"},          {"-?", "'-?'"},
        {"-:", "'-:'"},           {"-1", "'-1'"},
},
  positionals[] = {
      {"copy", "'copy'"}, {"-", "'-'"}, {"25", "'25'"}, {"%n%s", "'%n%s'"}, {"x=1", "'x=1'"},
};
static const struct {
    const char *arg;
    int flag;
} stoppers[] = {
    {"--help", F_HELP},       {"-h", F_HELP},    {"-hV", F_HELP},    {"-hx", F_HELP},
    {"--version", F_VERSION}, {"-V", F_VERSION}, {"-Vh", F_VERSION},
    {"--help-man", F_HELP_MAN},
};

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define PICK(a)  ((a)[pick(COUNT(a))])

static uint64_t rng_state;

static uint64_t next_u64(void) /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int pick(int n)
{
    return (int)(next_u64() % (uint64_t)n);
}

typedef struct Vec {
    int argc;
    char *argv[MAX_ARGS + 1];
    const char *kind;
    int index;
} Vec;

static void push3(Vec *v, const char *a, const char *b, const char *c)
{
    size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
    char *s = malloc(la + lb + lc + 1);
    if (s == NULL || v->argc == MAX_ARGS) {
        fprintf(stderr, "fuzz harness: out of memory or argument slots\n");
        exit(OCC_EXIT_HARD);
    }
    memcpy(s, a, la);
    memcpy(s + la, b, lb);
    memcpy(s + la + lb, c, lc + 1);
    v->argv[v->argc++] = s;
    v->argv[v->argc] = NULL;
}

static void push(Vec *v, const char *a)
{
    push3(v, a, "", "");
}

static void vec_free(Vec *v)
{
    for (int i = 0; i < v->argc; i++)
        free(v->argv[i]);
    v->argc = 0;
}

static void vec_reset(Vec *v, const char *kind, int index)
{
    vec_free(v);
    v->kind = kind;
    v->index = index;
    push(v, "occsweep");
}

/* Options of the table the vectors never give, which still make prefixes ambiguous: --plugin
 * (its file is loaded by the program before the parser runs), --no-loaded (a flag no vector
 * needs: it only skips a measurement) and --resume-mismatch (it only relaxes what a resumed
 * file is checked against, after parsing). */
static const char *const not_generated[] = {"plugin", "no-loaded", "resume-mismatch"};

static int min_prefix(int f)
{
    int len = (int)strlen(flag_info[f].name);
    for (int k = 1; k < len; k++) {
        int unique = 1;
        for (int g = 0; g < N_FLAG; g++)
            unique &= g == f || strncmp(flag_info[g].name, flag_info[f].name, (size_t)k) != 0;
        for (size_t g = 0; g < sizeof not_generated / sizeof not_generated[0]; g++)
            unique &= strncmp(not_generated[g], flag_info[f].name, (size_t)k) != 0;
        if (unique) return k;
    }
    return len;
}

/* "--" and the name or an unambiguous prefix of it, then sep and tail in the same argument. */
static void push_name(Vec *v, int f, const char *sep, const char *tail)
{
    char head[32];
    int len = (int)strlen(flag_info[f].name), lo = min_prefix(f);
    int k = pick(2) ? lo + pick(len - lo + 1) : len;
    snprintf(head, sizeof head, "--%.*s%s", k, flag_info[f].name, sep);
    push3(v, head, tail, "");
}

/* "--name VALUE" or "--name=VALUE" (either with a prefix); value NULL: "--name". */
static void push_option(Vec *v, int f, const char *value)
{
    if (value != NULL && pick(2)) {
        push_name(v, f, "", "");
        push(v, value);
    } else {
        push_name(v, f, value ? "=" : "", value ? value : "");
    }
}

static void join_ints(const int *a, int n, char *buf, size_t len)
{
    size_t k = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && i < OCC_MAX_LIST && k < len; i++)
        k += (size_t)snprintf(buf + k, len - k, "%s%d", i ? "," : "", a[i]);
}

/* One field of o as text, so expectations are plain strings. */
static void describe(const OccOptions *o, int f, char *buf, size_t len)
{
    const OccOccSpec *s = &o->occ;
    size_t k;
    switch (f) {
    case F_KERNEL:
        snprintf(buf, len, "%s", o->kernel_arg ? o->kernel_arg : "(null)");
        break;
    case F_UNROLL:
        join_ints(o->unroll, o->n_unroll, buf, len);
        break;
    case F_VEC:
        join_ints(o->vec_bytes, o->n_vec, buf, len);
        break;
    case F_OCC:
        if (!s->is_list) {
            snprintf(buf, len, "range:%g..%g:%g", s->lo_pct, s->hi_pct, s->step_pct);
            break;
        }
        k = (size_t)snprintf(buf, len, "list:");
        for (int i = 0; i < s->n_pct && i < OCC_MAX_LIST && k < len; i++)
            k += (size_t)snprintf(buf + k, len - k, "%s%g", i ? "," : "", s->pct[i]);
        break;
    case F_BLOCK:
        join_ints(o->block_threads, o->n_block_threads, buf, len);
        break;
    case F_LEVER:
        snprintf(buf, len, "%s", occ_lever_name(o->lever));
        break;
    case F_SIZE:
        snprintf(buf, len, "%lld", o->size_bytes);
        break;
    case F_MAX_NOISE:
        snprintf(buf, len, "%g", o->max_noise_pct);
        break;
    case F_MAX_TIME:
        snprintf(buf, len, "%g", o->max_time_s);
        break;
    case F_MIN_SAMPLES:
        snprintf(buf, len, "%d", o->min_samples);
        break;
    case F_OUT:
        snprintf(buf, len, "%s", o->out_path ? o->out_path : "(null)");
        break;
    case F_PLOT:
        snprintf(buf, len, "%d", o->plot);
        break;
    case F_FORCE:
        snprintf(buf, len, "%d", o->force);
        break;
    case F_RESUME:
        snprintf(buf, len, "%s", o->resume_path ? o->resume_path : "(null)");
        break;
    case F_DEVICE:
        snprintf(buf, len, "%d", o->device);
        break;
    case F_DRY_RUN:
        snprintf(buf, len, "%d", o->dry_run);
        break;
    case F_ARCH:
        snprintf(buf, len, "%s", o->arch ? o->arch : "(null)");
        break;
    case F_LIST:
        snprintf(buf, len, "%d", o->list);
        break;
    case F_QUIET:
        snprintf(buf, len, "%d", o->quiet);
        break;
    case F_MODE:
        snprintf(buf, len, "%s", o->mode_arg ? o->mode_arg : "(null)");
        break;
    case F_FOOTPRINT:
        snprintf(buf, len, "%lld..%lld", o->footprint_lo_bytes, o->footprint_hi_bytes);
        break;
    case F_STRIDE:
        snprintf(buf, len, "%d", o->stride_bytes);
        break;
    case F_COLD:
        snprintf(buf, len, "%d", o->cold);
        break;
    case F_CHAIN:
        snprintf(buf, len, "%s", occ_chain_name(o->chain));
        break;
    case F_INDEX_BYTES:
        snprintf(buf, len, "%d", o->index_bytes);
        break;
    case F_WAVES:
        snprintf(buf, len, "%d", o->waves);
        break;
    case F_HELP:
        snprintf(buf, len, "%d", o->help);
        break;
    case F_NCU:
        snprintf(buf, len, "%d", o->ncu);
        break;
    case F_REPORT:
        snprintf(buf, len, "%d", o->report);
        break;
    case F_HELP_MAN:
        snprintf(buf, len, "%d", o->help_man);
        break;
    default:
        snprintf(buf, len, "%d", o->version);
        break;
    }
}

/* ---- failure reporting: the first few failures show their vector; all are counted ---- */

static const Vec *cur;
static const char *cur_err = "";
static int n_shown;

/* s quoted, bytes outside printable ASCII as \xNN, cut after limit bytes. */
static void show_arg(const char *s, size_t limit)
{
    size_t n = strlen(s);
    fputs(" '", stderr);
    for (size_t i = 0; i < n && i < limit; i++) {
        unsigned char ch = (unsigned char)s[i];
        fprintf(stderr, ch >= 0x20 && ch < 0x7f && ch != '\\' ? "%c" : "\\x%02x", ch);
    }
    fputc('\'', stderr);
    if (n > limit) fprintf(stderr, "...(%zu bytes)", n);
}

#define EXPECT(cond, detail) expect_((cond) != 0, #cond, __LINE__, detail)

static void expect_(int ok, const char *what, int line, const char *detail)
{
    check_count_++;
    if (ok) return;
    if (n_shown++ == MAX_SHOWN) fprintf(stderr, "(further failures are counted, not shown)\n");
    if (n_shown > MAX_SHOWN) {
        check_failed_++;
        return;
    }
    check_fail_(__FILE__, line, what);
    fprintf(stderr, "    %s vector %d:", cur->kind, cur->index);
    for (int i = 1; i < cur->argc; i++)
        show_arg(cur->argv[i], 60);
    fprintf(stderr, "\n    err:");
    show_arg(cur_err, ERR_LEN);
    fprintf(stderr, "%s%s\n", detail ? "\n    " : "", detail ? detail : "");
}

/* ---- what every parse must satisfy ---- */

static int list_ok(const int *a, int n, const int *allowed, int n_allowed)
{
    if (n < 1 || n > OCC_MAX_LIST) return 0;
    for (int i = 0; i < n; i++) {
        int ok = 0;
        for (int j = 0; j < n_allowed; j++)
            ok |= a[i] == allowed[j];
        for (int j = 0; j < i; j++)
            ok &= a[j] != a[i];
        if (!ok) return 0;
    }
    return 1;
}

static int occ_ok(const OccOccSpec *s)
{
    double lo, hi;
    if (s->is_list == 0)
        return s->n_pct == 0 && s->lo_pct > 0 && s->lo_pct <= s->hi_pct && s->hi_pct <= 100 &&
               (s->step_pct == 0 || (s->step_pct > 0 && s->step_pct <= 100));
    if (s->is_list != 1 || s->n_pct < 1 || s->n_pct > OCC_MAX_LIST || s->step_pct != 0) return 0;
    lo = hi = s->pct[0];
    for (int i = 0; i < s->n_pct; i++) {
        if (!(s->pct[i] > 0 && s->pct[i] <= 100)) return 0;
        for (int j = 0; j < i; j++)
            if (s->pct[j] == s->pct[i]) return 0;
        lo = s->pct[i] < lo ? s->pct[i] : lo;
        hi = s->pct[i] > hi ? s->pct[i] : hi;
    }
    return s->lo_pct == lo && s->hi_pct == hi;
}

/* Integer compare: pointers into different argv strings are different objects. */
static int within_argv(const Vec *v, const char *p)
{
    uintptr_t a = (uintptr_t)p;
    for (int i = 1; i < v->argc; i++) {
        uintptr_t b = (uintptr_t)v->argv[i];
        if (a >= b && a <= b + strlen(v->argv[i])) return 1;
    }
    return 0;
}

static int arch_shape_ok(const char *s)
{
    size_t nd;
    if (strncmp(s, "sm_", 3) != 0) return 0;
    nd = strspn(s + 3, "0123456789");
    s += 3 + nd;
    return nd >= 2 && nd <= 3 && (!strcmp(s, "") || !strcmp(s, "a") || !strcmp(s, "f"));
}

static int is01(int x)
{
    return x == 0 || x == 1;
}

/* Bit set of the families that take scoped option flag. */
static unsigned takers(int flag)
{
    unsigned set = 0;
    for (int f = 0; f < occ_family_count(); f++)
        if (occ_family_takes(occ_family_at(f), flag_info[flag].name)) set |= 1u << f;
    return set;
}

/* The distinct compiled values on axis ('u' or 'v') of the families in set that take flag,
 * ascending, into out[0..OCC_MAX_LIST): each the least value above the one before. */
static int compiled(unsigned set, int flag, char axis, int *out)
{
    int n = 0, all[256], n_all = 0;
    set &= takers(flag);
    for (int f = 0; f < occ_family_count(); f++)
        if (set >> f & 1u)
            n_all += occ_family_axis_values(f, axis, all + n_all, (int)COUNT(all) - n_all);
    while (n < OCC_MAX_LIST) {
        int next = 0, found = 0;
        for (int i = 0; i < n_all && i < COUNT(all); i++)
            if ((n == 0 || all[i] > out[n - 1]) && (!found || all[i] < next)) {
                next = all[i];
                found = 1;
            }
        if (!found) return n;
        out[n++] = next;
    }
    return n;
}

/* The families the kernel list (NULL: all) and mode select, as options.h documents; 0 with the
 * first named kernel that lacks the mode in missing. */
static unsigned predict_families(const char *kernels, const char *mode, char *missing, size_t len)
{
    unsigned set = 0;
    missing[0] = '\0';
    for (const char *b = kernels ? kernels : "all";; b++) {
        size_t n = strcspn(b, ",");
        for (int f = 0; f < occ_family_count(); f++) {
            const char *k = occ_family_at(f)->kernel;
            int g = occ_family_find(k, mode);
            if (!(n == 3 && strncmp(b, "all", 3) == 0) && !(strlen(k) == n && !strncmp(b, k, n)))
                continue;
            if (g < 0) {
                snprintf(missing, len, "%s", k);
                return 0;
            }
            set |= 1u << g;
        }
        b += n;
        if (*b == '\0') return set;
    }
}

/* 1 when a bounds lever is fine for set: every sweep family in it has register-capped twins. */
static int bounds_ok(unsigned set)
{
    for (int f = 0; f < occ_family_count(); f++)
        if ((set >> f & 1u) && occ_family_at(f)->shape == OCC_SHAPE_OCCUPANCY &&
            !occ_family_has_capped(f))
            return 0;
    return 1;
}

static void check_invariants(const OccOptions *o, const Vec *v)
{
    const OccOccSpec *occ = &o->occ;
    long long fp_lo = o->footprint_lo_bytes, fp_hi = o->footprint_hi_bytes;
    unsigned all = (1u << occ_family_count()) - 1, fams = o->families;
    int u[OCC_MAX_LIST], nu = compiled(fams, F_UNROLL, 'u', u);
    int w[OCC_MAX_LIST], nw = compiled(fams, F_VEC, 'v', w);
    int default_occ =
        !occ->is_list && occ->lo_pct == 6.25 && occ->hi_pct == 100 && occ->step_pct == 0;
    EXPECT(fams != 0 && (fams & ~all) == 0, NULL);
    EXPECT(o->kernel_arg == NULL || within_argv(v, o->kernel_arg), NULL);
    EXPECT(o->mode_arg == NULL || within_argv(v, o->mode_arg), NULL);
    EXPECT(o->n_unroll >= 0 && o->n_unroll <= OCC_MAX_LIST, NULL);
    EXPECT(o->n_vec >= 0 && o->n_vec <= OCC_MAX_LIST, NULL);
    EXPECT(occ_ok(occ), NULL);
    EXPECT(o->n_block_threads >= 1 && o->n_block_threads <= OCC_MAX_LIST, NULL);
    for (int i = 0; i < o->n_block_threads && i < OCC_MAX_LIST; i++)
        EXPECT(o->block_threads[i] >= 32 && o->block_threads[i] <= 1024 &&
                   o->block_threads[i] % 32 == 0,
               NULL);
    EXPECT((unsigned)o->lever <= OCC_LEVER_BOTH, NULL);
    EXPECT(o->size_bytes >= 0, NULL);
    EXPECT(o->max_noise_pct > 0 && o->max_noise_pct <= 100, NULL);
    EXPECT(o->max_time_s > 0 && o->max_time_s <= 3600, NULL);
    EXPECT(o->min_samples >= 1 && o->min_samples <= 100000, NULL);
    EXPECT(o->device >= 0, NULL);
    EXPECT(o->out_path == NULL || within_argv(v, o->out_path), NULL);
    EXPECT(o->resume_path == NULL || within_argv(v, o->resume_path), NULL);
    EXPECT(o->arch == NULL || (within_argv(v, o->arch) && arch_shape_ok(o->arch)), NULL);
    EXPECT(is01(o->plot) && is01(o->force) && is01(o->dry_run) && is01(o->list) && is01(o->quiet) &&
               is01(o->help) && is01(o->version) && is01(o->help_man) && is01(o->ncu) &&
               is01(o->report) && o->help + o->version + o->help_man <= 1,
           NULL);
    EXPECT(fp_lo > 0 && fp_lo <= fp_hi, NULL);
    EXPECT(o->stride_bytes >= 32 && o->stride_bytes <= 65536 &&
               (o->stride_bytes & (o->stride_bytes - 1)) == 0,
           NULL);
    EXPECT(is01(o->cold), NULL);
    EXPECT(o->waves >= 1 && o->waves <= 64, NULL);
    EXPECT(o->index_bytes == 4 || o->index_bytes == 8, NULL);
    EXPECT((unsigned)o->chain <= OCC_CHAIN_INDEX, NULL);
    /* Parsing stops at --help/--version, before the rules between options are checked. */
    if (o->help || o->version || o->help_man) return;
    EXPECT(o->arch == NULL || o->dry_run, NULL);
    EXPECT(list_ok(o->unroll, o->n_unroll, u, nu) || (nu == 0 && o->n_unroll == 0), NULL);
    EXPECT(list_ok(o->vec_bytes, o->n_vec, w, nw) || (nw == 0 && o->n_vec == 0), NULL);
    /* A scoped option off its default was taken by a selected family. */
    EXPECT(default_occ || (takers(F_OCC) & fams), NULL);
    EXPECT((o->n_block_threads == 1 && o->block_threads[0] == 128) || (takers(F_BLOCK) & fams),
           NULL);
    EXPECT(o->lever == OCC_LEVER_AUTO || (takers(F_LEVER) & fams), NULL);
    EXPECT(o->size_bytes == 0 || (takers(F_SIZE) & fams), NULL);
    EXPECT(o->waves == 1 || (takers(F_WAVES) & fams), NULL);
    EXPECT((fp_lo == 4096 && fp_hi == 4LL << 30) || (takers(F_FOOTPRINT) & fams), NULL);
    EXPECT(o->stride_bytes == 128 || (takers(F_STRIDE) & fams), NULL);
    EXPECT(o->cold == 0 || (takers(F_COLD) & fams), NULL);
    EXPECT(o->index_bytes == 4 || (takers(F_INDEX_BYTES) & fams), NULL);
    EXPECT(o->chain == OCC_CHAIN_ADDRESS || (takers(F_CHAIN) & fams), NULL);
    /* --index-bytes only with --chain index. */
    EXPECT(o->index_bytes == 4 || o->chain == OCC_CHAIN_INDEX, NULL);
    EXPECT(o->lever != OCC_LEVER_BOUNDS || bounds_ok(fams), NULL);
    EXPECT(o->resume_path == NULL || o->out_path == NULL, NULL);
}

static int same_options(const OccOptions *a, const OccOptions *b)
{
    char da[DESC_LEN], db[DESC_LEN];
    for (int f = 0; f < N_FLAG; f++) {
        describe(a, f, da, sizeof da);
        describe(b, f, db, sizeof db);
        if (strcmp(da, db) != 0) return 0;
    }
    return 1;
}

static uint64_t argv_hash(const Vec *v) /* FNV-1a over every byte and terminator */
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 0; i < v->argc; i++)
        for (const char *p = v->argv[i];; p++) {
            h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
            if (*p == '\0') break;
        }
    return h;
}

static int bytes_are(const char *p, size_t n, char value)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != value) return 0;
    return 1;
}

/* Parses v into o and err (ERR_LEN + GUARD bytes), then again with err NULL and err_len 0, 1
 * and 8; checks the message, the buffers, argv and, on success, the invariants. */
static int parse_checked(Vec *v, OccOptions *o, char *err)
{
    static OccOptions again;
    char *saved[MAX_ARGS + 1], untouched[GUARD];
    uint64_t hash = argv_hash(v);
    int rc, terminated;
    memcpy(saved, v->argv, (size_t)(v->argc + 1) * sizeof saved[0]);
    cur = v;
    memset(err, 0x5a, ERR_LEN + GUARD);
    rc = occ_options_parse(v->argc, v->argv, o, err, ERR_LEN);
    terminated = memchr(err, '\0', ERR_LEN) != NULL;
    cur_err = terminated ? err : "(not NUL-terminated)";
    EXPECT(rc == OCC_EXIT_OK || rc == OCC_EXIT_USAGE, NULL);
    EXPECT(terminated, NULL);
    EXPECT(bytes_are(err + ERR_LEN, GUARD, 0x5a), NULL);
    if (rc == OCC_EXIT_USAGE && terminated) {
        EXPECT(strlen(err) > 10, NULL);
        EXPECT(strchr(err, '\n') == NULL, NULL);
        EXPECT(strstr(err, "--") != NULL || strchr(err, '\'') != NULL, NULL);
    }
    if (rc == OCC_EXIT_OK) check_invariants(o, v);
    for (size_t len = 1; len <= 8; len += 7) {
        char *tiny = malloc(len); /* exactly len bytes: ASan reports a write past them */
        if (tiny == NULL) exit(OCC_EXIT_HARD);
        EXPECT(occ_options_parse(v->argc, v->argv, &again, tiny, len) == rc, NULL);
        EXPECT(memchr(tiny, '\0', len) != NULL, NULL);
        if (rc == OCC_EXIT_USAGE && terminated && memchr(tiny, '\0', len) != NULL)
            EXPECT(strncmp(tiny, err, len - 1) == 0 &&
                       strlen(tiny) == (strlen(err) < len - 1 ? strlen(err) : len - 1),
                   "a short err must hold the start of the message");
        free(tiny);
    }
    memset(untouched, 0x5a, sizeof untouched);
    EXPECT(occ_options_parse(v->argc, v->argv, &again, untouched, 0) == rc, NULL);
    EXPECT(bytes_are(untouched, sizeof untouched, 0x5a), "err_len 0 must leave err alone");
    EXPECT(occ_options_parse(v->argc, v->argv, &again, NULL, ERR_LEN) == rc, NULL);
    if (rc == OCC_EXIT_OK)
        EXPECT(same_options(o, &again), "a second parse must give the same options");
    EXPECT(memcmp(saved, v->argv, (size_t)(v->argc + 1) * sizeof saved[0]) == 0 &&
               argv_hash(v) == hash,
           "argv must be neither reordered nor written");
    return rc;
}

/* ---- structured vectors: every token's effect is known ---- */

typedef struct Expect {
    int rc;
    char needle[64];               /* on OCC_EXIT_USAGE: text the message must hold */
    char parsed[N_FLAG][DESC_LEN]; /* on OCC_EXIT_OK: every field, as describe() spells it */
    unsigned families;             /* on OCC_EXIT_OK: OccOptions.families */
} Expect;

static int pick_valued(void)
{
    int f;
    while (!flag_info[f = pick(N_FLAG)].takes_value)
        ;
    return f;
}

/* Appends a token that makes parsing fail, and the text its message must hold to needle. */
static void push_bad(Vec *v, char *needle, size_t len)
{
    static const int no_value[] = {F_PLOT,  F_FORCE, F_DRY_RUN, F_LIST,    F_QUIET,
                                   F_NCU,   F_REPORT, F_HELP,   F_VERSION, F_HELP_MAN};
    int r = pick(6), f, i;
    if (r < 2) {
        const Sample *s = &PICK(bad);
        push_option(v, s->flag, s->text);
        snprintf(needle, len, "--%s: '", flag_info[s->flag].name);
    } else if (r == 2) {
        push_option(v, f = pick_valued(), "");
        snprintf(needle, len, "--%s: '' is empty", flag_info[f].name);
    } else if (r == 3) {
        push_name(v, f = PICK(no_value), "=", "1");
        snprintf(needle, len, "--%s takes no value", flag_info[f].name);
    } else if (r == 4) {
        push(v, unknown_opts[i = pick(COUNT(unknown_opts))].arg);
        snprintf(needle, len, "%s", unknown_opts[i].needle);
    } else {
        if (pick(2)) push(v, "--");
        push(v, positionals[i = pick(COUNT(positionals))].arg);
        snprintf(needle, len, "unexpected argument %s", positionals[i].needle);
    }
}

/* A valid sample; with a target family, mostly one of an option that family takes (or a global
 * one), so that enough vectors pass the rules between options. */
static const Sample *pick_valid(int target)
{
    const Sample *s;
    if (target < 0 || pick(8) == 0) return &PICK(valid);
    do
        s = &PICK(valid);
    while (s->flag == F_KERNEL || s->flag == F_MODE ||
           (flag_info[s->flag].scoped && !(takers(s->flag) >> target & 1u)));
    return s;
}

/* The compiled values of a list option not given, as describe() spells them. */
static void default_list(unsigned set, int flag, char axis, char *buf, size_t len)
{
    int vals[OCC_MAX_LIST], n = compiled(set, flag, axis, vals);
    join_ints(vals, n, buf, len);
}

/* Records a predicted usage error: its message must hold the formatted text. */
static int expect_usage(Expect *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int expect_usage(Expect *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->needle, sizeof w->needle, fmt, ap);
    va_end(ap);
    return OCC_EXIT_USAGE;
}

/* The rules between options, in the order options.c checks them: the first broken one's
 * message text into w->needle and OCC_EXIT_USAGE, else OCC_EXIT_OK. given[f]: option f was read. */
static int predict_rules(Expect *w, const int *given)
{
    const char *kernels = given[F_KERNEL] ? w->parsed[F_KERNEL] : NULL;
    const char *mode = given[F_MODE] ? w->parsed[F_MODE] : NULL;
    char missing[32];
    unsigned fams = predict_families(kernels, mode, missing, sizeof missing);
    static const struct {
        int flag;
        char axis;
    } lists[] = {{F_UNROLL, 'u'}, {F_VEC, 'v'}};
    if (given[F_ARCH] && strcmp(w->parsed[F_DRY_RUN], "1") != 0)
        return expect_usage(w, "needs --dry-run");
    if (fams == 0) return expect_usage(w, "--mode: '%.20s' does not apply to %s", mode, missing);
    for (int i = 0; i < COUNT(scoped_order); i++)
        if (given[scoped_order[i]] && !(takers(scoped_order[i]) & fams))
            return expect_usage(w, "--%s does not apply to ", flag_info[scoped_order[i]].name);
    if (given[F_INDEX_BYTES] && strcmp(w->parsed[F_CHAIN], "index") != 0)
        return expect_usage(w, "--index-bytes applies only with --chain index");
    for (int l = 0; l < COUNT(lists); l++) {
        int vals[OCC_MAX_LIST], n = compiled(fams, lists[l].flag, lists[l].axis, vals);
        if (!given[lists[l].flag]) {
            default_list(fams, lists[l].flag, lists[l].axis, w->parsed[lists[l].flag], DESC_LEN);
            continue;
        }
        for (const char *p = w->parsed[lists[l].flag]; *p;
             p += strcspn(p, ",") + (p[strcspn(p, ",")] != 0)) {
            int x = atoi(p), k = 0;
            while (k < n && vals[k] != x)
                k++;
            if (k == n)
                return expect_usage(w, "--%s: '%d' is not compiled", flag_info[lists[l].flag].name,
                                    x);
        }
    }
    if (strcmp(w->parsed[F_LEVER], "bounds") == 0 && !bounds_ok(fams))
        return expect_usage(w, "--lever bounds: ");
    if (given[F_RESUME] && given[F_OUT]) return expect_usage(w, "writes to that file; drop --out");
    if (atoll(strstr(w->parsed[F_FOOTPRINT], "..") + 2) < 2 * atoll(w->parsed[F_STRIDE]))
        return expect_usage(w, "--footprint: %s B is too small to measure", w->parsed[F_FOOTPRINT]);
    w->families = fams;
    return OCC_EXIT_OK;
}

static void gen_structured(Vec *v, Expect *w)
{
    int stopped = 0, given[N_FLAG] = {0}, f, target = -1;
    char needle[sizeof w->needle], missing[32];
    unsigned defaults = predict_families(NULL, NULL, missing, sizeof missing);
    for (f = 0; f < N_FLAG; f++)
        snprintf(w->parsed[f], DESC_LEN, "%s",
                 flag_info[f].default_parsed ? flag_info[f].default_parsed : "");
    default_list(defaults, F_UNROLL, 'u', w->parsed[F_UNROLL], DESC_LEN);
    default_list(defaults, F_VEC, 'v', w->parsed[F_VEC], DESC_LEN);
    w->families = defaults;
    w->rc = OCC_EXIT_OK;
    if (pick(2)) { /* aim at one family: select it, then mostly options it takes */
        const OccFamilyInfo *fi = occ_family_at(target = pick(occ_family_count()));
        push_option(v, F_KERNEL, fi->kernel);
        snprintf(w->parsed[F_KERNEL], DESC_LEN, "%s", fi->kernel);
        given[F_KERNEL] = 1;
        if (!fi->default_mode || pick(4) == 0) {
            push_option(v, F_MODE, fi->mode);
            snprintf(w->parsed[F_MODE], DESC_LEN, "%s", fi->mode);
            given[F_MODE] = 1;
        }
    }
    for (int t = 0, n = pick(9), r; t < n; t++) {
        if ((r = pick(100)) < 72) {
            const Sample *s = pick_valid(target);
            push_option(v, s->flag, s->text);
            if (!stopped) {
                snprintf(w->parsed[s->flag], DESC_LEN, "%s", s->parsed);
                given[s->flag] = 1;
            }
        } else if (r < 80) {
            int i = pick(COUNT(stoppers));
            if (pick(2))
                push(v, stoppers[i].arg);
            else
                push_name(v, stoppers[i].flag, "", "");
            if (!stopped) snprintf(w->parsed[stoppers[i].flag], DESC_LEN, "1");
            stopped = 1;
        } else {
            push_bad(v, needle, sizeof needle);
            if (!stopped) {
                w->rc = OCC_EXIT_USAGE;
                snprintf(w->needle, sizeof w->needle, "%s", needle);
            }
            stopped = 1;
        }
    }
    if (pick(10) == 0) {
        push_name(v, f = pick_valued(), "", "");
        if (!stopped) {
            w->rc = OCC_EXIT_USAGE;
            snprintf(w->needle, sizeof w->needle, "--%s: missing value", flag_info[f].name);
        }
        stopped = 1;
    } else if (pick(10) == 0) {
        push(v, "--"); /* ends the options and adds nothing */
    }
    if (!stopped) w->rc = predict_rules(w, given);
}

static int run_structured(Vec *v, int index)
{
    static Expect w;
    static OccOptions o;
    static char err[ERR_LEN + GUARD];
    char got[DESC_LEN], detail[3 * DESC_LEN];
    int rc;
    vec_reset(v, "structured", index);
    gen_structured(v, &w);
    rc = parse_checked(v, &o, err);
    snprintf(detail, sizeof detail, "expected exit %d%s%s", w.rc, w.rc ? " with " : "",
             w.rc ? w.needle : "");
    EXPECT(rc == w.rc, detail);
    if (rc == OCC_EXIT_USAGE && w.rc == OCC_EXIT_USAGE)
        EXPECT(strstr(err, w.needle) != NULL, detail);
    if (rc == OCC_EXIT_OK && w.rc == OCC_EXIT_OK)
        EXPECT(o.families == w.families, "families differ from the prediction");
    for (int f = 0; rc == OCC_EXIT_OK && w.rc == OCC_EXIT_OK && f < N_FLAG; f++) {
        describe(&o, f, got, sizeof got);
        snprintf(detail, sizeof detail, "--%s: got '%s', want '%s'", flag_info[f].name, got,
                 w.parsed[f]);
        EXPECT(strcmp(got, w.parsed[f]) == 0, detail);
    }
    return w.rc;
}

/* ---- chaos vectors: anything goes, only the invariants are known ---- */

typedef struct Buf {
    char s[LONG_BYTES + 512];
    size_t n;
} Buf;

static void put(Buf *b, const char *s)
{
    size_t len = strlen(s), room = sizeof b->s - 1 - b->n;
    len = len < room ? len : room;
    memcpy(b->s + b->n, s, len);
    b->n += len;
    b->s[b->n] = '\0';
}

static void put_ch(Buf *b, int ch)
{
    put(b, (char[]){(char)ch, '\0'});
}

static void put_digits(Buf *b, int n)
{
    while (n-- > 0)
        put_ch(b, '0' + pick(10));
}

static const char *const specials[] = {
    "1e308",
    "-1e308",
    "-0",
    "0x10",
    "99999999999999999999",
    "1e-400",
    "1e99999",
    "4.9e-324",
    "2.2250738585072014e-308",
    "nan",
    "inf",
    "-inf",
    "",
    " ",
    "\t",
    " \t\n",
    "\n",
    "\r\n",
    "..",
    ",",
    ":",
    "=",
    ",,",
    "...",
    "..:",
    ":..",
    "1..",
    "..1",
    ":1",
    "1:",
    "%n%s%p%x",
    "%s%s%s%s",
    "\xff\xfe",
    "\xc3\x28",
    "\x80",
    "\xed\xa0\x80",
    "2147483648",
    "-2147483649",
    "9223372036854775808",
    "-9223372036854775809",
    "18446744073709551616",
    "4294967296",
    "1..2147483647",
    "-2147483648..2147483647",
    "0..0",
    "1..8:1",
    "sm_",
    "sm_999",
    "sm_90af",
    "-",
    "--",
    "=1",
    "K",
    "KiB",
    "0K",
    "1e1K",
    "0.0",
    "1e-5..1e-4",
};
static const char *const separators[] = {",", "..", ":", "=", " ", ",,", "...", "\t", "..,", ""};
static const char *const suffixes[] = {"", "", "", "K", "M", "G", "KiB", "GiB", "k", "T", "B", "%"};
static const char *const signs[] = {"", "", "-", "+"};
static const char *const words[] = {
    "copy",    "reduce",   "chase",   "all",  "auto",
    "pad",     "bounds",   "both",    "warp", "thread",
    "latency", "sm_90",    "sm_100f", "COPY", "copy,reduce,chase,all",
    "x.csv",   "/dev/null"};
static const char *const long_units[] = {"1,",  "9", "..",   "1..8,", "a", "\xff", "%n",
                                         "25,", "0", "4K..", " ",     ",", "1e9"};
static const char *const bad_longs[] = {"--",       "---",       "--=",    "--bogus", "--kernels",
                                        "--m",      "--max",     "--x-y",  "--%n%s",  "--\xff\xfe",
                                        "--KERNEL", "--help-me", "--out-", "--occ-"};
static const char short_chars[] = "hVxk?:W-1=\n\xff%";

/* Digits (up to 40), fraction, exponent (up to 5 digits) and suffix, each maybe. */
static void put_number(Buf *b)
{
    char e[24];
    put(b, PICK(signs));
    put_digits(b, 1 + (pick(2) ? pick(3) : pick(40)));
    if (pick(4) == 0) {
        put_ch(b, '.');
        put_digits(b, pick(8));
    }
    if (pick(4) == 0) {
        snprintf(e, sizeof e, "%c%s%d", "eE"[pick(2)], PICK(signs),
                 pick(2) ? pick(400) : pick(100000));
        put(b, e);
    }
    put(b, PICK(suffixes));
}

static void put_value(Buf *b)
{
    int r = pick(12);
    if (r < 2) {
        put(b, PICK(specials));
    } else if (r < 4) {
        put_number(b);
    } else if (r < 6) {
        for (int i = 0, n = 2 + pick(5); i < n; i++) {
            put(b, i ? PICK(separators) : "");
            pick(3) ? put_number(b) : put(b, PICK(specials));
        }
    } else if (r == 6) {
        put(b, PICK(words));
        put(b, pick(2) ? (char[]){(char)(1 + pick(255)), '\0'} : "");
    } else if (r == 7) {
        for (int i = 0, n = 1 + pick(24); i < n; i++)
            put_ch(b, 1 + pick(255)); /* argv cannot hold NUL; every other byte goes */
    } else if (r == 8) {
        const char *unit = PICK(long_units);
        while (b->n < LONG_BYTES)
            put(b, unit);
    } else {
        const Sample *s = pick(2) ? &PICK(valid) : &PICK(bad);
        put(b, s->text ? s->text : "1");
    }
}

/* A real option (any prefix, even an ambiguous one), a garbage one, a short cluster or a bare
 * value, then no value, "=VALUE" or a separate VALUE; or a well-formed option. */
static void push_chaos_token(Vec *v)
{
    static Buf head, value;
    char name[32];
    int f = pick(N_FLAG), r = pick(8);
    head.n = value.n = 0;
    head.s[0] = value.s[0] = '\0';
    if (r < 3) {
        snprintf(name, sizeof name, "--%.*s", pick((int)strlen(flag_info[f].name) + 1),
                 flag_info[f].name);
        put(&head, name);
    } else if (r == 3) {
        put(&head, PICK(bad_longs) + pick(3));
        put(&head, pick(2) ? (char[]){(char)(1 + pick(255)), '\0'} : "");
    } else if (r == 4) {
        put(&head, "-");
        for (int i = 0, n = 1 + pick(3); i < n; i++)
            put_ch(&head, short_chars[pick((int)sizeof short_chars - 1)]);
    } else if (r == 5) {
        put_value(&head);
    } else {
        push_option(v, f, flag_info[f].takes_value ? PICK(valid).text : NULL);
        return;
    }
    put_value(&value);
    if ((r = pick(3)) == 0)
        push(v, head.s);
    else if (r == 1)
        push3(v, head.s, "=", value.s);
    else {
        push(v, head.s);
        push(v, value.s);
    }
}

/* Parses the NULL-terminated argv (after "occsweep") into o and err; returns the exit code. */
static int parse_args(OccOptions *o, char *err, const char *const *args)
{
    static Vec v;
    vec_reset(&v, "targeted", 0);
    while (*args)
        push(&v, *args++);
    return parse_checked(&v, o, err);
}

/* 1 when err ends with the reason and what is accepted, and quotes at most a prefix of a value:
 * no quote longer than OCC_VALUE_QUOTE_MAX (60) + "...". */
static int ends_with_reason(const char *err, const char *tail)
{
    const char *q = strchr(err, '\''), *end = q ? strchr(q + 1, '\'') : NULL;
    size_t n = strlen(err), lt = strlen(tail);
    return q && end && end - q - 1 <= 63 && n < ERR_LEN - 1 && n >= lt &&
           strcmp(err + n - lt, tail) == 0;
}

/* Each valued option refuses a value that looks like an option (--NAME --force, -h, -V): the
 * value would otherwise be taken as, e.g., a file named --force. "-" and "-1" are values. */
static void test_option_looking_values(void)
{
    static OccOptions o;
    static char err[ERR_LEN + GUARD], needle[128];
    static const char *const looks[] = {"--force", "--help", "-h", "-V", "--", "--x=1"};
    for (int f = 0; f < N_FLAG; f++) {
        if (!flag_info[f].takes_value) continue;
        char name[40], eq[48];
        snprintf(name, sizeof name, "--%s", flag_info[f].name);
        for (int i = 0; i < COUNT(looks); i++) {
            snprintf(needle, sizeof needle,
                     "--%s: '%s' looks like an option, not a value (accepted: ", flag_info[f].name,
                     looks[i]);
            CHECK_INT_EQ(parse_args(&o, err, (const char *const[]){name, looks[i], NULL}),
                         OCC_EXIT_USAGE);
            CHECK_CONTAINS(err, needle);
            snprintf(eq, sizeof eq, "%s=%s", name, looks[i]);
            CHECK_INT_EQ(parse_args(&o, err, (const char *const[]){eq, NULL}), OCC_EXIT_USAGE);
            CHECK_CONTAINS(err, needle);
        }
    }
    CHECK_INT_EQ(parse_args(&o, err, (const char *const[]){"--out", "--force", "--force", NULL}),
                 OCC_EXIT_USAGE);
    CHECK_INT_EQ(parse_args(&o, err, (const char *const[]){"--force", "--out", "-", NULL}),
                 OCC_EXIT_OK);
    CHECK_STR_EQ(o.out_path, "-");
    CHECK_INT_EQ(parse_args(&o, err, (const char *const[]){"--device", "-1", NULL}),
                 OCC_EXIT_USAGE);
    CHECK_CONTAINS(err, "--device: '-1' is out of range (accepted: ");
}

/* A 10,000-entry list and a 100 KB argument, for every valued option but the two paths (any
 * text is a path): the message quotes a prefix and still ends with the reason and what is
 * accepted. */
static void test_long_values(void)
{
    static OccOptions o;
    static char err[ERR_LEN + GUARD], list[10000 * 6], huge[100 * 1024], opt[100 * 1024 + 4];
    size_t at = 0;
    for (int i = 1; i <= 10000; i++)
        at += (size_t)snprintf(list + at, sizeof list - at, "%s%d", i > 1 ? "," : "", i);
    memset(huge, 'x', sizeof huge - 1);
    const char *const values[] = {list, huge};
    for (int f = 0; f < N_FLAG; f++) {
        if (!flag_info[f].takes_value || f == F_OUT || f == F_RESUME) continue;
        char name[40];
        snprintf(name, sizeof name, "--%s", flag_info[f].name);
        for (int i = 0; i < COUNT(values); i++) {
            CHECK_INT_EQ(parse_args(&o, err, (const char *const[]){name, values[i], NULL}),
                         OCC_EXIT_USAGE);
            if (!ends_with_reason(err, ")") || !strstr(err, "(accepted: "))
                printf("  --%s with a %zu-byte value: '%s'\n", flag_info[f].name, strlen(values[i]),
                       err);
            CHECK(ends_with_reason(err, ")") && strstr(err, "(accepted: ") != NULL);
        }
    }
    CHECK_INT_EQ(parse_args(&o, err, (const char *const[]){"--unroll", list, NULL}),
                 OCC_EXIT_USAGE);
    CHECK_CONTAINS(err,
                   "--unroll: '1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,...' "
                   "has too many values (accepted: ");
    CHECK_INT_EQ(parse_args(&o, err, (const char *const[]){"--kernel", huge, NULL}),
                 OCC_EXIT_USAGE);
    CHECK_CONTAINS(err, "xxx...' is not a kernel (accepted: ");
    snprintf(opt, sizeof opt, "--%s", huge);
    CHECK_INT_EQ(parse_args(&o, err, (const char *const[]){opt, NULL}), OCC_EXIT_USAGE);
    CHECK(ends_with_reason(err, "' (see --help)"));
    CHECK_INT_EQ(parse_args(&o, err, (const char *const[]){huge, NULL}), OCC_EXIT_USAGE);
    CHECK(ends_with_reason(err, "' (options start with --; see --help)"));
    CHECK_INT_EQ(
        parse_args(&o, err,
                   (const char *const[]){"--dry-run", "--resume", huge, "--out", "x", NULL}),
        OCC_EXIT_USAGE);
    CHECK(ends_with_reason(err, "' writes to that file; drop --out"));
}

/* Footprint extremes: beyond 1 TiB (2^63 - 1 once looped forever in the planner) and below two
 * lines of --stride (1..1 planned a 0-byte footprint) are usage errors; 1 TiB itself is not. */
static void test_footprint_extremes(void)
{
    static OccOptions o;
    static char err[ERR_LEN + GUARD];
#define LADDER "--kernel", "chase", "--mode", "latency", "--footprint"
    CHECK_INT_EQ(
        parse_args(&o, err, (const char *const[]){LADDER, "17..9223372036854775807", NULL}),
        OCC_EXIT_USAGE);
    CHECK_CONTAINS(err, "--footprint: '9223372036854775807' is above 1 TiB (accepted: ");
    CHECK_INT_EQ(parse_args(&o, err, (const char *const[]){LADDER, "1..1", NULL}), OCC_EXIT_USAGE);
    CHECK_CONTAINS(err,
                   "--footprint: 1..1 B is too small to measure (accepted: HI of at least 256 B, "
                   "2 lines of --stride 128 B)");
    CHECK_INT_EQ(parse_args(&o, err, (const char *const[]){LADDER, "100..200", NULL}),
                 OCC_EXIT_USAGE);
    CHECK_CONTAINS(err, "too small to measure");
    CHECK_INT_EQ(
        parse_args(&o, err, (const char *const[]){LADDER, "4K..64K", "--stride", "65536", NULL}),
        OCC_EXIT_USAGE);
    CHECK_CONTAINS(err, "HI of at least 131072 B, 2 lines of --stride 65536 B");
    CHECK_INT_EQ(parse_args(&o, err, (const char *const[]){LADDER, "1..1024G", NULL}), OCC_EXIT_OK);
    CHECK(o.footprint_lo_bytes == 1 && o.footprint_hi_bytes == OCC_FOOTPRINT_MAX_BYTES);
    CHECK_INT_EQ(parse_args(&o, err, (const char *const[]){LADDER, "100..256", NULL}), OCC_EXIT_OK);
#undef LADDER
}

int main(void)
{
    static Vec v;
    static OccOptions o;
    static char err[ERR_LEN + GUARD];
    const char *env = getenv("OCC_FUZZ_SEED");
    unsigned long long seed = env ? strtoull(env, NULL, 0) : 0x0cc5eedull;
    int want_ok = 0, want_usage = 0, chaos_ok = 0, chaos_usage = 0;
    unsigned defaults;
    char got[DESC_LEN];
    rng_state = seed;
    printf("seed %llu (OCC_FUZZ_SEED=%llu replays this run)\n", seed, seed);
    fflush(stdout);

    vec_reset(&v, "empty", 0);
    CHECK_INT_EQ(parse_checked(&v, &o, err), OCC_EXIT_OK);
    defaults = predict_families(NULL, NULL, got, sizeof got);
    CHECK(defaults != 0 && o.families == defaults);
    for (int f = 0; f < N_FLAG; f++) {
        char want[DESC_LEN];
        if (flag_info[f].default_parsed != NULL)
            snprintf(want, sizeof want, "%s", flag_info[f].default_parsed);
        else
            default_list(defaults, f, f == F_UNROLL ? 'u' : 'v', want, sizeof want);
        describe(&o, f, got, sizeof got);
        CHECK_STR_EQ(got, want);
    }

    test_option_looking_values();
    test_long_values();
    test_footprint_extremes();
    for (int i = 0; i < N_STRUCTURED; i++) {
        if (run_structured(&v, i) == OCC_EXIT_OK)
            want_ok++;
        else
            want_usage++;
    }
    for (int i = 0; i < N_CHAOS; i++) {
        vec_reset(&v, "chaos", i);
        for (int t = 0, n = pick(14); t < n; t++)
            push_chaos_token(&v);
        if (parse_checked(&v, &o, err) == OCC_EXIT_OK)
            chaos_ok++;
        else
            chaos_usage++;
    }
    vec_free(&v);
    printf("%d structured vectors (%d should pass, %d should fail), %d chaos vectors (%d passed, "
           "%d failed)\n",
           N_STRUCTURED, want_ok, want_usage, N_CHAOS, chaos_ok, chaos_usage);
    /* A generator that drifted to one outcome would test little. */
    CHECK(want_ok >= N_STRUCTURED / 5 && want_usage >= N_STRUCTURED / 5);
    CHECK(chaos_ok > 0 && chaos_usage >= N_CHAOS / 2);
    return check_done();
}
