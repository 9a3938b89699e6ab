/* SPDX-License-Identifier: Apache-2.0 */
/* harness/report/report_file.c: a report written whole or not at all (contract in report_file.h). */
#define _POSIX_C_SOURCE 200809L /* open(O_EXCL), fdopen */
#include "report_file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

FILE *occ_report_create(const char *path, char *tmp, size_t tmp_len, char *err, size_t err_len)
{
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (err_len) snprintf(err, err_len, "%.300s: not a regular file", path);
        return NULL;
    }
    snprintf(tmp, tmp_len, "%s.tmp-%ld", path, (long)getpid());
    const int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (f == NULL) {
        if (err_len) snprintf(err, err_len, "%.300s: cannot create: %s", path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
    }
    return f;
}

int occ_report_commit(FILE *f, const char *tmp, const char *path, char *err, size_t err_len)
{
    int failed = ferror(f), saved = errno;
    if (fclose(f) != 0 && !failed) {
        failed = 1;
        saved = errno;
    }
    if (!failed && rename(tmp, path) != 0) {
        failed = 1;
        saved = errno;
    }
    if (failed) {
        unlink(tmp);
        if (err_len) snprintf(err, err_len, "%.300s: write failed: %s", path, strerror(saved));
        return -1;
    }
    return 0;
}

int occ_report_stdout_status(const char *prog, int rc)
{
    errno = 0;
    const int flushed = fflush(stdout) == 0;
    if (flushed && !ferror(stdout)) return rc;
    fprintf(stderr, "%s: writing the output failed: %s\n", prog,
            !flushed && errno ? strerror(errno) : "write error");
    return rc == 0 ? 1 : rc;
}
