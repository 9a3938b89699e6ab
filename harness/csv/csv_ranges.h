/* SPDX-License-Identifier: Apache-2.0 */
/* harness/csv/csv_ranges.h: the physical range of the values a finished run's CSV feeds the model,
 * checked before --recompute (or any reader that models) trusts them. */
#ifndef OCC_CSV_RANGES_H
#define OCC_CSV_RANGES_H

#include <stddef.h>

#include "csv.h"

/* Checks t's model inputs: the metadata dram_latency_ns (ns) and roof_memcpy_gbps and
 * roof_cub_reduce_gbps (GB/s), each where present, must be numbers in (0, 1e6]; sm_count an
 * integer in [1, 100000]. In every row, where the value is a number (NaN: not applicable):
 * gbps_median and gflops_median in [0, 1e9], occ_target_pct and occ_achieved_pct in [0, 100],
 * occ_measured_pct in [0, 200] (the probe's count may pass 100 by its resolution, never by 2x),
 * latency_mean_ns and ns_per_hop_median in (0, 1e9]; sm_count in [1, 100000], block_threads in
 * [1, 4096], blocks_per_sm in [0, 4096] and bytes_in_flight_per_sm in [0, 2^40]. 0, or -1 with
 * a one-line err naming the first value outside its range: the metadata key, or the row (1-based
 * among the data rows), its variant and the column, the value and the range. */
int occ_csv_check_ranges(const OccCsvTable *t, char *err, size_t err_len);

#endif
