/* SPDX-License-Identifier: Apache-2.0 */
/* kernels/families/mixed.h: the memory + arithmetic family's descriptor (kernels/mixed.cu,
 * harness/families/family_mixed.c), the arithmetic-intensity sweep of Volkov's thesis. The fields
 * and the entry shapes are documented in kernels/families/README.md. */
#ifndef OCC_FAMILIES_MIXED_H
#define OCC_FAMILIES_MIXED_H

/* The SASS audit (tests/build/test_sass_audit.py reads these lines): a variant whose name
 * matches PATTERN keeps group 1 of it in loads in flight (AXIS U or K), or issues no load (AXIS
 * loads).
 * SASS promise: ^mixed_u(\d+)_v\d+_a\d+$ U */
#define OCC_MIXED_MODES(M)                                                                         \
    M(mixed, .kernel = "mixed", .mode = "stream", .default_mode = 1,                               \
      .shape = OCC_SHAPE_OCCUPANCY,                                                                \
      .options = "fmas,occ,block,lever,carveout,schedule,size,waves", .size_l2_multiple = 8,       \
      .size_floor_gib = 4, .launch_ms = 2.9)

/* X(A): the reduce walk with OCC_MIXED_U loads of OCC_MIXED_V bytes per trip, each loaded float
 * then taken through A dependent FMAs x = x * c + c (c = OCC_MIXED_STEP, fma_chain.h) before it
 * is accumulated (the U x V/4 floats of a trip are independent chains). Name
 * mixed_u<U>_v<V>_a<A>. A = 0 is the plain reduce; FLOP per byte = 2A / 4. */
#define OCC_MIXED_U 2
#define OCC_MIXED_V 16
#define OCC_MIXED_VARIANTS(X)                                                                      \
    X(0) X(1) X(2) X(4) X(8) X(12) X(16) X(24) X(32) X(48) X(64) X(96) X(128) X(256)

#define OCC_MIXED_NAME_(u, v, a) "mixed_u" #u "_v" #v "_a" #a
#define OCC_MIXED_NAME(u, v, a) OCC_MIXED_NAME_(u, v, a)
/* Judged against the fp32 FMA lanes (its FLOP); no chain-model operation. */
#define OCC_MIXED_CATALOG_ENTRY(a)                                                                 \
    OCC_CATALOG_ENTRY(mixed, OCC_MIXED_NAME(OCC_MIXED_U, OCC_MIXED_V, a), OCC_MIXED_U,             \
                      OCC_MIXED_V, a, 0, 0, OCC_RATE_FMA_FP32, 0)
#define OCC_MIXED_CATALOG OCC_MIXED_VARIANTS(OCC_MIXED_CATALOG_ENTRY)

#endif
/* The registry hook (kernels/families.def). */
#ifdef OCC_FAMILY
OCC_FAMILY(MIXED)
#endif
