/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/test_csv_owner.c: a CSV writer owns its ".partial" by identity, not by name: another
 * run finding it is told that a run is writing it (the writer's flock); close renames only the file
 * the writer made (a .partial removed and made again by another run is left alone, close fails
 * with ESTALE); a write past the file size limit (RLIMIT_FSIZE, as `ulimit -f`) leaves only
 * whole rows; a file opened unpublished has no name until occ_csv_publish, and abandoning it
 * leaves nothing. */
#define _GNU_SOURCE /* mkdtemp, setrlimit, fork */

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "csv.h"

static char dir[64];
static const char *keys[] = {"run"}, *values[] = {"1"};

static char *path_in(const char *name)
{
    static char buf[16][256];
    static int next;
    char *p = buf[next++ % 16];
    snprintf(p, 256, "%s/%s", dir, name);
    return p;
}

static int exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/* Entries of dir, "." and ".." excluded. */
static int n_entries(void)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    if (d) closedir(d);
    return n;
}

static void test_lock_message(void)
{
    char err[512] = "";
    OccCsvWriter *w = occ_csv_open(path_in("busy.csv"), 0, keys, values, 1, err, sizeof err);
    CHECK(w != NULL);
    /* a second run on the same --out, while the first writes: told to wait, not to resume */
    CHECK(occ_csv_open(path_in("busy.csv"), 1, keys, values, 1, err, sizeof err) == NULL);
    CHECK_CONTAINS(err, "another run is writing it now");
    CHECK(strstr(err, "--resume") == NULL);
    if (w) CHECK_INT_EQ(occ_csv_close(w, "end_status", "complete"), 0);
    /* a leftover (no run holds it): the advice to resume */
    FILE *f = fopen(path_in("left.csv.partial"), "w");
    if (f) fclose(f);
    CHECK(occ_csv_open(path_in("left.csv"), 0, keys, values, 1, err, sizeof err) == NULL);
    CHECK_CONTAINS(err, "did not finish");
    CHECK_CONTAINS(err, "--resume");
}

static void test_identity_at_close(void)
{
    char err[512] = "";
    const char *path = path_in("swap.csv"), *partial = path_in("swap.csv.partial");
    OccCsvWriter *w = occ_csv_open(path, 0, keys, values, 1, err, sizeof err);
    CHECK(w != NULL);
    if (!w) return;
    /* the user removes the .partial (the advice to start over) and another run makes its own */
    CHECK_INT_EQ(unlink(partial), 0);
    FILE *f = fopen(partial, "w");
    if (f) {
        fputs("# another run\n", f);
        fclose(f);
    }
    errno = 0;
    CHECK_INT_EQ(occ_csv_close(w, "end_status", "complete"), -1);
    CHECK_INT_EQ(errno, ESTALE);
    CHECK(!exists(path));
    CHECK(exists(partial));
}

/* In a child: rows until a write fails under a 40 KiB file size limit. Exit 0 when a write
 * failed with EFBIG (the process was not ended by SIGXFSZ). */
static int write_until_limit(const char *path)
{
    struct rlimit lim = {40 * 1024, 40 * 1024};
    if (setrlimit(RLIMIT_FSIZE, &lim) != 0) return 3;
    char err[512];
    OccCsvWriter *w = occ_csv_open(path, 0, keys, values, 1, err, sizeof err);
    if (!w) return 4;
    OccRow r;
    occ_row_init(&r);
    r.status = "ok";
    for (int i = 0; i < 100000; i++)
        if (occ_csv_write_row(w, &r) != 0) return errno == EFBIG ? 0 : 5;
    return 6;
}

static void test_whole_rows_at_the_size_limit(void)
{
    const char *path = path_in("limit.csv");
    pid_t pid = fork();
    if (pid == 0) _exit(write_until_limit(path));
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    /* the .partial ends with a whole row, and the reader takes every line of it */
    char partial[300], err[512] = "";
    snprintf(partial, sizeof partial, "%s.partial", path);
    FILE *f = fopen(partial, "rb");
    CHECK(f != NULL);
    if (!f) return;
    CHECK_INT_EQ(fseek(f, -1, SEEK_END), 0);
    CHECK_INT_EQ(fgetc(f), '\n');
    const long size = ftell(f);
    fclose(f);
    CHECK(size > 20 * 1024 && size <= 40 * 1024);
    OccCsvTable t;
    CHECK_INT_EQ(occ_csv_read(partial, &t, err, sizeof err), 0);
    CHECK(t.n_rows > 10);
    occ_csv_table_free(&t);
}

static void test_unpublished(void)
{
    char err[512] = "";
    const int before = n_entries();
    OccCsvWriter *w =
        occ_csv_open_unpublished(path_in("late.csv"), 0, keys, values, 1, err, sizeof err);
    CHECK(w != NULL);
    if (!w) return;
    OccRow r;
    occ_row_init(&r);
    r.status = "ok";
    CHECK_INT_EQ(occ_csv_write_row(w, &r), 0);
    CHECK(!exists(path_in("late.csv.partial")));
    /* a .partial made meanwhile is refused, not replaced */
    FILE *f = fopen(path_in("late.csv.partial"), "w");
    if (f) fclose(f);
    CHECK_INT_EQ(occ_csv_publish(w, err, sizeof err), -1);
    CHECK_CONTAINS(err, "late.csv.partial: exists");
    unlink(path_in("late.csv.partial"));
    CHECK_INT_EQ(occ_csv_publish(w, err, sizeof err), 0);
    CHECK(exists(path_in("late.csv.partial")));
    CHECK_INT_EQ(occ_csv_close(w, "end_status", "complete"), 0);
    OccCsvTable t;
    CHECK_INT_EQ(occ_csv_read(path_in("late.csv"), &t, err, sizeof err), 0);
    CHECK_INT_EQ(t.n_rows, 1);
    occ_csv_table_free(&t);
    unlink(path_in("late.csv"));
    /* abandoned before publishing: nothing is left */
    w = occ_csv_open_unpublished(path_in("gone.csv"), 0, keys, values, 1, err, sizeof err);
    CHECK(w != NULL);
    occ_csv_abandon(w);
    CHECK_INT_EQ(n_entries(), before);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/occ_owner_XXXXXX");
    if (mkdtemp(dir) == NULL) return 99;
    test_lock_message();
    test_identity_at_close();
    test_whole_rows_at_the_size_limit();
    test_unpublished();
    const int rc = check_done();
    if (rc == 0) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0) return 99;
    } else {
        printf("files kept in %s\n", dir);
    }
    return rc;
}
