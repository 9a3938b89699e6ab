/* SPDX-License-Identifier: Apache-2.0 */
/* harness/csv/ncu_csv.h: what --ncu asks Nsight Compute for and how its answer is read back: the
 * metric list, the raw-page CSV parser (`ncu --import R --csv --page raw --print-units base`) and
 * the matching of profiled launches to CSV rows. Pure: no CUDA, no process handling. */
#ifndef OCC_NCU_CSV_H
#define OCC_NCU_CSV_H

#include <stddef.h>

#include "csv.h"

enum { OCC_NCU_N_METRICS = 7 };

/* The ncu metric names, in the order of the CSV's ncu_* columns (csv_columns.h): achieved
 * occupancy, DRAM throughput, issue active, stalls long-scoreboard, not-selected, wait,
 * math-pipe-throttle. */
extern const char *const occ_ncu_metric_names[OCC_NCU_N_METRICS];

/* The metric names joined with ',' (ncu's --metrics value and the ncu_metrics metadata) into
 * buf. Returns buf. */
char *occ_ncu_metric_list(char *buf, size_t len);

/* One profiled kernel launch of the raw page. */
typedef struct OccNcuLaunch {
    long long grid_blocks;           /* product of "Grid Size" (x, y, z) */
    int block_threads;               /* product of "Block Size" (x, y, z) */
    double value[OCC_NCU_N_METRICS]; /* in occ_ncu_metric_names order; NaN where ncu printed
                                        "n/a" or nothing */
} OccNcuLaunch;

/* Parses the raw-page CSV in text (NUL-terminated): lines before the header (==PROF== and the
 * program's own output) are skipped; the header is the first record whose first field is "ID"
 * and which has a "Kernel Name" field; a record of empty leading fields right after it is the
 * units line. Values may carry ',' thousands separators. Every metric of the list must be a
 * column. Stores up to max launches in file order and returns how many there were, or -1 with a
 * one-line reason in err (no header, a missing metric column, a malformed record). */
int occ_ncu_parse_raw(const char *text, OccNcuLaunch *out, int max, char *err, size_t err_len);

/* Which CSV row a profiled launch belongs to: the point's key, as the ncu child run wrote it
 * into its manifest, one line per launch in launch order:
 * "<variant>\t<lever>\t<block_threads>\t<occ_target_pct %.17g>\t<grid_blocks>\n". */
typedef struct OccNcuKey {
    char variant[64];
    char lever[16];
    int block_threads;
    double occ_target_pct;
    long long grid_blocks;
} OccNcuKey;

/* Formats key k as one manifest line (with its '\n') into buf. Returns buf. */
char *occ_ncu_key_format(const OccNcuKey *k, char *buf, size_t len);

/* Parses the manifest text into keys[0..max); returns how many lines, or -1 with err. */
int occ_ncu_parse_manifest(const char *text, OccNcuKey *keys, int max, char *err, size_t err_len);

/* Copies launch i's values into the ncu_* columns of the ok row whose variant, lever,
 * block_threads and occ_target_pct equal key i's. Launches and keys pair in order: their
 * counts, and each pair's grid and block sizes, must agree, else nothing is changed and -1
 * comes back with the first disagreement in err. Returns the number of rows filled. */
int occ_ncu_apply(const OccNcuLaunch *launches, int n_launches, const OccNcuKey *keys, int n_keys,
                  OccRow *rows, int n_rows, char *err, size_t err_len);

/* The version of `ncu --version`'s output in text ("2025.3.1.0" from "Version 2025.3.1.0
 * (build ...)") into buf; "unknown" when there is none. Returns buf. */
char *occ_ncu_version(const char *text, char *buf, size_t len);

/* 1 when ncu's log in text says it could not read the performance counters
 * (ERR_NVGPUCTRPERM), else 0. */
int occ_ncu_no_counter_access(const char *text);

#endif
