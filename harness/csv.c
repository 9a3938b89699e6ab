/* harness/csv.c: CSV writer and reader for the schema in csv_columns.h (format in csv.h). */
#define _POSIX_C_SOURCE 200809L /* open(O_EXCL), fdopen, mkdir, strdup */

#include "csv.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { OCC_CSV_TYPE_STR, OCC_CSV_TYPE_INT, OCC_CSV_TYPE_NUM };

typedef struct Column {
    const char *name;
    int type;
    const char *doc;
    size_t offset; /* of the field in OccRow */
} Column;

#define COLUMN_ENTRY(name, type, doc) {#name, OCC_CSV_TYPE_##type, doc, offsetof(OccRow, name)},
static const Column columns[] = {OCC_CSV_COLUMNS(COLUMN_ENTRY)};
#undef COLUMN_ENTRY
#define N_COLUMNS ((int)(sizeof columns / sizeof columns[0]))

static void set_err(char *err, size_t err_len, const char *fmt, ...)
{
    if (err == NULL || err_len == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_len, fmt, ap);
    va_end(ap);
}

static void *field_ptr(const OccRow *r, const Column *c)
{
    return (char *)r + c->offset;
}

int occ_csv_column_count(void) { return N_COLUMNS; }

const char *occ_csv_column_name(int i) { return i >= 0 && i < N_COLUMNS ? columns[i].name : NULL; }

const char *occ_csv_column_doc(int i) { return i >= 0 && i < N_COLUMNS ? columns[i].doc : NULL; }

void occ_row_init(OccRow *r)
{
    for (int i = 0; i < N_COLUMNS; i++) {
        void *p = field_ptr(r, &columns[i]);
        switch (columns[i].type) {
        case OCC_CSV_TYPE_STR: *(const char **)p = "-"; break;
        case OCC_CSV_TYPE_INT: *(long long *)p = 0; break;
        default: *(double *)p = NAN; break;
        }
    }
}

/* ---- writer ---- */

/* A growable byte buffer: each row is assembled here so that it reaches the file in one write. */
typedef struct Buf {
    char *p;
    size_t len, cap;
} Buf;

static int buf_put(Buf *b, const char *s, size_t n)
{
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 1024;
        while (cap < b->len + n) cap *= 2;
        char *p = realloc(b->p, cap);
        if (p == NULL) return -1;
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    return 0;
}

static int buf_puts(Buf *b, const char *s) { return buf_put(b, s, strlen(s)); }

static int needs_quotes(const char *s)
{
    size_t n = strlen(s);
    if (n == 0) return 0;
    return s[0] == '#' || s[0] == ' ' || s[0] == '\t' || s[n - 1] == ' ' || s[n - 1] == '\t' ||
           strpbrk(s, ",\"\r\n") != NULL;
}

static int put_str(Buf *b, const char *s)
{
    if (s == NULL) s = "-";
    if (!needs_quotes(s)) return buf_puts(b, s);
    int rc = buf_put(b, "\"", 1);
    for (const char *q = s; *q; q++) rc |= *q == '"' ? buf_put(b, "\"\"", 2) : buf_put(b, q, 1);
    return rc | buf_put(b, "\"", 1);
}

static int put_num(Buf *b, double v)
{
    char s[40];
    if (isnan(v))
        strcpy(s, "NaN");
    else if (isinf(v))
        strcpy(s, v > 0 ? "Inf" : "-Inf");
    else
        snprintf(s, sizeof s, "%.10g", v);
    return buf_puts(b, s);
}

static int valid_key(const char *k)
{
    static const char allowed[] = "abcdefghijklmnopqrstuvwxyz"
                                  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-";
    return k != NULL && *k != '\0' && k[strspn(k, allowed)] == '\0';
}

static int put_meta(Buf *b, const char *key, const char *value)
{
    int rc = buf_puts(b, "# ") | buf_puts(b, key) | buf_put(b, "=", 1);
    for (const char *q = value ? value : ""; *q; q++) {
        if (*q == '\\')
            rc |= buf_put(b, "\\\\", 2);
        else if (*q == '\n')
            rc |= buf_put(b, "\\n", 2);
        else if (*q == '\r')
            rc |= buf_put(b, "\\r", 2);
        else
            rc |= buf_put(b, q, 1);
    }
    return rc | buf_put(b, "\n", 1);
}

struct OccCsvWriter {
    FILE *f;
    char *path;
    char *partial; /* "<path>.partial", renamed to path at close */
    Buf line;
    int failed; /* a write failed: the file is incomplete, so close must not rename it */
};

/* Sends the assembled line to disk; the flush is what makes a killed run keep its rows. */
static int flush_line(OccCsvWriter *w, int build_rc)
{
    if (build_rc != 0) {
        errno = ENOMEM;
        w->failed = 1;
    } else if (fwrite(w->line.p, 1, w->line.len, w->f) != w->line.len || fflush(w->f) != 0) {
        w->failed = 1;
    }
    w->line.len = 0;
    return w->failed ? -1 : 0;
}

static void writer_free(OccCsvWriter *w)
{
    free(w->path);
    free(w->partial);
    free(w->line.p);
    free(w);
}

/* Explains a failed create of the .partial file in terms of what the user can fix. */
static void explain_create_error(const char *partial, int e, char *err, size_t err_len)
{
    char dir[4096];
    const char *slash = strrchr(partial, '/');
    if (slash == NULL)
        strcpy(dir, ".");
    else
        snprintf(dir, sizeof dir, "%.*s", slash == partial ? 1 : (int)(slash - partial), partial);
    if (e == EEXIST)
        set_err(err, err_len, "%s: exists (a run in progress, or one that did not finish); "
                "use --force", partial);
    else if (e == ENOENT || e == ENOTDIR)
        set_err(err, err_len, "cannot create %s: directory %s does not exist", partial, dir);
    else if (e == EACCES || e == EROFS || e == EPERM)
        set_err(err, err_len, "cannot create %s: directory %s is not writable (%s)", partial, dir,
                strerror(e));
    else
        set_err(err, err_len, "cannot create %s: %s", partial, strerror(e));
}

OccCsvWriter *occ_csv_open(const char *path, int force, const char *const *keys,
                           const char *const *values, int n, char *err, size_t err_len)
{
    if (path == NULL || *path == '\0' || n < 0 || (n > 0 && (keys == NULL || values == NULL))) {
        set_err(err, err_len, "occ_csv_open: empty path or no metadata arrays");
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        if (!valid_key(keys[i])) {
            set_err(err, err_len, "%s: metadata key '%s' must be letters, digits, '_', '.', '-'",
                    path, keys[i] ? keys[i] : "(null)");
            return NULL;
        }
    }
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            set_err(err, err_len, "%s: is a directory", path);
            return NULL;
        }
        if (!force) {
            set_err(err, err_len, "%s: exists; use --force", path);
            return NULL;
        }
    }
    OccCsvWriter *w = calloc(1, sizeof *w);
    size_t plen = strlen(path);
    if (w == NULL || (w->path = strdup(path)) == NULL || (w->partial = malloc(plen + 9)) == NULL) {
        set_err(err, err_len, "%s: out of memory", path);
        if (w) writer_free(w);
        return NULL;
    }
    memcpy(w->partial, path, plen);
    memcpy(w->partial + plen, ".partial", 9);
    /* O_EXCL without force: a leftover .partial may hold the only copy of a crashed run's rows. */
    int fd = open(w->partial, O_WRONLY | O_CREAT | (force ? O_TRUNC : O_EXCL), 0666);
    if (fd < 0 || (w->f = fdopen(fd, "w")) == NULL) {
        explain_create_error(w->partial, errno, err, err_len);
        if (fd >= 0) {
            close(fd);
            unlink(w->partial);
        }
        writer_free(w);
        return NULL;
    }
    int rc = 0;
    for (int i = 0; i < n; i++) rc |= put_meta(&w->line, keys[i], values[i]);
    for (int i = 0; i < N_COLUMNS; i++) {
        rc |= buf_puts(&w->line, columns[i].name);
        rc |= buf_puts(&w->line, i + 1 < N_COLUMNS ? "," : "\n");
    }
    if (flush_line(w, rc) != 0) {
        set_err(err, err_len, "%s: write failed: %s", w->partial, strerror(errno));
        fclose(w->f);
        unlink(w->partial);
        writer_free(w);
        return NULL;
    }
    return w;
}

int occ_csv_write_row(OccCsvWriter *w, const OccRow *r)
{
    if (w == NULL || r == NULL || w->failed) {
        errno = EINVAL;
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < N_COLUMNS; i++) {
        const void *p = field_ptr(r, &columns[i]);
        if (i > 0) rc |= buf_put(&w->line, ",", 1);
        if (columns[i].type == OCC_CSV_TYPE_STR) {
            rc |= put_str(&w->line, *(const char *const *)p);
        } else if (columns[i].type == OCC_CSV_TYPE_INT) {
            char s[32];
            snprintf(s, sizeof s, "%lld", *(const long long *)p);
            rc |= buf_puts(&w->line, s);
        } else {
            rc |= put_num(&w->line, *(const double *)p);
        }
    }
    rc |= buf_put(&w->line, "\n", 1);
    return flush_line(w, rc);
}

int occ_csv_close(OccCsvWriter *w, const char *end_key, const char *end_value)
{
    if (w == NULL) {
        errno = EINVAL;
        return -1;
    }
    int rc = 0;
    if (end_key != NULL && !w->failed) {
        if (valid_key(end_key))
            rc = flush_line(w, put_meta(&w->line, end_key, end_value));
        else {
            errno = EINVAL;
            rc = -1;
        }
    }
    if (w->failed) rc = -1;
    if (fclose(w->f) != 0) rc = -1;
    if (rc == 0 && rename(w->partial, w->path) != 0) rc = -1;
    writer_free(w);
    return rc;
}

int occ_csv_make_parent_dirs(const char *path, char *err, size_t err_len)
{
    char *dir = path ? strdup(path) : NULL;
    if (dir == NULL) {
        set_err(err, err_len, "occ_csv_make_parent_dirs: no path or out of memory");
        return -1;
    }
    char *last = strrchr(dir, '/');
    int rc = 0;
    if (last != NULL && last != dir) {
        *last = '\0';
        for (char *p = dir + 1;; p++) {
            if (*p != '/' && *p != '\0') continue;
            char c = *p;
            *p = '\0';
            struct stat st;
            if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
                set_err(err, err_len, "cannot create directory %s: %s", dir, strerror(errno));
                rc = -1;
            } else if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
                set_err(err, err_len, "cannot create directory %s: a file is in the way", dir);
                rc = -1;
            }
            *p = c;
            if (c == '\0' || rc != 0) break;
        }
    }
    free(dir);
    return rc;
}

/* ---- reader ---- */

typedef struct Parser {
    char *p, *end; /* *end is a NUL added after the file's bytes */
    int line;      /* 1-based line of p */
    const char *path;
    char *err;
    size_t err_len;
} Parser;

static char *read_whole_file(const char *path, size_t *len, char *err, size_t err_len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        set_err(err, err_len, "%s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *text = malloc(cap);
    while (text != NULL) {
        n += fread(text + n, 1, cap - n - 1, f);
        if (n < cap - 1) break;
        char *grown = realloc(text, cap * 2);
        if (grown == NULL) free(text);
        text = grown;
        cap *= 2;
    }
    int bad = text == NULL || ferror(f);
    fclose(f);
    if (bad) {
        set_err(err, err_len, "%s: %s", path, text ? "read error" : "out of memory");
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
                    set_err(ps->err, ps->err_len, "%s:%d: unterminated quoted field", ps->path,
                            start_line);
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
            set_err(ps->err, ps->err_len, "%s:%d: '%c' after a closing quote", ps->path, ps->line,
                    sep);
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
    for (int i = 0; i < nf && i < N_COLUMNS; i++) {
        if (strcmp(fields[i], columns[i].name) != 0) {
            set_err(ps->err, ps->err_len,
                    "%s:%d: wrong header: column %d is '%.40s', expected '%s'", ps->path, line,
                    i + 1, fields[i], columns[i].name);
            return -1;
        }
    }
    if (nf != N_COLUMNS) {
        set_err(ps->err, ps->err_len, "%s:%d: wrong header: %d columns, expected %d", ps->path,
                line, nf, N_COLUMNS);
        return -1;
    }
    return 0;
}

static int parse_row(Parser *ps, char **fields, int line, OccRow *r)
{
    for (int i = 0; i < N_COLUMNS; i++) {
        const Column *c = &columns[i];
        void *p = field_ptr(r, c);
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
            set_err(ps->err, ps->err_len, "%s:%d: column %s: '%.40s' is not %s", ps->path, line,
                    c->name, s, c->type == OCC_CSV_TYPE_INT ? "an integer" : "a number");
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
    char *fields[N_COLUMNS];
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
        int line = ps.line, nf = split_record(&ps, fields, N_COLUMNS);
        if (nf < 0) goto fail;
        if (!have_header) {
            if (check_header(&ps, fields, nf, line) != 0) goto fail;
            have_header = 1;
            continue;
        }
        if (nf != N_COLUMNS) {
            set_err(err, err_len, "%s:%d: %d fields, expected %d", path, line, nf, N_COLUMNS);
            goto fail;
        }
        if (t->n_rows == row_cap) {
            row_cap = row_cap ? 2 * row_cap : 64;
            OccRow *rows = realloc(t->rows, (size_t)row_cap * sizeof *rows);
            if (rows == NULL) goto out_of_memory;
            t->rows = rows;
        }
        if (parse_row(&ps, fields, line, &t->rows[t->n_rows]) != 0) goto fail;
        t->n_rows++;
    }
    if (have_header) return 0;
    set_err(err, err_len, "%s:%d: no header line", path, ps.line);
    goto fail;
out_of_memory:
    set_err(err, err_len, "%s: out of memory", path);
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
