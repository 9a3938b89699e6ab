/* SPDX-License-Identifier: Apache-2.0 */
/* kernels/variants.h: every compiled kernel variant.
 *
 * This list is the single source of truth: it is expanded into kernels and launchers in the .cu
 * files and into the registry table the sweep walks (harness/registry.c). Adding a variant is one
 * edit here. Each entry is X(family, U, V, LB, SUFFIX):
 *   U      independent loads in flight per thread per loop trip (unroll), 1..8
 *   V      bytes per load instruction per thread: 4 (float), 8 (float2), 16 (float4)
 *   LB     0 = natural register count (the `pad` lever); 1 = register-capped at 65536 / the
 *          compiled arch's max threads per SM (kernels/bounds.cuh: __launch_bounds__(1024, K),
 *          K = max threads per SM / 1024, or __maxnreg__ where no whole K exists), so that 100%
 *          occupancy fits (the `bounds` lever)
 *   SUFFIX empty or _lbfull; the variant name is <family>_u<U>_v<V><SUFFIX>
 * U=8, V=16 has no capped twin: its 8 loads of 16 bytes need 32 registers, the whole cap where
 * 2048 threads fit, so a capped twin cannot keep them in flight (the build's SASS audit found 1-3).
 * C and C++ both include this header; it holds no CUDA type, so the pure harness reads it too. */
#ifndef OCC_VARIANTS_H
#define OCC_VARIANTS_H

/* Largest block every kernel is compiled for: the CUDA maximum of every arch (a capped twin's
 * __launch_bounds__ max threads; block_sum.cuh's per-warp partials are sized for it). */
#define OCC_LB_MAX_THREADS 1024
#define OCC_STREAM_VARIANTS(X, fam)                                                                \
    X(fam, 1, 4, 0, ) X(fam, 1, 4, 1, _lbfull)                                                        \
    X(fam, 1, 8, 0, ) X(fam, 1, 8, 1, _lbfull)                                                        \
    X(fam, 1, 16, 0, ) X(fam, 1, 16, 1, _lbfull)                                                      \
    X(fam, 2, 4, 0, ) X(fam, 2, 4, 1, _lbfull)                                                        \
    X(fam, 2, 8, 0, ) X(fam, 2, 8, 1, _lbfull)                                                        \
    X(fam, 2, 16, 0, ) X(fam, 2, 16, 1, _lbfull)                                                      \
    X(fam, 4, 4, 0, ) X(fam, 4, 4, 1, _lbfull)                                                        \
    X(fam, 4, 8, 0, ) X(fam, 4, 8, 1, _lbfull)                                                        \
    X(fam, 4, 16, 0, ) X(fam, 4, 16, 1, _lbfull)                                                      \
    X(fam, 8, 4, 0, ) X(fam, 8, 4, 1, _lbfull)                                                        \
    X(fam, 8, 8, 0, ) X(fam, 8, 8, 1, _lbfull)                                                        \
    X(fam, 8, 16, 0, )

/* The pointer-chase throughput variants: X(mode, K), K independent chains per warp (warp mode:
 * lane i reads word i of each 128-byte line, one coalesced request per chain per hop) or per
 * thread (thread mode: 32 separate requests per warp per hop). Name chase_<mode>_k<K>. */
#define OCC_CHASE_VARIANTS(X)                                                                      \
    X(warp, 1) X(warp, 2) X(warp, 4) X(warp, 8) X(thread, 1) X(thread, 2) X(thread, 4) X(thread, 8)

/* The arithmetic family (Volkov 2010's opening experiment): X(T, U), U independent FMA chains per
 * thread (a = a x b + c) of element type T: fp32 (float, FFMA) or fp64 (double, DFMA). Name
 * fma_<T>_u<U>; the catalog's V is the element size (4 or 8 bytes), so --vec 4,8 picks the type.
 * No capped twins: every variant's registers let 100% occupancy fit on every default arch (the
 * most: fp64 U = 8 with 32 registers on sm_80, sm_90 and sm_100, where 100% allows 32). */
#define OCC_FMA_VARIANTS(X)                                                                        \
    X(fp32, 4, 1) X(fp32, 4, 2) X(fp32, 4, 4) X(fp32, 4, 8)                                        \
    X(fp64, 8, 1) X(fp64, 8, 2) X(fp64, 8, 4) X(fp64, 8, 8)

/* The memory + arithmetic family (the arithmetic-intensity sweep of Volkov's thesis): X(A), the
 * reduce walk with OCC_MIXED_U loads of OCC_MIXED_V bytes per trip, each loaded float then taken
 * through A dependent FMAs before it is accumulated (the U x V/4 floats of a trip are independent
 * chains). Name mixed_u<U>_v<V>_a<A>. A = 0 is the plain reduce; FLOP per byte = 2A / 4. */
#define OCC_MIXED_U 2
#define OCC_MIXED_V 16
#define OCC_MIXED_VARIANTS(X)                                                                      \
    X(0) X(1) X(2) X(4) X(8) X(12) X(16) X(24) X(32) X(48) X(64) X(96) X(128) X(256)

#define OCC_COPY_VARIANTS(X) OCC_STREAM_VARIANTS(X, copy)
#define OCC_REDUCE_VARIANTS(X) OCC_STREAM_VARIANTS(X, reduce)

/* Every compiled variant in one uniform shape, for the pure catalog (harness/catalog.c), which
 * defines OCC_CATALOG_ENTRY(kernel, mode, name, U, V, A, capped, natural) before expanding
 * OCC_CATALOG: kernel and mode are the CSV's strings, name the variant, A the FMAs per loaded
 * element (0 for the families without that axis), natural the name of the uncapped twin of a
 * capped variant (its own name when natural). A new family adds its list above and one adapter
 * term here. */
#define OCC_CATALOG_STREAM(fam, u, v, lb, sfx)                                                     \
    OCC_CATALOG_ENTRY(#fam, "stream", #fam "_u" #u "_v" #v #sfx, u, v, 0, lb,                     \
                      #fam "_u" #u "_v" #v)
#define OCC_CATALOG_CHASE(mode, k)                                                                 \
    OCC_CATALOG_ENTRY("chase", #mode, "chase_" #mode "_k" #k, k, 4, 0, 0, "chase_" #mode "_k" #k)
#define OCC_CATALOG_FMA(t, bytes, u)                                                               \
    OCC_CATALOG_ENTRY("fma", "chain", "fma_" #t "_u" #u, u, bytes, 0, 0, "fma_" #t "_u" #u)
#define OCC_MIXED_NAME_(u, v, a) "mixed_u" #u "_v" #v "_a" #a
#define OCC_MIXED_NAME(u, v, a) OCC_MIXED_NAME_(u, v, a)
#define OCC_CATALOG_MIXED(a)                                                                       \
    OCC_CATALOG_ENTRY("mixed", "stream", OCC_MIXED_NAME(OCC_MIXED_U, OCC_MIXED_V, a), OCC_MIXED_U, \
                      OCC_MIXED_V, a, 0, OCC_MIXED_NAME(OCC_MIXED_U, OCC_MIXED_V, a))
#define OCC_CATALOG                                                                                \
    OCC_COPY_VARIANTS(OCC_CATALOG_STREAM)                                                          \
    OCC_REDUCE_VARIANTS(OCC_CATALOG_STREAM) OCC_CHASE_VARIANTS(OCC_CATALOG_CHASE)                 \
    OCC_FMA_VARIANTS(OCC_CATALOG_FMA) OCC_MIXED_VARIANTS(OCC_CATALOG_MIXED)

#endif
