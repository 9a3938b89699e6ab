/* SPDX-License-Identifier: Apache-2.0 */
/* harness/options_values.h: the value syntaxes of the command line (numbers, byte sizes, int
 * lists, occupancy specs, footprint ranges, kernel and arch names), shared by options.c and its
 * table. Private to the options module: only harness/options*.c include it. Pure lexical checks:
 * ranges and compiled values are the table's business. */
#ifndef OCC_OPTIONS_VALUES_H
#define OCC_OPTIONS_VALUES_H

#include <stddef.h>

#include "options.h"

/* Why a value was refused. at/len: the offending element of the value (at NULL: the whole
 * value); reason: worded to follow the quoted value, e.g. "has a reversed range". */
typedef struct OccValueError {
    const char *at;
    size_t len;
    char reason[64];
} OccValueError;

/* A plain decimal integer in b[0..len) (optional '-', digits; no spaces or '+'). Returns 0, -1
 * (not an integer) or -2 (beyond long long). */
int occ_value_ll(const char *b, size_t len, long long *v);

/* A number in plain decimal notation in b[0..len) (digits, '.', exponent; no "nan", "inf", hex
 * or spaces), '.' as the decimal point whatever LC_NUMERIC says. Returns 0, or -1 (not such a
 * number, or beyond double). */
int occ_value_double(const char *b, size_t len, double *v);

/* A byte size in b[0..len), as occ_parse_size_bytes. Returns NULL, or why not (e.g. "has an
 * unknown unit"). */
const char *occ_value_size(const char *b, size_t len, long long *out);

/* An int list, as occ_parse_int_list, into out[0..max). Returns NULL with *n set, or why not. */
const char *occ_value_int_list(const char *s, int *out, int max, int *n, int powers_of_two);

/* An occupancy spec: LO..HI, LO..HI:STEP or a comma list of levels, percent in (0, 100], at
 * most OCC_MAX_LIST distinct levels and 10000 steps; "N,D" (N of 1-3 digits, D one digit) is
 * refused as a decimal comma. Returns 0 with *spec set, or -1 with *e. */
int occ_value_occ(const char *s, OccOccSpec *spec, OccValueError *e);

/* What b[0..len) is as an element of --kernel: 2 for "all" (every kernel), 1 for a catalog
 * kernel name, 0 for neither. */
int occ_value_kernel_word(const char *b, size_t len);

/* 1 when s looks like an option rather than a value: it starts with "--", or it is "-c" for a
 * char c of shorts (the short options). "-5" and "-" are values. */
int occ_value_looks_like_option(const char *s, const char *shorts);

/* Maximum bytes of a value a message quotes (occ_value_quote). */
enum { OCC_VALUE_QUOTE_MAX = 60 };

/* A quote of a value for a message: at most its first OCC_VALUE_QUOTE_MAX bytes, then "..."
 * when it is longer, so that a message about a 100 KB value still ends with its reason. */
typedef struct OccQuote {
    char s[OCC_VALUE_QUOTE_MAX + 4]; /* NUL-terminated */
} OccQuote;

/* The quote of s[0..len). */
OccQuote occ_value_quote(const char *s, size_t len);

/* A footprint range LO..HI of byte sizes, LO <= HI <= OCC_FOOTPRINT_MAX_BYTES (the lower bound,
 * lines of --stride, is checked once every option is known). Returns 0, or -1 with *e. */
int occ_value_footprint(const char *s, long long *lo, long long *hi, OccValueError *e);

/* 1 when s has the shape of an arch name, sm_<2-3 digits>[a|f]; the arch table lives elsewhere. */
int occ_value_is_arch(const char *s);

#endif
