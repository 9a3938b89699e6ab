/* SPDX-License-Identifier: Apache-2.0 */
/* harness/options.c: the run_sweep command line: getopt_long over the option table
 * (options_table.c), each value parsed by its kind, then the rules between options. */
#define _GNU_SOURCE /* getopt_long and struct option; musl hides them otherwise */

#include "options.h"

#include "catalog.h"
#include "exitcodes.h"
#include "options_table.h"
#include "options_values.h"

#include <getopt.h>
#include <stdarg.h>
#include <limits.h>
#include <string.h>

/* getopt ids of long options: above every char, so none is mistaken for a short option. */
enum { OPT_ID_BASE = 256 };

/* An ENUM field is written through an int. */
_Static_assert(sizeof(OccLever) == sizeof(int), "OccLever is int-sized");
_Static_assert(sizeof(OccChain) == sizeof(int), "OccChain is int-sized");

typedef struct OccParseCtx {
    char *err;
    size_t err_len;
    const OccOptSpec *spec;   /* the option being parsed */
    const char *arg;          /* its value */
    unsigned long long given; /* bit i: table option i was on the command line */
} OccParseCtx;

/* A value quoted in a message: its prefix (occ_value_quote), valid to the end of the statement. */
#define Q(value) (occ_value_quote((value), strlen(value)).s)

/* The field of OccOptions *o at offset off, as a type *. */
#define FIELD(o, off, type) ((type *)(void *)((char *)(o) + (off)))

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

/* "--NAME: 'VALUE' reason (accepted: ...)"; at NULL quotes the value, else at[0..len), each cut
 * to a prefix so that the reason and what is accepted always fit. */
static int bad_value(const OccParseCtx *c, const char *at, size_t len, const char *reason)
{
    char accepted[512];
    return usage(c, "--%s: '%s' %s (accepted: %s)", c->spec->name,
                 occ_value_quote(at ? at : c->arg, at ? len : strlen(c->arg)).s, reason,
                 occ_option_accepted(c->spec, accepted, sizeof accepted));
}

/* The range, multiple and power-of-two rules of an INT (or INT_LIST element) v; the message
 * quotes at[0..len) (NULL: the whole value). */
static int check_int(const OccParseCtx *c, long long v, const char *at, size_t len)
{
    const OccOptSpec *s = c->spec;
    char why[48];
    if (v < s->lo || v > s->hi) return bad_value(c, at, len, "is out of range");
    if (s->multiple > 1 && v % s->multiple != 0) {
        snprintf(why, sizeof why, "is not a multiple of %d", s->multiple);
        return bad_value(c, at, len, why);
    }
    if (s->pow2 && (v & (v - 1)) != 0) return bad_value(c, at, len, "is not a power of two");
    return OCC_EXIT_OK;
}

static int parse_int(const OccParseCtx *c, int *out)
{
    long long v;
    int rc = occ_value_ll(c->arg, strlen(c->arg), &v);
    if (rc == -1) return bad_value(c, NULL, 0, "is not an integer");
    if (rc == -2) return bad_value(c, NULL, 0, "is out of range");
    if (check_int(c, v, NULL, 0) != OCC_EXIT_OK) return OCC_EXIT_USAGE;
    *out = (int)v;
    return OCC_EXIT_OK;
}

/* An INT_LIST: the list syntax of occ_parse_int_list (ranges expand to their powers of two),
 * then every value by the INT rules, the message naming the value. */
static int parse_int_list(const OccParseCtx *c, OccOptions *o)
{
    const OccOptSpec *s = c->spec;
    int vals[OCC_MAX_LIST], n = 0;
    const char *why = occ_value_int_list(c->arg, vals, OCC_MAX_LIST, &n, 1);
    if (why != NULL) return bad_value(c, NULL, 0, why);
    for (int k = 0; k < n; k++) {
        char one[16];
        const int len = snprintf(one, sizeof one, "%d", vals[k]);
        if (check_int(c, vals[k], one, (size_t)len) != OCC_EXIT_OK) return OCC_EXIT_USAGE;
    }
    memcpy(FIELD(o, s->field, int), vals, (size_t)n * sizeof vals[0]);
    *FIELD(o, s->field2, int) = n;
    return OCC_EXIT_OK;
}

static int parse_kernels(const OccParseCtx *c)
{
    char why[32];
    snprintf(why, sizeof why, "is not a %s", c->spec->noun);
    for (const char *b = c->arg;; b++) {
        size_t len = strcspn(b, ",");
        if (len == 0) return bad_value(c, NULL, 0, "has an empty element");
        if (!occ_value_kernel_word(b, len)) return bad_value(c, b, len, why);
        b += len;
        if (*b == '\0') return OCC_EXIT_OK;
    }
}

/* Parses c->arg into the field(s) of c->spec. */
static int apply(const OccParseCtx *c, OccOptions *o)
{
    const OccOptSpec *s = c->spec;
    OccValueError e = {0};
    const char *why;
    char noun[32];
    int vals[OCC_MAX_LIST], n = 0;
    snprintf(noun, sizeof noun, "is not a %s", s->noun ? s->noun : "value");
    switch (s->kind) {
    case OCC_OPT_FLAG:
        *FIELD(o, s->field, int) = 1;
        return OCC_EXIT_OK;
    case OCC_OPT_INT:
        return parse_int(c, FIELD(o, s->field, int));
    case OCC_OPT_INT_LIST:
        return parse_int_list(c, o);
    case OCC_OPT_DOUBLE: {
        double v;
        if (occ_value_double(c->arg, strlen(c->arg), &v) != 0)
            return bad_value(c, NULL, 0, "is not a number");
        if (!(v > s->lo && v <= s->hi)) return bad_value(c, NULL, 0, "is out of range");
        *FIELD(o, s->field, double) = v;
        return OCC_EXIT_OK;
    }
    case OCC_OPT_SIZE:
        why = occ_value_size(c->arg, strlen(c->arg), FIELD(o, s->field, long long));
        return why != NULL ? bad_value(c, NULL, 0, why) : OCC_EXIT_OK;
    case OCC_OPT_LIST:
        /* Syntax only here: what is compiled depends on the families, known at the end. */
        if ((why = occ_value_int_list(c->arg, vals, OCC_MAX_LIST, &n, 1)) != NULL)
            return bad_value(c, NULL, 0, why);
        memcpy(FIELD(o, s->field, int), vals, (size_t)n * sizeof vals[0]);
        *FIELD(o, s->field2, int) = n;
        return OCC_EXIT_OK;
    case OCC_OPT_ENUM:
        while (n < s->n_names && strcmp(s->names[n], c->arg) != 0)
            n++;
        if (n == s->n_names) return bad_value(c, NULL, 0, noun);
        *FIELD(o, s->field, int) = n;
        return OCC_EXIT_OK;
    case OCC_OPT_OCC:
        return occ_value_occ(c->arg, FIELD(o, s->field, OccOccSpec), &e) != 0
                   ? bad_value(c, e.at, e.len, e.reason)
                   : OCC_EXIT_OK;
    case OCC_OPT_FOOTPRINT:
        return occ_value_footprint(c->arg, FIELD(o, s->field, long long),
                                   FIELD(o, s->field2, long long), &e) != 0
                   ? bad_value(c, e.at, e.len, e.reason)
                   : OCC_EXIT_OK;
    case OCC_OPT_ARCH:
        if (!occ_value_is_arch(c->arg)) return bad_value(c, NULL, 0, "is not an architecture name");
        break;
    case OCC_OPT_KERNELS:
        if (parse_kernels(c) != OCC_EXIT_OK) return OCC_EXIT_USAGE;
        break;
    case OCC_OPT_MODE:
        while (n < occ_family_count() && strcmp(occ_family_at(n)->mode, c->arg) != 0)
            n++;
        if (n == occ_family_count()) return bad_value(c, NULL, 0, noun);
        break;
    case OCC_OPT_DEVICES:
        if (strcmp(c->arg, "all") == 0) {
            n = OCC_DEVICES_ALL;
        } else if (strpbrk(c->arg, ",.") == NULL) {
            /* One index: the messages of an integer option. */
            long long v;
            const int rc = occ_value_ll(c->arg, strlen(c->arg), &v);
            if (rc == -1) return bad_value(c, NULL, 0, "is not an integer");
            if (rc == -2 || v < 0 || v > INT_MAX) return bad_value(c, NULL, 0, "is out of range");
            vals[0] = (int)v;
            n = 1;
        } else if ((why = occ_value_int_list(c->arg, vals, OCC_MAX_LIST, &n, 0)) != NULL) {
            return bad_value(c, NULL, 0, why);
        }
        for (int k = 0; k < n; k++)
            if (vals[k] < 0) return bad_value(c, NULL, 0, "has a number out of range");
        memcpy(FIELD(o, s->field, int), vals, (size_t)(n > 0 ? n : 0) * sizeof vals[0]);
        *FIELD(o, s->field2, int) = n;
        o->device = n > 0 ? vals[0] : 0;
        return OCC_EXIT_OK;
    case OCC_OPT_PATH:
        break;
    }
    *FIELD(o, s->field, const char *) = c->arg;
    return OCC_EXIT_OK;
}

static const OccOptSpec *spec_of_kind(OccOptKind kind)
{
    for (int i = 0; i < occ_option_count(); i++)
        if (occ_option_at(i)->kind == kind) return occ_option_at(i);
    return NULL;
}

/* o->families from the kernel list (or the table's unset list) and o->mode_arg. */
static int select_families(const OccParseCtx *c, OccOptions *o)
{
    if (o->plugin_path && !o->kernel_arg) {
        unsigned plugins = 0;
        for (int f = 0; f < occ_family_count(); f++)
            if (occ_family_at(f)->plugin_path) plugins |= 1u << f;
        if (!plugins)
            return usage(c, "--plugin %s was not loaded (spell the option --plugin in full)",
                         Q(o->plugin_path));
        o->families = plugins;
        return OCC_EXIT_OK;
    }
    const char *list = o->kernel_arg ? o->kernel_arg : spec_of_kind(OCC_OPT_KERNELS)->unset_text;
    char modes[256];
    unsigned set = 0;
    for (const char *b = list;; b++) {
        size_t len = strcspn(b, ",");
        int all = occ_value_kernel_word(b, len) == 2;
        for (int f = 0; f < occ_family_count(); f++) {
            const char *kernel = occ_family_at(f)->kernel;
            int g = occ_family_find(kernel, o->mode_arg);
            if (!all && !(strlen(kernel) == len && memcmp(kernel, b, len) == 0)) continue;
            if (g >= 0) {
                set |= 1u << g;
                continue;
            }
            occ_option_kernel_modes(kernel, modes, sizeof modes);
            if (o->mode_arg != NULL)
                return usage(c, "--mode: '%s' does not apply to %s (its modes: %s)", Q(o->mode_arg),
                             kernel, modes);
            /* Only a family table without a default mode for this kernel gets here. */
            return usage(c, "--kernel: '%s' has no default mode (give --mode: %s)", kernel, modes);
        }
        b += len;
        if (*b == '\0') break;
    }
    o->families = set;
    return OCC_EXIT_OK;
}

/* A scoped option given on the command line must be taken by a selected family. */
static int check_scoped(const OccParseCtx *c, const OccOptions *o)
{
    char names[256], takes[256];
    for (int i = 0; i < occ_option_count(); i++) {
        const OccOptSpec *s = occ_option_at(i);
        size_t at = 0;
        if (!s->scoped || !(c->given >> i & 1u) || (occ_option_takers(s->name) & o->families))
            continue;
        takes[0] = '\0';
        for (int j = 0; j < occ_option_count(); j++)
            if (occ_option_at(j)->scoped &&
                (occ_option_takers(occ_option_at(j)->name) & o->families))
                occ_option_append(takes, sizeof takes, &at, "%s%s", at ? ", " : "",
                                  occ_option_at(j)->name);
        return usage(c, "--%s does not apply to %s (%s: %s)", s->name,
                     occ_option_family_names(o->families, names, sizeof names),
                     (o->families & (o->families - 1)) ? "they take" : "it takes",
                     at ? takes : "none");
    }
    return OCC_EXIT_OK;
}

/* List options: the values given must be compiled for a selected family taking the option; a
 * list not given is every such value. */
static int check_lists(const OccParseCtx *c, OccOptions *o)
{
    for (int i = 0; i < occ_option_count(); i++) {
        const OccOptSpec *s = occ_option_at(i);
        int compiled[OCC_MAX_LIST], n_compiled, *vals, *n;
        char accepted[256] = "";
        size_t at = 0;
        if (s->kind != OCC_OPT_LIST) continue;
        n_compiled = occ_option_compiled(s, o->families, compiled, OCC_MAX_LIST);
        vals = FIELD(o, s->field, int);
        n = FIELD(o, s->field2, int);
        if (!(c->given >> i & 1u)) {
            memcpy(vals, compiled, (size_t)n_compiled * sizeof compiled[0]);
            *n = n_compiled;
            continue;
        }
        for (int k = 0; k < n_compiled; k++)
            occ_option_append(accepted, sizeof accepted, &at, "%s%d", k ? ", " : "", compiled[k]);
        for (int v = 0; v < *n; v++) {
            int k = 0;
            while (k < n_compiled && compiled[k] != vals[v])
                k++;
            if (k == n_compiled)
                return usage(c, "--%s: '%d' is not compiled (accepted: %s)", s->name, vals[v],
                             accepted);
        }
    }
    return OCC_EXIT_OK;
}

/* The bounds lever needs register-capped variants in every selected sweep family. */
static int check_lever(const OccParseCtx *c, const OccOptions *o)
{
    char name[64], others[64];
    size_t at = 0;
    if (o->lever != OCC_LEVER_BOUNDS) return OCC_EXIT_OK;
    for (int l = 0, k = 0; l < OCC_OPTION_N_LEVERS; l++)
        if (l != OCC_LEVER_BOUNDS)
            occ_option_append(others, sizeof others, &at, "%s%s",
                              k++ == 0                       ? ""
                              : k == OCC_OPTION_N_LEVERS - 1 ? " or "
                                                             : ", ",
                              occ_option_lever_names[l]);
    for (int f = 0; f < occ_family_count(); f++)
        if ((o->families >> f & 1u) && occ_family_at(f)->shape == OCC_SHAPE_OCCUPANCY &&
            !occ_family_has_capped(f))
            return usage(c, "--lever bounds: %s has no register-capped variants (use %s)",
                         occ_option_family_names(1u << f, name, sizeof name), others);
    return OCC_EXIT_OK;
}

/* An option given on the command line must apply: the value its requires rule names is set. */
static int check_requires(const OccParseCtx *c, const OccOptions *o)
{
    const OccOptSpec *r;
    char want[32], got[32];
    for (int i = 0; i < occ_option_count(); i++)
        if ((c->given >> i & 1u) && !occ_option_applies(o, occ_option_at(i), &r, want, sizeof want))
            return r->kind == OCC_OPT_FLAG
                       ? usage(c, "--%s applies only with --%s", occ_option_at(i)->name, r->name)
                       : usage(c, "--%s applies only with --%s %s (this run has --%s %s)",
                               occ_option_at(i)->name, r->name, want, r->name,
                               occ_option_value(o, r, got, sizeof got));
    return OCC_EXIT_OK;
}

/* The rules between options, once every option is known, so that their order does not matter. */
static int finish(const OccParseCtx *c, OccOptions *o)
{
    if (o->arch != NULL && !o->dry_run && !o->calc)
        return usage(c, "--arch: '%s' needs --dry-run or --calc (a real run measures its device)",
                     Q(o->arch));
    if (o->calc && o->n_block_threads > 1)
        return usage(c, "--calc takes one --block size (%d given)", o->n_block_threads);
    if (o->calc && o->regs_per_thread == 0)
        return usage(c, "--calc needs --regs N (registers per thread, 1..255: ptxas -v or "
                        "cudaFuncAttributes.numRegs)");
    /* The calculator assumes what the occupancy API does unless told: maximum shared memory. */
    for (int i = 0; o->calc && i < occ_option_count(); i++)
        if (occ_option_at(i)->field == offsetof(OccOptions, carveout) && !(c->given >> i & 1u))
            o->carveout = OCC_CARVEOUT_MAX;
    if (select_families(c, o) != OCC_EXIT_OK || check_scoped(c, o) != OCC_EXIT_OK ||
        check_requires(c, o) != OCC_EXIT_OK || check_lists(c, o) != OCC_EXIT_OK ||
        check_lever(c, o) != OCC_EXIT_OK)
        return OCC_EXIT_USAGE;
    if (o->recompute_path != NULL && (o->resume_path != NULL || o->dry_run || o->calc))
        return usage(c, "--recompute '%s' reads a finished run; drop --resume, --dry-run and "
                        "--calc",
                     Q(o->recompute_path));
    if (o->resume_path != NULL && o->out_path != NULL)
        return usage(c, "--resume '%s' writes to that file; drop --out", Q(o->resume_path));
    if (o->footprint_hi_bytes < (long long)OCC_FOOTPRINT_MIN_LINES * o->stride_bytes)
        return usage(c,
                     "--footprint: %lld..%lld B is too small to measure (accepted: HI of at "
                     "least %d B, %d lines of --stride %d B)",
                     o->footprint_lo_bytes, o->footprint_hi_bytes,
                     OCC_FOOTPRINT_MIN_LINES * o->stride_bytes, OCC_FOOTPRINT_MIN_LINES,
                     o->stride_bytes);
    return OCC_EXIT_OK;
}

void occ_options_defaults(OccOptions *o)
{
    OccParseCtx c = {0};
    *o = (OccOptions){0};
    for (int i = 0; i < occ_option_count(); i++) {
        c.spec = occ_option_at(i);
        c.arg = c.spec->default_text;
        if (c.arg != NULL) apply(&c, o);
    }
    finish(&c, o);
}

/* Table index of getopt id (or optopt) id, or -1 for none (an unknown option). */
static int option_index(int id)
{
    if (id >= OPT_ID_BASE) return id - OPT_ID_BASE;
    for (int i = 0; id != 0 && i < occ_option_count(); i++)
        if (occ_option_at(i)->short_name == id) return i;
    return -1;
}

int occ_options_parse(int argc, char **argv, OccOptions *o, char *err, size_t err_len)
{
    struct option longopts[OCC_OPTION_MAX + 1] = {{0}};
    char shorts[OCC_OPTION_MAX + 3] = "+:";
    OccParseCtx c = {.err = err, .err_len = err_len};
    size_t n_shorts = 2;
    int id;
    for (int i = 0; i < occ_option_count(); i++) {
        const OccOptSpec *s = occ_option_at(i);
        longopts[i] =
            (struct option){s->name, s->kind == OCC_OPT_FLAG ? no_argument : required_argument,
                            NULL, s->short_name ? s->short_name : OPT_ID_BASE + i};
        if (s->short_name) shorts[n_shorts++] = s->short_name;
    }
    occ_options_defaults(o);
    if (err != NULL && err_len > 0) err[0] = '\0';
    /* optind 0 (not 1) makes glibc drop state left by an earlier parse. '+' keeps argv in order
     * (the CSV records the command line) and stops at the first positional; ':' returns a missing
     * value apart from an unknown option; opterr too, as not every getopt honours ':' after '+'. */
    optind = 0;
    opterr = 0;
    while ((id = getopt_long(argc, argv, shorts, longopts, NULL)) != -1) {
        const char *given = argv[optind - 1];
        char accepted[512];
        /* getopt sets optopt to the option's id for a missing or unwanted value, to the char of
         * an unknown short option, and to 0 for an unknown or ambiguous long one. */
        int i = option_index(id == ':' || id == '?' ? optopt : id);
        c.spec = occ_option_at(i);
        if (id == ':')
            return usage(&c, "--%s: missing value (accepted: %s)", c.spec->name,
                         occ_option_accepted(c.spec, accepted, sizeof accepted));
        if (id == '?' && c.spec != NULL)
            return usage(&c, "--%s takes no value (got '%s')", c.spec->name, Q(given));
        if (id == '?' && optopt != 0) return usage(&c, "unknown option '-%c' (see --help)", optopt);
        if (id == '?') return usage(&c, "unknown or ambiguous option '%s' (see --help)", Q(given));
        c.arg = optarg;
        if (c.arg != NULL && c.arg[0] == '\0') return bad_value(&c, NULL, 0, "is empty");
        /* "--out --force" would write a file named --force: no value may look like an option. */
        if (c.arg != NULL && occ_value_looks_like_option(c.arg, shorts + 2))
            return bad_value(&c, NULL, 0, "looks like an option, not a value");
        if (apply(&c, o) != OCC_EXIT_OK) return OCC_EXIT_USAGE;
        c.given |= 1ull << i;
        if (c.spec->stops) return OCC_EXIT_OK;
    }
    if (optind < argc)
        return usage(&c, "unexpected argument '%s' (options start with --; see --help)",
                     Q(argv[optind]));
    return finish(&c, o);
}

int occ_options_run_axes(const OccOptions *o, OccRunAxis *out, int max)
{
    int n = 0;
    for (int i = 0; i < occ_option_count(); i++) {
        const OccOptSpec *s = occ_option_at(i);
        if (!s->run_axis || !(occ_option_takers(s->name) & o->families) ||
            !occ_option_applies(o, s, NULL, NULL, 0))
            continue;
        if (n < max) {
            out[n].name = s->name;
            occ_option_value(o, s, out[n].value, sizeof out[n].value);
        }
        n++;
    }
    return n;
}
