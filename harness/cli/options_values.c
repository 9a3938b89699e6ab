/* SPDX-License-Identifier: Apache-2.0 */
/* harness/cli/options_values.c: the value syntaxes of the command line, checked without
 * strtod's or strtoll's leniency (spaces, '+', "nan", hex). */
#include "options_values.h"

#include "catalog.h"

#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OCC_MAX_OCC_STEPS = 10000 };

/* The local buffer stops strtoll from reading past an element. */
int occ_value_ll(const char *b, size_t len, long long *v)
{
    size_t sign = len > 0 && b[0] == '-';
    size_t i = sign;
    char buf[32];
    while (i < len && b[i] >= '0' && b[i] <= '9')
        i++;
    if (i != len || len == sign) return -1;
    if (len >= sizeof buf) return -2;
    memcpy(buf, b, len);
    buf[len] = '\0';
    errno = 0;
    *v = strtoll(buf, NULL, 10);
    return errno == ERANGE ? -2 : 0;
}

/* strtod reads the decimal point of LC_NUMERIC; a library user may have set one that is not '.'
 * (de_DE: ','), so the number is read under the C locale, switched for this thread only. */
int occ_value_double(const char *b, size_t len, double *v)
{
    static locale_t c_numeric;
    locale_t prev = (locale_t)0;
    char buf[64];
    char *end;
    if (len == 0 || len >= sizeof buf) return -1;
    memcpy(buf, b, len);
    buf[len] = '\0';
    if (strspn(buf, "0123456789.eE+-") != len) return -1;
    if (c_numeric == (locale_t)0) c_numeric = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    if (c_numeric != (locale_t)0) prev = uselocale(c_numeric);
    errno = 0;
    *v = strtod(buf, &end);
    if (prev != (locale_t)0) uselocale(prev);
    return (*end != '\0' || errno == ERANGE) ? -1 : 0;
}

static int add_unique(int *out, int max, int *n, int v)
{
    for (int i = 0; i < *n; i++)
        if (out[i] == v) return 0;
    if (*n >= max) return -1;
    out[(*n)++] = v;
    return 0;
}

/* The every-integer loop is bounded: after max distinct values the next new one fails. */
const char *occ_value_int_list(const char *s, int *out, int max, int *n_out, int pow2)
{
    int n = 0;
    if (*s == '\0') return "is empty";
    for (const char *b = s;; b++) {
        const char *e = b + strcspn(b, ",");
        const char *dots = strstr(b, "..");
        long long lo = 0, hi = 0;
        int rc, found = 0;
        if (e == b) return "has an empty element";
        if (dots == NULL || dots >= e) {
            dots = NULL;
            rc = occ_value_ll(b, (size_t)(e - b), &lo);
            hi = lo;
        } else {
            if (dots == b || dots + 2 == e) return "has an incomplete range";
            rc = occ_value_ll(b, (size_t)(dots - b), &lo);
            if (rc == 0) rc = occ_value_ll(dots + 2, (size_t)(e - dots - 2), &hi);
        }
        if (rc == -1) return "has a non-integer element";
        if (rc == -2 || lo < INT_MIN || lo > INT_MAX || hi < INT_MIN || hi > INT_MAX)
            return "has a number out of range";
        if (lo > hi) return "has a reversed range";
        if (pow2 && dots != NULL) {
            for (long long p = 1; p <= hi; p *= 2) {
                if (p < lo) continue;
                found = 1;
                if (add_unique(out, max, &n, (int)p) != 0) return "has too many values";
            }
            if (!found) return "has a range without a power of two";
        } else {
            for (long long v = lo; v <= hi; v++)
                if (add_unique(out, max, &n, (int)v) != 0) return "has too many values";
        }
        b = e;
        if (*b == '\0') break;
    }
    *n_out = n;
    return NULL;
}

int occ_parse_int_list(const char *s, int *out, int max, int *n, int powers_of_two_range)
{
    if (s == NULL || out == NULL || n == NULL || max < 1) return -1;
    return occ_value_int_list(s, out, max, n, powers_of_two_range) == NULL ? 0 : -1;
}

const char *occ_value_size(const char *b, size_t len, long long *out)
{
    static const struct {
        const char *suffix;
        long long mult;
    } units[] = {{"", 1},           {"K", 1LL << 10},   {"M", 1LL << 20},
                 {"G", 1LL << 30},  {"KiB", 1LL << 10}, {"MiB", 1LL << 20},
                 {"GiB", 1LL << 30}};
    size_t nd = 0;
    long long v, mult = 0;
    while (nd < len && b[nd] >= '0' && b[nd] <= '9')
        nd++;
    if (nd == 0) return "is not a positive size";
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strlen(units[i].suffix) == len - nd && memcmp(units[i].suffix, b + nd, len - nd) == 0)
            mult = units[i].mult;
    if (mult == 0) return "has an unknown unit";
    if (occ_value_ll(b, nd, &v) != 0 || v > LLONG_MAX / mult) return "is too large";
    if (v == 0) return "is not positive";
    *out = v * mult;
    return NULL;
}

int occ_value_size_is_zero(const char *s)
{
    const size_t zeros = strspn(s, "0");
    if (zeros == 0) return 0;
    /* a unit after the zeros is accepted as a 1 there would be: "0K" is 0 bytes */
    char one[16];
    snprintf(one, sizeof one, "1%.12s", s + zeros);
    long long v;
    return strlen(s + zeros) <= 12 && occ_value_size(one, strlen(one), &v) == NULL;
}

int occ_parse_size_bytes(const char *s, long long *out)
{
    long long v;
    if (s == NULL || out == NULL || occ_value_size(s, strlen(s), &v) != NULL) return -1;
    *out = v;
    return 0;
}

static int fail(OccValueError *e, const char *at, size_t len, const char *reason)
{
    /* An empty element is reported on the whole value: '' would say nothing. */
    int empty = at != NULL && len == 0;
    e->at = empty ? NULL : at;
    e->len = empty ? 0 : len;
    snprintf(e->reason, sizeof e->reason, "%s", empty ? "has an empty element" : reason);
    return -1;
}

static int occ_level(const char *b, size_t len, double *v, int is_step, OccValueError *e)
{
    if (occ_value_double(b, len, v) != 0) return fail(e, b, len, "is not a number");
    if (!(*v > 0.0 && *v <= 100.0))
        return fail(e, b, len, is_step ? "is not a step in (0, 100]" : "is not in (0, 100]");
    return 0;
}

static int occ_list(const char *s, OccOccSpec *spec, OccValueError *e)
{
    spec->is_list = 1;
    spec->lo_pct = 100.0;
    for (const char *b = s;; b++) {
        size_t len = strcspn(b, ",");
        double v;
        int i = 0;
        if (occ_level(b, len, &v, 0, e) != 0) return -1;
        while (i < spec->n_pct && spec->pct[i] != v)
            i++;
        if (i == spec->n_pct && spec->n_pct == OCC_MAX_LIST) {
            fail(e, NULL, 0, "");
            snprintf(e->reason, sizeof e->reason, "has more than %d levels", OCC_MAX_LIST);
            return -1;
        }
        if (i == spec->n_pct) spec->pct[spec->n_pct++] = v;
        spec->lo_pct = v < spec->lo_pct ? v : spec->lo_pct;
        spec->hi_pct = v > spec->hi_pct ? v : spec->hi_pct;
        b += len;
        if (*b == '\0') return 0;
    }
}

/* "12,5" is two levels by the syntax but most likely 12.5 written with a decimal comma: a list of
 * exactly two integers, the first of 1-3 digits and the second of one digit, whose decimal would
 * be a percent in (0, 100], is refused with the hint; "5,12", "12,5.0" or "100,5" (100.5 is no
 * occupancy) still give the two levels. */
static int decimal_comma(const char *s, OccValueError *e)
{
    size_t n_int = strspn(s, "0123456789");
    if (n_int < 1 || n_int > 3 || s[n_int] != ',' || s[n_int + 1] < '0' || s[n_int + 1] > '9' ||
        s[n_int + 2] != '\0')
        return 0;
    /* a decimal out of (0, 100] is no occupancy: "100,5" is the two levels 100% and 5% */
    const double decimal = atoi(s) + (s[n_int + 1] - '0') / 10.0;
    if (!(decimal > 0 && decimal <= 100)) return 0;
    fail(e, NULL, 0, "");
    snprintf(e->reason, sizeof e->reason,
             "looks like a decimal comma (for %.*s.%c%% write %.*s.%c)", (int)n_int, s,
             s[n_int + 1], (int)n_int, s, s[n_int + 1]);
    return 1;
}

int occ_value_occ(const char *s, OccOccSpec *spec, OccValueError *e)
{
    OccOccSpec r = {0};
    const char *end = s + strlen(s), *dots = strstr(s, "..");
    if (decimal_comma(s, e)) return -1;
    if (strchr(s, ',') != NULL || dots == NULL) {
        if (strchr(s, ':') != NULL) return fail(e, NULL, 0, "has a step but no range");
        if (occ_list(s, &r, e) != 0) return -1;
    } else {
        const char *colon = strchr(dots + 2, ':');
        const char *hi_end = colon != NULL ? colon : end;
        if (dots == s || dots + 2 == hi_end) return fail(e, NULL, 0, "is an incomplete range");
        if (occ_level(s, (size_t)(dots - s), &r.lo_pct, 0, e) != 0 ||
            occ_level(dots + 2, (size_t)(hi_end - dots - 2), &r.hi_pct, 0, e) != 0 ||
            (colon != NULL && occ_level(colon + 1, (size_t)(end - colon - 1), &r.step_pct, 1, e)))
            return -1;
        if (r.lo_pct > r.hi_pct) return fail(e, NULL, 0, "is a reversed range");
        /* Each step is a level the planner maps; a step this fine asks for absurdly many. */
        if (r.step_pct > 0 && (r.hi_pct - r.lo_pct) / r.step_pct > OCC_MAX_OCC_STEPS)
            return fail(e, NULL, 0, "has a step too small (over 10000 levels)");
    }
    *spec = r;
    return 0;
}

int occ_value_footprint(const char *s, long long *lo, long long *hi, OccValueError *e)
{
    const char *dots = strstr(s, ".."), *why;
    size_t n_lo, n_hi;
    long long l, h;
    if (dots == NULL) return fail(e, NULL, 0, "is not a range");
    n_lo = (size_t)(dots - s);
    n_hi = strlen(dots + 2);
    if (n_lo == 0 || n_hi == 0) return fail(e, NULL, 0, "is an incomplete range");
    if ((why = occ_value_size(s, n_lo, &l)) != NULL) return fail(e, s, n_lo, why);
    if ((why = occ_value_size(dots + 2, n_hi, &h)) != NULL) return fail(e, dots + 2, n_hi, why);
    if (l > h) return fail(e, NULL, 0, "is a reversed range");
    if (h > OCC_FOOTPRINT_MAX_BYTES) return fail(e, dots + 2, n_hi, "is above 1 TiB");
    *lo = l;
    *hi = h;
    return 0;
}

int occ_value_looks_like_option(const char *s, const char *shorts)
{
    if (s[0] != '-') return 0;
    if (s[1] == '-') return 1;
    return s[1] != '\0' && s[2] == '\0' && strchr(shorts, s[1]) != NULL;
}

int occ_value_kernel_word(const char *b, size_t len)
{
    if (len == 3 && memcmp(b, "all", 3) == 0) return 2;
    for (int f = 0; f < occ_family_count(); f++)
        if (strlen(occ_family_at(f)->kernel) == len &&
            memcmp(occ_family_at(f)->kernel, b, len) == 0)
            return 1;
    return 0;
}

int occ_value_is_arch(const char *s)
{
    size_t nd;
    if (strncmp(s, "sm_", 3) != 0) return 0;
    nd = strspn(s + 3, "0123456789");
    s += 3 + nd;
    return nd >= 2 && nd <= 3 && (s[0] == '\0' || ((s[0] == 'a' || s[0] == 'f') && s[1] == '\0'));
}
