/* SPDX-License-Identifier: Apache-2.0 */
/* harness/csv/csv.h: the sweep's CSV file: one row per point, run metadata in "# key=value" lines.
 * Implemented by csv_schema.c (row init, column queries), csv_write.c and csv_read.c.
 *
 * File format (columns in csv_columns.h, their dictionary in results/README.md):
 *   # key=value           metadata lines, before the header (and end metadata after the rows)
 *   gpu_name,cc,...       one header line: the column names in schema order
 *   NVIDIA H200,9.0,...   one line per row
 * Fields are comma-separated. A string is quoted (RFC 4180, "" for a quote) only when it contains
 * a comma, a quote, CR or LF, starts or ends with a space or tab, or starts with '#' (so that no
 * row reads as metadata). INT is written "%lld"; NUM "%.10g" (round-trips to ~1e-10 relative),
 * NaN as "NaN", infinities as "Inf"/"-Inf". Metadata values are free text kept on one line:
 * backslash, LF and CR are escaped as "\\", "\n" and "\r" and unescaped by the reader.
 * Numbers are formatted in the C locale: the program must not call setlocale(LC_NUMERIC, ...).
 *
 * The writer builds each row in memory, writes it with one fwrite and flushes it, so a run that is
 * stopped (SIGINT handler sets a flag; the caller then calls occ_csv_close) or killed leaves only
 * whole rows. The file is written as "<path>.partial" and renamed to <path> by occ_csv_close, so a
 * file under its final name is always complete. */
#ifndef OCC_CSV_H
#define OCC_CSV_H

#include <stddef.h>

#include "csv_columns.h"

/* C type of each schema type. */
#define OCC_CSV_CTYPE_STR const char *
#define OCC_CSV_CTYPE_INT long long
#define OCC_CSV_CTYPE_NUM double

#define OCC_CSV_ROW_FIELD(name, type, doc) OCC_CSV_CTYPE_##type name;

/* One CSV row: one field per column of OCC_CSV_COLUMNS, in schema order, with the column's name;
 * each field's meaning and unit is the doc string of its X() entry in csv_columns.h (also the
 * column dictionary in results/README.md). STR fields are not owned by the row: the writer only
 * reads them; rows from occ_csv_read point into their OccCsvTable. After the columns, what the
 * row's kernel, mode and variant name in the catalog (harness/core/catalog.h), resolved once
 * where the row is made: from its point (harness/gpu/points.c) or by occ_row_resolve (a row read
 * back); the model, the summaries and the fleet read these, never the names again. */
typedef struct OccRow {
    OCC_CSV_COLUMNS(OCC_CSV_ROW_FIELD)
    const struct OccFamilyInfo *family_info;   /* its family; NULL: none in this catalog */
    const struct OccVariantInfo *variant_info; /* its compiled variant; NULL: none (a load
                                                  level, the ladder, another catalog's) */
} OccRow;

#undef OCC_CSV_ROW_FIELD

/* Sets every STR field to "-", every INT to 0 and every NUM to NaN: "not applicable"; no family
 * and no variant. */
void occ_row_init(OccRow *r);
/* Sets r's family_info (the catalog family of its kernel and mode) and variant_info (the catalog
 * variant of its name) from those columns: for rows read back (occ_csv_read does it) and rows a
 * test builds. */
void occ_row_resolve(OccRow *r);

/* An open CSV file being written (opaque). */
typedef struct OccCsvWriter OccCsvWriter;

/* Creates "<path>.partial" and writes the metadata lines "# keys[i]=values[i]" (i < n; a NULL
 * value is written empty) and the header. Keys must be non-empty and made of letters, digits,
 * '_', '.' and '-'. Without force it refuses when <path> exists; with force <path> is replaced
 * at occ_csv_close. An existing "<path>.partial" is always refused, never replaced: the message
 * says whether a run is writing it now (it holds the file's lock) or it is a leftover of a run
 * that did not finish (then: how to resume from it). The writer holds an exclusive flock on its
 * .partial until close and remembers the file's identity (device, inode). It sets SIGXFSZ to be
 * ignored, so that the file size limit fails a write instead of ending the process mid-row.
 * The parent directory must exist (see occ_csv_make_parent_dirs). Returns NULL on failure with a
 * one-line message naming the path in err (err_len bytes, may be 0). */
OccCsvWriter *occ_csv_open(const char *path, int force, const char *const *keys,
                           const char *const *values, int n, char *err, size_t err_len);

/* The checks occ_csv_open makes on path before it creates anything, for a caller that wants to
 * refuse a bad path early: path must be a regular file (only with force) or a new path, never
 * empty or ending in '/', never a directory, device node, FIFO or socket (the final rename would replace it); "<path>.partial"
 * must not be one either; no parent on its way may be a file; and the nearest existing directory
 * on its way must be writable. 0, or -1 with a one-line message naming the path (its first 200
 * bytes) and the reason in err. */
int occ_csv_check_target(const char *path, int force, char *err, size_t err_len);

/* occ_csv_open in two steps, for a run that must first copy rows it keeps (--resume): the file
 * is made without a name (or under a temporary one where the file system has no unnamed files)
 * and holds the metadata and header; the caller writes the kept rows with occ_csv_write_row, then
 * occ_csv_publish names it "<path>.partial" (link: an existing one is refused with
 * occ_csv_open's message, never replaced). Until then an interruption leaves no .partial: the
 * run can be repeated as it was. occ_csv_open is the two steps at once. */
OccCsvWriter *occ_csv_open_unpublished(const char *path, int force, const char *const *keys,
                                       const char *const *values, int n, char *err,
                                       size_t err_len);
/* Names w's file "<path>.partial". 0, or -1 with a one-line message in err (w stays open:
 * occ_csv_abandon frees it). */
int occ_csv_publish(OccCsvWriter *w, char *err, size_t err_len);
/* Frees w and removes its file when it was never published (a published .partial stays). */
void occ_csv_abandon(OccCsvWriter *w);

/* Writes one row and flushes it. A NULL STR field is written "-". Returns 0, or -1 when the write
 * failed (errno says why; the rows before it are on disk, and the file is cut back to them: it
 * never ends in part of a row). */
int occ_csv_write_row(OccCsvWriter *w, const OccRow *r);

/* Appends "# end_key=end_value" when end_key is not NULL (e.g. end_status=complete or
 * interrupted), closes the file and renames "<path>.partial" to <path>, only when that name
 * still is the file this writer created. Frees w in every case. Returns 0, or -1 (errno says
 * why; ESTALE: "<path>.partial" is another file now, left alone) with the data left in
 * "<path>.partial". */
int occ_csv_close(OccCsvWriter *w, const char *end_key, const char *end_value);

/* Creates the missing parent directories of path, like mkdir -p on its directory part (mode
 * 0777 before umask). Returns 0, or -1 with a message naming the directory in err. */
int occ_csv_make_parent_dirs(const char *path, char *err, size_t err_len);

/* The path of a file beside a run's CSV: csv_path without a trailing ".csv", then suffix (e.g.
 * "-knee.md"), into out (len bytes, truncated to fit). */
void occ_csv_sibling_path(const char *csv_path, const char *suffix, char *out, size_t len);

/* A CSV file read back into memory. */
typedef struct OccCsvTable {
    int n_meta;          /* metadata lines, from anywhere in the file, in file order */
    char **meta_keys;    /* n_meta keys */
    char **meta_values;  /* n_meta values, unescaped (may contain LF/CR) */
    int n_rows;          /* data rows after the header */
    OccRow *rows;        /* n_rows rows; their STR fields point into text */
    char *text;          /* owner of every string above (the file's bytes, unquoted in place) */
} OccCsvTable;

/* The largest input CSV (--resume, --recompute) read, 4 GiB: every run's file is far smaller
 * (442,000 rows are 200 MB), and the reader holds the whole file in memory. */
#define OCC_CSV_MAX_INPUT_BYTES (4LL << 30)

/* The check made on an input CSV before it is read: path must exist, be a regular file (a FIFO
 * would block the read, a device feed it without end) and hold at most OCC_CSV_MAX_INPUT_BYTES.
 * 0, or -1 with the reason in err, to follow the path: "does not exist", "is not a regular file",
 * "is N bytes, more than the 4 GiB an input CSV may hold". */
int occ_csv_check_input(const char *path, char *err, size_t err_len);

/* Reads a CSV file written by this module (a header matching the schema exactly is required;
 * '#' lines without '=' and empty lines are ignored; CRLF line ends are accepted). Returns 0, or
 * -1 with t zeroed and "file:line: what is wrong" in err: wrong header, wrong field count, a
 * field that is not an integer (INT) or a number (NUM), an unterminated quote. */
int occ_csv_read(const char *path, OccCsvTable *t, char *err, size_t err_len);

/* The value of metadata key (the last one when a key repeats), or NULL when absent. */
const char *occ_csv_meta_get(const OccCsvTable *t, const char *key);

/* Frees everything t owns and zeroes it; safe on a zeroed table. */
void occ_csv_table_free(OccCsvTable *t);

/* Number of columns in the schema. */
int occ_csv_column_count(void);

/* Name of column i (0-based, schema order), or NULL when i is out of range. */
const char *occ_csv_column_name(int i);

/* Documentation string of column i (meaning and unit), or NULL when i is out of range. */
const char *occ_csv_column_doc(int i);

#endif
