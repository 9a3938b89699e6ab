/* SPDX-License-Identifier: Apache-2.0 */
/* harness/cli/options_apply.c: one option's value into its field(s), by kind, with the
 * messages that name the bad value and what is accepted. */
#include "options_apply.h"

#include "catalog.h"
#include "exitcodes.h"
#include "options_msg.h"
#include "options_text.h"
#include "options_values.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

/* An ENUM field is written through an int. */
_Static_assert(sizeof(OccLever) == sizeof(int), "OccLever is int-sized");
_Static_assert(sizeof(OccSchedulePolicy) == sizeof(int), "OccSchedulePolicy is int-sized");
_Static_assert(sizeof(OccCarveout) == sizeof(int), "OccCarveout is int-sized");
_Static_assert(sizeof(OccChain) == sizeof(int), "OccChain is int-sized");

/* The option being parsed and where its messages go. */
typedef struct OccApplyCtx {
    char *err;              /* the message buffer, or NULL */
    size_t err_len;         /* bytes of err */
    const OccOptSpec *spec; /* the option */
    const char *arg;        /* its value (NULL for a flag) */
} OccApplyCtx;

int occ_option_bad_value(const OccOptSpec *s, const char *arg, const char *at, size_t len,
                         const char *reason, char *err, size_t err_len)
{
    char accepted[512];
    return occ_msg_usage(err, err_len, "--%s: '%s' %s (accepted: %s)", s->name,
                         occ_msg_quote(at ? at : arg, at ? len : strlen(arg)).s, reason,
                         occ_option_accepted(s, accepted, sizeof accepted));
}

/* occ_option_bad_value for the option of c. */
static int bad_value(const OccApplyCtx *c, const char *at, size_t len, const char *reason)
{
    return occ_option_bad_value(c->spec, c->arg, at, len, reason, c->err, c->err_len);
}

/* The range, multiple and power-of-two rules of an INT (or INT_LIST element) v; the message
 * quotes at[0..len) (NULL: the whole value). */
static int check_int(const OccApplyCtx *c, long long v, const char *at, size_t len)
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

static int parse_int(const OccApplyCtx *c, int *out)
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
static int parse_int_list(const OccApplyCtx *c, OccOptions *o)
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
    memcpy(OCC_OPTION_FIELD(o, s->field, int), vals, (size_t)n * sizeof vals[0]);
    *OCC_OPTION_FIELD(o, s->field2, int) = n;
    return OCC_EXIT_OK;
}

static int parse_kernels(const OccApplyCtx *c)
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
static int apply(const OccApplyCtx *c, OccOptions *o)
{
    const OccOptSpec *s = c->spec;
    OccValueError e = {0};
    const char *why;
    char noun[32];
    int vals[OCC_MAX_LIST], n = 0;
    snprintf(noun, sizeof noun, "is not a %s", s->noun ? s->noun : "value");
    switch (s->kind) {
    case OCC_OPT_FLAG:
        *OCC_OPTION_FIELD(o, s->field, int) = 1;
        return OCC_EXIT_OK;
    case OCC_OPT_INT:
        return parse_int(c, OCC_OPTION_FIELD(o, s->field, int));
    case OCC_OPT_INT_LIST:
        return parse_int_list(c, o);
    case OCC_OPT_DOUBLE: {
        double v;
        if (occ_value_double(c->arg, strlen(c->arg), &v) != 0)
            return bad_value(c, NULL, 0, "is not a number");
        if (!(v > s->lo && v <= s->hi)) return bad_value(c, NULL, 0, "is out of range");
        *OCC_OPTION_FIELD(o, s->field, double) = v;
        return OCC_EXIT_OK;
    }
    case OCC_OPT_SIZE:
        why = occ_value_size(c->arg, strlen(c->arg), OCC_OPTION_FIELD(o, s->field, long long));
        /* 0, with or without a unit, where 0 bytes is a value */
        if (why != NULL && s->zero_ok && occ_value_size_is_zero(c->arg)) {
            *OCC_OPTION_FIELD(o, s->field, long long) = 0;
            return OCC_EXIT_OK;
        }
        return why != NULL ? bad_value(c, NULL, 0, why) : OCC_EXIT_OK;
    case OCC_OPT_LIST:
        /* Syntax only here: what is compiled depends on the families, known at the end. */
        if ((why = occ_value_int_list(c->arg, vals, OCC_MAX_LIST, &n, 1)) != NULL)
            return bad_value(c, NULL, 0, why);
        memcpy(OCC_OPTION_FIELD(o, s->field, int), vals, (size_t)n * sizeof vals[0]);
        *OCC_OPTION_FIELD(o, s->field2, int) = n;
        return OCC_EXIT_OK;
    case OCC_OPT_ENUM:
        while (n < s->n_names && strcmp(s->names[n], c->arg) != 0)
            n++;
        if (n == s->n_names) return bad_value(c, NULL, 0, noun);
        *OCC_OPTION_FIELD(o, s->field, int) = n;
        return OCC_EXIT_OK;
    case OCC_OPT_OCC:
        return occ_value_occ(c->arg, OCC_OPTION_FIELD(o, s->field, OccOccSpec), &e) != 0
                   ? bad_value(c, e.at, e.len, e.reason)
                   : OCC_EXIT_OK;
    case OCC_OPT_FOOTPRINT:
        return occ_value_footprint(c->arg, OCC_OPTION_FIELD(o, s->field, long long),
                                   OCC_OPTION_FIELD(o, s->field2, long long), &e) != 0
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
        memcpy(OCC_OPTION_FIELD(o, s->field, int), vals, (size_t)(n > 0 ? n : 0) * sizeof vals[0]);
        *OCC_OPTION_FIELD(o, s->field2, int) = n;
        o->device = n > 0 ? vals[0] : 0;
        return OCC_EXIT_OK;
    case OCC_OPT_PATH:
        break;
    }
    *OCC_OPTION_FIELD(o, s->field, const char *) = c->arg;
    return OCC_EXIT_OK;
}

int occ_option_apply(const OccOptSpec *s, const char *arg, OccOptions *o, char *err, size_t err_len)
{
    const OccApplyCtx c = {.err = err, .err_len = err_len, .spec = s, .arg = arg};
    return apply(&c, o);
}
