/* SPDX-License-Identifier: Apache-2.0 */
/* kernels/variants.h: the variant ladder the streaming families share, and the largest block.
 *
 * Each family's variant list is in its descriptor (kernels/families/<family>.h, registered in
 * kernels/families.def); copy and reduce both expand the ladder below, which their .cu files
 * turn into kernels and launchers and the catalog (harness/core/catalog.c) into the variants the
 * sweep walks. Each entry is X(family, U, V, CAP, SUFFIX):
 *   U      independent loads in flight per thread per loop trip (unroll), 1..8
 *   V      bytes per load instruction per thread: 4 (float), 8 (float2), 16 (float4)
 *   CAP    0 = natural register count, __launch_bounds__(OCC_LB_MAX_THREADS) (the `pad` lever);
 *          else a register-capped twin, __maxnreg__(CAP) registers per thread (kernels/bounds.cuh),
 *          the `bounds` lever's ladder: 56, 48, 40 or 32
 *   SUFFIX empty, or _r<CAP>; the variant name is <family>_u<U>_v<V><SUFFIX>
 * The ladder's rungs are the register counts at which blocks of 128 threads gain an occupancy level
 * on some default arch (harness/model/regcap.h computes them from the arch table;
 * tests/unit/test_regcap.c checks that this list holds every rung up to 56): on sm_80/sm_90/sm_100
 * 32 -> 16 blocks (100%), 40 -> 12, 48 -> 10, 56 -> 9; on sm_86/sm_89/sm_120 40 -> 12 blocks
 * (100%), 48 -> 10, 56 -> 9.
 * A variant gets a twin at a cap only where the cap is below its natural count on some default
 * arch (the build's kernel_resources.csv when natural variants were bounded to 256 threads: the
 * most copy or reduce gave on any arch opens each line; bounded to 1024 they hold at most 64), so
 * no twin is a copy of its natural variant everywhere: 36 twins in all. A cap that cannot hold U
 * loads of V bytes (8 x 16 bytes need 32 registers of data alone) spills: the SASS audit accepts
 * fewer loads in flight only from a twin with a stack frame (tests/build/test_sass_audit.py), and
 * every row carries local_bytes_per_thread. Twins carry no __launch_bounds__ (nvcc refuses both on
 * one kernel): they take blocks up to the device's 1024 threads whatever OCC_LB_MAX_THREADS is.
 * C and C++ both include this header; it holds no CUDA type, so the pure harness reads it too. */
#ifndef OCC_VARIANTS_H
#define OCC_VARIANTS_H

/* Largest block every kernel is compiled for: the CUDA maximum of every arch (a capped twin's
 * __launch_bounds__ max threads; block_sum.cuh's per-warp partials are sized for it). */
#define OCC_LB_MAX_THREADS 1024
#define OCC_STREAM_VARIANTS(X, fam)                                                                \
    /* 30 */ X(fam, 1, 4, 0, )                                                                     \
    /* 30 */ X(fam, 1, 8, 0, )                                                                     \
    /* 30 */ X(fam, 1, 16, 0, )                                                                    \
    /* 40 */ X(fam, 2, 4, 0, ) X(fam, 2, 4, 32, _r32)                                              \
    /* 38 */ X(fam, 2, 8, 0, ) X(fam, 2, 8, 32, _r32)                                              \
    /* 38 */ X(fam, 2, 16, 0, ) X(fam, 2, 16, 32, _r32)                                            \
    /* 34 */ X(fam, 4, 4, 0, ) X(fam, 4, 4, 32, _r32)                                              \
    /* 38 */ X(fam, 4, 8, 0, ) X(fam, 4, 8, 32, _r32)                                              \
    /* 50 */ X(fam, 4, 16, 0, ) X(fam, 4, 16, 48, _r48) X(fam, 4, 16, 40, _r40)                    \
             X(fam, 4, 16, 32, _r32)                                                               \
    /* 44 */ X(fam, 8, 4, 0, ) X(fam, 8, 4, 40, _r40) X(fam, 8, 4, 32, _r32)                       \
    /* 57 */ X(fam, 8, 8, 0, ) X(fam, 8, 8, 56, _r56) X(fam, 8, 8, 48, _r48)                       \
             X(fam, 8, 8, 40, _r40) X(fam, 8, 8, 32, _r32)                                         \
    /* 84 */ X(fam, 8, 16, 0, ) X(fam, 8, 16, 56, _r56) X(fam, 8, 16, 48, _r48)                    \
             X(fam, 8, 16, 40, _r40) X(fam, 8, 16, 32, _r32)

/* The catalog entry of a stream-ladder variant (copy, reduce: kernels/families/<fam>.h): no
 * arithmetic peak, no chain-model operation. */
#define OCC_STREAM_CATALOG(fam, u, v, lb, sfx)                                                     \
    OCC_CATALOG_ENTRY(fam, #fam "_u" #u "_v" #v #sfx, u, v, 0, lb, 0, OCC_RATE_NONE, 0)

#endif
