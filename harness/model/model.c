/* SPDX-License-Identifier: Apache-2.0 */
/* harness/model/model.c: Little's-law model and the knee table (contract in model.h; printed by
 * knee_report.c). */
#include "model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "rowfmt.h"
#include "summary.h"

void occ_model_use_curves(OccModel *m, const OccLatencyCurve curves[OCC_CURVE_TRAFFICS])
{
    m->curve = &curves[OCC_CURVE_READ];
    m->curve_rw = &curves[OCC_CURVE_COPY];
    m->curve_gather = &curves[OCC_CURVE_GATHER];
    m->curve_sector = &curves[OCC_CURVE_SECTOR];
}

int occ_model_is_loaded(const OccModel *m)
{
    return m != NULL && m->curve != NULL && m->curve->n > 0 && isfinite(m->roof_gbps);
}

void occ_model_describe(const OccModel *m, char *out, size_t len)
{
    if (len == 0) return;
    if (occ_model_is_loaded(m)) {
        const OccLatencyCurve *c = m->curve;
        snprintf(out, len, "loaded latency L(X): %d levels, %.1f ns idle to %.1f ns at %.1f GB/s",
                 c->n, occ_curve_latency_ns(c, 0), occ_curve_latency_ns(c, c->gbps[c->n - 1]),
                 c->gbps[c->n - 1]);
    } else {
        snprintf(out, len, "unloaded DRAM latency %.1f ns (fallback: %s)",
                 m ? m->latency_ns : NAN,
                 m && m->curve ? "no loaded-latency level was ok"
                               : "no loaded-latency curve measured");
    }
}

double occ_model_predict_gbps(const OccModel *m, double bytes_in_flight_per_sm, int width,
                              double spread)
{
    if (occ_model_is_loaded(m))
        return m->sm_count > 0 ? occ_curve_solve_spread_gbps(m->curve, bytes_in_flight_per_sm,
                                                             m->sm_count, m->roof_gbps, width,
                                                             spread)
                               : NAN;
    if (m == NULL || isnan(bytes_in_flight_per_sm) || bytes_in_flight_per_sm < 0 ||
        !(m->latency_ns > 0) || !(m->roof_gbps > 0) || m->sm_count <= 0)
        return NAN;
    /* bytes / ns is GB/s: no unit conversion. */
    double unclamped = bytes_in_flight_per_sm * m->sm_count / m->latency_ns;
    return unclamped < m->roof_gbps ? unclamped : m->roof_gbps;
}

double occ_model_loaded_latency_ns(double bytes_in_flight_per_sm, int sm_count, double gbps)
{
    if (isnan(bytes_in_flight_per_sm) || bytes_in_flight_per_sm < 0 || sm_count <= 0 ||
        !(gbps > 0))
        return NAN;
    return bytes_in_flight_per_sm * sm_count / gbps;
}

/* Bytes in flight per SM scaled to the traffic gbps_median counts and, where the row measured
 * its residency, to the warps that were resident (occ_measured_pct / occ_achieved_pct). NaN when
 * the row is outside the model: no usable traffic factor (NaN, infinite or <= 0) or no bytes in
 * flight. */
static double model_bytes_in_flight(const OccRow *r)
{
    double f = r->dram_bytes_per_load_byte;
    if (!(isfinite(f) && f > 0) || r->bytes_in_flight_per_sm <= 0) return NAN;
    const double resident = isfinite(r->occ_measured_pct) && r->occ_measured_pct > 0 &&
                                    r->occ_achieved_pct > 0
                                ? r->occ_measured_pct / r->occ_achieved_pct
                                : 1.0;
    return (double)r->bytes_in_flight_per_sm * f * resident;
}

/* The traffic of row r: its family's (OccFamilyInfo.curve_traffic); a row of no known family
 * read + write when f > 1, else read. */
static int row_traffic(const OccRow *r)
{
    const OccFamilyInfo *f = r->family_info;
    return f != NULL                          ? f->curve_traffic
           : r->dram_bytes_per_load_byte > 1 ? OCC_CURVE_COPY
                                              : OCC_CURVE_READ;
}

/* m's curve of traffic t, when it holds samples, else NULL. */
static const OccLatencyCurve *traffic_curve(const OccModel *m, int t)
{
    const OccLatencyCurve *c = t == OCC_CURVE_COPY     ? m->curve_rw
                               : t == OCC_CURVE_GATHER ? m->curve_gather
                               : t == OCC_CURVE_SECTOR ? m->curve_sector
                                                       : m->curve;
    return c != NULL && c->n > 0 ? c : NULL;
}

OccTrafficRoof occ_model_row_roof(const OccModel *m, const OccRow *r)
{
    const int t = row_traffic(r);
    const OccLatencyCurve *own = traffic_curve(m, t);
    if (t == OCC_CURVE_COPY)
        return (OccTrafficRoof){m->roof_gbps, "cudaMemcpy device to device"};
    const double top = own != NULL ? own->gbps[own->n - 1] : NAN;
    if (t == OCC_CURVE_GATHER && top > 0)
        return (OccTrafficRoof){top, "random 128-byte lines (highest gather level)"};
    if (t == OCC_CURVE_SECTOR && top > 0)
        return (OccTrafficRoof){top, "random 32-byte sectors (highest sector level)"};
    if (r->dram_bytes_per_load_byte <= 1 && m->roof_read_gbps > 0)
        return (OccTrafficRoof){m->roof_read_gbps, "cub::DeviceReduce (read-only streams)"};
    return (OccTrafficRoof){m->roof_gbps, "cudaMemcpy device to device"};
}

/* m as it applies to row r: predicted from the curve measured under its traffic (row_traffic),
 * where the run measured one, against that traffic's roof (occ_model_row_roof). */
static OccModel row_model(const OccModel *m, const OccRow *r)
{
    OccModel c = *m;
    const OccLatencyCurve *own = traffic_curve(m, row_traffic(r));
    if (own != NULL) c.curve = own;
    c.roof_gbps = occ_model_row_roof(m, r).gbps;
    return c;
}

/* The requests one warp of row r waits on together per trip: per chain (unroll) step, the
 * 128-byte lines of its coalesced load (32 lanes x vec_bytes / 128, at least 1) or 32 for loads
 * at random lane addresses (the family's OccRequestShape), times the row's unroll; 1 where the
 * family or the row says nothing. */
static int row_width(const OccRow *r)
{
    const OccFamilyInfo *f = r->family_info;
    const OccRequestShape shape = f != NULL ? f->requests : OCC_REQUESTS_NONE;
    const int lines = shape == OCC_REQUESTS_LINES || shape == OCC_REQUESTS_RANDOM_LINES;
    const int per_step = shape == OCC_REQUESTS_LANES ? 32
                         : lines && r->vec_bytes > 0
                             ? (32 * (int)r->vec_bytes + 127) / 128
                             : 0;
    return per_step > 0 && r->unroll > 0 ? per_step * (int)r->unroll : 1;
}

/* The share of the width's spread row r's trip waits for: the run's measured trip spread
 * (occ_curve_trip_spread of the read curve, m->curve) for a stream's adjacent lines
 * (OCC_REQUESTS_LINES) where the run measured it, else 1 (independent requests). */
static double row_spread(const OccModel *m, const OccRow *r)
{
    const OccFamilyInfo *f = r->family_info;
    const double s = occ_curve_trip_spread(m->curve);
    return f != NULL && f->requests == OCC_REQUESTS_LINES && occ_model_is_loaded(m) && !isnan(s)
               ? s
               : 1.0;
}

/* The row's prediction: its traffic's model (row_model) at its width (row_width) and spread
 * (row_spread). */
static double row_predicted_gbps(const OccModel *m, const OccRow *r)
{
    const double b = model_bytes_in_flight(r);
    const OccModel rm = row_model(m, r);
    return isnan(b) ? NAN : occ_model_predict_gbps(&rm, b, row_width(r), row_spread(m, r));
}

void occ_model_annotate(const OccModel *m, OccRow *rows, int n_rows)
{
    if (m == NULL || rows == NULL) return;
    for (int i = 0; i < n_rows; i++) {
        OccRow *r = &rows[i];
        double b = model_bytes_in_flight(r);
        if (!occ_row_is_ok(r) || isnan(b) || !isfinite(r->gbps_median)) continue;
        r->gbps_predicted = row_predicted_gbps(m, r);
        r->measured_over_predicted = r->gbps_median / r->gbps_predicted;
        r->latency_loaded_ns = occ_model_loaded_latency_ns(b, m->sm_count, r->gbps_median);
    }
}


/* The rules are documented on OccKnee.cause; their order matters: a spill explains a miss in
 * either direction, so it comes before the direction tests. Below the
 * prediction, Little's law itself says the loads took longer than the unloaded latency; only a
 * variant whose best stays far under the roof is called bound by something else. */
static void diagnose(const OccModel *m, const OccRow *worst, double predicted, OccKnee *k)
{
    double measured = worst->gbps_median;
    int clamped = predicted >= m->roof_gbps;
    size_t len = sizeof k->cause;
    if (worst->local_bytes_per_thread > 0)
        snprintf(k->cause, len, "register spills add local-memory traffic (%lld B/thread)",
                 worst->local_bytes_per_thread);
    else if (measured > predicted && clamped)
        snprintf(k->cause, len,
                 "faster than its roof (%s, %.0f GB/s): L2 hits or a traffic its roof does not "
                 "measure",
                 k->roof.name, k->roof.gbps);
    else if (measured > predicted)
        snprintf(k->cause, len,
                 "more parallelism than the model counts (e.g. L2 hits / prefetch) or latency "
                 "below the unloaded figure");
    else if (clamped && k->best_gbps < (1.0 - OCC_KNEE_MISS_PCT / 100.0) * m->roof_gbps)
        snprintf(k->cause, len,
                 "plateaus at %.0f%% of its roof (%s): DRAM efficiency or issue rate, not "
                 "latency, bounds it",
                 100.0 * k->best_gbps / m->roof_gbps, k->roof.name);
    else if (occ_model_is_loaded(m))
        snprintf(k->cause, len,
                 "slower than the loaded-latency curve predicts (L(X) = %.0f ns at the predicted "
                 "%.0f GB/s): issue rate or DRAM efficiency, not the probes' latency, bounds it",
                 occ_curve_latency_spread_ns(m->curve, predicted, row_width(worst), k->spread),
                 predicted);
    else
        snprintf(k->cause, len,
                 "latency rises under load (loaded latency %.0f ns vs unloaded %.0f ns)",
                 occ_model_loaded_latency_ns(model_bytes_in_flight(worst), m->sm_count, measured),
                 m->latency_ns);
}

/* 1 when row i is an ok row of k's variant and block size with a finite gbps_median. */
static int row_of(const OccRow *rows, int i, const OccKnee *k)
{
    const OccRow *r = &rows[i];
    return occ_row_ok_of_variant(r, k->variant) && (int)r->block_threads == k->block_threads &&
           isfinite(r->gbps_median);
}

/* OccKnee.knee_levels_apart: the distinct occupancies of k's rows in (lower, higher knee]. */
static int levels_apart(const OccRow *rows, int n_rows, const OccKnee *k)
{
    if (isnan(k->knee_measured_pct) || isnan(k->knee_predicted_pct)) return -1;
    const double lo = fmin(k->knee_measured_pct, k->knee_predicted_pct);
    const double hi = fmax(k->knee_measured_pct, k->knee_predicted_pct);
    int apart = 0;
    for (int i = 0; i < n_rows; i++) {
        const double o = rows[i].occ_achieved_pct;
        if (!row_of(rows, i, k) || !(o > lo && o <= hi)) continue;
        int seen = 0;
        for (int j = 0; j < i && !seen; j++) seen = row_of(rows, j, k) && rows[j].occ_achieved_pct == o;
        apart += !seen;
    }
    return apart;
}

/* Everything but the two knees, which come from occ_summary_compute. */
static void fill_variant(const OccModel *m, const OccRow *rows, int n_rows, OccKnee *k)
{
    const OccRow *first = NULL, *worst = NULL;
    double worst_predicted = NAN;
    k->bytes_in_flight_at_knee = k->worst_miss_pct = k->worst_miss_occ_pct = NAN;
    k->cause[0] = '\0';
    k->spills = k->points = k->points_agree = 0;
    for (int i = 0; i < n_rows; i++) {
        const OccRow *r = &rows[i];
        if (!row_of(rows, i, k)) continue;
        if (first == NULL) first = r;
        if (r->local_bytes_per_thread > 0) k->spills = 1;
        if (r->occ_achieved_pct == k->knee_measured_pct &&
            r->gbps_median >= OCC_SUMMARY_KNEE_FRACTION * k->best_gbps &&
            (isnan(k->bytes_in_flight_at_knee) ||
             (double)r->bytes_in_flight_per_sm < k->bytes_in_flight_at_knee))
            k->bytes_in_flight_at_knee = (double)r->bytes_in_flight_per_sm;
        double predicted = row_predicted_gbps(m, r);
        double miss = fabs(r->gbps_median / predicted - 1.0) * 100.0;
        if (!isfinite(miss)) continue;
        k->points++;
        k->points_agree += miss <= OCC_MODEL_AGREE_PCT;
        if (isnan(k->worst_miss_pct) || miss > k->worst_miss_pct ||
            (miss == k->worst_miss_pct && r->occ_achieved_pct < k->worst_miss_occ_pct)) {
            k->worst_miss_pct = miss;
            k->worst_miss_occ_pct = r->occ_achieved_pct;
            worst = r;
            worst_predicted = predicted;
        }
    }
    k->reg_cap_per_thread = (int)first->reg_cap_per_thread;
    k->knee_levels_apart = levels_apart(rows, n_rows, k);
    k->kernel = first->kernel;
    k->mode = first->mode;
    k->unroll = (int)first->unroll;
    k->vec_bytes = (int)first->vec_bytes;
    k->roof = k->points > 0 ? occ_model_row_roof(m, first) : (OccTrafficRoof){NAN, NULL};
    k->spread = row_spread(m, first);
    if (worst != NULL && k->worst_miss_pct > OCC_KNEE_MISS_PCT) {
        const OccModel rm = row_model(m, worst);
        diagnose(&rm, worst, worst_predicted, k);
    }
}

int occ_knee_compute(const OccModel *m, const OccRow *rows, int n_rows, OccKnee *out, int max_out)
{
    if (m == NULL || rows == NULL || n_rows <= 0 || max_out <= 0) return 0;
    OccVariantSummary *measured = malloc((size_t)n_rows * sizeof *measured);
    OccVariantSummary *predicted = malloc((size_t)n_rows * sizeof *predicted);
    OccRow *as_predicted = malloc((size_t)n_rows * sizeof *as_predicted);
    if (measured == NULL || predicted == NULL || as_predicted == NULL) {
        free(measured);
        free(predicted);
        free(as_predicted);
        return -1;
    }
    /* The predicted knee reuses summary.c's rule by running it over a copy of the rows whose
     * gbps_median is the prediction; rows without a measurement stay out of it. */
    for (int i = 0; i < n_rows; i++) {
        as_predicted[i] = rows[i];
        as_predicted[i].gbps_median =
            isfinite(rows[i].gbps_median) ? row_predicted_gbps(m, &rows[i]) : NAN;
    }
    int n_measured = occ_summary_compute(rows, n_rows, measured, n_rows);
    int n_predicted = occ_summary_compute(as_predicted, n_rows, predicted, n_rows);
    int n = 0;
    for (int v = 0; v < n_measured && n < max_out; v++) {
        if (isnan(measured[v].best_gbps)) continue;
        OccKnee *k = &out[n++];
        k->variant = measured[v].variant;
        k->block_threads = measured[v].block_threads;
        k->best_gbps = measured[v].best_gbps;
        k->knee_measured_pct = measured[v].knee_occ_pct;
        k->knee_measured_at_lowest = measured[v].knee_at_lowest;
        k->knee_predicted_pct = NAN;
        for (int p = 0; p < n_predicted; p++)
            if (occ_row_str_same(predicted[p].variant, k->variant) &&
                predicted[p].block_threads == k->block_threads)
                k->knee_predicted_pct = predicted[p].knee_occ_pct;
        fill_variant(m, rows, n_rows, k);
    }
    free(measured);
    free(predicted);
    free(as_predicted);
    return n;
}
