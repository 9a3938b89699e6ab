/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/test_ncu.c: the --ncu reader on tests/fixtures/ncu/raw-reduce.csv (a raw-page export
 * written by hand after Nsight Compute's documented layout: header, units line, one record per
 * launch, ==PROF== lines around it), the manifest round trip and the launch-to-row matching.
 * The fixture is found under $OCC_SOURCE_ROOT (default "."). */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ncu_csv.h"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    static char text[1 << 22];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    return text;
}

static OccNcuKey key(const char *variant, double occ, long long grid)
{
    OccNcuKey k = {.block_threads = 128, .occ_target_pct = occ, .grid_blocks = grid};
    snprintf(k.variant, sizeof k.variant, "%s", variant);
    snprintf(k.lever, sizeof k.lever, "pad");
    return k;
}

static OccRow row(const char *variant, double occ, const char *status)
{
    OccRow r;
    occ_row_init(&r);
    r.variant = variant;
    r.lever = "pad";
    r.block_threads = 128;
    r.occ_target_pct = occ;
    r.status = status;
    return r;
}

static void test_fixture(const char *root)
{
    char path[1024], err[256] = "";
    snprintf(path, sizeof path, "%s/tests/fixtures/ncu/raw-reduce.csv", root);
    const char *text = slurp(path);
    CHECK(text != NULL);
    if (!text) return;
    OccNcuLaunch l[8];
    CHECK_INT_EQ(occ_ncu_parse_raw(text, l, 8, err, sizeof err), 4);
    CHECK_INT_EQ(l[0].grid_blocks, 528);
    CHECK_INT_EQ(l[0].block_threads, 128);
    CHECK_INT_EQ(l[1].grid_blocks, 2112);
    /* The columns are found by name: ncu orders them its own way, the values follow our list. */
    CHECK_NEAR(l[0].value[0], 24.61, 1e-9);   /* achieved occupancy */
    CHECK_NEAR(l[0].value[1], 34.12, 1e-9);   /* DRAM throughput */
    CHECK_NEAR(l[0].value[2], 3.91, 1e-9);    /* issue active */
    CHECK_NEAR(l[0].value[3], 41.87, 1e-9);   /* long scoreboard */
    CHECK_NEAR(l[0].value[4], 0.01, 1e-9);    /* not selected */
    CHECK_NEAR(l[0].value[5], 1.62, 1e-9);    /* wait */
    CHECK_NEAR(l[0].value[6], 0.00, 1e-9);    /* math throttle */
    CHECK_NEAR(l[3].value[3], 1175.60, 1e-9); /* "1,175.60": thousands separator */
    CHECK(isnan(l[3].value[0]));              /* "n/a" */
    /* Long-scoreboard stalls grow with the warps that wait on memory. */
    CHECK(l[1].value[3] > l[0].value[3]);

    OccNcuKey k[4] = {key("reduce_u1_v4", 25, 528), key("reduce_u1_v4", 100, 2112),
                      key("reduce_u4_v16", 25, 528), key("reduce_u4_v16", 50, 1056)};
    OccRow rows[5] = {row("reduce_u4_v16", 50, "ok"), row("reduce_u1_v4", 25, "ok"),
                      row("reduce_u1_v4", 100, "ok"), row("reduce_u4_v16", 25, "ok"),
                      row("reduce_u4_v16", 75, "skip:needs 40 regs/thread")};
    CHECK_INT_EQ(occ_ncu_apply(l, 4, k, 4, rows, 5, err, sizeof err), 4);
    CHECK_NEAR(rows[1].ncu_occ_achieved_pct, 24.61, 1e-9);
    CHECK_NEAR(rows[2].ncu_stall_long_scoreboard, 151.34, 1e-9);
    CHECK_NEAR(rows[0].ncu_stall_wait, 2.11, 1e-9);
    CHECK(isnan(rows[4].ncu_occ_achieved_pct));

    /* A launch whose grid is not the point's: nothing is filled. */
    OccRow fresh = row("reduce_u1_v4", 25, "ok");
    k[0].grid_blocks = 660;
    CHECK_INT_EQ(occ_ncu_apply(l, 4, k, 4, &fresh, 1, err, sizeof err), -1);
    CHECK(strstr(err, "grid 528") != NULL);
    CHECK(isnan(fresh.ncu_occ_achieved_pct));
    CHECK_INT_EQ(occ_ncu_apply(l, 3, k, 4, &fresh, 1, err, sizeof err), -1);
    CHECK(strstr(err, "3 launches") != NULL);
}

static void test_bad_input(void)
{
    char err[256] = "";
    OccNcuLaunch l[2];
    CHECK_INT_EQ(
        occ_ncu_parse_raw("==ERROR== ERR_NVGPUCTRPERM - no permission\n", l, 2, err, sizeof err),
        -1);
    CHECK(strstr(err, "no header") != NULL);
    CHECK(occ_ncu_no_counter_access("==ERROR== ERR_NVGPUCTRPERM - The user does not have"));
    CHECK(!occ_ncu_no_counter_access("==PROF== Disconnected from process 1"));
    const char *missing = "\"ID\",\"Kernel Name\",\"Block Size\",\"Grid Size\","
                          "\"sm__warps_active.avg.pct_of_peak_sustained_active\"\n";
    CHECK_INT_EQ(occ_ncu_parse_raw(missing, l, 2, err, sizeof err), -1);
    CHECK(strstr(err, "dram__throughput") != NULL);
    char list[1024];
    occ_ncu_metric_list(list, sizeof list);
    char header[1400];
    snprintf(header, sizeof header,
             "\"ID\",\"Kernel Name\",\"Block Size\",\"Grid Size\",%s\n"
             "\"0\",\"k\",\"(128, 1, 1)\"\n",
             list);
    CHECK_INT_EQ(occ_ncu_parse_raw(header, l, 2, err, sizeof err), -1);
    CHECK(strstr(err, "fields") != NULL);
}

static void test_manifest_and_version(void)
{
    OccNcuKey in = key("copy_u2_v8_r32", 56.25, 1188), out[2];
    char line[256], err[128];
    occ_ncu_key_format(&in, line, sizeof line);
    CHECK_INT_EQ(occ_ncu_parse_manifest(line, out, 2, err, sizeof err), 1);
    CHECK_STR_EQ(out[0].variant, "copy_u2_v8_r32");
    CHECK(out[0].occ_target_pct == 56.25);
    CHECK_INT_EQ(out[0].grid_blocks, 1188);
    CHECK_INT_EQ(occ_ncu_parse_manifest("reduce_u1_v4\tpad\n", out, 2, err, sizeof err), -1);
    char v[64];
    CHECK_STR_EQ(occ_ncu_version("NVIDIA (R) Nsight Compute Command Line Profiler\n"
                                 "Copyright (c) 2018-2025 NVIDIA Corporation\n"
                                 "Version 2025.3.1.0 (build 36398880) (public-release)\n",
                                 v, sizeof v),
                 "2025.3.1.0");
    CHECK_STR_EQ(occ_ncu_version("bash: ncu: command not found", v, sizeof v), "unknown");
}

/* Every raw-*.csv: parsed whole, at least one launch, shapes positive, percentages in 0..100
 * (DRAM throughput may pass 100 by a little: ncu's peak is nominal), stalls not negative. */
static void test_recorded(const char *root)
{
    static OccNcuLaunch l[4096];
    char dir[1024], path[1400], err[256];
    snprintf(dir, sizeof dir, "%s/tests/fixtures/ncu", root);
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    int files = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        size_t n = strlen(e->d_name);
        if (strncmp(e->d_name, "raw-", 4) != 0 || n < 5 || strcmp(e->d_name + n - 4, ".csv"))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        const char *text = slurp(path);
        int k = text ? occ_ncu_parse_raw(text, l, 4096, err, sizeof err) : -1;
        if (k <= 0) printf("  %s: %s\n", e->d_name, k < 0 ? err : "no launches");
        CHECK(k > 0 && k <= 4096);
        for (int i = 0; i < k && i < 4096; i++) {
            CHECK(l[i].grid_blocks > 0 && l[i].block_threads > 0);
            for (int m = 0; m < OCC_NCU_N_METRICS; m++) {
                const double v = l[i].value[m], hi = m == 1 ? 110 : m < 3 ? 100 : 1e6;
                CHECK(isnan(v) || (v >= 0 && v <= hi));
            }
        }
        files++;
    }
    if (d) closedir(d);
    CHECK(files >= 1);
}

int main(void)
{
    const char *root = getenv("OCC_SOURCE_ROOT");
    test_fixture(root ? root : ".");
    test_recorded(root ? root : ".");
    test_bad_input();
    test_manifest_and_version();
    return check_done();
}
