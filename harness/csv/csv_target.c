/* SPDX-License-Identifier: Apache-2.0 */
/* harness/csv/csv_target.c: the checks of a path the CSV writer is to create (target, parents,
 * a leftover or busy ".partial") and their messages (contract in csv.h and csv_schema.h). */
#define _GNU_SOURCE /* flock; open(O_NOFOLLOW), mkdir, strdup */

#include "csv_schema.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* 1 when another process holds an exclusive lock on the existing file path (a run still writing
 * its .partial), else 0 (a leftover of a run that ended without finishing, or unreadable). */
static int held_by_a_run(const char *path)
{
    const int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return 0;
    const int held = flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    close(fd);
    return held;
}

/* The message for an existing "<path>.partial": what it holds and the ways on. A run that is
 * still writing it holds its lock: then the only advice is to wait for that run or stop it. */
static void partial_exists(const char *partial, char *err, size_t err_len)
{
    const int n = (int)strlen(partial) - (int)strlen(".partial");
    if (held_by_a_run(partial)) {
        occ_csv_set_err(err, err_len,
                        "%.200s: exists and another run is writing it now: wait for that run to "
                        "end (or stop it, and its finished rows stay there), or choose another "
                        "--out",
                        partial);
        return;
    }
    occ_csv_set_err(err, err_len,
                    "%.200s: exists: the rows of a run that did not finish (never replaced, even "
                    "with --force); to keep them: mv %.200s "
                    "%.*s and run again with --resume %.*s; to start over: remove it",
                    partial, partial, n > 200 ? 200 : n, partial, n > 200 ? 200 : n, partial);
}

/* (contract in csv_schema.h) */
void occ_csv_explain_create_error(const char *partial, int e, char *err, size_t err_len)
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
    /* Names the file system would refuse only once the parents are made: the file's own name
     * with the longest suffix the writer adds (".partial.tmp-XXXXXX"), and the whole path. */
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (strlen(base) + strlen(".partial.tmp-XXXXXX") > NAME_MAX || len + 20 >= PATH_MAX) {
        occ_csv_set_err(err, err_len, "%s: the name is too long (at most %d bytes for the file's "
                        "name, %d for the path)", shown(path, q),
                        NAME_MAX - (int)strlen(".partial.tmp-XXXXXX"), PATH_MAX - 21);
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
