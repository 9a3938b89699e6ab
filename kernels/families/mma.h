/* SPDX-License-Identifier: Apache-2.0 */
/* kernels/families/mma.h: the warp-level tensor-core family's descriptor (kernels/mma.cu, its C
 * API in kernels/smem_mma.h; harness/families/family_mma.c): mma.sync chains, one mode per input
 * type, each judged against the arch's headline dense tensor rate of that type. The fields and
 * the entry shapes are documented in kernels/families/README.md. */
#ifndef OCC_FAMILIES_MMA_H
#define OCC_FAMILIES_MMA_H

/* The SASS audit (tests/build/test_sass_audit.py reads these lines): a variant whose name
 * matches PATTERN keeps group 1 of it in loads in flight (AXIS U or K), or issues no load (AXIS
 * loads).
 * SASS promise: ^mma_[a-z0-9]+_u\d+$ loads */
#define OCC_MMA_MODES(M)                                                                           \
    M(mma_f16, .kernel = "mma", .mode = "f16", .default_mode = 1, .shape = OCC_SHAPE_OCCUPANCY,    \
      .options = "unroll,occ,block,lever,carveout", .launch_ms = 3.2)                              \
    M(mma_bf16, .kernel = "mma", .mode = "bf16", .shape = OCC_SHAPE_OCCUPANCY,                     \
      .options = "unroll,occ,block,lever,carveout")                                                \
    M(mma_tf32, .kernel = "mma", .mode = "tf32", .shape = OCC_SHAPE_OCCUPANCY,                     \
      .options = "unroll,occ,block,lever,carveout")                                                \
    M(mma_f64, .kernel = "mma", .mode = "f64", .shape = OCC_SHAPE_OCCUPANCY,                       \
      .options = "unroll,occ,block,lever,carveout")

/* X(T, K, FLOP, ACC, PEAK, U): U independent accumulators per warp of input type T (f16, bf16:
 * m16n8k16 with fp32 accumulators; tf32: m16n8k8, fp32; f64: m8n8k4 DMMA), K the instruction's
 * depth, FLOP = 2 x M x N x K per warp instruction, ACC the bytes of an accumulator element (the
 * catalog's V), PEAK the arch rate (OccArchRate) the type is judged against. Name mma_<T>_u<U>. */
#define OCC_MMA_TYPE_VARIANTS(X, t, k, flop, acc, peak)                                            \
    X(t, k, flop, acc, peak, 1) X(t, k, flop, acc, peak, 2) X(t, k, flop, acc, peak, 4)            \
    X(t, k, flop, acc, peak, 8)
#define OCC_MMA_VARIANTS(X)                                                                        \
    OCC_MMA_TYPE_VARIANTS(X, f16, 16, 4096, 4, OCC_RATE_MMA_F16)                                   \
    OCC_MMA_TYPE_VARIANTS(X, bf16, 16, 4096, 4, OCC_RATE_MMA_F16)                                  \
    OCC_MMA_TYPE_VARIANTS(X, tf32, 8, 2048, 4, OCC_RATE_MMA_TF32)                                  \
    OCC_MMA_TYPE_VARIANTS(X, f64, 4, 512, 8, OCC_RATE_MMA_F64)

/* An operation is one warp mma instruction: FLOP of work. */
#define OCC_MMA_CATALOG_ENTRY(t, k, flop, acc, peak, u)                                            \
    OCC_CATALOG_ENTRY(mma_##t, "mma_" #t "_u" #u, u, acc, 0, 0, 0, peak, flop)
#define OCC_MMA_CATALOG OCC_MMA_VARIANTS(OCC_MMA_CATALOG_ENTRY)

#endif
/* The registry hook (kernels/families.def). */
#ifdef OCC_FAMILY
OCC_FAMILY(MMA)
#endif
