/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/test_csv.c: CSV round trip, the writer's exact bytes, .partial and --force handling,
 * malformed input, and the column dictionary in results/README.md (found under $OCC_SOURCE_ROOT,
 * default "."). */
#define _XOPEN_SOURCE 700 /* mkdtemp, mkdir, access, nftw, mkfifo, symlink */

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "check.h"
#include "csv.h"

static char dir[64];

static char *path_in(const char *name)
{
    static char buf[32][256];
    static int next;
    char *p = buf[next++ % 32];
    snprintf(p, 256, "%s/%s", dir, name);
    return p;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *s = malloc(cap);
    while (s != NULL && (n += fread(s + n, 1, cap - 1 - n, f)) == cap - 1) s = realloc(s, cap *= 2);
    fclose(f);
    if (s != NULL) s[n] = '\0';
    return s;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f == NULL) return;
    fputs(text, f);
    fclose(f);
}

static int same_num(double a, double b)
{
    if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
    if (isinf(a) || isinf(b)) return a == b;
    return fabs(a - b) <= 1e-9 * fabs(b);
}

#define CMP_STR(name) CHECK_STR_EQ(got->name, want->name);
#define CMP_INT(name) CHECK_INT_EQ(got->name, want->name);
#define CMP_NUM(name) CHECK(same_num(got->name, want->name));
#define CMP_FIELD(name, type, doc) CMP_##type(name)

static void compare_rows(const OccRow *got, const OccRow *want)
{
    OCC_CSV_COLUMNS(CMP_FIELD)
}

#define COUNT_COLUMN(name, type, doc) +1
#define CHECK_INIT_STR(name) CHECK_STR_EQ(r.name, "-");
#define CHECK_INIT_INT(name) CHECK_INT_EQ(r.name, 0);
#define CHECK_INIT_NUM(name) CHECK(isnan(r.name));
#define CHECK_INIT(name, type, doc) CHECK_INIT_##type(name)

static void test_columns_and_init(void)
{
    CHECK_INT_EQ(occ_csv_column_count(), 0 OCC_CSV_COLUMNS(COUNT_COLUMN));
    CHECK_STR_EQ(occ_csv_column_name(0), "gpu_name");
    CHECK_STR_EQ(occ_csv_column_name(occ_csv_column_count() - 1), "status");
    CHECK(occ_csv_column_name(occ_csv_column_count()) == NULL);
    CHECK(occ_csv_column_name(-1) == NULL);
    CHECK_STR_EQ(occ_csv_column_doc(0), "GPU name reported by the driver");
    OccRow r;
    occ_row_init(&r);
    OCC_CSV_COLUMNS(CHECK_INIT)
}

static const char *const meta_keys[] = {"command", "note", "empty", "padded"};
static const char *const meta_values[] = {
    "./run_sweep --kernel reduce --name \"a, b\" --occ 25..100",
    "line1\nline2\r\nback\\slash \\n literal", "", "  padded value  "};

static void fill_rows(OccRow rows[3])
{
    for (int i = 0; i < 3; i++) occ_row_init(&rows[i]);
    rows[0].gpu_name = "NVIDIA H200, \"SXM\"";
    rows[0].cc = "9.0";
    rows[0].sm_count = 132;
    rows[0].kernel = "";
    rows[0].mode = " leading space";
    rows[0].variant = "#not_a_comment";
    rows[0].buffer_bytes = LLONG_MAX;
    rows[0].bytes_in_flight_per_sm = LLONG_MIN;
    rows[0].time_ms_median = 1.234567890123e-7;
    rows[0].gbps_median = 4712.345678901;
    rows[0].gbps_max = 1e300;
    rows[0].pct_of_memcpy = -INFINITY;
    rows[0].verify_err = INFINITY;
    rows[0].status = "skip:occupancy, 6.25% unreachable";
    rows[2].gpu_name = "multi\nline\r\nname";
    rows[2].limiter = "trailing\t";
    rows[2].occ_achieved_pct = 18.75;
    rows[2].status = "ok";
}

static void test_round_trip(void)
{
    const char *path = path_in("a/b/c.csv");
    char err[512] = "";
    CHECK_INT_EQ(occ_csv_make_parent_dirs(path, err, sizeof err), 0);
    CHECK(exists(path_in("a/b")));
    CHECK_INT_EQ(occ_csv_make_parent_dirs(path, err, sizeof err), 0); /* idempotent */

    OccRow rows[3];
    fill_rows(rows);
    OccCsvWriter *w = occ_csv_open(path, 0, meta_keys, meta_values, 4, err, sizeof err);
    CHECK(w != NULL);
    if (w == NULL) return;
    CHECK(exists(path_in("a/b/c.csv.partial")));
    CHECK(!exists(path));
    for (int i = 0; i < 3; i++) CHECK_INT_EQ(occ_csv_write_row(w, &rows[i]), 0);
    /* every row is on disk before close: a killed run keeps it */
    char *partial = read_text(path_in("a/b/c.csv.partial"));
    CHECK_CONTAINS(partial, "\"multi\nline\r\nname\"");
    free(partial);
    CHECK_INT_EQ(occ_csv_close(w, "end_status", "complete"), 0);
    CHECK(!exists(path_in("a/b/c.csv.partial")));
    CHECK(exists(path));

    char *text = read_text(path);
    CHECK_CONTAINS(text, "# note=line1\\nline2\\r\\nback\\\\slash \\\\n literal\n");
    CHECK_CONTAINS(text,
                   "\"NVIDIA H200, \"\"SXM\"\"\",9.0,132,,\" leading space\",\"#not_a_comment\"");
    CHECK_CONTAINS(text, ",NaN,");
    CHECK_CONTAINS(text, "\n# end_status=complete\n");
    free(text);

    OccCsvTable t;
    CHECK_INT_EQ(occ_csv_read(path, &t, err, sizeof err), 0);
    CHECK_INT_EQ(t.n_rows, 3);
    CHECK_INT_EQ(t.n_meta, 5);
    for (int i = 0; i < 4 && i < t.n_meta; i++) {
        CHECK_STR_EQ(t.meta_keys[i], meta_keys[i]);
        CHECK_STR_EQ(t.meta_values[i], meta_values[i]);
        CHECK_STR_EQ(occ_csv_meta_get(&t, meta_keys[i]), meta_values[i]);
    }
    CHECK_STR_EQ(occ_csv_meta_get(&t, "end_status"), "complete");
    CHECK(occ_csv_meta_get(&t, "absent") == NULL);
    for (int i = 0; i < 3 && i < t.n_rows; i++) compare_rows(&t.rows[i], &rows[i]);
    occ_csv_table_free(&t);
    CHECK(t.rows == NULL && t.n_rows == 0);
}

static void test_force_and_partial(void)
{
    const char *path = path_in("force.csv");
    char err[512] = "";
    const char *k[] = {"run"}, *v1[] = {"1"}, *v2[] = {"2"};
    OccRow r;
    occ_row_init(&r);

    OccCsvWriter *w = occ_csv_open(path, 0, k, v1, 1, err, sizeof err);
    CHECK(w != NULL && occ_csv_close(w, "end_status", "complete") == 0);

    err[0] = '\0';
    CHECK(occ_csv_open(path, 0, k, v2, 1, err, sizeof err) == NULL);
    CHECK_CONTAINS(err, "force.csv: exists; use --force");
    CHECK(!exists(path_in("force.csv.partial")));

    w = occ_csv_open(path, 1, k, v2, 1, err, sizeof err);
    CHECK(w != NULL);
    if (w == NULL) return;
    r.status = "ok";
    CHECK_INT_EQ(occ_csv_write_row(w, &r), 0);
    CHECK_INT_EQ(occ_csv_write_row(w, &r), 0);
    CHECK_INT_EQ(occ_csv_close(w, "end_status", "interrupted"), 0);

    OccCsvTable t;
    CHECK_INT_EQ(occ_csv_read(path, &t, err, sizeof err), 0);
    CHECK_STR_EQ(occ_csv_meta_get(&t, "run"), "2");
    CHECK_STR_EQ(occ_csv_meta_get(&t, "end_status"), "interrupted");
    CHECK_INT_EQ(t.n_rows, 2);
    occ_csv_table_free(&t);

    /* a leftover .partial (a crashed run) is not overwritten without force */
    const char *stale = path_in("stale.csv.partial");
    write_text(stale, "# crashed run\n");
    CHECK(occ_csv_open(path_in("stale.csv"), 0, k, v1, 1, err, sizeof err) == NULL);
    CHECK_CONTAINS(err, "stale.csv.partial: exists");
    char *kept = read_text(stale);
    CHECK_STR_EQ(kept, "# crashed run\n");
    free(kept);
    /* ... nor with force: it may be the only copy of a killed run's rows; the message says how
     * to keep them */
    CHECK(occ_csv_open(path_in("stale.csv"), 1, k, v1, 1, err, sizeof err) == NULL);
    CHECK_CONTAINS(err, "stale.csv.partial: exists");
    CHECK_CONTAINS(err, "--resume");
    kept = read_text(stale);
    CHECK_STR_EQ(kept, "# crashed run\n");
    free(kept);
    CHECK(occ_csv_check_target(path_in("stale.csv"), 1, err, sizeof err) != 0);
    CHECK(!exists(path_in("stale.csv")));
    /* two runs on one --out, both with force: the second is refused, the first's rows stay */
    w = occ_csv_open(path_in("twice.csv"), 1, k, v1, 1, err, sizeof err);
    CHECK(w != NULL);
    CHECK(occ_csv_open(path_in("twice.csv"), 1, k, v2, 1, err, sizeof err) == NULL);
    CHECK_CONTAINS(err, "twice.csv.partial: exists");
    if (w) {
        r.status = "ok";
        CHECK_INT_EQ(occ_csv_write_row(w, &r), 0);
        CHECK_INT_EQ(occ_csv_close(w, NULL, NULL), 0);
        CHECK_INT_EQ(occ_csv_read(path_in("twice.csv"), &t, err, sizeof err), 0);
        CHECK_STR_EQ(occ_csv_meta_get(&t, "run"), "1");
        CHECK_INT_EQ(t.n_rows, 1);
        occ_csv_table_free(&t);
    }

    /* a name ending in '/' (a directory's) is refused before anything is made */
    CHECK_INT_EQ(occ_csv_check_target(path_in("newdir/"), 1, err, sizeof err), -1);
    CHECK_CONTAINS(err, "ends in '/'");
    CHECK(occ_csv_open(path_in("newdir/"), 1, k, v1, 1, err, sizeof err) == NULL);
    CHECK(!exists(path_in("newdir")));
    CHECK(occ_csv_open(path_in("missing/x.csv"), 0, k, v1, 1, err, sizeof err) == NULL);
    CHECK_CONTAINS(err, "missing does not exist");
    const char *bad_key[] = {"bad key"};
    CHECK(occ_csv_open(path_in("key.csv"), 0, bad_key, v1, 1, err, sizeof err) == NULL);
    CHECK_CONTAINS(err, "metadata key 'bad key'");

    mkdir(path_in("ro"), 0555);
    /* root writes anywhere: only check the message where permissions apply */
    if (access(path_in("ro"), W_OK) != 0) {
        CHECK(occ_csv_open(path_in("ro/x.csv"), 0, k, v1, 1, err, sizeof err) == NULL);
        CHECK_CONTAINS(err, "is not writable");
    }
    write_text(path_in("file"), "x");
    CHECK_INT_EQ(occ_csv_make_parent_dirs(path_in("file/sub/x.csv"), err, sizeof err), -1);
    CHECK_CONTAINS(err, "file");
}

#define HEADER_NAME(name, type, doc) #name ","
#define INIT_STR "-"
#define INIT_INT "0"
#define INIT_NUM "NaN"
#define INIT_FIELD(name, type, doc) INIT_##type ","

/* The writer's exact bytes: header, number formats, NULL strings, no metadata, no end line; and
 * the calls it refuses. */
static void test_writer_bytes(void)
{
    const char *path = path_in("bytes.csv");
    char err[512] = "", header[2048], init[2048];
    snprintf(header, sizeof header, "%s", OCC_CSV_COLUMNS(HEADER_NAME));
    header[strlen(header) - 1] = '\n';
    snprintf(init, sizeof init, "%s", OCC_CSV_COLUMNS(INIT_FIELD));
    init[strlen(init) - 1] = '\n';

    OccRow rows[3];
    fill_rows(rows);
    OccRow r;
    occ_row_init(&r);
    OccCsvWriter *w = occ_csv_open(path, 0, NULL, NULL, 0, err, sizeof err);
    CHECK(w != NULL);
    if (w == NULL) return;
    CHECK_INT_EQ(occ_csv_write_row(w, &r), 0);
    r.gpu_name = NULL; /* written "-", like an unset field */
    r.status = NULL;
    CHECK_INT_EQ(occ_csv_write_row(w, &r), 0);
    CHECK_INT_EQ(occ_csv_write_row(w, &rows[0]), 0);
    CHECK_INT_EQ(occ_csv_close(w, NULL, NULL), 0);
    char *text = read_text(path);
    char want[8192];
    snprintf(want, sizeof want, "%s%s%s", header, init, init);
    CHECK(text != NULL && strncmp(text, want, strlen(want)) == 0);
    CHECK_CONTAINS(text, ",9223372036854775807,");
    CHECK_CONTAINS(text, ",-9223372036854775808,");
    CHECK_CONTAINS(text, ",1.23456789e-07,");
    CHECK_CONTAINS(text, ",4712.345679,1e+300,-Inf,");
    CHECK_CONTAINS(text, ",Inf,NaN,NaN,NaN,NaN,NaN,NaN,NaN,\"skip:occupancy, 6.25% unreachable\"\n");
    /* the only '#' is inside the quoted field: no line reads as metadata */
    CHECK(text != NULL && strchr(text, '#') == strstr(text, "\"#not_a_comment\"") + 1);
    free(text);

    errno = 0;
    CHECK_INT_EQ(occ_csv_write_row(NULL, &r), -1);
    CHECK_INT_EQ(errno, EINVAL);
    errno = 0;
    CHECK_INT_EQ(occ_csv_close(NULL, NULL, NULL), -1);
    CHECK_INT_EQ(errno, EINVAL);

    /* a bad end key: the file stays under its .partial name */
    w = occ_csv_open(path_in("endkey.csv"), 0, NULL, NULL, 0, err, sizeof err);
    CHECK(w != NULL);
    if (w != NULL) CHECK_INT_EQ(occ_csv_close(w, "end status", "complete"), -1);
    CHECK(exists(path_in("endkey.csv.partial")) && !exists(path_in("endkey.csv")));

    mkdir(path_in("isdir.csv"), 0755);
    CHECK(occ_csv_open(path_in("isdir.csv"), 1, NULL, NULL, 0, err, sizeof err) == NULL);
    CHECK_CONTAINS(err, "isdir.csv: is a directory");
    CHECK(occ_csv_open("", 0, NULL, NULL, 0, err, sizeof err) == NULL);
    CHECK_CONTAINS(err, "empty path");
    CHECK(occ_csv_column_doc(-1) == NULL && occ_csv_column_doc(occ_csv_column_count()) == NULL);
}
/* The output must be a regular file or a new path: a device node, FIFO, socket or directory is
 * refused, --force or not (the final rename would replace it with a regular file), as is a
 * .partial that is a link to a device and a path under a file. occ_csv_open makes the same checks
 * and leaves the node alone. */
static void test_target_kinds(void)
{
    char err[512];
    const char *fifo = path_in("fifo.csv"), *sock = path_in("sock.csv");
    const char *devs[] = {"/dev/null", "/dev/full", "/dev/zero"};
    for (size_t i = 0; i < sizeof devs / sizeof devs[0]; i++) {
        for (int force = 0; force <= 1; force++) {
            err[0] = '\0';
            CHECK_INT_EQ(occ_csv_check_target(devs[i], force, err, sizeof err), -1);
            CHECK_CONTAINS(err, "is a character device (the output must be a regular file");
        }
        CHECK(occ_csv_open(devs[i], 1, NULL, NULL, 0, err, sizeof err) == NULL);
        CHECK_CONTAINS(err, "is a character device");
    }
    struct stat st;
    CHECK(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
    CHECK_INT_EQ(mkfifo(fifo, 0644), 0);
    CHECK_INT_EQ(occ_csv_check_target(fifo, 1, err, sizeof err), -1);
    CHECK_CONTAINS(err, "fifo.csv: is a FIFO");
    CHECK(stat(fifo, &st) == 0 && S_ISFIFO(st.st_mode));
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", sock);
    CHECK(s >= 0 && bind(s, (struct sockaddr *)&addr, sizeof addr) == 0);
    CHECK_INT_EQ(occ_csv_check_target(sock, 1, err, sizeof err), -1);
    CHECK_CONTAINS(err, "sock.csv: is a socket");
    if (s >= 0) close(s);
    mkdir(path_in("dir.csv"), 0755);
    CHECK_INT_EQ(occ_csv_check_target(path_in("dir.csv"), 1, err, sizeof err), -1);
    CHECK_CONTAINS(err, "dir.csv: is a directory");
    /* a link to a device is judged by what it points to */
    CHECK_INT_EQ(symlink("/dev/null", path_in("link.csv")), 0);
    CHECK_INT_EQ(occ_csv_check_target(path_in("link.csv"), 1, err, sizeof err), -1);
    CHECK_CONTAINS(err, "link.csv: is a character device");
    /* a .partial linked to a device is refused as a device (no .partial is ever opened again) */
    CHECK_INT_EQ(symlink("/dev/null", path_in("lp.csv.partial")), 0);
    CHECK_INT_EQ(occ_csv_check_target(path_in("lp.csv"), 1, err, sizeof err), -1);
    CHECK_CONTAINS(err, "lp.csv.partial: is a character device");
    /* a parent that is a file, directly or further up */
    write_text(path_in("plain"), "x");
    CHECK_INT_EQ(occ_csv_check_target(path_in("plain/out.csv"), 1, err, sizeof err), -1);
    CHECK_CONTAINS(err, "a parent of it is not a directory");
    CHECK_INT_EQ(occ_csv_check_target(path_in("plain/a/b/out.csv"), 0, err, sizeof err), -1);
    CHECK_CONTAINS(err, "a parent of it is not a directory");
    /* a regular file with force, and a new path under new directories, pass */
    CHECK_INT_EQ(occ_csv_check_target(path_in("plain"), 1, err, sizeof err), 0);
    CHECK_INT_EQ(occ_csv_check_target(path_in("new/sub/out.csv"), 0, err, sizeof err), 0);
    /* a 100 KB path: the message keeps a prefix and still ends with its reason */
    static char huge[100 * 1024];
    memset(huge, 'a', sizeof huge - 1);
    memcpy(huge, "/dev/null/", 10);
    CHECK_INT_EQ(occ_csv_check_target(huge, 1, err, sizeof err), -1);
    CHECK_CONTAINS(err, "...: the name is too long");
    CHECK(strlen(err) < 300);
}

/* A .partial that is a symlink is never written through, --force or not: to a regular file (the
 * target keeps its bytes) or to a path that does not exist yet (nothing is created there). */
static void test_partial_symlink(void)
{
    char err[512];
    const char *keys[] = {"k"}, *values[] = {"v"};
    write_text(path_in("target.txt"), "precious\n");
    CHECK_INT_EQ(symlink(path_in("target.txt"), path_in("sl.csv.partial")), 0);
    for (int force = 0; force <= 1; force++) {
        err[0] = '\0';
        CHECK(occ_csv_open(path_in("sl.csv"), force, keys, values, 1, err, sizeof err) == NULL);
        CHECK_CONTAINS(err, "sl.csv.partial: exists");
    }
    char *text = read_text(path_in("target.txt"));
    CHECK_STR_EQ(text ? text : "(unreadable)", "precious\n");
    free(text);
    struct stat st;
    CHECK(lstat(path_in("sl.csv.partial"), &st) == 0 && S_ISLNK(st.st_mode));
    CHECK(!exists(path_in("sl.csv")));
    CHECK_INT_EQ(symlink(path_in("nowhere.txt"), path_in("dangling.csv.partial")), 0);
    CHECK(occ_csv_open(path_in("dangling.csv"), 1, keys, values, 1, err, sizeof err) == NULL);
    CHECK(!exists(path_in("nowhere.txt")) && !exists(path_in("dangling.csv")));
}

/* A relative path under missing directories passes the check (the nearest existing directory is
 * the current one) and is created, as an absolute one is. */
static void test_relative_new_dirs(void)
{
    char err[512] = "", cwd[PATH_MAX];
    CHECK(getcwd(cwd, sizeof cwd) != NULL && chdir(dir) == 0);
    CHECK_INT_EQ(occ_csv_check_target("sub/x.csv", 0, err, sizeof err), 0);
    CHECK_INT_EQ(occ_csv_check_target("sub2/deeper/x.csv", 0, err, sizeof err), 0);
    CHECK_STR_EQ(err, "");
    CHECK_INT_EQ(occ_csv_make_parent_dirs("sub/x.csv", err, sizeof err), 0);
    OccCsvWriter *w = occ_csv_open("sub/x.csv", 0, NULL, NULL, 0, err, sizeof err);
    CHECK(w != NULL && occ_csv_close(w, NULL, NULL) == 0);
    CHECK(exists("sub/x.csv"));
    CHECK(chdir(cwd) == 0);
}

#define GOOD_STR "x"
#define GOOD_INT "1"
#define GOOD_NUM "1.5"
#define GOOD_FIELD(name, type, doc) GOOD_##type ","

/* Reads text (NULL: no file) as a CSV file; expects failure with both needles in the message. */
static void expect_bad(const char *name, const char *text, const char *needle1, const char *needle2)
{
    char err[512] = "";
    OccCsvTable t;
    if (text != NULL) write_text(path_in(name), text);
    CHECK_INT_EQ(occ_csv_read(path_in(name), &t, err, sizeof err), -1);
    CHECK(t.rows == NULL && t.n_rows == 0 && t.text == NULL);
    CHECK_CONTAINS(err, needle1);
    CHECK_CONTAINS(err, needle2);
}

static void test_malformed(void)
{
    /* the X-macro ends every name with a comma; replace the last one with the line end */
    char header[2048], row[2048];
    snprintf(header, sizeof header, "%s", OCC_CSV_COLUMNS(HEADER_NAME));
    header[strlen(header) - 1] = '\n';
    snprintf(row, sizeof row, "%s", OCC_CSV_COLUMNS(GOOD_FIELD));
    row[strlen(row) - 1] = '\n';
    char text[8192];

    /* a '#' line without '=' is a comment; blank lines are skipped; keys are trimmed, values not */
    snprintf(text, sizeof text, "# a comment\n#  k2 \t= v2 \n\n# k=v\n%s\n%s", header, row);
    char err[512] = "";
    OccCsvTable t;
    write_text(path_in("good.csv"), text);
    CHECK_INT_EQ(occ_csv_read(path_in("good.csv"), &t, err, sizeof err), 0);
    CHECK_INT_EQ(t.n_rows, 1);
    if (t.n_rows == 1) CHECK_NEAR(t.rows[0].time_ms_median, 1.5, 0);
    CHECK_INT_EQ(t.n_meta, 2);
    CHECK_STR_EQ(occ_csv_meta_get(&t, "k2"), " v2 ");
    CHECK_STR_EQ(occ_csv_meta_get(&t, "k"), "v");
    occ_csv_table_free(&t);

    snprintf(text, sizeof text, "%s\"x\"y%s", header, strchr(row, ','));
    expect_bad("afterquote.csv", text, "afterquote.csv:2:", "'y' after a closing quote");
    snprintf(text, sizeof text, "gpu_name,cc\n%s", row);
    expect_bad("narrow.csv", text, "narrow.csv:1: wrong header", "2 columns, expected");

    char *cc = strstr(header, ",cc,");
    memcpy(cc, ",cx,", 4);
    snprintf(text, sizeof text, "# k=v\n%s%s", header, row);
    expect_bad("header.csv", text, "header.csv:2: wrong header", "'cx', expected 'cc'");
    memcpy(cc, ",cc,", 4);

    snprintf(text, sizeof text, "%s%s1,2,3\n", header, row);
    expect_bad("short.csv", text, "short.csv:3:", "3 fields, expected");

    /* the quoted line break makes the bad row start on line 5, not 4 */
    snprintf(text, sizeof text, "# k=v\n%s\"two\nlines\"%sx,9.0,12x%s", header, strchr(row, ','),
             strstr(row, ",x,x,"));
    expect_bad("int.csv", text, "int.csv:5: column sm_count", "'12x' is not an integer");

    snprintf(text, sizeof text, "%s%s", header, row);
    memcpy(strstr(text, "1.5,"), "1.x,", 4);
    expect_bad("num.csv", text, "num.csv:2: column occ_target_pct", "is not a number");

    snprintf(text, sizeof text, "%s\"open%s", header, row);
    expect_bad("quote.csv", text, "quote.csv:2:", "unterminated");
    expect_bad("empty.csv", "# only=meta\n", "empty.csv:", "no header");
    expect_bad("absent.csv", NULL, "absent.csv", "No such file");

    /* CRLF line ends, as after a trip through a Windows editor, still read */
    snprintf(text, sizeof text, "# k=v\n%s%s", header, row);
    for (char *p = text; (p = strchr(p, '\n')) != NULL; p += 2) {
        memmove(p + 1, p, strlen(p) + 1);
        *p = '\r';
    }
    write_text(path_in("crlf.csv"), text);
    CHECK_INT_EQ(occ_csv_read(path_in("crlf.csv"), &t, err, sizeof err), 0);
    CHECK_STR_EQ(occ_csv_meta_get(&t, "k"), "v");
    CHECK_INT_EQ(t.n_rows, 1);
    if (t.n_rows == 1) CHECK_STR_EQ(t.rows[0].status, "x");
    occ_csv_table_free(&t);
}

#define TYPE_NAME(name, type, doc) #type,

/* results/README.md must list every column, in schema order, with its type. */
static void test_readme_dictionary(void)
{
    const char *root = getenv("OCC_SOURCE_ROOT");
    char path[1024];
    snprintf(path, sizeof path, "%s/results/README.md", root ? root : ".");
    char *text = read_text(path);
    CHECK(text != NULL);
    if (text == NULL) return;
    static const char *const types[] = {OCC_CSV_COLUMNS(TYPE_NAME)};
    const char *p = strstr(text, "\n| column | type |");
    CHECK(p != NULL);
    int i = 0, n = occ_csv_column_count();
    for (p = p ? strchr(p + 1, '\n') : NULL; p != NULL && strncmp(p, "\n|", 2) == 0;
         p = strchr(p + 1, '\n')) {
        char name[128], type[16];
        if (sscanf(p, "\n| %127[^ |] | %15[^ |] |", name, type) != 2 || name[0] == '-') continue;
        CHECK(i < n);
        if (i >= n) break;
        CHECK_STR_EQ(name, occ_csv_column_name(i));
        CHECK_STR_EQ(type, types[i]);
        i++;
    }
    CHECK_INT_EQ(i, n);
    free(text);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* The files beside a run's CSV: its name without ".csv", then the suffix. */
static void test_sibling_path(void)
{
    char out[32];
    occ_csv_sibling_path("results/a.csv", "-knee.md", out, sizeof out);
    CHECK_STR_EQ(out, "results/a-knee.md");
    occ_csv_sibling_path("run", "-loaded.csv", out, sizeof out);
    CHECK_STR_EQ(out, "run-loaded.csv");
    occ_csv_sibling_path("x.csv.bak", "-knee.md", out, sizeof out);
    CHECK_STR_EQ(out, "x.csv.bak-knee.md");
    occ_csv_sibling_path(".csv", "-k", out, sizeof out);
    CHECK_STR_EQ(out, ".csv-k");
    occ_csv_sibling_path("abcdef.csv", "-knee.md", out, 8);
    CHECK_STR_EQ(out, "abcdef-");
}

int main(void)
{
    test_sibling_path();
    snprintf(dir, sizeof dir, "/tmp/occ_csv_XXXXXX");
    if (mkdtemp(dir) == NULL) {
        perror("mkdtemp");
        return 99;
    }
    test_columns_and_init();
    test_round_trip();
    test_force_and_partial();
    test_writer_bytes();
    test_target_kinds();
    test_partial_symlink();
    test_relative_new_dirs();
    test_malformed();
    test_readme_dictionary();
    int rc = check_done();
    chmod(path_in("ro"), 0755);
    if (rc == 0)
        nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    else
        printf("files kept in %s\n", dir);
    return rc;
}
