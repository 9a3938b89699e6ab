/* SPDX-License-Identifier: Apache-2.0 */
/* harness/model/chain_model.h: the chain model of the families whose parallelism is independent
 * chains of one dependent operation out of on-chip resources (fma: an FFMA/DFMA; smem chase: a
 * hop; smem stream/rw: a load; mma: an mma), and its section of the knee report. Pure: rows of
 * the CSV schema in, figures and text out (tested on CPU).
 *
 * A row's operations are warp instructions: an fma row's GFLOP/s over 64 FLOP (32 lanes x 2), an
 * mma row's over the FLOP of one mma of its type, a smem row's shared-memory GB/s over the bytes
 * one warp instruction moves (chase: a 128-byte row; stream: 32 x V; rw: a load and its store,
 * 2 x 32 x V). With W warps per SM (blocks_per_sm x block_threads / 32) each running U chains, the
 * cycles between the dependent steps of one chain are
 *     c = W x U / (operations per SM per clock).
 * Below the plateau c is the latency L; at the plateau the SM issues r operations per clock. A
 * chain keeps one operation in flight, so the rate is min(W x U / L, r) and the warps an SM needs
 * for it are W* = L x r / U (per sub-partition: W* / 4). The predicted knee is the lowest
 * occupancy level of the variant with W >= OCC_SUMMARY_KNEE_FRACTION x W*, the measured one the
 * lowest reaching that fraction of its best rate (the knee of harness/model/summary.h). */
#ifndef OCC_CHAIN_MODEL_H
#define OCC_CHAIN_MODEL_H

#include <stdio.h>

#include "csv.h"

/* Rows whose rate is below this fraction of their variant's best are below the plateau: their
 * cycles per step are the latency. */
#define OCC_CHAIN_BELOW_PLATEAU 0.7
/* Warp schedulers (sub-partitions) per SM: 4 on every arch from sm_70 on. */
#define OCC_CHAIN_SUBPARTITIONS 4

/* Work of one warp instruction of r's family, in the unit of its rate (bytes for a GB/s family,
 * FLOP for a GFLOP/s one), through *flop whether the rate is GFLOP/s; 0 for rows of no chain
 * family (or of a mode or width the family does not have). */
double occ_chain_work_per_op(const OccRow *r, int *flop);

/* Operations per SM per clock of an ok chain row at its median clock; NaN when any input is
 * missing. */
double occ_chain_ops_per_sm_clk(const OccRow *r);

/* The cycles between one chain's dependent steps (c above); NaN when unknown. */
double occ_chain_cycles_per_step(const OccRow *r);

/* One line of the chain section: one variant at one block size. */
typedef struct OccChainKnee {
    const char *variant, *kernel, *mode; /* the variant's CSV strings (rows' storage) */
    int unroll, vec_bytes, block_threads; /* U, V and the block size of its rows */
    int flop;                  /* 1: rates in GFLOP/s; 0: GB/s */
    double best_rate;          /* its best gflops_median or gbps_median */
    double best_pct_of_peak;   /* best rate as % of the clock-derived peak: pct_of_flop_peak
                                  (fma; mma: of the arch's headline tensor rate), or smem bytes
                                  per SM per clock over the arch's 32 banks x 4 B; NaN unknown */
    double latency_cycles;     /* L: median c over the rows below the plateau of every variant
                                  of its kernel, mode, V and block (the operation's latency does
                                  not depend on U); NaN when no row is below the plateau */
    double latency_ns;         /* L at those rows' median clock */
    double issue_per_sm_clk;   /* r: its best operations per SM per clock */
    double warps_per_subpartition; /* W* / OCC_CHAIN_SUBPARTITIONS = L x r / U / 4 */
    double knee_measured_pct;  /* lowest occ_achieved_pct reaching the knee fraction of best */
    int knee_measured_at_lowest; /* 1 when knee_measured_pct is the lowest occ_achieved_pct of
                                    its rows: the knee may lie below the run's lowest level */
    double knee_predicted_pct; /* lowest occ_achieved_pct of its rows with W >= fraction x W* */
    int knee_levels_apart;     /* distinct occ_achieved_pct of its rows in (lower knee, higher
                                  knee]; -1 when either knee is NaN */
} OccChainKnee;

/* The chain lines of rows[0..n) (ok chain rows with a finite rate), one per (variant, block),
 * in first-row order, at most max_out. Returns how many. */
int occ_chain_knees(const OccRow *rows, int n, OccChainKnee *out, int max_out);

/* Prints the chain lines as an aligned table and a line with how many predicted knees are
 * within one occupancy level of the measured; nothing when n is 0. */
void occ_chain_print(FILE *f, const OccChainKnee *k, int n);

/* Writes the chain lines as a markdown section ("## Latency chains") with the rule above. */
void occ_chain_write_markdown(FILE *f, const OccChainKnee *k, int n);

#endif
