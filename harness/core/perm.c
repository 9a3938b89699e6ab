/* SPDX-License-Identifier: Apache-2.0 */
/* harness/perm.c: Fisher-Yates with a small, fast, seeded generator. */
#include "perm.h"

/* splitmix64: a well-mixed 64-bit stream from any seed. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [0, bound) by Lemire's multiply-shift; the bias for bound < 2^32 is < 2^-32. */
static uint32_t below(uint64_t *state, uint32_t bound)
{
    return (uint32_t)(((next_random(state) >> 32) * (uint64_t)bound) >> 32);
}

void occ_perm_cycle(uint32_t *next, uint32_t *order, size_t n, uint64_t seed)
{
    uint64_t state = seed;
    for (size_t i = 0; i < n; i++) order[i] = (uint32_t)i;
    for (size_t i = n - 1; i > 0; i--) {
        uint32_t j = below(&state, (uint32_t)i + 1);
        uint32_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (size_t i = 0; i + 1 < n; i++) next[order[i]] = order[i + 1];
    next[order[n - 1]] = order[0];
}
