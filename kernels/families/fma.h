/* SPDX-License-Identifier: Apache-2.0 */
/* kernels/families/fma.h: the arithmetic family's descriptor (kernels/fma.cu,
 * harness/families/family_fma.c), Volkov 2010's opening experiment: U independent FMA chains per
 * thread (a = a x b + c). The fields and the entry shapes are documented in
 * kernels/families/README.md. */
#ifndef OCC_FAMILIES_FMA_H
#define OCC_FAMILIES_FMA_H

/* The SASS audit (tests/build/test_sass_audit.py reads these lines): a variant whose name
 * matches PATTERN keeps group 1 of it in loads in flight (AXIS U or K), or issues no load (AXIS
 * loads).
 * SASS promise: ^fma_fp\d+_u\d+$ loads */
#define OCC_FMA_MODES(M)                                                                           \
    M(fma, .kernel = "fma", .mode = "chain", .default_mode = 1, .shape = OCC_SHAPE_OCCUPANCY,      \
      .options = "unroll,vec,occ,block,lever,carveout", .launch_ms = 2.4)

/* X(T, BYTES, U): U independent chains of element type T: fp32 (float, FFMA) or fp64 (double,
 * DFMA) of BYTES bytes. Name fma_<T>_u<U>; the catalog's V is the element size, so --vec 4,8
 * picks the type. No capped twins: every variant's registers let 100% occupancy fit on every
 * default arch (the most: fp64 U = 8 with 32 registers on sm_80, sm_90 and sm_100, where 100%
 * allows 32). */
#define OCC_FMA_VARIANTS(X)                                                                        \
    X(fp32, 4, 1) X(fp32, 4, 2) X(fp32, 4, 4) X(fp32, 4, 8)                                        \
    X(fp64, 8, 1) X(fp64, 8, 2) X(fp64, 8, 4) X(fp64, 8, 8)

/* Judged against the FMA lanes of the element type; an operation is one warp FMA instruction:
 * 32 lanes x 2 FLOP. */
#define OCC_FMA_PEAK_fp32 OCC_RATE_FMA_FP32
#define OCC_FMA_PEAK_fp64 OCC_RATE_FMA_FP64
#define OCC_FMA_CATALOG_ENTRY(t, bytes, u)                                                         \
    OCC_CATALOG_ENTRY(fma, "fma_" #t "_u" #u, u, bytes, 0, 0, 0, OCC_FMA_PEAK_##t, 64)
#define OCC_FMA_CATALOG OCC_FMA_VARIANTS(OCC_FMA_CATALOG_ENTRY)

#endif
/* The registry hook (kernels/families.def). */
#ifdef OCC_FAMILY
OCC_FAMILY(FMA)
#endif
