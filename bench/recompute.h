/* SPDX-License-Identifier: Apache-2.0 */
/* bench/recompute.h: --recompute FILE: the Little's-law model, knee table and chain model of an
 * earlier run's CSV, recomputed from the file alone (no GPU, no CUDA call). */
#ifndef OCC_RECOMPUTE_H
#define OCC_RECOMPUTE_H

#include "options.h"

/* Reads opt->recompute_path (occ_csv_read), rebuilds the run's model from its metadata
 * (dram_latency_ns, roof_memcpy_gbps, roof_cub_reduce_gbps, sm_count) and its load-level rows
 * (the loaded-latency curves, as the run built them; none: the unloaded model), prints how far
 * the recomputed predictions are from the file's gbps_predicted column, then the knee table
 * (bench/run_summary.h occ_run_summary_knees) with the chain section of the on-chip families,
 * and writes the markdown knee report to opt->out_path when set (refused when it exists, unless
 * opt->force) and the JSON summary of the file (harness/report/summary_json.h) to opt->json_path
 * when set (refused before the file is read when occ_summary_json_check_target refuses it, or it
 * names the file or --out). A file of chain rows alone (fma, smem, mma) needs no model inputs: its report is
 * the chain section. Exit codes (harness/core/exitcodes.h): OCC_EXIT_OK; OCC_EXIT_USAGE for an
 * unreadable file or one that is not a regular file, an --out that names the file read or lies
 * in a directory that does not exist, one with neither the model's inputs nor a chain row, or with neither an ok
 * row with a measured GB/s nor a chain row, or a bad --out or --json, with a
 * one-line message on stderr; OCC_EXIT_FAIL when the report or the summary cannot be written. */
int occ_recompute(const OccOptions *opt);

#endif
