/* SPDX-License-Identifier: Apache-2.0 */
/* harness/csv/csv_schema.c: the column table of csv_columns.h, row initialization and the column
 * queries of csv.h. */
#include "csv_schema.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "catalog.h"

#define COLUMN_ENTRY(name, type, doc) {#name, OCC_CSV_TYPE_##type, doc, offsetof(OccRow, name)},
const OccCsvColumn occ_csv_columns[OCC_CSV_N_COLUMNS] = {OCC_CSV_COLUMNS(COLUMN_ENTRY)};
#undef COLUMN_ENTRY

void occ_csv_set_err(char *err, size_t err_len, const char *fmt, ...)
{
    if (err == NULL || err_len == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_len, fmt, ap);
    va_end(ap);
}

int occ_csv_column_count(void) { return OCC_CSV_N_COLUMNS; }

const char *occ_csv_column_name(int i)
{
    return i >= 0 && i < OCC_CSV_N_COLUMNS ? occ_csv_columns[i].name : NULL;
}

const char *occ_csv_column_doc(int i)
{
    return i >= 0 && i < OCC_CSV_N_COLUMNS ? occ_csv_columns[i].doc : NULL;
}

void occ_row_init(OccRow *r)
{
    for (int i = 0; i < OCC_CSV_N_COLUMNS; i++) {
        void *p = occ_csv_field(r, &occ_csv_columns[i]);
        switch (occ_csv_columns[i].type) {
        case OCC_CSV_TYPE_STR: *(const char **)p = "-"; break;
        case OCC_CSV_TYPE_INT: *(long long *)p = 0; break;
        default: *(double *)p = NAN; break;
        }
    }
    r->family_info = NULL;
    r->variant_info = NULL;
}

void occ_row_resolve(OccRow *r)
{
    r->family_info = r->kernel && r->mode ? occ_family_at(occ_family_find(r->kernel, r->mode))
                                          : NULL;
    r->variant_info = occ_variant_at(occ_variant_find(r->variant));
}
