/* SPDX-License-Identifier: Apache-2.0 */
/* bench/ncu_pass.h: --ncu. After the timed run, one Nsight Compute process runs this program
 * again as its child (environment OCC_NCU_PASS): every point launched once, untimed, in the NVTX
 * range OCC_NCU_RANGE, which ncu alone profiles (--nvtx --nvtx-include, --clock-control none,
 * the fixed metric list of harness/csv/ncu_csv.h). The raw page is read back, matched launch by
 * launch to the rows, and the CSV rewritten with the ncu_* columns and the ncu_version /
 * ncu_metrics / ncu_command metadata. Without ncu, without counter access, past the time bound
 * or on any mismatch: one line on stderr, the CSV stays as it was, and the exit status is
 * unchanged. */
#ifndef OCC_NCU_PASS_H
#define OCC_NCU_PASS_H

#include "plan.h"
#include "run_meta.h"
#include "sink.h"

/* The environment variable that makes a run the ncu child; its value is the manifest path. */
#define OCC_NCU_PASS_ENV "OCC_NCU_PASS"
/* The child's buffer size in bytes (the parent's, so the points are the same). */
#define OCC_NCU_BYTES_ENV "OCC_NCU_BYTES"

/* The parent's pass over the finished run: argv is the run's own command line (passed through
 * to the child), buffer_bytes its stream buffer size, n_points the points the child will launch
 * at most (the time bound: OCC_NCU_TIMEOUT_S, default 60 s + 3 s per point). The sink is
 * closed; its rows get the ncu values and path is rewritten from them and meta. The raw page is
 * kept beside the CSV as <csv without .csv>-ncu-raw.csv. Never fails the run. */
void occ_ncu_pass_run(int argc, char **argv, long long buffer_bytes, int n_points, OccSink *sink,
                      OccMeta *meta, const char *path, int quiet);

/* 1 when manifest_path (OCC_NCU_PASS_ENV's value) names the empty regular file, of this user, that
 * an --ncu pass made for its child (not a link); else 0: a leftover of the environment, which
 * must not make a run drop its --out, --resume and --json. */
int occ_ncu_pass_is_live(const char *manifest_path);

/* The child's side: sets up the run's buffers (OCC_NCU_BYTES_ENV bytes) and families, replays
 * plan's points (occ_run_replay_points) and writes the manifest named by OCC_NCU_PASS_ENV.
 * Returns the exit status (0, or 1 with one line on stderr). */
int occ_ncu_pass_child(const OccOptions *opt, const OccDevice *dev, const OccPlan *plan);

#endif
