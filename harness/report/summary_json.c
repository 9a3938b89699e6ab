/* SPDX-License-Identifier: Apache-2.0 */
/* harness/report/summary_json.c: the JSON summary of a run (document and contract in
 * summary_json.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "summary_json.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "knee_report.h"
#include "loaded_levels.h"
#include "report_file.h"
#include "rowfmt.h"
#include "summary.h"

/* ---- the path checks ---- */

/* The directory part of path into dir (len bytes): "." for a bare name, "/" for "/name". */
static void dir_of(const char *path, char *dir, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (slash == NULL)
        snprintf(dir, len, ".");
    else
        snprintf(dir, len, "%.*s", slash == path ? 1 : (int)(slash - path), path);
}

/* path with its directory resolved (realpath; as written where it does not resolve) into out. */
static void resolved(const char *path, char *out, size_t len)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    dir_of(path, dir, sizeof dir);
    char *real = realpath(dir, NULL);
    snprintf(out, len, "%s/%s", real ? real : dir, slash ? slash + 1 : path);
    free(real);
}

/* 1 when a and b name one existing file, or resolve to the same path (summary_json.h). */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    char ra[8192], rb[8192];
    resolved(a, ra, sizeof ra);
    resolved(b, rb, sizeof rb);
    return strcmp(ra, rb) == 0;
}

int occ_summary_json_check_target(const char *path, int force, const char *const *others,
                                  int n_others, char *err, size_t err_len)
{
    const size_t len = strlen(path);
    struct stat st;
    char dir[4096];
    if (len == 0 || path[len - 1] == '/')
        return snprintf(err, err_len, "'%.200s': %s (accepted: a file path)", path,
                        len ? "ends in '/', a directory's name" : "empty"), -1;
    for (int i = 0; i < n_others; i++)
        if (others[i] != NULL && same_file(path, others[i]))
            return snprintf(err, err_len, "%.200s: the same file as %.200s (the summary would "
                            "replace it)", path, others[i]), -1;
    dir_of(path, dir, sizeof dir);
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return snprintf(err, err_len, "%.200s: directory %.200s does not exist", path, dir), -1;
    if (access(dir, W_OK) != 0)
        return snprintf(err, err_len, "%.200s: directory %.200s is not writable", path, dir), -1;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return snprintf(err, err_len, "%.200s: not a regular file (accepted: a file path)",
                        path), -1;
    if (stat(path, &st) == 0 && !force)
        return snprintf(err, err_len, "%.200s: exists; use --force", path), -1;
    return 0;
}

/* ---- JSON values ---- */

/* Length of the valid UTF-8 sequence at s (2..4), or 0 when the bytes there are not one. */
static int utf8_len(const unsigned char *s)
{
    const unsigned c = s[0];
    const int n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3
                  : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    /* The second byte's range excludes overlong forms, surrogates and code points > U+10FFFF. */
    const unsigned lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
    const unsigned hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
    for (int i = 1; i < n; i++)
        if (s[i] < (i == 1 ? lo : 0x80) || s[i] > (i == 1 ? hi : 0xBF)) return 0;
    return n;
}

/* s as a JSON string: quote, backslash and control characters escaped, valid UTF-8 passed
 * through, a byte of no valid sequence as U+FFFD; null for NULL. */
static void json_str(FILE *f, const char *s)
{
    static const char short_esc[] = "\b\f\n\r\t", short_char[] = "bfnrt";
    if (s == NULL) {
        fputs("null", f);
        return;
    }
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        const char *e = strchr(short_esc, *p);
        const int n = *p >= 0x80 ? utf8_len(p) : 1;
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (e != NULL)
            fprintf(f, "\\%c", short_char[e - short_esc]);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else if (n == 0)
            fputs("\\ufffd", f);
        else
            fwrite(p, 1, (size_t)n, f);
        p += n > 1 ? n - 1 : 0;
    }
    fputc('"', f);
}

/* v as a JSON number with the fewest digits (15 to 17) that read back as v; null for NaN or an
 * infinity (JSON has neither). */
static void json_num(FILE *f, double v)
{
    char s[40];
    if (!isfinite(v)) {
        fputs("null", f);
        return;
    }
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(s, sizeof s, "%.*g", digits, v);
        if (strtod(s, NULL) == v) break;
    }
    fputs(s, f);
}

/* "key": v, with v null when 0 (a column the row's family does not have). */
static void json_count_or_null(FILE *f, const char *key, long long v)
{
    fprintf(f, ", \"%s\": ", key);
    if (v)
        fprintf(f, "%lld", v);
    else
        fputs("null", f);
}

/* ---- the document's parts ---- */

static void write_metadata(FILE *f, const OccCsvTable *t)
{
    int any = 0;
    fputs("  \"metadata\": {", f);
    for (int i = 0; i < t->n_meta; i++) {
        int seen = 0;
        for (int j = 0; j < i && !seen; j++) seen = strcmp(t->meta_keys[j], t->meta_keys[i]) == 0;
        if (seen) continue;
        fputs(any++ ? ",\n    " : "\n    ", f);
        json_str(f, t->meta_keys[i]);
        fputs(": ", f);
        json_str(f, occ_csv_meta_get(t, t->meta_keys[i]));
    }
    fputs(any ? "\n  },\n" : "},\n", f);
}

static void write_status_counts(FILE *f, const OccCsvTable *t)
{
    int ok = 0, skip = 0, fail = 0;
    for (int i = 0; i < t->n_rows; i++) {
        const char *s = t->rows[i].status;
        ok += occ_row_is_ok(&t->rows[i]);
        skip += strncmp(s, "skip", 4) == 0;
        fail += strncmp(s, "fail", 4) == 0;
    }
    fprintf(f, "  \"status_counts\": {\"rows\": %d, \"ok\": %d, \"skip\": %d, \"fail\": %d, "
               "\"other\": %d},\n", t->n_rows, ok, skip, fail, t->n_rows - ok - skip - fail);
}

/* {"name", "gbps"} of roof, or null when it is NULL or has no name. */
static void write_roof(FILE *f, const OccTrafficRoof *roof)
{
    if (roof == NULL || roof->name == NULL) {
        fputs("null", f);
        return;
    }
    fputs("{\"name\": ", f);
    json_str(f, roof->name);
    fputs(", \"gbps\": ", f);
    json_num(f, roof->gbps);
    fputc('}', f);
}

/* The model with each distinct roof of the knees k[0..n), in order of first appearance. */
static void write_model(FILE *f, const OccModel *m, const OccKnee *k, int n)
{
    char which[400];
    fputs("  \"model\": ", f);
    if (m == NULL) {
        fputs("null,\n", f);
        return;
    }
    occ_model_describe(m, which, sizeof which);
    fputs("{\"description\": ", f);
    json_str(f, which);
    fputs(", \"dram_latency_ns\": ", f);
    json_num(f, m->latency_ns);
    fputs(", \"roofs\": [", f);
    OccTrafficRoof roofs[OCC_KNEE_MAX_ROOFS];
    const int n_roofs = occ_knee_roofs(k, n, roofs, OCC_KNEE_MAX_ROOFS);
    for (int i = 0; i < n_roofs; i++) {
        fputs(i ? ", " : "", f);
        write_roof(f, &roofs[i]);
    }
    fprintf(f, "], \"sm_count\": %d},\n", m->sm_count);
}

static void write_agreement(FILE *f, const OccKnee *k, int n)
{
    OccAgreement a;
    fputs("  \"agreement\": ", f);
    if (n <= 0) {
        fputs("null,\n", f);
        return;
    }
    occ_knee_agreement(k, n, &a);
    fputs("{\"within_pct\": ", f);
    json_num(f, OCC_MODEL_AGREE_PCT);
    fprintf(f, ", \"points\": %d, \"points_within\": %d, \"knees\": %d, "
               "\"knees_within_one_level\": %d},\n",
            a.points, a.points_agree, a.knees, a.knees_agree);
}

/* "key": {"value", "unit", "occ_achieved_pct", "pct_of_roof"}, or null for a NaN value. */
static void write_plateau(FILE *f, const char *key, double value, const char *unit, double occ,
                          double pct)
{
    fprintf(f, ",\n     \"%s\": ", key);
    if (isnan(value)) {
        fputs("null", f);
        return;
    }
    fputs("{\"value\": ", f);
    json_num(f, value);
    fprintf(f, ", \"unit\": \"%s\", \"occ_achieved_pct\": ", unit);
    json_num(f, occ);
    fputs(", \"pct_of_roof\": ", f);
    json_num(f, pct);
    fputc('}', f);
}

static void write_knee(FILE *f, const char *model, double measured, int at_lowest,
                       double predicted, int levels_apart, const OccTrafficRoof *roof)
{
    fprintf(f, ",\n     \"knee\": {\"model\": \"%s\", \"measured_occ_pct\": ", model);
    json_num(f, measured);
    fprintf(f, ", \"measured_at_lowest_level\": %s, \"roof\": ", at_lowest ? "true" : "false");
    write_roof(f, roof);
    fputs(", \"predicted_occ_pct\": ", f);
    json_num(f, predicted);
    fputs(", \"levels_apart\": ", f);
    if (levels_apart >= 0)
        fprintf(f, "%d}", levels_apart);
    else
        fputs("null}", f);
}

/* One (variant, block size) of the CSV: its first row and how many rows it has. */
typedef struct Group {
    const OccRow *first; /* its first row in file order */
    int rows, rows_ok;   /* its rows, and of those the ok ones */
} Group;

static int same_group(const OccRow *r, const char *variant, long long block_threads)
{
    return r->block_threads == block_threads && strcmp(r->variant, variant) == 0;
}

/* The groups of t's rows in order of first appearance into g; returns how many. */
static int find_groups(const OccCsvTable *t, Group *g)
{
    int n = 0;
    for (int i = 0; i < t->n_rows; i++) {
        const OccRow *r = &t->rows[i];
        int k = n - 1; /* rows of a group mostly follow each other: the last group first */
        if (k < 0 || !same_group(g[k].first, r->variant, r->block_threads))
            for (k = 0; k < n && !same_group(g[k].first, r->variant, r->block_threads); k++) {}
        if (k == n) g[n++] = (Group){.first = r};
        g[k].rows++;
        g[k].rows_ok += occ_row_is_ok(r);
    }
    return n;
}

static void write_variant_knee(FILE *f, const OccJsonSummary *s, const OccRow *r)
{
    for (int i = 0; i < s->n_knees; i++) {
        const OccKnee *k = &s->knees[i];
        if (!same_group(r, k->variant, k->block_threads)) continue;
        write_knee(f, "littles_law", k->knee_measured_pct, k->knee_measured_at_lowest,
                   k->knee_predicted_pct, k->knee_levels_apart, &k->roof);
        fprintf(f, ",\n     \"agreement\": {\"points\": %d, \"points_within\": %d, \"natural\": "
                   "%s}", k->points, k->points_agree,
                k->reg_cap_per_thread == 0 && !k->spills && k->points > 0 ? "true" : "false");
        return;
    }
    for (int i = 0; i < s->n_chains; i++) {
        const OccChainKnee *c = &s->chains[i];
        if (!same_group(r, c->variant, c->block_threads)) continue;
        write_knee(f, "chain", c->knee_measured_pct, c->knee_measured_at_lowest,
                   c->knee_predicted_pct, c->knee_levels_apart, NULL);
        fputs(",\n     \"agreement\": null", f);
        return;
    }
    fputs(",\n     \"knee\": null,\n     \"agreement\": null", f);
}

static void write_variant(FILE *f, const OccJsonSummary *s, const Group *g,
                          const OccVariantSummary *sums, int n_sums)
{
    const OccRow *r = g->first;
    const OccVariantSummary *v = NULL;
    for (int i = 0; i < n_sums && v == NULL; i++)
        if (same_group(r, sums[i].variant, sums[i].block_threads)) v = &sums[i];
    fputs("    {\"variant\": ", f);
    json_str(f, r->variant);
    fprintf(f, ", \"block_threads\": %lld, \"kernel\": ", r->block_threads);
    json_str(f, r->kernel);
    fputs(", \"mode\": ", f);
    json_str(f, r->mode);
    json_count_or_null(f, "unroll", r->unroll);
    json_count_or_null(f, "vec_bytes", r->vec_bytes);
    json_count_or_null(f, "fma_per_element", r->fma_per_element);
    fprintf(f, ", \"reg_cap_per_thread\": %lld, \"rows\": %d, \"rows_ok\": %d",
            r->reg_cap_per_thread, g->rows, g->rows_ok);
    const int gbps = v && isfinite(v->best_gbps), gflops = v && isfinite(v->best_gflops);
    if (gbps)
        write_plateau(f, "plateau", v->best_gbps, "GB/s", v->best_occ_pct, v->best_pct_of_memcpy);
    if (gflops)
        write_plateau(f, gbps ? "plateau_gflops" : "plateau", v->best_gflops, "GFLOP/s",
                      v->best_gflops_occ_pct, v->best_pct_of_flop_peak);
    if (!gbps && !gflops) fputs(",\n     \"plateau\": null", f);
    write_variant_knee(f, s, r);
    fputc('}', f);
}

/* The "variants" array (the groups whose rows are no load level), then the "load_levels" array
 * (the groups of load-level rows: occ_loaded_row_is_level); -1 when memory runs out. */
static int write_variants(FILE *f, const OccJsonSummary *s)
{
    const OccCsvTable *t = s->table;
    const size_t cap = (size_t)(t->n_rows > 0 ? t->n_rows : 1);
    Group *g = calloc(cap, sizeof *g);
    OccVariantSummary *sums = calloc(cap, sizeof *sums);
    if (g == NULL || sums == NULL) {
        free(g);
        free(sums);
        return -1;
    }
    const int n = find_groups(t, g);
    const int n_sums = occ_summary_compute(t->rows, t->n_rows, sums, t->n_rows);
    for (int levels = 0; levels <= 1; levels++) {
        fprintf(f, "  \"%s\": [", levels ? "load_levels" : "variants");
        int written = 0;
        for (int i = 0; i < n; i++) {
            if (occ_loaded_row_is_level(g[i].first) != levels) continue;
            fputs(written++ ? ",\n" : "\n", f);
            write_variant(f, s, &g[i], sums, n_sums);
        }
        fprintf(f, "%s%s\n", written ? "\n  ]" : "]", levels ? "" : ",");
    }
    free(g);
    free(sums);
    return 0;
}

int occ_summary_json_write(const char *path, const OccJsonSummary *s, char *err, size_t err_len)
{
    char tmp[4200];
    FILE *f = occ_report_create(path, tmp, sizeof tmp, err, err_len);
    if (f == NULL) return -1;
    fputs("{\n  \"schema\": \"" OCC_SUMMARY_JSON_SCHEMA "\",\n  \"csv_path\": ", f);
    json_str(f, s->csv_path);
    fputs(",\n", f);
    write_metadata(f, s->table);
    write_status_counts(f, s->table);
    write_model(f, s->model, s->knees, s->n_knees);
    write_agreement(f, s->knees, s->n_knees);
    if (write_variants(f, s) != 0) {
        fclose(f);
        unlink(tmp);
        return snprintf(err, err_len, "%.300s: out of memory", path), -1;
    }
    fputs("}\n", f);
    return occ_report_commit(f, tmp, path, err, err_len);
}
