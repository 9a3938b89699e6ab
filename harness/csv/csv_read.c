/* SPDX-License-Identifier: Apache-2.0 */
/* harness/csv/csv_read.c: the CSV reader: record splitting, unquoting in place, metadata, header and
 * field checks (format and contract in csv.h). */
#include "csv_schema.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int occ_csv_check_input(const char *path, char *err, size_t err_len)
{
    struct stat st;
    if (stat(path, &st) != 0)
        occ_csv_set_err(err, err_len, "%s",
                        errno == ENOENT ? "does not exist" : "is not a regular file");
    else if (!S_ISREG(st.st_mode))
        occ_csv_set_err(err, err_len, "is not a regular file");
    else if ((long long)st.st_size > OCC_CSV_MAX_INPUT_BYTES)
        occ_csv_set_err(err, err_len, "is %lld bytes, more than the %lld GiB an input CSV may hold",
                        (long long)st.st_size, OCC_CSV_MAX_INPUT_BYTES >> 30);
    else
        return 0;
    return -1;
}

typedef struct Parser {
    char *p, *end; /* *end is a NUL added after the file's bytes */
    int line;      /* 1-based line of p */
    const char *path;
    char *err;
    size_t err_len;
} Parser;

/* The file's bytes, NUL-terminated. The checks of occ_csv_check_input are made on the open file
 * itself (a FIFO is opened without blocking and refused, a file that grows while it is read
 * stops at the bound), so that every reader of a CSV gets them. */
static char *read_whole_file(const char *path, size_t *len, char *err, size_t err_len)
{
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0) {
        occ_csv_set_err(err, err_len, "%s: %s", path, strerror(errno));
        return NULL;
    }
    const char *why = fstat(fd, &st) != 0 ? strerror(errno)
                      : !S_ISREG(st.st_mode) ? "is not a regular file"
                      : (long long)st.st_size > OCC_CSV_MAX_INPUT_BYTES
                          ? "is more than the 4 GiB an input CSV may hold"
                          : NULL;
    FILE *f = why ? NULL : fdopen(fd, "rb");
    if (f == NULL) {
        occ_csv_set_err(err, err_len, "%s: %s", path, why ? why : strerror(errno));
        close(fd);
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *text = malloc(cap);
    while (text != NULL) {
        n += fread(text + n, 1, cap - n - 1, f);
        if (n < cap - 1 || (long long)n > OCC_CSV_MAX_INPUT_BYTES) break;
        char *grown = realloc(text, cap * 2);
        if (grown == NULL) free(text);
        text = grown;
        cap *= 2;
    }
    int bad = text == NULL || ferror(f) || (long long)n > OCC_CSV_MAX_INPUT_BYTES;
    fclose(f);
    if (bad) {
        occ_csv_set_err(err, err_len, "%s: %s", path,
                        !text ? "out of memory"
                        : (long long)n > OCC_CSV_MAX_INPUT_BYTES
                            ? "is more than the 4 GiB an input CSV may hold"
                            : "read error");
        free(text);
        return NULL;
    }
    text[n] = '\0';
    *len = n;
    return text;
}

/* Splits the record at ps->p into NUL-terminated fields, unquoting in place (an unquoted field is
 * never longer than its quoted form), and moves ps->p to the next record. Stores the first
 * max_fields fields; returns the number of fields, or -1 with the error set. */
static int split_record(Parser *ps, char **fields, int max_fields)
{
    int start_line = ps->line;
    for (int nf = 0;;) {
        char *field = ps->p, *dst;
        if (*ps->p == '"') {
            char *src = ps->p + 1;
            dst = ps->p;
            for (;; *dst++ = *src++) {
                if (src >= ps->end) {
                    occ_csv_set_err(ps->err, ps->err_len, "%s:%d: unterminated quoted field",
                                    ps->path, start_line);
                    return -1;
                }
                if (*src == '"' && src[1] != '"') break;
                if (*src == '"') src++;
                if (*src == '\n') ps->line++;
            }
            ps->p = src + 1;
            if (ps->p[0] == '\r' && ps->p[1] == '\n') ps->p++;
        } else {
            while (ps->p < ps->end && *ps->p != ',' && *ps->p != '\n') ps->p++;
            dst = ps->p;
            if (dst > field && dst[-1] == '\r' && *ps->p != ',') dst--;
        }
        char sep = *ps->p;
        if (sep != ',' && sep != '\n' && sep != '\0') {
            occ_csv_set_err(ps->err, ps->err_len, "%s:%d: '%c' after a closing quote", ps->path,
                            ps->line, sep);
            return -1;
        }
        *dst = '\0';
        if (nf < max_fields) fields[nf] = field;
        nf++;
        if (sep == '\0') return nf;
        ps->p++;
        if (sep == '\n') {
            ps->line++;
            return nf;
        }
    }
}

static void unescape_meta(char *s)
{
    char *d = s;
    for (; *s; s++) {
        if (*s == '\\' && (s[1] == '\\' || s[1] == 'n' || s[1] == 'r')) {
            s++;
            *d++ = *s == 'n' ? '\n' : *s == 'r' ? '\r' : '\\';
        } else {
            *d++ = *s;
        }
    }
    *d = '\0';
}

/* Takes one '#' line; lines without '=' are plain comments. */
static int read_meta_line(Parser *ps, OccCsvTable *t, int *cap)
{
    char *line = ps->p, *eol = memchr(line, '\n', (size_t)(ps->end - line));
    ps->p = eol ? eol + 1 : ps->end;
    ps->line++;
    if (eol == NULL) eol = ps->end;
    if (eol > line && eol[-1] == '\r') eol--;
    *eol = '\0';
    char *key = line + 1, *eq = strchr(key, '=');
    if (eq == NULL) return 0;
    while (*key == ' ' || *key == '\t') key++;
    char *kend = eq;
    while (kend > key && (kend[-1] == ' ' || kend[-1] == '\t')) kend--;
    *kend = '\0';
    unescape_meta(eq + 1);
    if (t->n_meta == *cap) {
        int n = *cap ? 2 * *cap : 32;
        char **k = realloc(t->meta_keys, (size_t)n * sizeof *k);
        if (k != NULL) t->meta_keys = k;
        char **v = realloc(t->meta_values, (size_t)n * sizeof *v);
        if (v != NULL) t->meta_values = v;
        if (k == NULL || v == NULL) return -1;
        *cap = n;
    }
    t->meta_keys[t->n_meta] = key;
    t->meta_values[t->n_meta++] = eq + 1;
    return 0;
}

static int check_header(Parser *ps, char **fields, int nf, int line)
{
    for (int i = 0; i < nf && i < OCC_CSV_N_COLUMNS; i++) {
        if (strcmp(fields[i], occ_csv_columns[i].name) != 0) {
            occ_csv_set_err(ps->err, ps->err_len,
                            "%s:%d: wrong header: column %d is '%.40s', expected '%s'", ps->path,
                            line, i + 1, fields[i], occ_csv_columns[i].name);
            return -1;
        }
    }
    if (nf != OCC_CSV_N_COLUMNS) {
        occ_csv_set_err(ps->err, ps->err_len, "%s:%d: wrong header: %d columns, expected %d",
                        ps->path, line, nf, OCC_CSV_N_COLUMNS);
        return -1;
    }
    return 0;
}

static int parse_row(Parser *ps, char **fields, int line, OccRow *r)
{
    for (int i = 0; i < OCC_CSV_N_COLUMNS; i++) {
        const OccCsvColumn *c = &occ_csv_columns[i];
        void *p = occ_csv_field(r, c);
        char *s = fields[i], *end;
        if (c->type == OCC_CSV_TYPE_STR) {
            *(const char **)p = s;
            continue;
        }
        errno = 0;
        if (c->type == OCC_CSV_TYPE_INT)
            *(long long *)p = strtoll(s, &end, 10);
        else
            *(double *)p = strtod(s, &end);
        /* strtod's ERANGE on underflow still gives the nearest value, so only INT checks it. */
        if (end == s || *end != '\0' || (c->type == OCC_CSV_TYPE_INT && errno == ERANGE)) {
            occ_csv_set_err(ps->err, ps->err_len, "%s:%d: column %s: '%.40s' is not %s", ps->path,
                            line, c->name, s,
                            c->type == OCC_CSV_TYPE_INT ? "an integer" : "a number");
            return -1;
        }
    }
    return 0;
}

int occ_csv_read(const char *path, OccCsvTable *t, char *err, size_t err_len)
{
    memset(t, 0, sizeof *t);
    size_t len;
    if ((t->text = read_whole_file(path, &len, err, err_len)) == NULL) return -1;
    Parser ps = {t->text, t->text + len, 1, path, err, err_len};
    int meta_cap = 0, row_cap = 0, have_header = 0;
    char *fields[OCC_CSV_N_COLUMNS];
    while (ps.p < ps.end) {
        if (*ps.p == '\n' || (ps.p[0] == '\r' && ps.p[1] == '\n')) {
            ps.p += *ps.p == '\n' ? 1 : 2;
            ps.line++;
            continue;
        }
        if (*ps.p == '#') {
            if (read_meta_line(&ps, t, &meta_cap) != 0) goto out_of_memory;
            continue;
        }
        int line = ps.line, nf = split_record(&ps, fields, OCC_CSV_N_COLUMNS);
        if (nf < 0) goto fail;
        if (!have_header) {
            if (check_header(&ps, fields, nf, line) != 0) goto fail;
            have_header = 1;
            continue;
        }
        if (nf != OCC_CSV_N_COLUMNS) {
            occ_csv_set_err(err, err_len, "%s:%d: %d fields, expected %d", path, line, nf,
                            OCC_CSV_N_COLUMNS);
            goto fail;
        }
        if (t->n_rows == row_cap) {
            row_cap = row_cap ? 2 * row_cap : 64;
            OccRow *rows = realloc(t->rows, (size_t)row_cap * sizeof *rows);
            if (rows == NULL) goto out_of_memory;
            t->rows = rows;
        }
        if (parse_row(&ps, fields, line, &t->rows[t->n_rows]) != 0) goto fail;
        occ_row_resolve(&t->rows[t->n_rows]);
        t->n_rows++;
    }
    if (have_header) return 0;
    occ_csv_set_err(err, err_len, "%s:%d: no header line", path, ps.line);
    goto fail;
out_of_memory:
    occ_csv_set_err(err, err_len, "%s: out of memory", path);
fail:
    occ_csv_table_free(t);
    return -1;
}

const char *occ_csv_meta_get(const OccCsvTable *t, const char *key)
{
    for (int i = t->n_meta - 1; i >= 0; i--)
        if (strcmp(t->meta_keys[i], key) == 0) return t->meta_values[i];
    return NULL;
}

void occ_csv_table_free(OccCsvTable *t)
{
    free(t->meta_keys);
    free(t->meta_values);
    free(t->rows);
    free(t->text);
    memset(t, 0, sizeof *t);
}
