/* SPDX-License-Identifier: Apache-2.0 */
/* harness/loaded_hist.c: load-level figures and the levels' CSV (contract in loaded_hist.h). */
#include "loaded_hist.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

double occ_hist_percentile_cycles(const unsigned int *bin, int n_bins, double bin_cycles,
                                  double q)
{
    if (bin == NULL || n_bins <= 0 || !(bin_cycles > 0) || !(q > 0 && q <= 100)) return NAN;
    double total = 0;
    for (int i = 0; i < n_bins; i++) total += bin[i];
    if (total == 0) return NAN;
    double seen = 0;
    for (int i = 0; i < n_bins; i++) {
        seen += bin[i];
        if (seen >= q / 100.0 * total) return (i + 0.5) * bin_cycles;
    }
    return (n_bins - 0.5) * bin_cycles;
}

double occ_hist_expected_max_cycles(const unsigned int *bin, int n_bins, double bin_cycles, int k)
{
    if (bin == NULL || n_bins <= 0 || !(bin_cycles > 0) || k < 1) return NAN;
    double total = 0;
    for (int i = 0; i < n_bins; i++) total += bin[i];
    if (total == 0) return NAN;
    double seen = 0, below = 0, sum = 0;
    for (int i = 0; i < n_bins; i++) {
        seen += bin[i];
        const double at = pow(seen / total, k);
        sum += (i + 0.5) * bin_cycles * (at - below);
        below = at;
    }
    return sum;
}

void occ_loaded_level_stats(OccLoadedLevel *lv, const unsigned int *bin, int n_bins,
                            double bin_cycles, double sum_hop_cycles, long long hops,
                            double clock_mhz)
{
    const double ns_per_cycle = clock_mhz > 0 ? 1000.0 / clock_mhz : NAN;
    lv->hops = hops;
    lv->clock_mhz = clock_mhz;
    lv->mean_cycles = hops > 0 ? sum_hop_cycles / (double)hops : NAN;
    lv->mean_ns = lv->mean_cycles * ns_per_cycle;
    lv->p5_ns = occ_hist_percentile_cycles(bin, n_bins, bin_cycles, 5) * ns_per_cycle;
    lv->p50_ns = occ_hist_percentile_cycles(bin, n_bins, bin_cycles, 50) * ns_per_cycle;
    lv->p95_ns = occ_hist_percentile_cycles(bin, n_bins, bin_cycles, 95) * ns_per_cycle;
    lv->p99_ns = occ_hist_percentile_cycles(bin, n_bins, bin_cycles, 99) * ns_per_cycle;
    const double hist_mean = occ_hist_expected_max_cycles(bin, n_bins, bin_cycles, 1);
    for (int j = 0; j < OCC_CURVE_WIDTHS; j++)
        lv->width_ns[j] =
            (lv->mean_cycles + occ_hist_expected_max_cycles(bin, n_bins, bin_cycles, 1 << j) -
             hist_mean) * ns_per_cycle;
}

void occ_loaded_curve(const OccLoadedLevel *lv, int n, int traffic, OccLatencyCurve *c)
{
    c->n = 0;
    for (int i = 0; i < n; i++)
        if (lv[i].traffic == traffic && strcmp(lv[i].status, "ok") == 0)
            occ_curve_add_widths(c, lv[i].gbps, lv[i].width_ns);
}

int occ_loaded_write_csv(const char *path, const OccLoadedLevel *lv, int n, char *err,
                         size_t err_len)
{
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        if (err_len) snprintf(err, err_len, "%s: cannot create: %s", path, strerror(errno));
        return -1;
    }
    fprintf(f, "traffic,stream_warps,unroll,gbps,mean_ns,mean_cycles,p5_ns,p50_ns,p95_ns,p99_ns,"
               "probe_min_ns,probe_max_ns,clock_mhz,hops,status\n");
    for (int i = 0; i < n; i++)
        fprintf(f, "%s,%d,%d,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.1f,%lld,%s\n",
                lv[i].traffic ? "copy" : "read", lv[i].stream_warps, lv[i].unroll, lv[i].gbps,
                lv[i].mean_ns, lv[i].mean_cycles, lv[i].p5_ns, lv[i].p50_ns, lv[i].p95_ns,
                lv[i].p99_ns, lv[i].probe_min_ns, lv[i].probe_max_ns, lv[i].clock_mhz,
                lv[i].hops, lv[i].status);
    const int failed = ferror(f);
    if (fclose(f) != 0 || failed) {
        if (err_len) snprintf(err, err_len, "%s: write failed", path);
        return -1;
    }
    return 0;
}
