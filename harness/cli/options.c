/* SPDX-License-Identifier: Apache-2.0 */
/* harness/cli/options.c: the occsweep command line: getopt_long over the option table
 * (harness/cli/options_table.c), each value by its kind (options_apply.c), then the rules
 * between options (here and in options_scope.c); the defaults and the --resume run axes. */
#define _GNU_SOURCE /* getopt_long and struct option; musl hides them otherwise */

#include "options.h"

#include "exitcodes.h"
#include "options_apply.h"
#include "options_catalog.h"
#include "options_msg.h"
#include "options_scope.h"
#include "options_table.h"
#include "options_text.h"
#include "options_values.h"

#include <getopt.h>
#include <stdarg.h>
#include <string.h>

/* getopt ids of long options: above every char, so none is mistaken for a short option. */
enum { OPT_ID_BASE = 256 };

/* Where the messages go, the option being read, and which options the command line gave. */
typedef struct OccParseCtx {
    char *err;                /* the message buffer, or NULL */
    size_t err_len;           /* bytes of err */
    const OccOptSpec *spec;   /* the option being parsed */
    unsigned long long given; /* bit i: table option i was on the command line */
} OccParseCtx;

/* occ_msg_usage into c's message buffer. */
__attribute__((format(printf, 2, 3))) static int usage(const OccParseCtx *c, const char *fmt, ...)
{
    va_list ap;
    int rc;
    va_start(ap, fmt);
    rc = occ_msg_vusage(c->err, c->err_len, fmt, ap);
    va_end(ap);
    return rc;
}

/* The rules between options, once every option is known, so that their order does not matter. */
static int finish(const OccParseCtx *c, OccOptions *o)
{
    if (o->arch != NULL && !o->dry_run && !o->calc)
        return usage(c, "--arch: '%s' needs --dry-run or --calc (a real run measures its device)",
                     OCC_QUOTE(o->arch));
    if (o->calc && o->n_block_threads > 1)
        return usage(c, "--calc takes one --block size (%d given)", o->n_block_threads);
    if (o->calc && o->regs_per_thread == 0)
        return usage(c, "--calc needs --regs N (registers per thread, 1..255: ptxas -v or "
                        "cudaFuncAttributes.numRegs)");
    /* The calculator assumes what the occupancy API does unless told: maximum shared memory. */
    for (int i = 0; o->calc && i < occ_option_count(); i++)
        if (occ_option_at(i)->field == offsetof(OccOptions, carveout) && !(c->given >> i & 1u))
            o->carveout = OCC_CARVEOUT_MAX;
    if (occ_options_check_scope(o, c->given, c->err, c->err_len) != OCC_EXIT_OK)
        return OCC_EXIT_USAGE;
    if (o->recompute_path != NULL && (o->resume_path != NULL || o->dry_run || o->calc))
        return usage(c,
                     "--recompute '%s' reads a finished run; drop --resume, --dry-run and "
                     "--calc",
                     OCC_QUOTE(o->recompute_path));
    if (o->resume_mismatch && o->resume_path == NULL)
        return usage(c, "--resume-mismatch applies only with --resume FILE");
    if (o->resume_path != NULL && o->out_path != NULL)
        return usage(c, "--resume '%s' writes to that file; drop --out", OCC_QUOTE(o->resume_path));
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
    const OccParseCtx c = {0};
    *o = (OccOptions){0};
    for (int i = 0; i < occ_option_count(); i++) {
        const OccOptSpec *s = occ_option_at(i);
        if (s->default_text != NULL) occ_option_apply(s, s->default_text, o, NULL, 0);
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
            return usage(&c, "--%s takes no value (got '%s')", c.spec->name, OCC_QUOTE(given));
        if (id == '?' && optopt != 0) return usage(&c, "unknown option '-%c' (see --help)", optopt);
        if (id == '?')
            return usage(&c, "unknown or ambiguous option '%s' (see --help)", OCC_QUOTE(given));
        if (optarg != NULL && optarg[0] == '\0')
            return occ_option_bad_value(c.spec, optarg, NULL, 0, "is empty", err, err_len);
        /* "--out --force" would write a file named --force: no value may look like an option. */
        if (optarg != NULL && occ_value_looks_like_option(optarg, shorts + 2))
            return occ_option_bad_value(c.spec, optarg, NULL, 0,
                                        "looks like an option, not a value", err, err_len);
        if (occ_option_apply(c.spec, optarg, o, err, err_len) != OCC_EXIT_OK) return OCC_EXIT_USAGE;
        c.given |= 1ull << i;
        if (c.spec->stops) return OCC_EXIT_OK;
    }
    if (optind < argc)
        return usage(&c, "unexpected argument '%s' (options start with --; see --help)",
                     OCC_QUOTE(argv[optind]));
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
