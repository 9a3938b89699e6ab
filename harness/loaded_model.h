/* SPDX-License-Identifier: Apache-2.0 */
/* harness/loaded_model.h: the loaded-latency curve L(X) and the Little's-law fixed point on it.
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

/* The most load levels one curve holds. */
#define OCC_CURVE_MAX_LEVELS 32

/* L(X) sampled at n load levels, as the loaded-latency sweep measures it. Between samples L is
 * linear in X; below the first sample it is the first sample's latency (idle); above the last it
 * stays at the last sample's (the last level is saturation, at the roof's edge). Before
 * interpolating, the samples are taken in order of gbps and each latency is raised to the largest
 * latency of the samples below it, so L is nondecreasing (measurement noise must not make the
 * fixed point ambiguous). */
typedef struct OccLatencyCurve {
    int n;                                /* samples held, 0..OCC_CURVE_MAX_LEVELS */
    double gbps[OCC_CURVE_MAX_LEVELS];    /* delivered bandwidth of level i (all traffic), GB/s */
    double ns[OCC_CURVE_MAX_LEVELS];      /* mean dependent-load latency at level i, ns */
} OccLatencyCurve;

/* Adds a sample (gbps GB/s, ns ns). Returns 0, or -1 (curve unchanged) when c is NULL, full, or
 * gbps is not finite and >= 0, or ns not finite and > 0. */
int occ_curve_add(OccLatencyCurve *c, double gbps, double ns);

/* L(x_gbps) in ns by the rules on OccLatencyCurve. NaN when c is NULL, holds no sample or x_gbps
 * is NaN. */
double occ_curve_latency_ns(const OccLatencyCurve *c, double x_gbps);

/* The X of X = min(roof_gbps, bytes_in_flight_per_sm x sm_count / L(X)), GB/s, to within 1e-9
 * of the roof (relative). 0 for 0 bytes in flight. NaN when c has no sample, bytes_in_flight_per_sm
 * (bytes) is negative or NaN, sm_count <= 0 or roof_gbps is not finite and > 0. */
double occ_curve_solve_gbps(const OccLatencyCurve *c, double bytes_in_flight_per_sm, int sm_count,
                            double roof_gbps);

#endif
