/* SPDX-License-Identifier: Apache-2.0 */
/* harness/csv/ncu_csv.c: the --ncu metric list, ncu's raw-page CSV and the launch-to-row matching
 * (contract in ncu_csv.h). */
#include "ncu_csv.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const occ_ncu_metric_names[OCC_NCU_N_METRICS] = {
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "smsp__issue_active.avg.pct_of_peak_sustained_active",
    "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_wait_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio",
};

/* ncu may print many more columns than the metrics asked for (launch__*, device__*). */
enum { MAX_FIELDS = 2048, FIELD_BYTES = 256 };

static void set_err(char *err, size_t len, const char *fmt, ...)
{
    if (len == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
}

char *occ_ncu_metric_list(char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < OCC_NCU_N_METRICS && at < len; i++) {
        int w = snprintf(buf + at, len - at, "%s%s", i ? "," : "", occ_ncu_metric_names[i]);
        at += w > 0 ? (size_t)w : 0;
    }
    return buf;
}

/* Splits the record at *p into fields (unquoted, truncated to FIELD_BYTES - 1), moving *p past
 * it. Returns the number of fields (at most MAX_FIELDS stored), 0 at the end of the text, or -1
 * for an unterminated quote. */
static int split(const char **p, char fields[][FIELD_BYTES])
{
    const char *s = *p;
    if (*s == '\0') return 0;
    int n = 0;
    for (;;) {
        char tmp[FIELD_BYTES];
        size_t k = 0;
        if (*s == '"') {
            for (s++;; s++) {
                if (*s == '\0') return -1;
                if (*s == '"' && s[1] == '"')
                    s++;
                else if (*s == '"')
                    break;
                if (k + 1 < sizeof tmp) tmp[k++] = *s;
            }
            s++;
        }
        while (*s != ',' && *s != '\n' && *s != '\r' && *s != '\0') {
            if (k + 1 < sizeof tmp) tmp[k++] = *s;
            s++;
        }
        tmp[k] = '\0';
        if (n < MAX_FIELDS) memcpy(fields[n], tmp, k + 1);
        n++;
        if (*s != ',') break;
        s++;
    }
    if (*s == '\r') s++;
    if (*s == '\n') s++;
    *p = s;
    return n < MAX_FIELDS ? n : MAX_FIELDS;
}

static int find(char fields[][FIELD_BYTES], int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(fields[i], name) == 0) return i;
    return -1;
}

/* "(128, 1, 1)" -> 128; -1 when it is not a list of positive integers. */
static long long dims_product(const char *text)
{
    long long product = 1;
    int n = 0;
    for (const char *s = text; *s;) {
        if (*s == '(' || *s == ')' || *s == ',' || *s == ' ') {
            s++;
            continue;
        }
        char *end;
        long long v = strtoll(s, &end, 10);
        if (end == s || v <= 0) return -1;
        product *= v;
        n++;
        s = end;
    }
    return n ? product : -1;
}

/* A metric value: thousands separators dropped; NaN for "n/a", empty or text. */
static double metric_value(const char *text)
{
    char digits[FIELD_BYTES];
    size_t k = 0;
    for (const char *s = text; *s && k + 1 < sizeof digits; s++)
        if (*s != ',') digits[k++] = *s;
    digits[k] = '\0';
    char *end;
    double v = strtod(digits, &end);
    return k && *end == '\0' ? v : NAN;
}

int occ_ncu_parse_raw(const char *text, OccNcuLaunch *out, int max, char *err, size_t err_len)
{
    static char f[MAX_FIELDS][FIELD_BYTES];
    const char *p = text;
    int n, col[OCC_NCU_N_METRICS], c_grid = -1, c_block = -1, n_header = 0, count = 0;
    while ((n = split(&p, f)) != 0) {
        if (n < 0) {
            set_err(err, err_len, "ncu CSV: unterminated quoted field");
            return -1;
        }
        if (strcmp(f[0], "ID") == 0 && find(f, n, "Kernel Name") >= 0) {
            n_header = n;
            break;
        }
    }
    if (!n_header) {
        set_err(err, err_len, "ncu CSV: no header line (\"ID\",...,\"Kernel Name\",...)");
        return -1;
    }
    c_grid = find(f, n_header, "Grid Size");
    c_block = find(f, n_header, "Block Size");
    if (c_grid < 0 || c_block < 0) {
        set_err(err, err_len, "ncu CSV: no \"Grid Size\" or \"Block Size\" column");
        return -1;
    }
    for (int m = 0; m < OCC_NCU_N_METRICS; m++)
        if ((col[m] = find(f, n_header, occ_ncu_metric_names[m])) < 0) {
            set_err(err, err_len, "ncu CSV: no column for metric %s", occ_ncu_metric_names[m]);
            return -1;
        }
    while ((n = split(&p, f)) != 0) {
        if (n < 0) {
            set_err(err, err_len, "ncu CSV: unterminated quoted field");
            return -1;
        }
        if (n == 1 && f[0][0] == '\0') continue;   /* an empty line */
        if (f[0][0] == '\0') continue;             /* the units line */
        if (strncmp(f[0], "==", 2) == 0) continue; /* ==PROF== / ==WARNING== lines */
        if (n != n_header) {
            set_err(err, err_len, "ncu CSV: launch %d has %d fields, the header %d", count, n,
                    n_header);
            return -1;
        }
        OccNcuLaunch l = {.grid_blocks = dims_product(f[c_grid]),
                          .block_threads = (int)dims_product(f[c_block])};
        if (l.grid_blocks < 0 || l.block_threads < 0) {
            set_err(err, err_len, "ncu CSV: launch %d: grid '%s' or block '%s' not understood",
                    count, f[c_grid], f[c_block]);
            return -1;
        }
        for (int m = 0; m < OCC_NCU_N_METRICS; m++)
            l.value[m] = metric_value(f[col[m]]);
        if (count < max) out[count] = l;
        count++;
    }
    return count;
}

char *occ_ncu_key_format(const OccNcuKey *k, char *buf, size_t len)
{
    snprintf(buf, len, "%s\t%s\t%d\t%.17g\t%lld\n", k->variant, k->lever, k->block_threads,
             k->occ_target_pct, k->grid_blocks);
    return buf;
}

int occ_ncu_parse_manifest(const char *text, OccNcuKey *keys, int max, char *err, size_t err_len)
{
    int n = 0;
    for (const char *line = text; *line; n++) {
        const char *nl = strchr(line, '\n');
        OccNcuKey k;
        if (!nl || sscanf(line, "%63[^\t]\t%15[^\t]\t%d\t%lf\t%lld", k.variant, k.lever,
                          &k.block_threads, &k.occ_target_pct, &k.grid_blocks) != 5) {
            set_err(err, err_len, "ncu manifest: line %d is not a point key", n + 1);
            return -1;
        }
        if (n < max) keys[n] = k;
        line = nl + 1;
    }
    return n;
}

/* Writes launch l's values into row r's ncu_* columns (their order is the metric list's). */
static void fill_row(OccRow *r, const OccNcuLaunch *l)
{
    double *to[OCC_NCU_N_METRICS] = {&r->ncu_occ_achieved_pct,   &r->ncu_dram_throughput_pct,
                                     &r->ncu_issue_active_pct,   &r->ncu_stall_long_scoreboard,
                                     &r->ncu_stall_not_selected, &r->ncu_stall_wait,
                                     &r->ncu_stall_math_throttle};
    for (int m = 0; m < OCC_NCU_N_METRICS; m++)
        *to[m] = l->value[m];
}

static int row_matches(const OccRow *r, const OccNcuKey *k)
{
    return strcmp(r->status, "ok") == 0 && strcmp(r->variant, k->variant) == 0 &&
           strcmp(r->lever, k->lever) == 0 && r->block_threads == k->block_threads &&
           r->occ_target_pct == k->occ_target_pct;
}

int occ_ncu_apply(const OccNcuLaunch *launches, int n_launches, const OccNcuKey *keys, int n_keys,
                  OccRow *rows, int n_rows, char *err, size_t err_len)
{
    if (n_launches != n_keys) {
        set_err(err, err_len, "ncu profiled %d launches where %d points were replayed", n_launches,
                n_keys);
        return -1;
    }
    for (int i = 0; i < n_keys; i++)
        if (launches[i].grid_blocks != keys[i].grid_blocks ||
            launches[i].block_threads != keys[i].block_threads) {
            set_err(err, err_len,
                    "ncu launch %d has grid %lld x %d where point %s at %g%% launched %lld x %d", i,
                    launches[i].grid_blocks, launches[i].block_threads, keys[i].variant,
                    keys[i].occ_target_pct, keys[i].grid_blocks, keys[i].block_threads);
            return -1;
        }
    int filled = 0;
    for (int i = 0; i < n_keys; i++)
        for (int j = 0; j < n_rows; j++)
            if (row_matches(&rows[j], &keys[i])) {
                fill_row(&rows[j], &launches[i]);
                filled++;
                break;
            }
    return filled;
}

char *occ_ncu_version(const char *text, char *buf, size_t len)
{
    const char *v = strstr(text, "Version ");
    if (len < 32 || !v || sscanf(v + 8, "%31[0-9.]", buf) != 1) snprintf(buf, len, "unknown");
    return buf;
}

int occ_ncu_no_counter_access(const char *text)
{
    return strstr(text, "ERR_NVGPUCTRPERM") != NULL;
}
