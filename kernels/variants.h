/* kernels/variants.h: every compiled kernel variant.
 *
 * This list is the single source of truth: it is expanded into kernels and launchers in the .cu
 * files and into the registry table the sweep walks (harness/registry.c). Adding a variant is one
 * edit here. Each entry is X(family, U, V, LB, SUFFIX):
 *   U      independent loads in flight per thread per loop trip (unroll), 1..8
 *   V      bytes per load instruction per thread: 4 (float), 8 (float2), 16 (float4)
 *   LB     0 = natural register count (the `pad` lever); 1 = register-capped with
 *          __launch_bounds__(OCC_LB_MAX_THREADS, K), K = the compiled arch's max threads per SM /
 *          OCC_LB_MAX_THREADS (kernels/bounds.cuh), so that 100% occupancy fits (the `bounds` lever)
 *   SUFFIX empty or _lbfull; the variant name is <family>_u<U>_v<V><SUFFIX>
 * U=8, V=16 has no capped twin: its 8 loads of 16 bytes need 32 registers, the whole cap where
 * 2048 threads fit, so a capped twin cannot keep them in flight (the build's SASS audit found 1-3).
 * C and C++ both include this header; it holds no CUDA type, so the pure harness reads it too. */
#ifndef OCC_VARIANTS_H
#define OCC_VARIANTS_H

/* Largest block every streaming kernel is compiled for (its __launch_bounds__ max threads). */
#define OCC_LB_MAX_THREADS 256
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

#define OCC_COPY_VARIANTS(X) OCC_STREAM_VARIANTS(X, copy)
#define OCC_REDUCE_VARIANTS(X) OCC_STREAM_VARIANTS(X, reduce)

/* Every compiled variant in one uniform shape, for the pure catalog (harness/catalog.c), which
 * defines OCC_CATALOG_ENTRY(kernel, mode, name, U, V, capped, natural) before expanding
 * OCC_CATALOG: kernel and mode are the CSV's strings, name the variant, natural the name of the
 * uncapped twin of a capped variant (its own name when natural). A new family adds its list above
 * and one adapter term here. */
#define OCC_CATALOG_STREAM(fam, u, v, lb, sfx)                                                     \
    OCC_CATALOG_ENTRY(#fam, "stream", #fam "_u" #u "_v" #v #sfx, u, v, lb, #fam "_u" #u "_v" #v)
#define OCC_CATALOG_CHASE(mode, k)                                                                 \
    OCC_CATALOG_ENTRY("chase", #mode, "chase_" #mode "_k" #k, k, 4, 0, "chase_" #mode "_k" #k)
#define OCC_CATALOG                                                                                \
    OCC_COPY_VARIANTS(OCC_CATALOG_STREAM)                                                          \
    OCC_REDUCE_VARIANTS(OCC_CATALOG_STREAM) OCC_CHASE_VARIANTS(OCC_CATALOG_CHASE)

#endif
