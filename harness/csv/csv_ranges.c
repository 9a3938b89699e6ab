/* SPDX-License-Identifier: Apache-2.0 */
/* harness/csv/csv_ranges.c: the physical ranges of a CSV's model inputs (contract in csv_ranges.h). */
#include "csv_ranges.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "csv_schema.h"

/* One checked value: its name, the offset of its field in OccRow (-1: a metadata key), whether
 * the field is an INT (long long; else a NUM, double), and its range; lo_open: lo itself is out. */
typedef struct Range {
    const char *name;
    ptrdiff_t offset;
    int is_int;
    double lo, hi;
    int lo_open;
} Range;

#define META(key, lo, hi, open) {key, -1, 0, lo, hi, open}
#define NUM(col, lo, hi, open) {#col, offsetof(OccRow, col), 0, lo, hi, open}
#define INT(col, lo, hi) {#col, offsetof(OccRow, col), 1, lo, hi, 0}
static const Range ranges[] = {
    META("dram_latency_ns", 0, 1e6, 1),      META("roof_memcpy_gbps", 0, 1e6, 1),
    META("roof_cub_reduce_gbps", 0, 1e6, 1), META("sm_count", 1, 1e5, 0),
    NUM(gbps_median, 0, 1e9, 0),             NUM(gflops_median, 0, 1e9, 0),
    NUM(occ_target_pct, 0, 100, 0),          NUM(occ_achieved_pct, 0, 100, 0),
    NUM(occ_measured_pct, 0, 200, 0),        NUM(latency_mean_ns, 0, 1e9, 1),
    NUM(ns_per_hop_median, 0, 1e9, 1),       INT(sm_count, 1, 1e5),
    INT(block_threads, 1, 4096),             INT(blocks_per_sm, 0, 4096),
    INT(bytes_in_flight_per_sm, 0, 1099511627776.0),
};
#undef META
#undef NUM
#undef INT

static int inside(const Range *c, double x)
{
    return (c->lo_open ? x > c->lo : x >= c->lo) && x <= c->hi;
}

int occ_csv_check_ranges(const OccCsvTable *t, char *err, size_t err_len)
{
    const int n_ranges = (int)(sizeof ranges / sizeof ranges[0]);
    for (int k = 0; k < n_ranges; k++) {
        const Range *c = &ranges[k];
        if (c->offset >= 0) continue;
        const char *text = occ_csv_meta_get(t, c->name);
        if (text == NULL) continue;
        char *end = NULL;
        const double x = strtod(text, &end);
        if (end == text || *end != '\0' || !isfinite(x) || !inside(c, x)) {
            occ_csv_set_err(err, err_len,
                            "metadata %s=%.40s: not a number in %s%g, %g] (the model's input "
                            "would be meaningless)",
                            c->name, text, c->lo_open ? "(" : "[", c->lo, c->hi);
            return -1;
        }
    }
    for (int i = 0; i < t->n_rows; i++) {
        const OccRow *r = &t->rows[i];
        for (int k = 0; k < n_ranges; k++) {
            const Range *c = &ranges[k];
            if (c->offset < 0) continue;
            const char *field = (const char *)r + c->offset;
            const double x = c->is_int ? (double)*(const long long *)field : *(const double *)field;
            if (!c->is_int && isnan(x)) continue;
            if (!inside(c, x)) {
                occ_csv_set_err(err, err_len, "row %d (%.60s): %s = %.6g is outside %s%g, %g]",
                                i + 1, r->variant ? r->variant : "-", c->name, x,
                                c->lo_open ? "(" : "[", c->lo, c->hi);
                return -1;
            }
        }
    }
    return 0;
}
