/* SPDX-License-Identifier: Apache-2.0 */
/* harness/cli/options_values.h: the value syntaxes of the command line (numbers, byte sizes,
 * int lists, occupancy specs, footprint ranges, kernel and arch names). Pure lexical checks: the
 * ranges of the option table are checked by harness/cli/options_apply.c, the compiled values by
 * harness/cli/options_scope.c. occ_parse_size_bytes and occ_parse_int_list are public (through
 * harness/cli/options.h); the occ_value_* functions serve the parser. */
#ifndef OCC_OPTIONS_VALUES_H
#define OCC_OPTIONS_VALUES_H

#include <stddef.h>

#include "options_types.h"

/* Parses a byte size: a positive decimal integer with an optional suffix K, M, G (or KiB, MiB,
 * GiB), each 2^10, 2^20, 2^30: "4096", "512M", "1G", "4KiB". Returns 0 and sets *out, or -1 (and
 * leaves *out alone) on anything else: empty, sign, fraction, other suffix, zero, or a value
 * above LLONG_MAX bytes. */
int occ_parse_size_bytes(const char *s, long long *out);

/* Parses a comma list of decimal ints whose elements are values ("4", "-2") or ranges "LO..HI"
 * (LO <= HI): "1,2,4", "1..8", "1..4,16". A range expands to the powers of two within it when
 * powers_of_two_range is nonzero ("3..16" -> 4, 8, 16), else to every integer in it. Duplicates
 * are dropped, keeping the first; values are not otherwise checked. Returns 0 with out[0..*n-1]
 * set, or -1 on an empty list or element, a non-integer, an int overflow, an incomplete or
 * reversed range, a range holding no value, or more than max distinct values (out[] may then
 * have been written; *n is left alone). */
int occ_parse_int_list(const char *s, int *out, int max, int *n, int powers_of_two_range);

/* Why a value was refused. */
typedef struct OccValueError {
    const char *at;  /* the offending element of the value; NULL: the whole value */
    size_t len;      /* bytes of the element at `at` */
    char reason[64]; /* worded to follow the quoted value, e.g. "has a reversed range" */
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

/* 1 when s is a zero byte count, one or more '0' digits with or without an accepted unit ("0",
 * "00", "0K"), which occ_value_size refuses as not positive; else 0. */
int occ_value_size_is_zero(const char *s);

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

/* A footprint range LO..HI of byte sizes, LO <= HI <= OCC_FOOTPRINT_MAX_BYTES (the lower bound,
 * lines of --stride, is checked once every option is known). Returns 0, or -1 with *e. */
int occ_value_footprint(const char *s, long long *lo, long long *hi, OccValueError *e);

/* 1 when s has the shape of an arch name, sm_<2-3 digits>[a|f]; whether it names a
 * known arch is the arch table's business (harness/core/arch.h). */
int occ_value_is_arch(const char *s);

#endif
