/* SPDX-License-Identifier: Apache-2.0 */
/* bench/fake_device.h: a fake device list, for testing the fleet machinery (workers, signals,
 * summaries, Slurm job arrays) on machines without a GPU.
 *
 * OCC_FAKE_DEVICES="sm_90:1.0,sm_90:1.0,sm_90:0.8" lists three fake GPUs, each an arch of the
 * occupancy table and a bandwidth scale. Only a --dry-run sees them: a dry run then writes, per
 * fake GPU, a CSV of the real plan whose ok rows hold synthetic figures (the Little's-law model of
 * a made-up roof and latency, times the scale), so that a fake GPU can be an outlier on purpose.
 * Every such file says `# fake_device=1`; nothing on it is a measurement. */
#ifndef OCC_FAKE_DEVICE_H
#define OCC_FAKE_DEVICE_H

#include <stddef.h>

#include "csv.h"
#include "options.h"
#include "plan.h"

/* The environment variable holding the list. */
#define OCC_FAKE_DEVICES_ENV "OCC_FAKE_DEVICES"
/* Milliseconds each fake point takes (default 0): lets a test stop a worker mid-run. */
#define OCC_FAKE_POINT_MS_ENV "OCC_FAKE_POINT_MS"

/* The most entries a list may hold (a longer one is refused, by a single run and by the fleet
 * before it starts a worker): a --device list's bound, so that every listed index can be named. */
enum { OCC_FAKE_MAX_DEVICES = OCC_MAX_LIST };

/* One fake GPU. */
typedef struct OccFakeDevice {
    int index;           /* position in the list: its --device index */
    char arch[16];       /* occupancy-table arch, "sm_90" */
    double bw_scale;     /* synthetic bandwidth factor, in (0, 10] */
    char name[64];       /* "Fake sm_90": the model (equal arch, equal model) */
    char slug[64];       /* "fake-sm-90" */
    char pci_bus_id[32]; /* "0000:NN:00.0", NN = index + 1 in hex */
    char uuid[48];       /* "GPU-fa4eNNNN-0000-0000-0000-000000000000", NNNN = index in hex */
} OccFakeDevice;

/* The list in the environment, or NULL when OCC_FAKE_DEVICES is unset or empty. */
const char *occ_fake_list(void);

/* Parses spec (entries ARCH[:SCALE], comma-separated; SCALE defaults to 1) into out[0..*n).
 * At most max entries. 0, or -1 with a one-line err naming the bad entry (or the count). */
int occ_fake_parse(const char *spec, OccFakeDevice *out, int max, int *n, char *err,
                   size_t err_len);

/* Fake device `index` of the environment's list into *d: 0; OCC_EXIT_USAGE (a bad list) or
 * OCC_EXIT_NO_GPU (index beyond the list) with a one-line err. */
int occ_fake_device(int index, OccFakeDevice *d, char *err, size_t err_len);

/* The fake dry run of device d: writes plan's rows (synthetic ok rows, skip rows as planned) to
 * --out, --resume's file or runs/<slug>/<kernel>-<UTC>.csv, OCC_FAKE_POINT_MS apart, stopping
 * between points at SIGINT/SIGTERM (end_status interrupted, exit 1). The path is checked
 * (occ_csv_check_target) before anything is created: a refusal is one line and exit 2. resumed
 * (NULL without --resume): the earlier run's table, checked against this run (cc, GPU, axes) and
 * plan reduced to the points it lacks; its rows are written first, as a real run keeps them.
 * Exit status as a real run's; a failed write prints "FAILED to write" and exits 1. */
int occ_fake_run(const OccOptions *opt, const OccFakeDevice *d, const OccPlan *plan,
                 const OccCsvTable *resumed, int argc, char **argv);

#endif
