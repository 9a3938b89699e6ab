/* SPDX-License-Identifier: Apache-2.0 */
/* harness/csv/csv_schema.h: the column table behind csv.h, shared by the files of the CSV module only
 * (csv_schema.c: table, row init, column queries; csv_write.c: writer; csv_target.c: the writer's
 * path checks; csv_read.c: reader).
 * Everything else uses csv.h. */
#ifndef OCC_CSV_SCHEMA_H
#define OCC_CSV_SCHEMA_H

#include <stddef.h>

#include "csv.h"

/* The type of a column, from its X() entry: the C type of its OccRow field (csv.h). */
enum { OCC_CSV_TYPE_STR, OCC_CSV_TYPE_INT, OCC_CSV_TYPE_NUM };

/* One column of the schema. */
typedef struct OccCsvColumn {
    const char *name; /* column name, as in the header line */
    int type;         /* OCC_CSV_TYPE_STR (const char *), _INT (long long) or _NUM (double) */
    const char *doc;  /* meaning and unit: the doc string of the X() entry */
    size_t offset;    /* byte offset of the column's field in OccRow */
} OccCsvColumn;

#define OCC_CSV_COUNT_COLUMN(name, type, doc) +1
/* Number of columns, a constant expression (sizes the reader's field array). */
enum { OCC_CSV_N_COLUMNS = 0 OCC_CSV_COLUMNS(OCC_CSV_COUNT_COLUMN) };
#undef OCC_CSV_COUNT_COLUMN

/* The OCC_CSV_N_COLUMNS columns, in schema order. */
extern const OccCsvColumn occ_csv_columns[OCC_CSV_N_COLUMNS];

/* The field of column c in row r: points to a const char *, long long or double by c->type. */
static inline void *occ_csv_field(const OccRow *r, const OccCsvColumn *c)
{
    return (char *)r + c->offset;
}

/* Explains a failed create (errno e) of the .partial file in terms of what the user can fix:
 * an existing one (a run writing it, or a leftover and how to resume from it), a missing or
 * unwritable directory (csv_target.c; the writer, csv_write.c, calls it). */
void occ_csv_explain_create_error(const char *partial, int e, char *err, size_t err_len);

/* Formats a one-line message into err (err_len bytes); does nothing when err is NULL or err_len
 * is 0. */
void occ_csv_set_err(char *err, size_t err_len, const char *fmt, ...);

#endif
