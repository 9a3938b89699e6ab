/* SPDX-License-Identifier: Apache-2.0 */
/* harness/model/model.h: the Little's-law model of a sweep and the knee report built on it.
 *
 * Model: a kernel that keeps B bytes of loads in flight on each of S SMs, each load taking L ns,
 * moves B x S / L bytes per ns (= GB/s), up to the roof R:
 *     predicted GB/s = min(R, B x S / L)
 * B is the CSV's bytes_in_flight_per_sm, R the saturated throughput of the row's own traffic
 * (occ_model_row_roof: cub::DeviceReduce for read-only streams, cudaMemcpy for read + write
 * streams, the highest load level of random lines or random sectors for the chases). L is the
 * latency under the load the prediction itself delivers when the run measured the loaded-latency
 * curve L(X) (loaded_model.h: X = min(R, B x S / L(X)), solved by bisection), else the unloaded
 * DRAM latency of the chase ladder (the fallback, which occ_model_describe names). Inverting
 * the model on a measured point gives the latency the loads actually saw under that load:
 * B x S / measured GB/s (the CSV's latency_loaded_ns).
 *
 * Only loads wait on DRAM, but gbps_median may count more bytes than were loaded (a kernel that
 * stores every loaded byte moves two DRAM bytes per byte loaded). Each row carries that factor,
 * f = dram_bytes_per_load_byte (from its family's descriptor), and the model is applied to
 * f x B, which is the same as scaling the unclamped prediction by f. A row whose f is NaN (a
 * family without a bandwidth model, such as the latency ladder), infinite or <= 0 is outside the
 * model. Where a row measured its residency (occ_measured_pct finite and > 0), B is scaled by
 * occ_measured_pct / occ_achieved_pct: the warps that were resident, not the API's count. The model names no kernel family: what it knows of one comes from the row and from the
 * family table (catalog.h).
 *
 * The knee report: per variant, the lowest occupancy reaching OCC_SUMMARY_KNEE_FRACTION of the
 * variant's best (summary.h's rule), measured and predicted, and where the model misses by more
 * than OCC_KNEE_MISS_PCT, with a likely cause (printed and written by
 * harness/report/knee_report.h). Pure logic: no CUDA header. */
#ifndef OCC_MODEL_H
#define OCC_MODEL_H

#include <stddef.h>
#include <stdio.h>

#include "chain_model.h"
#include "csv.h"
#include "loaded_model.h"

/* A model miss larger than this, in % of the prediction, gets a likely cause in the report. */
#define OCC_KNEE_MISS_PCT 20.0

/* The model's inputs, all measured on the GPU the rows come from. */
typedef struct OccModel {
    double latency_ns; /* unloaded DRAM latency, ns (chase ladder, e.g. 336 on an H200) */
    double roof_gbps;  /* the run's roof, GB/s (1e9 B/s = bytes per ns): roof_memcpy_gbps; the
                          roof of read + write rows, and of every row where no other applies */
    double roof_read_gbps; /* the roof of read-only rows (dram_bytes_per_load_byte <= 1), GB/s:
                              roof_cub_reduce_gbps; 0 or NaN: roof_gbps for them too */
    int sm_count;      /* streaming multiprocessors on the GPU */
    const OccLatencyCurve *curve; /* the run's loaded-latency curve L(X) under read-only
                                     traffic, or NULL (or no samples): the unloaded model with
                                     latency_ns */
    const OccLatencyCurve *curve_rw; /* L(X) under read + write traffic, for rows of families
                                        of OCC_CURVE_COPY (NULL or no samples: curve) */
    const OccLatencyCurve *curve_gather; /* L(X) under random-line traffic, for rows of
                                            families of OCC_CURVE_GATHER (NULL or no samples:
                                            curve); its highest level is their roof */
    const OccLatencyCurve *curve_sector; /* L(X) under random-sector traffic, for rows of
                                            families of OCC_CURVE_SECTOR (NULL or no samples:
                                            curve); its highest level is their roof */
} OccModel;

/* Points m's curves at curves[OCC_CURVE_READ], [OCC_CURVE_COPY], [OCC_CURVE_GATHER] and
 * [OCC_CURVE_SECTOR] (curve, curve_rw, curve_gather, curve_sector): the one place that maps a
 * traffic to its field. */
void occ_model_use_curves(OccModel *m, const OccLatencyCurve curves[OCC_CURVE_TRAFFICS]);

/* The roof a row is predicted against: the saturated throughput of its traffic. */
typedef struct OccTrafficRoof {
    double gbps;      /* GB/s; NaN when m says nothing */
    const char *name; /* what measured it, e.g. "cub::DeviceReduce (read-only streams)": a
                         static string */
} OccTrafficRoof;

/* The roof of row r's traffic (its family's OccFamilyInfo.curve_traffic, catalog.h; a row of
 * no known family: COPY when dram_bytes_per_load_byte > 1, else READ):
 *   COPY: roof_gbps (cudaMemcpy);
 *   GATHER, SECTOR: the highest gbps of that traffic's load levels (its curve's last sample:
 *     the levels end past saturation), where m has that curve and that gbps is > 0;
 *   otherwise (READ, or a chase without its curve): roof_read_gbps where r's
 *     dram_bytes_per_load_byte <= 1 and roof_read_gbps > 0 (cub::DeviceReduce), else roof_gbps.
 * m and r must not be NULL. */
OccTrafficRoof occ_model_row_roof(const OccModel *m, const OccRow *r);

/* 1 when m predicts from its loaded-latency curve (a curve with samples and a finite roof), 0
 * when from the unloaded latency (or m is NULL). */
int occ_model_is_loaded(const OccModel *m);

/* Writes which model m is, one line without a newline, to out (len bytes): "loaded latency
 * L(X): N levels, A ns idle to B ns at C GB/s" or "unloaded DRAM latency A ns (fallback: no
 * loaded-latency curve measured)" ("... no loaded-latency level was ok" for a curve without a
 * sample). */
void occ_model_describe(const OccModel *m, char *out, size_t len);

/* The model's GB/s for bytes_in_flight_per_sm (bytes) of warps that each wait on `width`
 * independent loads together (1: one), whose latencies take `spread` of the independent draws'
 * spread (1: all of it). With a loaded curve (occ_model_is_loaded):
 * occ_curve_solve_spread_gbps(curve, bytes_in_flight_per_sm, sm_count, roof_gbps, width, spread).
 * Otherwise min(roof_gbps, bytes_in_flight_per_sm x sm_count / latency_ns), which ignores width
 * and spread. NaN when m is NULL or any input is NaN, when latency_ns (without a curve), roof_gbps
 * or sm_count is not positive, or when bytes_in_flight_per_sm is negative. An infinite roof_gbps
 * means no roof (and the unloaded model). */
double occ_model_predict_gbps(const OccModel *m, double bytes_in_flight_per_sm, int width,
                              double spread);

/* bytes_in_flight_per_sm (bytes) x sm_count / gbps (GB/s): the latency the loads actually saw, in
 * ns. The inverse of the unclamped prediction. NaN when an input is NaN, gbps is not positive,
 * sm_count is not positive or bytes_in_flight_per_sm is negative. */
double occ_model_loaded_latency_ns(double bytes_in_flight_per_sm, int sm_count, double gbps);

/* Fills gbps_predicted (GB/s), measured_over_predicted (ratio) and latency_loaded_ns (ns, with
 * m->sm_count) of every row whose status is exactly "ok", whose dram_bytes_per_load_byte is finite
 * and > 0, with bytes_in_flight_per_sm > 0 and a finite gbps_median; the bytes in flight are
 * scaled by dram_bytes_per_load_byte and the measured residency (above). Every other row is left unchanged (its model columns stay
 * as they were, NaN after occ_row_init). Does nothing when m or rows is NULL. */
void occ_model_annotate(const OccModel *m, OccRow *rows, int n_rows);

/* One line of the knee report: the figures of one variant over its ok rows with a finite
 * gbps_median (a variant without such rows gets no line). NaN = not available. */
typedef struct OccKnee {
    const char *variant;  /* variant name; points into the rows passed in */
    int block_threads;    /* block size of its rows (a variant's block sizes are knees apart) */
    const char *kernel;   /* kernel family of its first row; points into the rows */
    const char *mode;     /* mode of its first row (stream, warp, thread); points into the rows */
    int unroll;           /* U of its first row: loads or chains in flight per thread */
    int vec_bytes;        /* V of its first row: bytes per load instruction per thread */
    double best_gbps;     /* highest gbps_median, GB/s (as occ_summary_compute) */
    OccTrafficRoof roof;         /* the roof its first row is predicted against (occ_model_row_roof);
                             {NaN, NULL} when the model predicts none of its rows */
    double spread;        /* the share of the independent draws' spread its rows' trips wait
                             for: the run's trip spread (occ_curve_trip_spread of m->curve)
                             for a stream's adjacent lines (OCC_REQUESTS_LINES), else 1 */
    double knee_measured_pct;  /* lowest occ_achieved_pct whose gbps_median reaches
                                  OCC_SUMMARY_KNEE_FRACTION x best_gbps, % (occ_summary_compute) */
    int knee_measured_at_lowest; /* knee_at_lowest of the measured knee (occ_summary_compute):
                                    1 when it is the lowest level the run measured */
    double knee_predicted_pct; /* the same rule applied to the model's prediction over the same
                                  rows (predicted from m, not read from the rows), % */
    double bytes_in_flight_at_knee; /* bytes_in_flight_per_sm of the row at the measured knee
                                       (the smallest if several rows share that occupancy), B */
    int reg_cap_per_thread;    /* reg_cap_per_thread of its first row: 0 for a natural variant,
                                  else the register cap of a ladder twin (_r<N>) */
    int spills;                /* 1 when a row has local_bytes_per_thread > 0, else 0 */
    int points;                /* rows with a finite prediction (the model applies) */
    int points_agree;          /* of those, rows within OCC_MODEL_AGREE_PCT of the prediction */
    int knee_levels_apart;     /* distinct occ_achieved_pct values of its rows in (lower knee,
                                  higher knee]: 0 = the same occupancy level, 1 = adjacent; -1
                                  when either knee is NaN */
    double worst_miss_pct;     /* largest |measured / predicted - 1| x 100 over the rows, % */
    double worst_miss_occ_pct; /* occ_achieved_pct of that row (ties: lowest occupancy), % */
    char cause[200]; /* likely cause when worst_miss_pct > OCC_KNEE_MISS_PCT, else "". Decided on
                        the worst row, first rule that applies:
                        1. local_bytes_per_thread > 0: "register spills add local-memory
                           traffic (N B/thread)";
                        2. measured above a prediction clamped at the roof: "faster than its
                           roof (NAME, R GB/s): L2 hits or a traffic its roof does not
                           measure";
                        3. measured above an unclamped prediction: "more parallelism than the
                           model counts (e.g. L2 hits / prefetch) or latency below the unloaded
                           figure";
                        4. worst row's prediction clamped at the roof and best_gbps below
                           (100 - OCC_KNEE_MISS_PCT)% of the roof: "plateaus at P% of its roof
                           (NAME): DRAM efficiency or issue rate, not latency, bounds it";
                        5. otherwise (measured below the prediction), unloaded model: "latency
                           rises under load (loaded latency X ns vs unloaded Y ns)", X inverted
                           from the worst row; loaded model: "slower than the loaded-latency
                           curve predicts (L(X) = Y ns at the predicted X GB/s): issue rate or
                           DRAM efficiency, not the probes' latency, bounds it". */
} OccKnee;

/* The model's agreement bound for a point, %: |measured / predicted - 1| x 100 at most this. */
#define OCC_MODEL_AGREE_PCT 10.0

/* Fills out[0..) with one OccKnee per (variant, block size), in order of first appearance among the ok rows
 * with a finite gbps_median, and returns the number filled (at most max_out; n_rows entries
 * always suffice). Returns -1 when memory runs out. Rows need not be annotated. */
int occ_knee_compute(const OccModel *m, const OccRow *rows, int n_rows, OccKnee *out, int max_out);

#endif
