/* harness/sweep.h: runs a sweep plan on the GPU: per point set attributes, pad, check residency
 * with the runtime's occupancy API, time, verify, and hand back one CSV row. Never prints: the
 * caller's on_row callback writes and reports. */
#ifndef OCC_SWEEP_H
#define OCC_SWEEP_H

#include <signal.h>
#include <stddef.h>

#include "chase.h"
#include "csv.h"
#include "device.h"
#include "plan.h"
#include "timing.h"

/* Device buffers and host references of one run. */
typedef struct OccSweepBuffers {
    float *in, *out;               /* n_floats each; in holds the pattern of `seed` */
    size_t n_floats;               /* elements per buffer */
    float *block_sums;             /* reduce scratch: one float per block of the largest grid */
    unsigned int *blocks_done;     /* reduce counter (kept at 0 between launches) */
    float *sum;                    /* reduce result */
    unsigned long long *mismatches; /* copy verification counter */
    unsigned long long *probe;     /* residency probe: OCC_PROBE_WORDS per block of the largest grid */
    void *cub_temp;                /* scratch of cub::DeviceReduce::Sum */
    size_t cub_temp_bytes;
    unsigned int seed;             /* pattern seed (recorded in the metadata) */
    double host_sum;               /* double-precision sum of the pattern (all elements >= 0) */
} OccSweepBuffers;

/* The roof of this run, measured before the first point. */
typedef struct OccRoof {
    double memcpy_gbps;      /* cudaMemcpyAsync device-to-device: (read + write bytes) / time */
    double cub_reduce_gbps;  /* cub::DeviceReduce::Sum: bytes read / time */
    double dram_peak_gbps;   /* theoretical, from the device attributes */
    double memcpy_noise_pct, cub_noise_pct; /* relative stddev of the two measurements */
} OccRoof;

/* Everything a sweep needs, passed explicitly (no globals). */
typedef struct OccSweep {
    const OccDevice *dev;
    OccTimer timer;
    OccTimingPolicy policy;
    OccSweepBuffers buf;
    OccRoof roof;
    OccChase chase;                    /* chase footprint (chase points; one per ladder step) */
    double ladder_perm_ms;             /* host time spent building the ladder's permutations */
    char cc[8];                        /* "9.0", the CSV cc column */
    volatile sig_atomic_t *stop;       /* set asynchronously (SIGINT/SIGTERM): stop between points */
    int waves;                         /* copy/reduce grid = blocks/SM x SMs x waves (>= 1) */
} OccSweep;

/* One finished point: the row and the storage its status string points into. */
typedef struct OccSweepRow {
    OccRow row;
    char status[160];
} OccSweepRow;

/* Called after each point with its row (index i of n). */
typedef void (*OccRowFn)(void *user, int i, int n, const OccSweepRow *row);

/* Allocates buffers of buffer_bytes each (rounded down to whole floats) for grids up to
 * max_grid_blocks, fills the input, computes the host reference. 0, or -1 with err (out of memory
 * names the size asked, the free memory and --size). */
int occ_sweep_init(OccSweep *s, const OccDevice *dev, long long buffer_bytes, int max_grid_blocks,
                   char *err, size_t err_len);
void occ_sweep_free(OccSweep *s);

/* Measures the roof (memcpy and CUB over the run's buffers). cudaSuccess or the error. */
cudaError_t occ_sweep_measure_roof(OccSweep *s);

/* Runs points[0..n) in order. Returns the number of points finished (== n unless stopped or a
 * sticky CUDA error ended the run; then *fatal holds it and err the message). */
int occ_sweep_run(OccSweep *s, const OccPoint *points, int n, OccRowFn on_row, void *user,
                  cudaError_t *fatal, char *err, size_t err_len);

/* One untimed, instrumented launch (the caller has set the probe pointer in ctx's arguments to
 * s->buf.probe): fills occ_measured_pct and occ_measured_spread_pct of r from where and when
 * its grid_blocks blocks ran. cudaSuccess or the launch's error. */
cudaError_t occ_sweep_probe(OccSweep *s, OccWorkFn work, void *ctx, int grid_blocks,
                            int warps_per_block, OccRow *r);

/* The timing columns of r from t: samples, clock watch, times, noise, and GB/s and % of roof from
 * r->bytes_per_launch (set it first). */
void occ_sweep_fill_timing(const OccSweep *s, const OccTiming *t, OccRow *r);

/* occ_row_init plus the columns every row of the run shares (GPU name, cc, SMs). */
void occ_sweep_row_init(const OccSweep *s, OccRow *r);

/* Tolerance of the reduce check: a bound on float32 rounding for the kernel's summation order,
 * relative to sum |x|, for a launch of grid x block threads with U accumulators each. */
double occ_sweep_reduce_tolerance(size_t n_floats, int grid_blocks, int block_threads, int unroll);

#endif
