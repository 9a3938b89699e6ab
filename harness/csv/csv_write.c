/* SPDX-License-Identifier: Apache-2.0 */
/* harness/csv/csv_write.c: the CSV writer: quoting, metadata escaping, whole-row writes, the
 * ".partial" file and its rename (format and contract in csv.h). */
#define _POSIX_C_SOURCE 200809L /* open(O_EXCL), fdopen, mkdir, strdup */

#include "csv_schema.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* The message for an existing "<path>.partial": what it holds and the two ways on. */
static void partial_exists(const char *partial, char *err, size_t err_len)
{
    const int n = (int)strlen(partial) - (int)strlen(".partial");
    occ_csv_set_err(err, err_len,
                    "%.200s: exists: the rows of a run that did not finish, or of one still "
                    "writing them (never replaced, even with --force); to keep them: mv %.200s "
                    "%.*s and run again with --resume %.*s; to start over: remove it",
                    partial, partial, n > 200 ? 200 : n, partial, n > 200 ? 200 : n, partial);
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
        partial_exists(partial, err, err_len);
    else if (e == ENOENT || e == ENOTDIR)
        occ_csv_set_err(err, err_len, "cannot create %s: directory %s does not exist", partial,
                        dir);
    else if (e == EACCES || e == EROFS || e == EPERM)
        occ_csv_set_err(err, err_len, "cannot create %s: directory %s is not writable (%s)",
                        partial, dir, strerror(e));
    else
        occ_csv_set_err(err, err_len, "cannot create %s: %s", partial, strerror(e));
}

/* What a non-regular file is, for the message that refuses it. */
static const char *file_kind(mode_t m)
{
    return S_ISDIR(m)    ? "a directory"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISFIFO(m) ? "a FIFO"
           : S_ISSOCK(m) ? "a socket"
                         : "not a regular file";
}

/* At most the first 200 bytes of path, "..." after them when it is longer: a message quoting a
 * 100 KB path must still reach its reason. */
enum { SHOWN_LEN = 200 + 4 };
static const char *shown(const char *path, char buf[SHOWN_LEN])
{
    snprintf(buf, SHOWN_LEN, "%.200s%s", path, strlen(path) > 200 ? "..." : "");
    return buf;
}

/* A path that exists must be a regular file: the final rename would replace a device node, FIFO
 * or socket with a regular file (as root, /dev/null), and the .partial beside it is opened with
 * O_TRUNC under --force, which would write through a link to a device. */
static int check_existing(const char *path, int force, char *err, size_t err_len)
{
    struct stat st;
    char q[SHOWN_LEN];
    if (stat(path, &st) != 0) {
        if (errno == ENOENT) return 0;
        occ_csv_set_err(err, err_len, "%s: %s (the output must be a regular file or a new path)",
                        shown(path, q),
                        errno == ENOTDIR ? "a parent of it is not a directory" : strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        occ_csv_set_err(err, err_len, "%s: is %s (the output must be a regular file or a new path)",
                        shown(path, q), file_kind(st.st_mode));
        return -1;
    }
    if (!force) {
        occ_csv_set_err(err, err_len, "%s: exists; use --force", shown(path, q));
        return -1;
    }
    return 0;
}

int occ_csv_check_target(const char *path, int force, char *err, size_t err_len)
{
    char partial[4096 + 9], q[SHOWN_LEN];
    const size_t len = strlen(path);
    if (len == 0 || path[len - 1] == '/') {
        occ_csv_set_err(err, err_len, "%s: %s (the output must be a regular file or a new path)",
                        shown(path, q), len ? "ends in '/', a directory's name" : "empty");
        return -1;
    }
    if (check_existing(path, force, err, err_len) != 0) return -1;
    snprintf(partial, sizeof partial, "%.4096s.partial", path);
    /* A .partial is never replaced, --force or not: it holds the rows of a run that did not
     * finish (or of one still writing them). */
    if (check_existing(partial, 1, err, err_len) != 0) return -1;
    if (access(partial, F_OK) == 0) {
        partial_exists(partial, err, err_len);
        return -1;
    }
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == dir) dir[1] = '\0';
    else *slash = '\0';
    /* Walk up to the nearest existing directory: that is where the file or its parents go (a
     * file on the way made the stat above fail with ENOTDIR); above a relative path's first
     * component is the current directory. */
    while (dir[0] && strcmp(dir, ".") != 0 && access(dir, F_OK) != 0) {
        if ((slash = strrchr(dir, '/')) != NULL) *slash = '\0';
        else snprintf(dir, sizeof dir, ".");
    }
    if (access(dir[0] ? dir : "/", W_OK) != 0) {
        occ_csv_set_err(err, err_len, "%s: directory %.150s is not writable", shown(path, q),
                        dir[0] ? dir : "/");
        return -1;
    }
    return 0;
}

OccCsvWriter *occ_csv_open(const char *path, int force, const char *const *keys,
                           const char *const *values, int n, char *err, size_t err_len)
{
    if (path == NULL || *path == '\0' || n < 0 || (n > 0 && (keys == NULL || values == NULL))) {
        occ_csv_set_err(err, err_len, "occ_csv_open: empty path or no metadata arrays");
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        if (!valid_key(keys[i])) {
            occ_csv_set_err(err, err_len,
                            "%s: metadata key '%s' must be letters, digits, '_', '.', '-'", path,
                            keys[i] ? keys[i] : "(null)");
            return NULL;
        }
    }
    if (occ_csv_check_target(path, force, err, err_len) != 0) return NULL;
    OccCsvWriter *w = calloc(1, sizeof *w);
    size_t plen = strlen(path);
    if (w == NULL || (w->path = strdup(path)) == NULL || (w->partial = malloc(plen + 9)) == NULL) {
        occ_csv_set_err(err, err_len, "%s: out of memory", path);
        if (w) writer_free(w);
        return NULL;
    }
    memcpy(w->partial, path, plen);
    memcpy(w->partial + plen, ".partial", 9);
    /* O_EXCL: a leftover .partial may hold the only copy of a crashed run's rows, and another
     * run writing the same --out holds it now; neither is ever truncated or shared. */
    int fd = open(w->partial, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0666);
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
    for (int i = 0; i < OCC_CSV_N_COLUMNS; i++) {
        rc |= buf_puts(&w->line, occ_csv_columns[i].name);
        rc |= buf_puts(&w->line, i + 1 < OCC_CSV_N_COLUMNS ? "," : "\n");
    }
    if (flush_line(w, rc) != 0) {
        occ_csv_set_err(err, err_len, "%s: write failed: %s", w->partial, strerror(errno));
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
    for (int i = 0; i < OCC_CSV_N_COLUMNS; i++) {
        const void *p = occ_csv_field(r, &occ_csv_columns[i]);
        if (i > 0) rc |= buf_put(&w->line, ",", 1);
        if (occ_csv_columns[i].type == OCC_CSV_TYPE_STR) {
            rc |= put_str(&w->line, *(const char *const *)p);
        } else if (occ_csv_columns[i].type == OCC_CSV_TYPE_INT) {
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
        occ_csv_set_err(err, err_len, "occ_csv_make_parent_dirs: no path or out of memory");
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
                occ_csv_set_err(err, err_len, "cannot create directory %s: %s", dir,
                                strerror(errno));
                rc = -1;
            } else if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
                occ_csv_set_err(err, err_len, "cannot create directory %s: a file is in the way",
                                dir);
                rc = -1;
            }
            *p = c;
            if (c == '\0' || rc != 0) break;
        }
    }
    free(dir);
    return rc;
}

void occ_csv_sibling_path(const char *csv_path, const char *suffix, char *out, size_t len)
{
    size_t n = strlen(csv_path);
    if (n > 4 && strcmp(csv_path + n - 4, ".csv") == 0) n -= 4;
    snprintf(out, len, "%.*s%s", (int)n, csv_path, suffix);
}
