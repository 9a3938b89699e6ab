/* SPDX-License-Identifier: Apache-2.0 */
/* harness/loaded_model.c: L(X) and the loaded Little's-law fixed point (contract in
 * loaded_model.h). */
#include "loaded_model.h"

#include <math.h>
#include <stddef.h>

int occ_curve_add(OccLatencyCurve *c, double gbps, double ns)
{
    if (c == NULL || c->n >= OCC_CURVE_MAX_LEVELS || !(isfinite(gbps) && gbps >= 0) ||
        !(isfinite(ns) && ns > 0))
        return -1;
    /* Insertion keeps the samples in order of gbps, which the interpolation needs. */
    int i = c->n++;
    for (; i > 0 && c->gbps[i - 1] > gbps; i--) {
        c->gbps[i] = c->gbps[i - 1];
        c->ns[i] = c->ns[i - 1];
    }
    c->gbps[i] = gbps;
    c->ns[i] = ns;
    return 0;
}

double occ_curve_latency_ns(const OccLatencyCurve *c, double x_gbps)
{
    if (c == NULL || c->n <= 0 || isnan(x_gbps)) return NAN;
    /* lo: the running maximum of the latencies up to sample i (the monotone envelope). */
    double lo = c->ns[0];
    if (x_gbps <= c->gbps[0]) return lo;
    for (int i = 1; i < c->n; i++) {
        const double hi = c->ns[i] > lo ? c->ns[i] : lo;
        if (x_gbps <= c->gbps[i]) {
            const double span = c->gbps[i] - c->gbps[i - 1];
            return span > 0 ? lo + (hi - lo) * (x_gbps - c->gbps[i - 1]) / span : hi;
        }
        lo = hi;
    }
    return lo;
}

double occ_curve_solve_gbps(const OccLatencyCurve *c, double bytes_in_flight_per_sm, int sm_count,
                            double roof_gbps)
{
    if (c == NULL || c->n <= 0 || isnan(bytes_in_flight_per_sm) || bytes_in_flight_per_sm < 0 ||
        sm_count <= 0 || !(isfinite(roof_gbps) && roof_gbps > 0))
        return NAN;
    const double bs = bytes_in_flight_per_sm * sm_count;
    if (bs == 0) return 0;
    /* f(X) = X - bs / L(X): increasing, f(0) < 0. */
    if (roof_gbps - bs / occ_curve_latency_ns(c, roof_gbps) <= 0) return roof_gbps;
    double lo = 0, hi = roof_gbps;
    while (hi - lo > 1e-9 * roof_gbps) {
        const double mid = 0.5 * (lo + hi);
        if (mid - bs / occ_curve_latency_ns(c, mid) < 0) lo = mid;
        else hi = mid;
    }
    return 0.5 * (lo + hi);
}
