/* SPDX-License-Identifier: Apache-2.0 */
/* harness/csv/csv_write.c: the CSV writer: quoting, metadata escaping, whole-row writes, the
 * ".partial" file, its lock, its naming and its rename (format and contract in csv.h; the checks
 * of a target path are csv_target.c's). */
#define _GNU_SOURCE /* O_TMPFILE, mkostemp, flock; open(O_EXCL), mkdir, strdup, ftruncate */

#include "csv_schema.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
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
    int fd;        /* the open "<path>.partial", held under an exclusive flock until close */
    char *path;
    char *partial; /* "<path>.partial", renamed to path at close */
    struct stat id; /* device and inode of the file this writer created: its identity */
    char *tmp;     /* before occ_csv_publish: the file's temporary name, or NULL when it has none
                      (O_TMPFILE); NULL once published */
    int published; /* 1 once the file is "<path>.partial" */
    long long whole_bytes; /* bytes of whole lines on disk: a failed write is cut back to it */
    Buf line;
    int failed; /* a write failed: the file is incomplete, so close must not rename it */
};

/* Sends the assembled line to disk with write(2) (no stdio buffer: a killed run keeps every row
 * it wrote). A write that fails part way (disk full, the file size limit) is cut back to the last
 * whole line, so the file holds only whole rows whatever happens. */
static int flush_line(OccCsvWriter *w, int build_rc)
{
    size_t done = 0;
    if (build_rc != 0) {
        errno = ENOMEM;
        w->failed = 1;
    }
    while (!w->failed && done < w->line.len) {
        const ssize_t n = write(w->fd, w->line.p + done, w->line.len - done);
        if (n > 0)
            done += (size_t)n;
        else if (n < 0 && errno == EINTR)
            continue;
        else {
            const int e = n == 0 ? ENOSPC : errno;
            /* If even the cut fails, a reader finds the torn row and names its line. */
            const int cut = ftruncate(w->fd, (off_t)w->whole_bytes);
            (void)cut;
            errno = e;
            w->failed = 1;
        }
    }
    if (!w->failed) w->whole_bytes += (long long)w->line.len;
    w->line.len = 0;
    return w->failed ? -1 : 0;
}

static void writer_free(OccCsvWriter *w)
{
    free(w->tmp);
    free(w->path);
    free(w->partial);
    free(w->line.p);
    free(w);
}

/* Creates the writer's file without the name "<path>.partial" yet: an unnamed file in the target's
 * directory (O_TMPFILE), or where the file system has none, "<path>.partial.tmp-XXXXXX". */
static int create_unnamed(OccCsvWriter *w)
{
    char dir[4096 + 9];
    snprintf(dir, sizeof dir, "%s", w->partial);
    char *slash = strrchr(dir, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == dir) dir[1] = '\0';
    else *slash = '\0';
#ifdef O_TMPFILE
    w->fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
    if (w->fd >= 0) return 0;
#endif
    const size_t n = strlen(w->partial) + sizeof ".tmp-XXXXXX";
    if ((w->tmp = malloc(n)) == NULL) return errno = ENOMEM, -1;
    snprintf(w->tmp, n, "%s.tmp-XXXXXX", w->partial);
    w->fd = mkostemp(w->tmp, O_CLOEXEC);
    if (w->fd < 0) {
        free(w->tmp);
        w->tmp = NULL;
        return -1;
    }
    return 0;
}

OccCsvWriter *occ_csv_open_unpublished(const char *path, int force, const char *const *keys,
                                       const char *const *values, int n, char *err,
                                       size_t err_len)
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
    w->fd = -1;
    memcpy(w->partial, path, plen);
    memcpy(w->partial + plen, ".partial", 9);
    /* The lock says "a run is writing this" to any other run that finds it (partial_exists);
     * the file's identity lets close rename only the file this writer made. Past the file size
     * limit (ulimit -f) a write fails with EFBIG instead of SIGXFSZ ending the process with a
     * torn last row: flush_line then cuts the file back to its whole rows. */
    signal(SIGXFSZ, SIG_IGN);
    if (create_unnamed(w) != 0 || flock(w->fd, LOCK_EX | LOCK_NB) != 0 ||
        fstat(w->fd, &w->id) != 0) {
        occ_csv_explain_create_error(w->partial, errno, err, err_len);
        occ_csv_abandon(w);
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
        occ_csv_abandon(w);
        return NULL;
    }
    return w;
}

int occ_csv_publish(OccCsvWriter *w, char *err, size_t err_len)
{
    if (w == NULL || w->published || w->failed) {
        occ_csv_set_err(err, err_len, "%s: %s", w ? w->partial : "occ_csv_publish",
                        w && w->failed ? "a write failed before the file was named" : "no file to name");
        return -1;
    }
    /* link(2) never replaces: a .partial made meanwhile by another run is refused, not lost.
     * An unnamed file is linked through /proc/self/fd (no privilege needed), else with
     * AT_EMPTY_PATH. */
    int rc;
    if (w->tmp != NULL) {
        rc = link(w->tmp, w->partial);
    } else {
        char fd_path[64];
        snprintf(fd_path, sizeof fd_path, "/proc/self/fd/%d", w->fd);
        rc = linkat(AT_FDCWD, fd_path, AT_FDCWD, w->partial, AT_SYMLINK_FOLLOW);
#ifdef AT_EMPTY_PATH
        if (rc != 0 && errno == ENOENT && access(fd_path, F_OK) != 0)
            rc = linkat(w->fd, "", AT_FDCWD, w->partial, AT_EMPTY_PATH);
#endif
    }
    if (rc != 0) {
        occ_csv_explain_create_error(w->partial, errno, err, err_len);
        return -1;
    }
    if (w->tmp != NULL) {
        unlink(w->tmp);
        free(w->tmp);
        w->tmp = NULL;
    }
    w->published = 1;
    return 0;
}

void occ_csv_abandon(OccCsvWriter *w)
{
    if (w == NULL) return;
    if (w->tmp != NULL) unlink(w->tmp);
    if (w->fd >= 0) close(w->fd);
    writer_free(w);
}

OccCsvWriter *occ_csv_open(const char *path, int force, const char *const *keys,
                           const char *const *values, int n, char *err, size_t err_len)
{
    OccCsvWriter *w = occ_csv_open_unpublished(path, force, keys, values, n, err, err_len);
    if (w != NULL && occ_csv_publish(w, err, err_len) != 0) {
        occ_csv_abandon(w);
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
    if (w->failed || !w->published) rc = -1;
    /* Rename only the file this writer made: if "<path>.partial" is another file now (removed
     * and made again by another run), that run's file is left alone and this close fails. */
    struct stat now;
    if (rc == 0 && (lstat(w->partial, &now) != 0 || now.st_dev != w->id.st_dev ||
                    now.st_ino != w->id.st_ino)) {
        errno = ESTALE;
        rc = -1;
    }
    if (rc == 0 && fsync(w->fd) != 0 && errno != EINVAL) rc = -1;
    if (rc == 0 && rename(w->partial, w->path) != 0) rc = -1;
    const int e = errno;
    if (w->tmp != NULL) unlink(w->tmp); /* never published: nothing of it is kept */
    if (close(w->fd) != 0 && rc == 0) rc = -1;
    else errno = e;
    writer_free(w);
    return rc;
}
