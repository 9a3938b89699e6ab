/* SPDX-License-Identifier: Apache-2.0 */
/* bench/fleet_run.h: --device LIST|all: one worker process per GPU, and the fleet summary.
 *
 * The supervisor lists the GPUs (names, UUIDs, PCI bus ids; no CUDA context of its own), checks
 * every worker's CSV path, then starts the workers at once: this program again with the same
 * arguments plus `--device N --out <stem>-gpuN-<pci>-<uuid8>.csv` (stem: --out less ".csv", a
 * --out DIR/ the default name in DIR, else the default path), stdout and stderr in
 * `<stem>-gpuN-<pci>-<uuid8>.log`. SIGINT, SIGTERM and SIGHUP are passed on to every worker
 * (each keeps its finished rows, as a single run does); a worker killed outright leaves
 * FILE.partial, which the supervisor closes with `# end_status=killed by signal N` and renames to
 * FILE. Then it prints a line per worker and the fleet summary (harness/report/fleet.h) over the
 * CSVs there are. */
#ifndef OCC_FLEET_RUN_H
#define OCC_FLEET_RUN_H

#include "options.h"

/* Runs the fleet of opt (opt->n_devices != 1). The exit status is the worst of the workers: the
 * largest of their exit statuses, a worker ended by a signal counting as 1 (interrupted); before
 * any worker starts, 2 (a bad --out or --resume, a bad fake device list) or 3 (a listed device
 * is not present, or none is). */
int occ_fleet_run(const OccOptions *opt, int argc, char **argv);

#endif
