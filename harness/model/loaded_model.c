/* SPDX-License-Identifier: Apache-2.0 */
/* harness/model/loaded_model.c: L(X) and the loaded Little's-law fixed point (contract in
 * loaded_model.h). */
#include "loaded_model.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

int occ_curve_add_widths(OccLatencyCurve *c, double gbps, const double ns_of_width[OCC_CURVE_WIDTHS])
{
    if (c == NULL || c->n >= OCC_CURVE_MAX_LEVELS || !(isfinite(gbps) && gbps >= 0)) return -1;
    for (int j = 0; j < OCC_CURVE_WIDTHS; j++)
        if (!(isfinite(ns_of_width[j]) && ns_of_width[j] > 0)) return -1;
    /* Insertion keeps the samples in order of gbps, which the interpolation needs. */
    int i = c->n++;
    for (; i > 0 && c->gbps[i - 1] > gbps; i--) {
        c->gbps[i] = c->gbps[i - 1];
        memcpy(c->ns[i], c->ns[i - 1], sizeof c->ns[i]);
    }
    c->gbps[i] = gbps;
    memcpy(c->ns[i], ns_of_width, sizeof c->ns[i]);
    return 0;
}

int occ_curve_add(OccLatencyCurve *c, double gbps, double ns)
{
    double w[OCC_CURVE_WIDTHS];
    for (int j = 0; j < OCC_CURVE_WIDTHS; j++) w[j] = ns;
    return occ_curve_add_widths(c, gbps, w);
}

int occ_curve_width_column(int width)
{
    int j = 0;
    while (j < OCC_CURVE_WIDTHS - 1 && (1 << j) < width) j++;
    return j;
}

double occ_curve_latency_width_ns(const OccLatencyCurve *c, double x_gbps, int width)
{
    if (c == NULL || c->n <= 0 || isnan(x_gbps)) return NAN;
    const int j = occ_curve_width_column(width);
    /* lo: the running maximum of the latencies up to sample i (the monotone envelope). */
    double lo = c->ns[0][j];
    if (x_gbps <= c->gbps[0]) return lo;
    for (int i = 1; i < c->n; i++) {
        const double hi = c->ns[i][j] > lo ? c->ns[i][j] : lo;
        if (x_gbps <= c->gbps[i]) {
            const double span = c->gbps[i] - c->gbps[i - 1];
            return span > 0 ? lo + (hi - lo) * (x_gbps - c->gbps[i - 1]) / span : hi;
        }
        lo = hi;
    }
    return lo;
}

double occ_curve_latency_ns(const OccLatencyCurve *c, double x_gbps)
{
    return occ_curve_latency_width_ns(c, x_gbps, 1);
}

double occ_curve_trip_spread(const OccLatencyCurve *c)
{
    if (c == NULL || !(c->trip_spread_ns > 0)) return NAN;
    const double s = c->trip_excess_ns / c->trip_spread_ns;
    return s < 0 ? 0 : s > 1 ? 1 : s;
}

double occ_curve_latency_spread_ns(const OccLatencyCurve *c, double x_gbps, int width,
                                   double spread)
{
    if (spread == 1) return occ_curve_latency_width_ns(c, x_gbps, width);
    const double mean = occ_curve_latency_width_ns(c, x_gbps, 1);
    return mean + spread * (occ_curve_latency_width_ns(c, x_gbps, width) - mean);
}

double occ_curve_solve_gbps(const OccLatencyCurve *c, double bytes_in_flight_per_sm, int sm_count,
                            double roof_gbps)
{
    return occ_curve_solve_width_gbps(c, bytes_in_flight_per_sm, sm_count, roof_gbps, 1);
}

double occ_curve_solve_width_gbps(const OccLatencyCurve *c, double bytes_in_flight_per_sm,
                                  int sm_count, double roof_gbps, int width)
{
    return occ_curve_solve_spread_gbps(c, bytes_in_flight_per_sm, sm_count, roof_gbps, width, 1);
}

double occ_curve_solve_spread_gbps(const OccLatencyCurve *c, double bytes_in_flight_per_sm,
                                   int sm_count, double roof_gbps, int width, double spread)
{
    if (!(spread >= 0 && spread <= 1)) spread = 1;
    if (c == NULL || c->n <= 0 || isnan(bytes_in_flight_per_sm) || bytes_in_flight_per_sm < 0 ||
        sm_count <= 0 || !(isfinite(roof_gbps) && roof_gbps > 0))
        return NAN;
    const double bs = bytes_in_flight_per_sm * sm_count;
    if (bs == 0) return 0;
    /* f(X) = X - bs / L(X): increasing, f(0) < 0. */
    if (roof_gbps - bs / occ_curve_latency_spread_ns(c, roof_gbps, width, spread) <= 0)
        return roof_gbps;
    double lo = 0, hi = roof_gbps;
    while (hi - lo > 1e-9 * roof_gbps) {
        const double mid = 0.5 * (lo + hi);
        if (mid - bs / occ_curve_latency_spread_ns(c, mid, width, spread) < 0) lo = mid;
        else hi = mid;
    }
    return 0.5 * (lo + hi);
}
