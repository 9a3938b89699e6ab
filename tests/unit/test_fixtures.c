/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/test_fixtures.c: one reading of the CSV format. occ_csv_read (harness/csv/csv_read.c)
 * must accept every fixture in tests/fixtures except the malformed-* files that break the format,
 * and the plots' reader (plots/occcsv.py, used by plots/csvsel.py) must reach the same verdict on
 * every fixture and on a table of edge cases: both reject, at the same line, or both accept and
 * read the same metadata and values (both tables printed as occcsv.py's dump() prints them).
 * Usage: test_fixtures [PYTHON3]; the source tree is $OCC_SOURCE_ROOT (default "."). */
#define _XOPEN_SOURCE 700 /* popen, mkdtemp, open_memstream */

#include <dirent.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "csv.h"

#define TYPE_OF(name, type, doc) #type,
#define OFFSET_OF(name, type, doc) offsetof(OccRow, name),
static const char *const types[] = {OCC_CSV_COLUMNS(TYPE_OF)};
static const size_t offsets[] = {OCC_CSV_COLUMNS(OFFSET_OF)};
#define N_COLUMNS ((int)(sizeof types / sizeof types[0]))

static const char *root = ".", *python = "python3";
static char tmp_dir[64];

/* All of f, as a string: the dumps and messages hold no NUL byte, so one getdelim reads it all. */
static char *slurp(FILE *f)
{
    char *s = NULL;
    size_t cap = 0;
    if (f == NULL || getdelim(&s, &cap, '\0', f) < 0) {
        free(s);
        s = strdup("");
    }
    return s;
}

static void put_escaped(FILE *m, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        const char *e = *p == '\\' ? "\\\\" : *p == '\n' ? "\\n" : *p == '\r' ? "\\r"
                      : *p == '\t' ? "\\t" : *p == '|' ? "\\|" : NULL;
        if (e != NULL)
            fputs(e, m);
        else if (*p < 0x20 || *p == 0x7f)
            fprintf(m, "\\x%02x", *p);
        else
            fputc(*p, m);
    }
}

/* The table as occcsv.py's dump() prints it. */
static char *c_dump(const OccCsvTable *t)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    for (int i = 0; i < t->n_meta; i++) {
        fputs("meta ", m);
        put_escaped(m, t->meta_keys[i]);
        fputc('=', m);
        put_escaped(m, t->meta_values[i]);
        fputc('\n', m);
    }
    for (int r = 0; r < t->n_rows; r++) {
        fputs("row ", m);
        for (int i = 0; i < N_COLUMNS; i++) {
            const char *p = (const char *)&t->rows[r] + offsets[i];
            double v = *(const double *)p;
            if (i > 0) fputc('|', m);
            if (types[i][0] == 'S')
                put_escaped(m, *(const char *const *)p);
            else if (types[i][0] == 'I')
                fprintf(m, "%lld", *(const long long *)p);
            else if (isnan(v))
                fputs("NaN", m);
            else if (isinf(v))
                fputs(v > 0 ? "Inf" : "-Inf", m);
            else
                fprintf(m, "%.17g", v);
        }
        fputc('\n', m);
    }
    fclose(m);
    return text;
}

/* Runs occcsv.py --dump on path: its exit status, stdout in *out and stderr in *err. */
static int py_read(const char *path, char **out, char **err)
{
    char cmd[4096], err_path[128];
    snprintf(err_path, sizeof err_path, "%s/stderr.txt", tmp_dir);
    snprintf(cmd, sizeof cmd, "'%s' '%s/plots/occcsv.py' --dump '%s' 2>'%s'", python, root, path,
             err_path);
    FILE *p = popen(cmd, "r");
    *out = slurp(p);
    int status = p != NULL ? pclose(p) : -1;
    FILE *f = fopen(err_path, "rb");
    *err = slurp(f);
    if (f != NULL) fclose(f);
    return status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The line number in "path:LINE: what", or -1. */
static long error_line(const char *msg, const char *path)
{
    size_t n = strlen(path);
    if (msg == NULL || strncmp(msg, path, n) != 0 || msg[n] != ':') return -1;
    return strtol(msg + n + 1, NULL, 10);
}

/* Prints the first line where two dumps differ. */
static int same_dump(const char *label, const char *c, const char *py)
{
    if (c != NULL && py != NULL && strcmp(c, py) == 0) return 1;
    for (int line = 1; c != NULL && py != NULL; line++) {
        size_t a = strcspn(c, "\n"), b = strcspn(py, "\n");
        if (a != b || strncmp(c, py, a) != 0) {
            fprintf(stderr, "%s: dumps differ at line %d:\n  C:      %.*s\n  Python: %.*s\n", label,
                    line, (int)(a < 400 ? a : 400), c, (int)(b < 400 ? b : 400), py);
            break;
        }
        c += a + (c[a] != '\0');
        py += b + (py[b] != '\0');
    }
    return 0;
}

/* Reads path with both readers; both must accept (expect_ok) or reject it, and agree. Returns the
 * C reader's message, or "" when it accepted. */
static const char *compare(const char *path, const char *label, int expect_ok)
{
    static char err[1024];
    OccCsvTable t;
    err[0] = '\0';
    int c_ok = occ_csv_read(path, &t, err, sizeof err) == 0;
    char *py_out, *py_err;
    int py_status = py_read(path, &py_out, &py_err);
    CHECK(py_status == 0 || py_status == 2);
    if (c_ok != expect_ok || (py_status == 0) != expect_ok)
        fprintf(stderr, "%s: expected %s; C: %s; Python: %s", label,
                expect_ok ? "accepted" : "rejected", c_ok ? "accepted" : err,
                py_status == 0 ? "accepted\n" : py_err ? py_err : "(no message)\n");
    CHECK(c_ok == expect_ok);
    CHECK((py_status == 0) == expect_ok);
    if (c_ok && py_status == 0) {
        char *dump = c_dump(&t);
        CHECK(same_dump(label, dump, py_out));
        free(dump);
    } else if (!c_ok && py_status != 0) {
        if (error_line(err, path) < 0 || error_line(err, path) != error_line(py_err, path))
            fprintf(stderr, "%s: error lines differ:\n  C:      %s\n  Python: %s", label, err,
                    py_err ? py_err : "(none)\n");
        CHECK(error_line(err, path) > 0);
        CHECK_INT_EQ(error_line(py_err, path), error_line(err, path));
    }
    occ_csv_table_free(&t);
    free(py_out);
    free(py_err);
    return err;
}

/* Malformed fixtures that break the format, and what occ_csv_read says about each. */
static const struct {
    const char *name, *error;
} broken_fixtures[] = {
    {"malformed-after-quote.csv", "after a closing quote"},
    {"malformed-int-nan.csv", "column blocks_per_sm: 'NaN' is not an integer"},
    {"malformed-metadata-only.csv", "no header line"},
    {"malformed-missing-columns.csv", "is 'gbps_max', expected 'gbps_median'"},
    {"malformed-no-header.csv", "wrong header: column 1 is 'Synthetic GPU A'"},
    {"malformed-num-text.csv", "column gbps_median: 'fast' is not a number"},
    {"malformed-ragged.csv", ": 20 fields, expected"},
    {"malformed-unterminated-quote.csv", "unterminated quoted field"},
    {"malformed-wrong-header.csv", "wrong header: column 7 is 'vec_bytes', expected 'unroll'"},
};

/* Valid CSV that the plots refuse to draw (tests/plots/test_plots.sh): no ok rows, NaN
 * bandwidth. */
static const char *const plot_only_fixtures[] = {"malformed-no-ok-rows.csv",
                                                 "malformed-nan-values.csv"};

/* One field of a valid row replaced by text, in a file of the header and that row. */
static const struct {
    const char *column, *text;
    int ok;
} field_cases[] = {
    {"unroll", "12", 1}, {"unroll", " 12", 1}, {"unroll", "+12", 1}, {"unroll", "-0", 1},
    {"unroll", "\"7\"", 1}, {"unroll", "\"\n 7\"", 1}, {"unroll", "1@2", 1},
    {"unroll", "9223372036854775807", 1}, {"unroll", "-9223372036854775808", 1},
    {"unroll", "9223372036854775808", 0}, {"unroll", "-9223372036854775809", 0},
    {"unroll", "-0000000000000000000000000000042", 1}, {"unroll", "+", 0},
    {"unroll", "12 ", 0}, {"unroll", "1.0", 0}, {"unroll", "NaN", 0}, {"unroll", "0x10", 0},
    {"unroll", "", 0}, {"unroll", "1e3", 0}, {"unroll", "-", 0}, {"unroll", "1_0", 0},
    {"gbps_median", "1.5", 1}, {"gbps_median", " 1.5", 1}, {"gbps_median", "1.", 1},
    {"gbps_median", ".5", 1}, {"gbps_median", "1E-5", 1}, {"gbps_median", "+.5e-3", 1},
    {"gbps_median", "0x1p3", 1}, {"gbps_median", "-0x1.8P-2", 1}, {"gbps_median", "0x.8", 1},
    {"gbps_median", "inf", 1}, {"gbps_median", "Infinity", 1}, {"gbps_median", "-Inf", 1},
    {"gbps_median", "nan", 1}, {"gbps_median", "NaN(123)", 1}, {"gbps_median", "1e999", 1},
    {"gbps_median", "4e-320", 1}, {"gbps_median", "\"\t2\"", 1}, {"gbps_median", "1.5@x", 1},
    {"gbps_median", ".", 0}, {"gbps_median", "1e", 0}, {"gbps_median", "1e+", 0},
    {"gbps_median", "0x", 0}, {"gbps_median", "INFINITE", 0}, {"gbps_median", "nan(", 0},
    {"gbps_median", "\"1,5\"", 0}, {"gbps_median", "", 0}, {"gbps_median", "fast", 0},
    {"gbps_median", "1_0", 0}, {"gbps_median", "2\t", 0},
    {"gpu_name", "\"a,b\"", 1}, {"gpu_name", "\"a\"\"b\"", 1}, {"gpu_name", "\"a\nb\"", 1},
    {"gpu_name", "\"a\r\nb\"", 1}, {"gpu_name", "\"a\rb\"", 1}, {"gpu_name", "a\"b", 1},
    {"gpu_name", "a\rb", 1}, {"gpu_name", "a\r", 1}, {"gpu_name", " #x", 1}, {"gpu_name", "", 1},
    {"gpu_name", "\"\"", 1}, {"gpu_name", "\xc3\xa9t\xc3\xa9", 1}, {"gpu_name", "\xff\xfe", 1},
    {"gpu_name", "\"a@b\"", 1}, {"gpu_name", "\"ab\"x", 0}, {"gpu_name", "\"ab\" ", 0},
    {"gpu_name", "\"ab\"\r,", 0}, {"gpu_name", "\"ab", 0}, {"status", "\"ok\"", 1},
};

/* Whole files: %H is the header line, %R a valid row, %Q that row with its last field quoted,
 * @ a NUL byte. */
static const struct {
    const char *text;
    int ok;
} file_cases[] = {
    {"%H\n%R\n", 1}, {"%H\r\n%R\r\n", 1}, {"%H\n%R", 1}, {"%H\n%R\r", 1}, {"%H\n%Q\r\n", 1},
    {"%H\n%Q\r", 0}, {"%H\n%Q\r\r\n", 0}, {"%H\n\n\r\n%R\n\n%R\n", 1}, {"%H\n", 1},
    {"# k = v\n#comment\n%H\n# mid=1\n%R\n# end=a\\\\b\\nc\\rd\\qe\\\n", 1},
    {"#  key \t=v \r\n%H\n#=\n# =x=y\n%R\n#x=@y\n", 1}, {"%H\n#%R\n", 1}, {"%H\n \n%R\n", 0},
    {"%H\n%R\n%H\n", 0}, {"", 0}, {"\n\n", 0}, {"# a=1\n", 0}, {"%H,extra\n%R\n", 0},
    {"%H\n%R,\n", 0}, {"\xef\xbb\xbf%H\n%R\n", 0}, {"%H\n\"%R\n", 0}, {"%H\r\r\n%R\n", 0},
    {"%H\n%R\n@\n", 0}, {"%H\n%R\n\"x\n\n# a=1\n", 0},
};

/* Writes tmpl expanded (see file_cases) to path; column `col` of %R holds text when col >= 0. */
static void write_case(const char *path, const char *tmpl, int col, const char *text)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f == NULL) return;
    for (const char *p = tmpl; *p; p++) {
        if (*p == '@') {
            fputc('\0', f);
        } else if (*p != '%' || (p[1] != 'H' && p[1] != 'R' && p[1] != 'Q')) {
            fputc(*p, f);
        } else {
            char what = *++p;
            for (int i = 0; i < N_COLUMNS; i++) {
                const char *def = types[i][0] == 'S' ? "x" : types[i][0] == 'I' ? "1" : "1.5";
                if (i == N_COLUMNS - 1) def = what == 'Q' ? "\"ok\"" : "ok";
                const char *v = what == 'H' ? occ_csv_column_name(i) : i == col ? text : def;
                for (const char *q = v; *q; q++) fputc(*q == '@' ? '\0' : *q, f);
                if (i + 1 < N_COLUMNS) fputc(',', f);
            }
        }
    }
    fclose(f);
}

static void test_edge_cases(void)
{
    char path[128], label[256];
    snprintf(path, sizeof path, "%s/case.csv", tmp_dir);
    for (size_t k = 0; k < sizeof field_cases / sizeof field_cases[0]; k++) {
        int col = -1;
        for (int i = 0; i < N_COLUMNS; i++)
            if (strcmp(occ_csv_column_name(i), field_cases[k].column) == 0) col = i;
        CHECK(col >= 0);
        write_case(path, "%H\n%R\n", col, field_cases[k].text);
        snprintf(label, sizeof label, "field case %zu (%s)", k, field_cases[k].column);
        compare(path, label, field_cases[k].ok);
    }
    for (size_t k = 0; k < sizeof file_cases / sizeof file_cases[0]; k++) {
        write_case(path, file_cases[k].text, -1, NULL);
        snprintf(label, sizeof label, "file case %zu", k);
        compare(path, label, file_cases[k].ok);
    }
    unlink(path);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every fixture: accepted unless it is a malformed-* file that breaks the format. */
static void test_fixture_files(void)
{
    char dir[1024], path[2048];
    snprintf(dir, sizeof dir, "%s/tests/fixtures", root);
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    if (d == NULL) return;
    char *names[256];
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL && n < 256;) {
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".csv") == 0) names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], by_name);
    int broken_seen = 0, valid = 0;
    for (int i = 0; i < n; i++) {
        const char *why = NULL;
        for (size_t k = 0; k < sizeof broken_fixtures / sizeof broken_fixtures[0]; k++)
            if (strcmp(names[i], broken_fixtures[k].name) == 0) why = broken_fixtures[k].error;
        int malformed = strncmp(names[i], "malformed-", 10) == 0;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        const char *err = compare(path, names[i], why == NULL);
        if (why != NULL) {
            broken_seen++;
            CHECK_CONTAINS(err, why);
        } else {
            valid++;
            /* A malformed-* file the reader takes tests the plots' own refusals (no ok rows,
             * nothing finite to draw); it must be one of those listed here. */
            if (malformed) {
                int listed = 0;
                for (size_t k = 0; k < sizeof plot_only_fixtures / sizeof *plot_only_fixtures; k++)
                    listed |= strcmp(names[i], plot_only_fixtures[k]) == 0;
                if (!listed) fprintf(stderr, "%s: accepted, not a plot-only fixture\n", names[i]);
                CHECK(listed);
            }
        }
        free(names[i]);
    }
    CHECK_INT_EQ(broken_seen, sizeof broken_fixtures / sizeof broken_fixtures[0]);
    CHECK(valid >= 9);
}

/* The fixture whose strings need quoting reads back as make_fixtures.py wrote it. */
static void test_quoted_fixture(void)
{
    static const char gpu[] = "Synthetic GPU \"Q\", rev. 2\nsecond line";
    char path[2048], err[512];
    snprintf(path, sizeof path, "%s/tests/fixtures/reduce-quoted-synthetic.csv", root);
    OccCsvTable t;
    CHECK(occ_csv_read(path, &t, err, sizeof err) == 0);
    CHECK_INT_EQ(t.n_rows, 32);
    CHECK_STR_EQ(occ_csv_meta_get(&t, "gpu_name"), gpu);
    CHECK_CONTAINS(occ_csv_meta_get(&t, "command"), "--note 'C:\\tmp\\new'");
    int names = 0, hash = 0, fail = 0, ok = 0;
    for (int i = 0; i < t.n_rows; i++) {
        names += strcmp(t.rows[i].gpu_name, gpu) == 0;
        hash += strcmp(t.rows[i].limiter, "# smem, padded") == 0;
        fail += strstr(t.rows[i].status, "differ, \"first\" at 17\nsee the log") != NULL;
        ok += strcmp(t.rows[i].status, "ok") == 0;
    }
    CHECK_INT_EQ(names, 32);
    CHECK_INT_EQ(hash, 1);
    CHECK_INT_EQ(fail, 1);
    CHECK(ok >= 20);
    occ_csv_table_free(&t);
}

int main(int argc, char **argv)
{
    if (getenv("OCC_SOURCE_ROOT") != NULL) root = getenv("OCC_SOURCE_ROOT");
    if (argc > 1) python = argv[1];
    strcpy(tmp_dir, "/tmp/test_fixtures.XXXXXX");
    if (mkdtemp(tmp_dir) == NULL) {
        perror("mkdtemp");
        return 99;
    }
    test_fixture_files();
    test_quoted_fixture();
    test_edge_cases();
    char path[128];
    snprintf(path, sizeof path, "%s/stderr.txt", tmp_dir);
    unlink(path);
    rmdir(tmp_dir);
    return check_done();
}
