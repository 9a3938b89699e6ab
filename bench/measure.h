/* SPDX-License-Identifier: Apache-2.0 */
/* bench/measure.h: occsweep's measure command, the run on a GPU: the stream buffers, the roof,
 * the Little's-law model's inputs, the CSV (through the sink), the points, the end-of-run summary,
 * and for a finished run the --ncu pass, the figures and the --report page. */
#ifndef OCC_MEASURE_H
#define OCC_MEASURE_H

#include "csv.h"
#include "device.h"
#include "options.h"
#include "plan.h"

/* Measures todo's points of plan (plan: every point, for the metadata and the figures) on dev
 * under opt, keeping the rows of resumed (--resume; NULL for a fresh run) that todo leaves out;
 * argc and argv go into the metadata and the --ncu pass. SIGINT and SIGTERM stop it between
 * points. Returns the exit status (bench/sink.h occ_sink_exit_status; OCC_EXIT_FAIL on a CUDA
 * error or an unwritten --json summary, OCC_EXIT_USAGE when the CSV cannot be opened). */
int occ_measure(const OccOptions *opt, const OccDevice *dev, int argc, char **argv,
                const OccPlan *plan, OccCsvTable *resumed, const OccPlan *todo);

#endif
