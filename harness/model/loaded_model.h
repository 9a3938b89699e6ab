/* SPDX-License-Identifier: Apache-2.0 */
/* harness/model/loaded_model.h: the loaded-latency curve L(X) and the Little's-law fixed point on it.
 *
 * A kernel that keeps B bytes of loads in flight on each of S SMs, each load taking L(X) ns when
 * the memory system delivers X GB/s, settles where its own throughput is the one its latency
 * allows:
 *     X = min(R, B x S / L(X))          (bytes / ns = GB/s)
 * with R the roof. f(X) = X - B x S / L(X) is increasing in X whenever L is nondecreasing, so the
 * solution is unique: bisection on [0, R]; when f(R) <= 0 (the curve never lets B x S bytes in
 * flight fall below the roof) the solution is R. A flat curve L(X) = L0 gives min(R, B x S / L0),
 * the unloaded model. Pure logic: no CUDA header. */
#ifndef OCC_LOADED_MODEL_H
#define OCC_LOADED_MODEL_H

#include "catalog.h" /* OccCurveTraffic, the traffics a curve is measured under */

/* The most load levels one curve holds. */
#define OCC_CURVE_MAX_LEVELS 32
/* The widths a curve knows: k = 1, 2, 4, ... 2^(OCC_CURVE_WIDTHS - 1) independent loads a warp
 * waits on together (see OccLatencyCurve.ns). */
#define OCC_CURVE_WIDTHS 6

/* L(X) sampled at n load levels, as the chase/loaded rows hold it. Between samples L is
 * linear in X; below the first sample it is the first sample's latency (idle); above the last it
 * stays at the last sample's (the last level is saturation, at the roof's edge). Before
 * interpolating, the samples are taken in order of gbps and each latency is raised to the largest
 * latency of the samples below it, so L is nondecreasing (measurement noise must not make the
 * fixed point ambiguous). */
typedef struct OccLatencyCurve {
    int n;                                /* samples held, 0..OCC_CURVE_MAX_LEVELS */
    double gbps[OCC_CURVE_MAX_LEVELS];    /* delivered bandwidth of level i (all traffic), GB/s */
    /* ns[i][j]: at level i, the expected time until the last of 2^j independent dependent loads
     * issued together has returned, ns: [i][0] is the mean latency, [i][j] the mean of the
     * largest of 2^j draws from the level's latency distribution. A warp that waits on 2^j
     * random lines per trip (a chase of 2^j chains) runs one trip per ns[i][j]. */
    double ns[OCC_CURVE_MAX_LEVELS][OCC_CURVE_WIDTHS];
    /* The trip spread's sums (occ_curve_trip_spread), over the levels whose background is a
     * contiguous stream of trips of k lines (read traffic; occ_loaded_curve_take_row): T - L and
     * L_k - L, ns, with T the background's own trip time (its bytes in flight x SMs / its GB/s),
     * L the level's mean and L_k its expected largest of k. 0 where no level added to them. */
    double trip_excess_ns;
    double trip_spread_ns;
} OccLatencyCurve;

/* Adds a sample whose latency is ns for every width (no spread: gbps GB/s, ns ns). Returns 0,
 * or -1 (curve unchanged) when c is NULL, full, or gbps is not finite and >= 0, or ns not
 * finite and > 0. */
int occ_curve_add(OccLatencyCurve *c, double gbps, double ns);
/* Adds a sample with its latency per width, ns_of_width[j] for 2^j loads (the rules and
 * result of occ_curve_add, each ns_of_width[j] checked). */
int occ_curve_add_widths(OccLatencyCurve *c, double gbps, const double ns_of_width[OCC_CURVE_WIDTHS]);

/* The column j of OccLatencyCurve.ns (and of OccLoadedLevel.width_ns) that `width` loads waited
 * on together take: the smallest 2^j >= width, at most OCC_CURVE_WIDTHS - 1; 0 for width <= 1. */
int occ_curve_width_column(int width);

/* L(x_gbps) in ns (the mean latency, width 1) by the rules on OccLatencyCurve. NaN when c is
 * NULL, holds no sample or x_gbps is NaN. */
double occ_curve_latency_ns(const OccLatencyCurve *c, double x_gbps);
/* The same for `width` loads waited on together: the curve of width 2^j for the smallest
 * 2^j >= width (at most 2^(OCC_CURVE_WIDTHS - 1)); width <= 1 is the mean. */
double occ_curve_latency_width_ns(const OccLatencyCurve *c, double x_gbps, int width);

/* How much of the spread of k independent latencies a trip of k contiguous lines waits for:
 * trip_excess_ns / trip_spread_ns, clamped to [0, 1]; NaN when c is NULL or trip_spread_ns is
 * not > 0. 1 = the lines' latencies are independent draws; less = they move together (adjacent
 * lines share DRAM pages and queues). On an H200 the read levels give about 0.67. */
double occ_curve_trip_spread(const OccLatencyCurve *c);
/* L(x_gbps) + spread x (L_width(x_gbps) - L(x_gbps)), ns: a trip of `width` requests whose
 * latencies take `spread` of the independent draws' spread (spread 1: occ_curve_latency_width_ns).
 * Nondecreasing in x for spread in [0, 1]. NaN as occ_curve_latency_width_ns. */
double occ_curve_latency_spread_ns(const OccLatencyCurve *c, double x_gbps, int width,
                                   double spread);

/* The X of X = min(roof_gbps, bytes_in_flight_per_sm x sm_count / L(X)), GB/s, to within 1e-9
 * of the roof (relative). 0 for 0 bytes in flight. NaN when c has no sample, bytes_in_flight_per_sm
 * (bytes) is negative or NaN, sm_count <= 0 or roof_gbps is not finite and > 0. */
double occ_curve_solve_gbps(const OccLatencyCurve *c, double bytes_in_flight_per_sm, int sm_count,
                            double roof_gbps);
/* The same on the curve of `width` loads waited on together (occ_curve_latency_width_ns). */
double occ_curve_solve_width_gbps(const OccLatencyCurve *c, double bytes_in_flight_per_sm,
                                  int sm_count, double roof_gbps, int width);
/* The same with occ_curve_latency_spread_ns(c, X, width, spread) for L(X); spread outside [0, 1]
 * (or NaN) is taken as 1. */
double occ_curve_solve_spread_gbps(const OccLatencyCurve *c, double bytes_in_flight_per_sm,
                                   int sm_count, double roof_gbps, int width, double spread);

#endif
