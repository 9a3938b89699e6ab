/* SPDX-License-Identifier: Apache-2.0 */
/* harness/perm.h: random single-cycle permutations of cache lines, for the pointer chase (pure).
 *
 * A uniformly random visiting order (Fisher-Yates) closed into one cycle: a chase that follows
 * next[] visits every line once before it revisits any, in an order no prefetcher can guess.
 * Building order first keeps every memory access of the build independent (a shuffle and a
 * scatter), so 2^25 lines take about a second; walking next[] to recover the order would be a
 * dependent chain of cache misses, several times slower. */
#ifndef OCC_PERM_H
#define OCC_PERM_H

#include <stddef.h>
#include <stdint.h>

/* Fills order[0..n) with a random permutation of 0..n-1 and next[0..n) with the cycle through
 * it: next[order[i]] = order[(i + 1) % n]. n >= 1. Deterministic for a given seed. */
void occ_perm_cycle(uint32_t *next, uint32_t *order, size_t n, uint64_t seed);

#endif
