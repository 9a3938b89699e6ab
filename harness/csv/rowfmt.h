/* SPDX-License-Identifier: Apache-2.0 */
/* harness/csv/rowfmt.h: small row helpers shared by the reports built from CSV rows (summary.c,
 * model.c): which rows count, how their strings compare, how a number prints in a text table.
 * Pure: no CUDA header. */
#ifndef OCC_ROWFMT_H
#define OCC_ROWFMT_H

#include <stdio.h>

#include "csv.h"

/* 1 when r's status is exactly "ok" (a measured point), else 0 (skip:..., fail:..., NULL). */
int occ_row_is_ok(const OccRow *r);

/* 1 when the STR fields a and b hold the same text, else 0. NULL reads as "-", as the CSV writer
 * writes it, so a NULL field equals "-". */
int occ_row_str_same(const char *a, const char *b);

/* 1 when r is an ok row (occ_row_is_ok) of the variant named `variant` (occ_row_str_same), else
 * 0: the rows a per-variant figure is computed over. */
int occ_row_ok_of_variant(const OccRow *r, const char *variant);

/* Prints one cell of an aligned text table to f: two spaces, then v with `decimals` digits after
 * the point right-aligned in `width` characters, or "-" in that width when v is NaN. */
void occ_row_print_num(FILE *f, int width, int decimals, double v);

/* Prints one cell of a markdown table row to f: " v |" with `decimals` digits after the point,
 * or " - |" when v is NaN. */
void occ_row_print_md_num(FILE *f, int decimals, double v);

#endif
