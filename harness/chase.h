/* harness/chase.h: the pointer-chase parts of a sweep: the footprint (a random single cycle of
 * lines on the device), the throughput points (warp and thread modes) and the latency ladder. */
#ifndef OCC_CHASE_H
#define OCC_CHASE_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#include "csv.h"

typedef struct OccSweep OccSweep;
typedef struct OccSweepRow OccSweepRow;

/* One footprint on the device and what the host needs to verify chains over it. */
typedef struct OccChase {
    unsigned int *lines;      /* device: n_lines x line_words words (see OccChaseArgs) */
    unsigned int *order;      /* device: the cycle in visiting order */
    unsigned int *ends;       /* device: one word index per chain (max_chains) */
    uint32_t *host_order;     /* host copy of order, for verification */
    size_t n_lines;           /* lines in the footprint */
    unsigned int line_words;  /* 4-byte words per line: 32 (128-byte lines), 8 (32-byte lines)... */
    unsigned int index_bytes; /* 4 or 8: the width of the stored next-line indices */
    size_t max_chains;        /* capacity of ends[] */
    double perm_build_ms;     /* host time to build the permutation and its order */
} OccChase;

/* Builds a footprint of footprint_bytes in lines of line_words 4-byte words holding
 * index_bytes-wide indices (4, or 8 for the latency ladder only), a seeded random single cycle,
 * for up to max_chains chains. 0, or -1 with err (out of memory says what was asked and what is
 * free). */
int occ_chase_init(OccChase *c, size_t footprint_bytes, unsigned int line_words,
                   unsigned int index_bytes, size_t max_chains, uint64_t seed, char *err,
                   size_t err_len);
void occ_chase_free(OccChase *c);

/* Times one throughput point (variant already configured; grid from out->row) and fills the
 * chase columns and status of out. Returns a CUDA error that must end the run. */
cudaError_t occ_chase_time_point(OccSweep *s, const void *variant, int grid_blocks,
                                 int block_threads, int pad_bytes, OccSweepRow *out);

/* The unloaded DRAM latency for the model: one chase over a footprint of footprint_bytes (far
 * beyond L2), median of a few timed segments. Fills *ns and *cycles. 0, or -1 with err. */
int occ_chase_dram_latency(OccSweep *s, size_t footprint_bytes, double *ns, double *cycles,
                           char *err, size_t err_len);

/* Runs the latency ladder over footprints[0..n) (bytes) of lines stride_bytes apart, holding
 * index_bytes-wide (4 or 8) next-line indices: one row per
 * footprint (mode "latency", or "latency-cold" when cold: L2 flushed before each of 5 single
 * passes), handed to on_row like sweep points. Returns the footprints finished (see
 * occ_sweep_run). */
int occ_chase_ladder(OccSweep *s, const long long *footprints, int n, int stride_bytes,
                     int index_bytes, int cold,
                     void (*on_row)(void *user, int i, int n, const OccSweepRow *row), void *user,
                     cudaError_t *fatal, char *err, size_t err_len);

#endif
