/* SPDX-License-Identifier: Apache-2.0 */
/* harness/cli/calc.h: the occupancy calculator of `occsweep --calc`: for one block size,
 * register count and shared memory size, the blocks per SM each limiter allows, the limiter, the
 * resident warps and the occupancy, in a chosen carveout; and the two inverses, the most
 * registers per thread that reach a target occupancy and the dynamic shared memory that pins
 * exactly K blocks per SM.
 *
 * Every number comes from the planner's own model (harness/core/occupancy.h:
 * occ_model_occupancy and occ_model_padding_for_blocks); nothing here computes occupancy a
 * second way. Pure C: no CUDA header. */
#ifndef OCC_CALC_H
#define OCC_CALC_H

#include <stdio.h>

#include "arch.h"
#include "occupancy.h"
#include "options_types.h"

/* The question. */
typedef struct OccCalcInput {
    int block_threads;     /* threads per block */
    int regs_per_thread;   /* registers per thread, 0..max_regs_per_thread */
    long long smem_bytes;  /* shared memory per block (static + dynamic), bytes, >= 0 */
    OccCarveout carveout;  /* OCC_CARVEOUT_MAX: the largest step (what the occupancy API assumes
                              by default); OCC_CARVEOUT_MIN: the smallest step in which the
                              blocks/SM of the largest still fit */
    double target_occ_pct; /* > 0: also find the most registers per thread reaching this
                              occupancy, percent; 0: not asked */
    int target_blocks;     /* > 0: also find the padding that pins exactly this many blocks/SM;
                              0: not asked */
} OccCalcInput;

/* The answer. Inverses not asked keep their fields 0 / NULL. */
typedef struct OccCalc {
    OccCalcInput in;         /* the question, as given */
    OccArchLimits limits;    /* the arch in the carveout used (occ_arch_in_carveout) */
    int carveout_bytes;      /* shared memory per SM of the carveout used */
    int max_carveout_bytes;  /* the largest carveout step (the arch's smem_per_sm_bytes) */
    int min_carveout_bytes;  /* the smallest step holding the blocks/SM of the largest */
    OccResult result;        /* the model's answer in the carveout used */
    int target_regs;         /* the most registers per thread reaching in.target_occ_pct in the
                                carveout used (with in.smem_bytes); -1 when none does */
    OccResult target_result; /* the model's answer at target_regs (valid when >= 0); at 0
                                registers when none reaches the target (what the rest allows) */
    int pad_bytes;           /* the largest dynamic shared memory, bytes, that with
                                in.smem_bytes as the kernel's static part pins exactly
                                in.target_blocks blocks/SM (0 when the other limits already do);
                                -1 when no padding can */
    const char *pad_why;     /* when pad_bytes is -1: the model's one-line reason (a string
                                literal) */
    OccResult pad_result;    /* the model's answer with that padding (valid when >= 0) */
} OccCalc;

/* Answers *in on `arch` (the table entry or a device's limits, at maximum shared memory) into
 * *out. Returns 0; or -1 with *why (if non-NULL) set to the model's one-line reason (a string
 * literal) when the kernel cannot launch at all on arch, e.g. "exceeds per-block shared memory
 * limit" or "registers per block exceed the register file". */
int occ_calc_run(const OccArchLimits *arch, const OccCalcInput *in, OccCalc *out,
                 const char **why);

/* Prints c as a table for people: a heading naming target (an arch or a GPU name) and the
 * question, the carveout, one row per limiter (threads, registers, shared memory, block limit)
 * with what it counts and the blocks/SM it allows, the limiter marked, the resident warps and
 * occupancy, and one line per inverse asked. */
void occ_calc_print(FILE *f, const OccCalc *c, const char *target);

#endif
