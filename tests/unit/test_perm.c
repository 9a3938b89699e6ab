/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/test_perm.c: the chase permutation is one cycle through every line, in `order`. */
#include <stdlib.h>

#include "check.h"
#include "perm.h"

static void check_single_cycle(size_t n, uint64_t seed)
{
    uint32_t *next = malloc(n * sizeof *next), *order = malloc(n * sizeof *order);
    unsigned char *seen = calloc(n, 1);
    occ_perm_cycle(next, order, n, seed);
    /* Walk n hops from order[0]: every line once, in exactly the order given, then back. */
    uint32_t line = order[0];
    size_t distinct = 0, in_order = 0;
    for (size_t i = 0; i < n; i++) {
        in_order += line == order[i];
        distinct += line < n && !seen[line]++;
        line = next[line];
    }
    CHECK_INT_EQ(distinct, n);
    CHECK_INT_EQ(in_order, n);
    CHECK_INT_EQ(line, order[0]);
    if (n > 1) {
        size_t fixed = 0;
        for (size_t i = 0; i < n; i++) fixed += next[i] == i;
        CHECK_INT_EQ(fixed, 0);
    }
    free(next);
    free(order);
    free(seen);
}

int main(void)
{
    const size_t sizes[] = {1, 2, 3, 32, 1000, 65537, 1u << 20};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) check_single_cycle(sizes[i], 42 + i);

    /* Deterministic per seed, different across seeds, and not the identity order. */
    static uint32_t a[4096], b[4096], c[4096], oa[4096], ob[4096], oc[4096];
    occ_perm_cycle(a, oa, 4096, 7);
    occ_perm_cycle(b, ob, 4096, 7);
    occ_perm_cycle(c, oc, 4096, 8);
    CHECK(memcmp(a, b, sizeof a) == 0);
    CHECK(memcmp(a, c, sizeof a) != 0);
    size_t sequential = 0;
    for (size_t i = 0; i < 4096; i++) sequential += a[i] == (i + 1) % 4096;
    CHECK(sequential < 16); /* a random cycle rarely steps to the adjacent line */
    return check_done();
}
