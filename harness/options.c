/* harness/options.c: the run_sweep command line, parsed with getopt_long and checked here. */
#define _GNU_SOURCE /* getopt_long and struct option; musl hides them otherwise */

#include "options.h"

#include "catalog.h"
#include "exitcodes.h"

#include <errno.h>
#include <stdio.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { OCC_MAX_OCC_STEPS = 10000 };

enum {
    OPT_KERNEL = 256, /* above every char, so no id is mistaken for a short option */
    OPT_UNROLL, OPT_VEC, OPT_OCC, OPT_BLOCK, OPT_LEVER, OPT_SIZE, OPT_MAX_NOISE, OPT_MAX_TIME,
    OPT_MIN_SAMPLES, OPT_OUT, OPT_PLOT, OPT_FORCE, OPT_DEVICE, OPT_DRY_RUN, OPT_ARCH, OPT_LIST,
    OPT_QUIET, OPT_MODE, OPT_FOOTPRINT, OPT_RESUME, OPT_STRIDE, OPT_COLD, OPT_INDEX_BYTES,
    OPT_WAVES,
};

typedef struct OccFlag {
    struct option opt;
    const char *accepted; /* quoted in every message about this option's value */
} OccFlag;

static const OccFlag flags[] = {
    {{"kernel", required_argument, NULL, OPT_KERNEL},
     "copy, reduce, chase, all or a comma list like copy,reduce"},
    {{"unroll", required_argument, NULL, OPT_UNROLL}, "1, 2, 4, 8 or a range like 1..8"},
    {{"vec", required_argument, NULL, OPT_VEC}, "4, 8, 16 or a range like 4..16"},
    {{"occ", required_argument, NULL, OPT_OCC},
     "LO..HI, LO..HI:STEP or a list like 25,50,100, percent in (0, 100]"},
    {{"block", required_argument, NULL, OPT_BLOCK}, "32..1024, a multiple of 32"},
    {{"lever", required_argument, NULL, OPT_LEVER}, "auto, pad, bounds, both"},
    {{"size", required_argument, NULL, OPT_SIZE},
     "a positive byte count with optional suffix K, M, G, KiB, MiB or GiB, like 512M"},
    {{"max-noise", required_argument, NULL, OPT_MAX_NOISE}, "a percent in (0, 100]"},
    {{"max-time", required_argument, NULL, OPT_MAX_TIME}, "seconds in (0, 3600]"},
    {{"min-samples", required_argument, NULL, OPT_MIN_SAMPLES}, "an integer in 1..100000"},
    {{"out", required_argument, NULL, OPT_OUT}, "a file path"},
    {{"plot", no_argument, NULL, OPT_PLOT}, NULL},
    {{"force", no_argument, NULL, OPT_FORCE}, NULL},
    {{"resume", required_argument, NULL, OPT_RESUME}, "a CSV file of an earlier run"},
    {{"device", required_argument, NULL, OPT_DEVICE}, "an integer >= 0"},
    {{"dry-run", no_argument, NULL, OPT_DRY_RUN}, NULL},
    {{"arch", required_argument, NULL, OPT_ARCH}, "sm_NN like sm_80, sm_90 or sm_90a"},
    {{"list", no_argument, NULL, OPT_LIST}, NULL},
    {{"quiet", no_argument, NULL, OPT_QUIET}, NULL},
    {{"mode", required_argument, NULL, OPT_MODE}, "warp, thread, latency"},
    {{"footprint", required_argument, NULL, OPT_FOOTPRINT}, "LO..HI of byte sizes like 4K..1G"},
    {{"stride", required_argument, NULL, OPT_STRIDE}, "a power of two in 32..65536 bytes"},
    {{"cold", no_argument, NULL, OPT_COLD}, NULL},
    {{"index-bytes", required_argument, NULL, OPT_INDEX_BYTES}, "4 or 8"},
    {{"waves", required_argument, NULL, OPT_WAVES}, "an integer in 1..64"},
    {{"help", no_argument, NULL, 'h'}, NULL},
    {{"version", no_argument, NULL, 'V'}, NULL},
};
enum { N_FLAGS = sizeof flags / sizeof flags[0] };

static const char *const lever_names[] = {"auto", "pad", "bounds", "both"};
static const char *const mode_names[] = {"warp", "thread", "latency"};
static const int unroll_compiled[] = {1, 2, 4, 8};
static const int vec_compiled[] = {4, 8, 16};

typedef struct OccParseCtx {
    char *err;
    size_t err_len;
    const OccFlag *flag; /* the option being parsed */
    const char *arg;     /* its value */
} OccParseCtx;

static int usage(const OccParseCtx *c, const char *fmt, ...)
{
    if (c->err != NULL && c->err_len > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->err, c->err_len, fmt, ap);
        va_end(ap);
        /* The message quotes what was typed: a control byte in it (a newline) would break the
         * one-line promise, so each shows as '?'. */
        for (char *p = c->err; *p; p++)
            if ((unsigned char)*p < 0x20 || *p == 0x7f) *p = '?';
    }
    return OCC_EXIT_USAGE;
}

static int bad_span(const OccParseCtx *c, const char *b, size_t len, const char *reason)
{
    if (len == 0) {
        b = c->arg;
        len = strlen(b);
        reason = "has an empty element";
    }
    return usage(c, "--%s: '%.*s' %s (accepted: %s)", c->flag->opt.name, (int)len, b, reason,
                 c->flag->accepted);
}

static int bad_arg(const OccParseCtx *c, const char *reason)
{
    return usage(c, "--%s: '%s' %s (accepted: %s)", c->flag->opt.name, c->arg, reason,
                 c->flag->accepted);
}

/* A plain decimal integer: strtoll alone would also take spaces and '+'. Returns 0, -1 (not an
 * integer) or -2 (beyond long long). The copy stops strtoll from reading past an element. */
static int span_to_ll(const char *b, size_t len, long long *v)
{
    size_t sign = len > 0 && b[0] == '-';
    size_t i = sign;
    char buf[32];
    while (i < len && b[i] >= '0' && b[i] <= '9')
        i++;
    if (i != len || len == sign)
        return -1;
    if (len >= sizeof buf)
        return -2;
    memcpy(buf, b, len);
    buf[len] = '\0';
    errno = 0;
    *v = strtoll(buf, NULL, 10);
    return errno == ERANGE ? -2 : 0;
}

/* Plain decimal notation only: strtod would also take "nan", "inf", hex and leading spaces. */
static int span_to_double(const char *b, size_t len, double *v)
{
    char buf[64];
    char *end;
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, b, len);
    buf[len] = '\0';
    if (strspn(buf, "0123456789.eE+-") != len)
        return -1;
    errno = 0;
    *v = strtod(buf, &end);
    return (*end != '\0' || errno == ERANGE) ? -1 : 0;
}

static int add_unique(int *out, int max, int *n, int v)
{
    for (int i = 0; i < *n; i++)
        if (out[i] == v)
            return 0;
    if (*n >= max)
        return -1;
    out[(*n)++] = v;
    return 0;
}

/* NULL on success, else why the list is bad, worded to follow the quoted list in a message. The
 * every-integer loop is bounded: after max distinct values the next new one fails. */
static const char *int_list(const char *s, int *out, int max, int *n_out, int pow2)
{
    int n = 0;
    if (*s == '\0')
        return "is empty";
    for (const char *b = s;; b++) {
        const char *e = b + strcspn(b, ",");
        const char *dots = strstr(b, "..");
        long long lo = 0, hi = 0;
        int rc, found = 0;
        if (e == b)
            return "has an empty element";
        if (dots == NULL || dots >= e) {
            dots = NULL;
            rc = span_to_ll(b, (size_t)(e - b), &lo);
            hi = lo;
        } else {
            if (dots == b || dots + 2 == e)
                return "has an incomplete range";
            rc = span_to_ll(b, (size_t)(dots - b), &lo);
            if (rc == 0)
                rc = span_to_ll(dots + 2, (size_t)(e - dots - 2), &hi);
        }
        if (rc == -1)
            return "has a non-integer element";
        if (rc == -2 || lo < INT_MIN || lo > INT_MAX || hi < INT_MIN || hi > INT_MAX)
            return "has a number out of range";
        if (lo > hi)
            return "has a reversed range";
        if (pow2 && dots != NULL) {
            for (long long p = 1; p <= hi; p *= 2) {
                if (p < lo)
                    continue;
                found = 1;
                if (add_unique(out, max, &n, (int)p) != 0)
                    return "has too many values";
            }
            if (!found)
                return "has a range without a power of two";
        } else {
            for (long long v = lo; v <= hi; v++)
                if (add_unique(out, max, &n, (int)v) != 0)
                    return "has too many values";
        }
        b = e;
        if (*b == '\0')
            break;
    }
    *n_out = n;
    return NULL;
}

int occ_parse_int_list(const char *s, int *out, int max, int *n, int powers_of_two_range)
{
    if (s == NULL || out == NULL || n == NULL || max < 1)
        return -1;
    return int_list(s, out, max, n, powers_of_two_range) == NULL ? 0 : -1;
}

static const char *size_reason(const char *b, size_t len, long long *out)
{
    static const struct {
        const char *suffix;
        long long mult;
    } units[] = {{"", 1},           {"K", 1LL << 10},   {"M", 1LL << 20}, {"G", 1LL << 30},
                 {"KiB", 1LL << 10}, {"MiB", 1LL << 20}, {"GiB", 1LL << 30}};
    size_t nd = 0;
    long long v, mult = 0;
    while (nd < len && b[nd] >= '0' && b[nd] <= '9')
        nd++;
    if (nd == 0)
        return "is not a positive size";
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strlen(units[i].suffix) == len - nd && memcmp(units[i].suffix, b + nd, len - nd) == 0)
            mult = units[i].mult;
    if (mult == 0)
        return "has an unknown unit";
    if (span_to_ll(b, nd, &v) != 0 || v > LLONG_MAX / mult)
        return "is too large";
    if (v == 0)
        return "is not positive";
    *out = v * mult;
    return NULL;
}

int occ_parse_size_bytes(const char *s, long long *out)
{
    long long v;
    if (s == NULL || out == NULL || size_reason(s, strlen(s), &v) != NULL)
        return -1;
    *out = v;
    return 0;
}

static int parse_kernels(const OccParseCtx *c, unsigned *mask)
{
    static const struct {
        const char *name;
        unsigned bits;
    } names[] = {{"copy", OCC_KERNEL_COPY},
                 {"reduce", OCC_KERNEL_REDUCE},
                 {"chase", OCC_KERNEL_CHASE},
                 {"all", OCC_KERNEL_ALL}};
    unsigned m = 0;
    for (const char *b = c->arg;; b++) {
        size_t len = strcspn(b, ",");
        size_t i = 0;
        while (i < sizeof names / sizeof names[0] &&
               !(strlen(names[i].name) == len && memcmp(names[i].name, b, len) == 0))
            i++;
        if (len == 0 || i == sizeof names / sizeof names[0])
            return bad_span(c, b, len, "is not a kernel");
        m |= names[i].bits;
        b += len;
        if (*b == '\0')
            break;
    }
    *mask = m;
    return OCC_EXIT_OK;
}

/* The compiled sets are powers of two, so a range expands to powers of two. */
static int parse_compiled(const OccParseCtx *c, const int *compiled, int n_compiled,
                          const char *not_compiled, int *out, int *n_out)
{
    int vals[OCC_MAX_LIST], n;
    const char *why = int_list(c->arg, vals, OCC_MAX_LIST, &n, 1);
    if (why != NULL)
        return bad_arg(c, why);
    for (int i = 0; i < n; i++) {
        int v = vals[i], ok = 0;
        for (int j = 0; j < n_compiled; j++)
            ok |= v == compiled[j];
        why = v < 1 ? "is not positive"
              : (v & (v - 1)) != 0 ? "is not a power of two"
              : !ok ? not_compiled : NULL;
        if (why != NULL)
            return usage(c, "--%s: '%d' %s (accepted: %s)", c->flag->opt.name, v, why,
                         c->flag->accepted);
    }
    memcpy(out, vals, (size_t)n * sizeof vals[0]);
    *n_out = n;
    return OCC_EXIT_OK;
}

static int occ_level(const OccParseCtx *c, const char *b, size_t len, double *v, int is_step)
{
    if (span_to_double(b, len, v) != 0)
        return bad_span(c, b, len, "is not a number");
    if (!(*v > 0.0 && *v <= 100.0))
        return bad_span(c, b, len, is_step ? "is not a step in (0, 100]" : "is not in (0, 100]");
    return OCC_EXIT_OK;
}

static int parse_occ(const OccParseCtx *c, OccOccSpec *spec)
{
    OccOccSpec s = {0};
    const char *arg = c->arg, *end = arg + strlen(arg);
    const char *dots = strstr(arg, "..");
    if (strchr(arg, ',') != NULL || dots == NULL) {
        if (strchr(arg, ':') != NULL)
            return bad_arg(c, "has a step but no range");
        s.is_list = 1;
        s.lo_pct = 100.0;
        for (const char *b = arg;; b++) {
            size_t len = strcspn(b, ",");
            double v;
            int i = 0;
            if (occ_level(c, b, len, &v, 0) != OCC_EXIT_OK)
                return OCC_EXIT_USAGE;
            while (i < s.n_pct && s.pct[i] != v)
                i++;
            if (i == s.n_pct && s.n_pct == OCC_MAX_LIST)
                return usage(c, "--occ: '%s' has more than %d levels (accepted: %s)", arg,
                             OCC_MAX_LIST, c->flag->accepted);
            if (i == s.n_pct)
                s.pct[s.n_pct++] = v;
            s.lo_pct = v < s.lo_pct ? v : s.lo_pct;
            s.hi_pct = v > s.hi_pct ? v : s.hi_pct;
            b += len;
            if (*b == '\0')
                break;
        }
    } else {
        const char *colon = strchr(dots + 2, ':');
        const char *hi_end = colon != NULL ? colon : end;
        if (dots == arg || dots + 2 == hi_end)
            return bad_arg(c, "is an incomplete range");
        if (occ_level(c, arg, (size_t)(dots - arg), &s.lo_pct, 0) != OCC_EXIT_OK ||
            occ_level(c, dots + 2, (size_t)(hi_end - dots - 2), &s.hi_pct, 0) != OCC_EXIT_OK ||
            (colon != NULL &&
             occ_level(c, colon + 1, (size_t)(end - colon - 1), &s.step_pct, 1) != OCC_EXIT_OK))
            return OCC_EXIT_USAGE;
        if (s.lo_pct > s.hi_pct)
            return bad_arg(c, "is a reversed range");
        /* Each step is a level the planner maps; a step this fine asks for absurdly many. */
        if (s.step_pct > 0 && (s.hi_pct - s.lo_pct) / s.step_pct > OCC_MAX_OCC_STEPS)
            return bad_arg(c, "has a step too small (over 10000 levels)");
    }
    *spec = s;
    return OCC_EXIT_OK;
}

static int parse_int_in(const OccParseCtx *c, long long lo, long long hi, int *out)
{
    long long v;
    int rc = span_to_ll(c->arg, strlen(c->arg), &v);
    if (rc == -1)
        return bad_arg(c, "is not an integer");
    if (rc == -2 || v < lo || v > hi)
        return bad_arg(c, "is out of range");
    *out = (int)v;
    return OCC_EXIT_OK;
}

/* Accepts (0, hi]. */
static int parse_double_in(const OccParseCtx *c, double hi, double *out)
{
    double v;
    if (span_to_double(c->arg, strlen(c->arg), &v) != 0)
        return bad_arg(c, "is not a number");
    if (!(v > 0.0 && v <= hi))
        return bad_arg(c, "is out of range");
    *out = v;
    return OCC_EXIT_OK;
}

static int parse_name(const OccParseCtx *c, const char *const *names, int n, const char *what,
                      int *out)
{
    for (int i = 0; i < n; i++) {
        if (strcmp(names[i], c->arg) == 0) {
            *out = i;
            return OCC_EXIT_OK;
        }
    }
    return bad_arg(c, what);
}

/* The arch table lives elsewhere; here only the shape sm_<2-3 digits>[a|f]. */
static int is_arch_name(const char *s)
{
    size_t nd;
    if (strncmp(s, "sm_", 3) != 0)
        return 0;
    nd = strspn(s + 3, "0123456789");
    s += 3 + nd;
    return nd >= 2 && nd <= 3 && (s[0] == '\0' || ((s[0] == 'a' || s[0] == 'f') && s[1] == '\0'));
}

static int parse_footprint(const OccParseCtx *c, long long *lo, long long *hi)
{
    const char *dots = strstr(c->arg, "..");
    size_t n_lo, n_hi;
    const char *why;
    if (dots == NULL)
        return bad_arg(c, "is not a range");
    n_lo = (size_t)(dots - c->arg);
    n_hi = strlen(dots + 2);
    if (n_lo == 0 || n_hi == 0)
        return bad_arg(c, "is an incomplete range");
    if ((why = size_reason(c->arg, n_lo, lo)) != NULL)
        return bad_span(c, c->arg, n_lo, why);
    if ((why = size_reason(dots + 2, n_hi, hi)) != NULL)
        return bad_span(c, dots + 2, n_hi, why);
    return *lo > *hi ? bad_arg(c, "is a reversed range") : OCC_EXIT_OK;
}

static int apply(const OccParseCtx *c, OccOptions *o)
{
    const char *why;
    int i = 0, rc;
    switch (c->flag->opt.val) {
    case OPT_KERNEL: return parse_kernels(c, &o->kernels);
    case OPT_UNROLL:
        return parse_compiled(c, unroll_compiled, 4, "is not a compiled unroll", o->unroll,
                              &o->n_unroll);
    case OPT_VEC:
        return parse_compiled(c, vec_compiled, 3, "is not a compiled vector width", o->vec_bytes,
                              &o->n_vec);
    case OPT_OCC: return parse_occ(c, &o->occ);
    case OPT_BLOCK:
        rc = parse_int_in(c, 32, 1024, &o->block_threads);
        return rc == OCC_EXIT_OK && o->block_threads % 32 != 0
                   ? bad_arg(c, "is not a multiple of 32") : rc;
    case OPT_LEVER:
        rc = parse_name(c, lever_names, 4, "is not a lever", &i);
        o->lever = rc == OCC_EXIT_OK ? (OccLever)i : o->lever;
        return rc;
    case OPT_SIZE:
        why = size_reason(c->arg, strlen(c->arg), &o->size_bytes);
        return why != NULL ? bad_arg(c, why) : OCC_EXIT_OK;
    case OPT_MAX_NOISE: return parse_double_in(c, 100.0, &o->max_noise_pct);
    case OPT_MAX_TIME: return parse_double_in(c, 3600.0, &o->max_time_s);
    case OPT_MIN_SAMPLES: return parse_int_in(c, 1, 100000, &o->min_samples);
    case OPT_DEVICE: return parse_int_in(c, 0, INT_MAX, &o->device);
    case OPT_OUT: o->out_path = c->arg; return OCC_EXIT_OK;
    case OPT_RESUME: o->resume_path = c->arg; return OCC_EXIT_OK;
    case OPT_ARCH:
        o->arch = c->arg;
        return is_arch_name(c->arg) ? OCC_EXIT_OK : bad_arg(c, "is not an architecture name");
    case OPT_MODE:
        rc = parse_name(c, mode_names, 3, "is not a chase mode", &i);
        o->chase_mode = rc == OCC_EXIT_OK ? (OccChaseMode)i : o->chase_mode;
        return rc;
    case OPT_FOOTPRINT: return parse_footprint(c, &o->footprint_lo_bytes, &o->footprint_hi_bytes);
    case OPT_PLOT: o->plot = 1; return OCC_EXIT_OK;
    case OPT_FORCE: o->force = 1; return OCC_EXIT_OK;
    case OPT_DRY_RUN: o->dry_run = 1; return OCC_EXIT_OK;
    case OPT_LIST: o->list = 1; return OCC_EXIT_OK;
    case OPT_QUIET: o->quiet = 1; return OCC_EXIT_OK;
    case OPT_COLD: o->cold = 1; return OCC_EXIT_OK;
    case OPT_WAVES: return parse_int_in(c, 1, 64, &o->waves);
    case OPT_INDEX_BYTES:
        rc = parse_int_in(c, 4, 8, &o->index_bytes);
        return rc == OCC_EXIT_OK && o->index_bytes != 4 && o->index_bytes != 8
                   ? bad_arg(c, "is neither 4 nor 8") : rc;
    case OPT_STRIDE:
        rc = parse_int_in(c, 32, 65536, &o->stride_bytes);
        return rc == OCC_EXIT_OK && (o->stride_bytes & (o->stride_bytes - 1)) != 0
                   ? bad_arg(c, "is not a power of two") : rc;
    case 'h': o->help = 1; return OCC_EXIT_OK;
    default: o->version = 1; return OCC_EXIT_OK;
    }
}

void occ_options_defaults(OccOptions *o)
{
    static const OccOptions d = {
        .kernels = OCC_KERNEL_ALL,
        .unroll = {1, 2, 4, 8},
        .n_unroll = 4,
        .vec_bytes = {4, 8, 16},
        .n_vec = 3,
        .occ = {.lo_pct = 6.25, .hi_pct = 100.0},
        .block_threads = 128,
        .lever = OCC_LEVER_AUTO,
        .max_noise_pct = 0.5,
        .max_time_s = 0.5,
        .min_samples = 10,
        .stride_bytes = 128,
        .index_bytes = 4,
        .waves = 1,
        .chase_mode = OCC_CHASE_WARP,
    };
    *o = d;
}

/* Options that only make sense together are checked once every option is known, so that their
 * order on the command line does not matter. */
static int check_combinations(const OccParseCtx *c, const OccOptions *o, const char *mode_arg,
                              const char *footprint_arg)
{
    if (o->arch != NULL && !o->dry_run)
        return usage(c, "--arch: '%s' needs --dry-run (a real run measures its device)", o->arch);
    if (mode_arg != NULL && !(o->kernels & OCC_KERNEL_CHASE))
        return usage(c, "--mode: '%s' needs the chase kernel (--kernel chase or all)", mode_arg);
    if (footprint_arg != NULL && o->chase_mode != OCC_CHASE_LATENCY)
        return usage(c, "--footprint/--stride/--cold/--index-bytes: '%s' needs --mode latency",
                     footprint_arg);
    if (o->resume_path != NULL && o->out_path != NULL)
        return usage(c, "--resume '%s' writes to that file; drop --out", o->resume_path);
    return OCC_EXIT_OK;
}

int occ_options_parse(int argc, char **argv, OccOptions *o, char *err, size_t err_len)
{
    struct option longopts[N_FLAGS + 1] = {{0}};
    OccParseCtx c = {.err = err, .err_len = err_len};
    const char *mode_arg = NULL, *footprint_arg = NULL;
    int id;
    for (int i = 0; i < N_FLAGS; i++)
        longopts[i] = flags[i].opt;
    occ_options_defaults(o);
    if (err != NULL && err_len > 0)
        err[0] = '\0';
    /* optind 0 (not 1) makes glibc drop state left by an earlier parse. '+' keeps argv in order
     * (the CSV records the command line) and stops at the first positional; ':' returns a missing
     * value apart from an unknown option; opterr too, as not every getopt honours ':' after '+'. */
    optind = 0;
    opterr = 0;
    while ((id = getopt_long(argc, argv, "+:hV", longopts, NULL)) != -1) {
        const char *given = argv[optind - 1];
        for (c.flag = flags; c.flag < flags + N_FLAGS && c.flag->opt.val != optopt; c.flag++)
            ;
        /* getopt sets optopt to the option's id for a missing or unwanted value, to the char of
         * an unknown short option, and to 0 for an unknown or ambiguous long one. */
        if (id == ':')
            return usage(&c, "--%s: missing value (accepted: %s)", c.flag->opt.name,
                         c.flag->accepted);
        if (id == '?' && c.flag < flags + N_FLAGS)
            return usage(&c, "--%s takes no value (got '%s')", c.flag->opt.name, given);
        if (id == '?' && optopt != 0)
            return usage(&c, "unknown option '-%c' (see --help)", optopt);
        if (id == '?')
            return usage(&c, "unknown or ambiguous option '%s' (see --help)", given);
        for (c.flag = flags; c.flag->opt.val != id; c.flag++)
            ;
        c.arg = optarg;
        if (c.arg != NULL && c.arg[0] == '\0')
            return bad_arg(&c, "is empty");
        if (apply(&c, o) != OCC_EXIT_OK)
            return OCC_EXIT_USAGE;
        mode_arg = id == OPT_MODE ? c.arg : mode_arg;
        footprint_arg = id == OPT_FOOTPRINT || id == OPT_STRIDE || id == OPT_COLD ||
                                id == OPT_INDEX_BYTES
                            ? (c.arg ? c.arg : "--cold") : footprint_arg;
        if (o->help || o->version)
            return OCC_EXIT_OK;
    }
    if (optind < argc)
        return usage(&c, "unexpected argument '%s' (options start with --; see --help)",
                     argv[optind]);
    o->mode_arg = mode_arg;
    for (int f = 0; f < occ_family_count(); f++) {
        const OccFamilyInfo *fi = occ_family_at(f);
        unsigned bit = strcmp(fi->kernel, "copy") == 0 ? 1 : strcmp(fi->kernel, "reduce") == 0 ? 2 : 4;
        int want = (o->kernels & bit) && (bit != 4 ? 1 : strcmp(fi->mode, occ_chase_mode_name(o->chase_mode)) == 0);
        if (want) o->families |= 1u << f;
    }
    return check_combinations(&c, o, mode_arg, footprint_arg);
}

const char *occ_lever_name(OccLever l)
{
    return (unsigned)l < sizeof lever_names / sizeof lever_names[0] ? lever_names[l] : "unknown";
}

const char *occ_chase_mode_name(OccChaseMode m)
{
    return (unsigned)m < sizeof mode_names / sizeof mode_names[0] ? mode_names[m] : "unknown";
}

void occ_options_print_help(FILE *f, const char *prog)
{
    fprintf(f,
        "Usage: %s [OPTIONS]\n"
        "Sweeps occupancy (resident warps per SM / max warps per SM) against unroll and\n"
        "vector width for GPU copy, reduce and pointer-chase kernels; one CSV row per point.\n"
        "\n"
        "  --kernel K          copy, reduce, chase, all or a list like copy,reduce (all)\n"
        "  --unroll LIST       independent loads per thread: 1,2,4,8 or a range like 1..8\n"
        "                      (powers of two; default 1,2,4,8)\n"
        "  --vec LIST          bytes per load: 4,8,16 or a range like 4..16 (4,8,16)\n"
        "  --occ SPEC          occupancy levels, percent in (0, 100]: LO..HI (every\n"
        "                      achievable level), LO..HI:STEP or a list like 25,50,100\n"
        "                      (default 6.25..100)\n"
        "  --block N           threads per block, 32..1024, multiple of 32 (128)\n"
        "  --lever L           auto, pad, bounds, both (auto; see Levers)\n"
        "  --size BYTES        buffer size, suffix K, M, G, KiB, MiB or GiB (powers of\n"
        "                      1024), e.g. 512M (default 8 x the L2 size)\n"
        "  --mode M            chase only: warp, thread, latency (warp)\n"
        "  --footprint LO..HI  with --mode latency: footprints, e.g. 4K..1G (auto)\n"
        "  --stride BYTES      with --mode latency: bytes between chased lines (128)\n"
        "  --cold              with --mode latency: flush L2 before each of 5 single\n"
        "                      passes (cold misses) instead of a warm chain\n"
        "  --index-bytes N     with --mode latency: 4- or 8-byte next-line indices (4)\n"
        "  --waves N           copy/reduce grids of N full waves; the padding still sets\n"
        "                      the occupancy (1: every block resident throughout)\n"
        "  --max-noise PCT     stop sampling at this relative stdev, in (0, 100] (0.5)\n"
        "  --max-time S        time bound per point, seconds in (0, 3600] (0.5)\n"
        "  --min-samples N     samples before the noise test, 1..100000 (10)\n"
        "  --device N          CUDA device index (0)\n"
        "  --out FILE          CSV path (results/<gpu-slug>/<kernel>-<UTC>.csv)\n"
        "  --force             overwrite an existing --out file\n"
        "  --resume FILE       skip the points FILE already holds (same GPU and axes),\n"
        "                      measure the rest and rewrite FILE with all rows\n"
        "  --plot              draw the curves beside the CSV (needs gnuplot)\n"
        "  --quiet             no progress lines\n"
        "  --dry-run           print the sweep plan; measure nothing\n"
        "  --arch sm_NN        with --dry-run: plan for this architecture, no GPU needed\n"
        "  --list              print the compiled kernel variants and exit\n"
        "  -h, --help          print this help and exit\n"
        "  -V, --version       print the version and exit\n"
        "\n"
        "Levers: auto pads shared memory on the natural variant where its registers\n"
        "allow the level, else uses the __launch_bounds__ variant; pad: natural variant\n"
        "only (unreachable levels become skip rows); bounds: register-capped variants\n"
        "only; both: a row for each lever where it reaches the level.\n"
        "\n"
        "Examples:\n"
        "  %s --kernel reduce --unroll 1,2,4 --occ 25..100\n"
        "  %s --kernel copy --vec 16 --occ 10..100:10 --plot\n"
        "  %s --kernel chase --mode latency --footprint 4K..1G\n"
        "  %s --dry-run --arch sm_90\n"
        "\n"
        "Exit codes:\n"
        "  0  every point measured (or skipped with a reason) and verified\n"
        "  1  a point failed verification, or a runtime error after the start\n"
        "  2  bad command line; nothing was written\n"
        "  3  no usable CUDA device (driver, device index, or arch not in the binary)\n",
        prog, prog, prog, prog, prog);
}

int occ_options_run_axes(const OccOptions *o, OccRunAxis *out, int max)
{
    int n = 0;
    if (n < max) { out[n].name = "waves"; snprintf(out[n].value, 32, "%d", o->waves); n++; }
    return n;
}
