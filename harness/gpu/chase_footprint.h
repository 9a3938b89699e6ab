/* SPDX-License-Identifier: Apache-2.0 */
/* harness/gpu/chase_footprint.h: a pointer-chase footprint on the device: a seeded random single
 * cycle through n_lines lines, each line holding the link to the next (an address or an index:
 * OccChaseLink, kernels/api.h), plus the host's copy of the visiting order for verification.
 * Shared by the chase throughput families (4-byte indices, OccChaseArgs) and the latency ladder. */
#ifndef OCC_CHASE_FOOTPRINT_H
#define OCC_CHASE_FOOTPRINT_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"

/* One footprint. */
typedef struct OccFootprint {
    unsigned int *lines;      /* device: n_lines x line_words 4-byte words */
    unsigned int *order;      /* device: the cycle's lines in visiting order */
    unsigned int *ends;       /* device: one word index per chain (max_chains entries, >= 1) */
    uint32_t *host_order;     /* host copy of order */
    size_t n_lines;           /* lines in the footprint */
    unsigned int line_words;  /* 4-byte words per line: 32 (128-byte lines), 8 (32-byte)... */
    OccChaseLink link;        /* what the lines' entries hold: an address or a 4- or 8-byte index */
    size_t max_chains;        /* capacity of ends[] */
    double perm_build_ms;     /* host time to build the permutation and its order, ms */
} OccFootprint;

/* Builds a footprint of footprint_bytes (rounded down to whole lines) of line_words-word lines
 * whose entries hold `link`, for up to max_chains chains. 0, or -1 with a one-line err (size
 * outside 2 lines .. the index range; out of device or host memory, saying what was asked and
 * what is free). */
int occ_footprint_init(OccFootprint *f, size_t footprint_bytes, unsigned int line_words,
                       OccChaseLink link, size_t max_chains, uint64_t seed, char *err,
                       size_t err_len);
void occ_footprint_free(OccFootprint *f);

/* Bytes the footprint occupies: n_lines x line bytes. */
long long occ_footprint_bytes(const OccFootprint *f);

/* Bytes of one entry of `link`, so of one load of a hop: 8 for an address or an 8-byte index,
 * 4 for a 4-byte index. */
unsigned int occ_chase_link_bytes(OccChaseLink link);

/* What an entry holds to link to line `line` (0 <= line < n_lines): its address
 * (lines + line x line bytes) or its first entry's index. A chase starts at the link of its
 * first line and, verified, ends at the link of the line the host's walk reaches. */
unsigned long long occ_footprint_link(const OccFootprint *f, size_t line);

#endif
