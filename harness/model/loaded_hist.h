/* SPDX-License-Identifier: Apache-2.0 */
/* harness/model/loaded_hist.h: the figures of one load level of the loaded-latency experiment, from its
 * probes' hop histogram. Pure logic: no CUDA header. */
#ifndef OCC_LOADED_HIST_H
#define OCC_LOADED_HIST_H

#include <stddef.h>

#include "loaded_model.h"

/* One load level: background warps and their ILP, what the memory system delivered and what the
 * probes' dependent loads took meanwhile. NaN = not measured. */
typedef struct OccLoadedLevel {
    int traffic;        /* OccCurveTraffic (loaded_model.h): read, copy, gather or sector */
    int stream_warps;   /* background warps per SM (one block per SM) */
    int unroll;         /* U: loads in flight per background thread (OccLoadedArgs.unroll) */
    double gbps;        /* delivered bandwidth, background plus probes' bytes, GB/s */
    double mean_cycles; /* mean hop latency of the probes, SM cycles */
    double mean_ns;     /* the same in ns, at clock_mhz */
    double p5_ns, p50_ns, p95_ns, p99_ns; /* hop latency percentiles, ns (histogram bin centres) */
    double probe_min_ns, probe_max_ns; /* lowest and highest one probe's (SM's) mean, ns */
    double width_ns[OCC_CURVE_WIDTHS]; /* expected largest of 2^j independent hops, ns ([0]:
                                          the mean; OccLatencyCurve.ns) */
    double clock_mhz;   /* SM clock during the timed loops: their cycles / their ns, MHz */
    long long hops;     /* timed hops over all probes */
    char status[96];    /* "ok" or "fail:<why>" */
} OccLoadedLevel;

/* The q-th percentile (0 < q <= 100) of a histogram of n_bins bins, bin i counting hops of
 * [i, i + 1) x bin_cycles cycles: the centre of the first bin where the cumulative count reaches
 * q% of the total, in cycles. NaN when the histogram is empty or an input is invalid. */
double occ_hist_percentile_cycles(const unsigned int *bin, int n_bins, double bin_cycles,
                                  double q);

/* The expected largest of k independent draws from the histogram's distribution, in cycles (bin
 * centres: sum over bins of centre x (F(bin)^k - F(bin - 1)^k), F the cumulative fraction). NaN
 * when the histogram is empty or an input is invalid (k < 1). */
double occ_hist_expected_max_cycles(const unsigned int *bin, int n_bins, double bin_cycles, int k);

/* Fills lv's mean_cycles (sum_hop_cycles / hops), mean_ns, the percentiles in ns, width_ns and
 * hops from the merged histogram, at clock_mhz (MHz; cycles x 1000 / clock_mhz = ns). width_ns[j]
 * is the mean plus the histogram's expected largest of 2^j draws less its own mean (so [0] is the
 * exact mean, and binning shifts no width). */
void occ_loaded_level_stats(OccLoadedLevel *lv, const unsigned int *bin, int n_bins,
                            double bin_cycles, double sum_hop_cycles, long long hops,
                            double clock_mhz);

#endif
