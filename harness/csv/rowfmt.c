/* SPDX-License-Identifier: Apache-2.0 */
/* harness/csv/rowfmt.c: row helpers of the reports (contract in rowfmt.h). */
#include "rowfmt.h"

#include <math.h>
#include <string.h>

int occ_row_is_ok(const OccRow *r) { return r->status != NULL && strcmp(r->status, "ok") == 0; }

int occ_row_str_same(const char *a, const char *b)
{
    return strcmp(a ? a : "-", b ? b : "-") == 0;
}

int occ_row_ok_of_variant(const OccRow *r, const char *variant)
{
    return occ_row_is_ok(r) && occ_row_str_same(r->variant, variant);
}

void occ_row_print_md_num(FILE *f, int decimals, double v)
{
    if (isnan(v))
        fprintf(f, " - |");
    else
        fprintf(f, " %.*f |", decimals, v);
}

void occ_row_print_num(FILE *f, int width, int decimals, double v)
{
    if (isnan(v))
        fprintf(f, "  %*s", width, "-");
    else
        fprintf(f, "  %*.*f", width, decimals, v);
}
