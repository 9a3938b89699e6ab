/* SPDX-License-Identifier: Apache-2.0 */
/* kernels/variants.h: every compiled kernel variant.
 *
 * This list is the single source of truth: it is expanded into kernels and launchers in the .cu
 * files and into the catalog the sweep walks (harness/core/catalog.c). Adding a variant is one
 * edit here. Each entry is X(family, U, V, CAP, SUFFIX):
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
 * through A dependent FMAs x = x * c + c (c = OCC_MIXED_STEP, fma_chain.h) before it is
 * accumulated (the U x V/4 floats of a trip are independent chains). Name mixed_u<U>_v<V>_a<A>.
 * A = 0 is the plain reduce; FLOP per byte = 2A / 4. */
#define OCC_MIXED_U 2
#define OCC_MIXED_V 16
#define OCC_MIXED_VARIANTS(X)                                                                      \
    X(0) X(1) X(2) X(4) X(8) X(12) X(16) X(24) X(32) X(48) X(64) X(96) X(128) X(256)

#define OCC_COPY_VARIANTS(X) OCC_STREAM_VARIANTS(X, copy)
#define OCC_REDUCE_VARIANTS(X) OCC_STREAM_VARIANTS(X, reduce)

/* The smem and mma families (kernels/smem.cu, kernels/mma.cu; their C API in kernels/smem_mma.h). */
/* Shared-memory pointer chase: X(K), K independent chains per warp, each hop one conflict-free
 * 128-byte row (lane i reads word i). Name smem_chase_k<K>. */
#define OCC_SMEM_CHASE_VARIANTS(X) X(1) X(2) X(4) X(8)
/* Shared-memory stream: X(mode, RW, U, V), U independent loads of V bytes per thread in flight
 * (conflict-free: a warp request is 32 x V contiguous bytes); RW 0: loads only (mode read),
 * 1: every loaded vector is also stored (mode rw). Name smem_<mode>_u<U>_v<V>. */
#define OCC_SMEM_STREAM_MODE_VARIANTS(X, mode, rw)                                                 \
    X(mode, rw, 1, 4) X(mode, rw, 1, 8) X(mode, rw, 1, 16)                                         \
    X(mode, rw, 2, 4) X(mode, rw, 2, 8) X(mode, rw, 2, 16)                                         \
    X(mode, rw, 4, 4) X(mode, rw, 4, 8) X(mode, rw, 4, 16)                                         \
    X(mode, rw, 8, 4) X(mode, rw, 8, 8) X(mode, rw, 8, 16)
#define OCC_SMEM_STREAM_VARIANTS(X)                                                                \
    OCC_SMEM_STREAM_MODE_VARIANTS(X, read, 0) OCC_SMEM_STREAM_MODE_VARIANTS(X, rw, 1)
/* Warp-level tensor-core chains (mma.sync): X(T, K, FLOP, U), U independent accumulators per
 * warp of input type T (f16, bf16: m16n8k16 with fp32 accumulators; tf32: m16n8k8, fp32; f64:
 * m8n8k4 DMMA), K the instruction's depth, FLOP = 2 x M x N x K per warp instruction. Name
 * mma_<T>_u<U>. */
#define OCC_MMA_TYPE_VARIANTS(X, t, k, flop)                                                       \
    X(t, k, flop, 1) X(t, k, flop, 2) X(t, k, flop, 4) X(t, k, flop, 8)
#define OCC_MMA_VARIANTS(X)                                                                        \
    OCC_MMA_TYPE_VARIANTS(X, f16, 16, 4096) OCC_MMA_TYPE_VARIANTS(X, bf16, 16, 4096)              \
    OCC_MMA_TYPE_VARIANTS(X, tf32, 8, 2048) OCC_MMA_TYPE_VARIANTS(X, f64, 4, 512)


/* Every compiled variant in one uniform shape, for the pure catalog (harness/core/catalog.c), which
 * defines OCC_CATALOG_ENTRY(kernel, mode, name, U, V, A, cap, natural, own) before expanding
 * OCC_CATALOG: kernel and mode are the CSV's strings, name the variant, A the FMAs per loaded
 * element (0 for the families without that axis), natural the name of the uncapped twin of a capped
 * variant (its own name when natural), own the dynamic shared memory the kernel itself uses per
 * block (the smem family's tile; the occupancy padding comes on top). A new family adds its list above and one adapter term
 * here. */
#define OCC_CATALOG_STREAM(fam, u, v, lb, sfx)                                                     \
    OCC_CATALOG_ENTRY(#fam, "stream", #fam "_u" #u "_v" #v #sfx, u, v, 0, lb,                     \
                      #fam "_u" #u "_v" #v, 0)
#define OCC_CATALOG_CHASE(mode, k)                                                                 \
    OCC_CATALOG_ENTRY("chase", #mode, "chase_" #mode "_k" #k, k, 4, 0, 0, "chase_" #mode "_k" #k, \
                      0)
#define OCC_CATALOG_FMA(t, bytes, u)                                                               \
    OCC_CATALOG_ENTRY("fma", "chain", "fma_" #t "_u" #u, u, bytes, 0, 0, "fma_" #t "_u" #u, 0)
#define OCC_MIXED_NAME_(u, v, a) "mixed_u" #u "_v" #v "_a" #a
#define OCC_MIXED_NAME(u, v, a) OCC_MIXED_NAME_(u, v, a)
#define OCC_CATALOG_MIXED(a)                                                                       \
    OCC_CATALOG_ENTRY("mixed", "stream", OCC_MIXED_NAME(OCC_MIXED_U, OCC_MIXED_V, a), OCC_MIXED_U, \
                      OCC_MIXED_V, a, 0, OCC_MIXED_NAME(OCC_MIXED_U, OCC_MIXED_V, a), 0)
/* smem: U is the chase's chains K or the stream's loads in flight; own is the tile
 * (OCC_SMEM_CHASE_ROWS x 128 bytes; the stream's 8 slots of 32 x V bytes, twice for rw). */
#define OCC_CATALOG_SMEM_CHASE(k)                                                                  \
    OCC_CATALOG_ENTRY("smem", "chase", "smem_chase_k" #k, k, 4, 0, 0, "smem_chase_k" #k, 4096)
#define OCC_SMEM_MODE_read "stream" /* the CSV mode of the read-only stream variants */
#define OCC_SMEM_MODE_rw "rw"
#define OCC_CATALOG_SMEM_STREAM(mode, rw, u, v)                                                    \
    OCC_CATALOG_ENTRY("smem", OCC_SMEM_MODE_##mode, "smem_" #mode "_u" #u "_v" #v, u, v, 0, 0,                   \
                      "smem_" #mode "_u" #u "_v" #v, (1 + rw) * 8 * 32 * v)
/* mma: U accumulators per warp; V the bytes of an accumulator element (4 fp32, 8 fp64). */
#define OCC_CATALOG_MMA(t, k, flop, u)                                                             \
    OCC_CATALOG_ENTRY("mma", #t, "mma_" #t "_u" #u, u, flop == 512 ? 8 : 4, 0, 0,                 \
                      "mma_" #t "_u" #u, 0)
#define OCC_CATALOG                                                                                \
    OCC_COPY_VARIANTS(OCC_CATALOG_STREAM)                                                          \
    OCC_REDUCE_VARIANTS(OCC_CATALOG_STREAM) OCC_CHASE_VARIANTS(OCC_CATALOG_CHASE)                 \
    OCC_FMA_VARIANTS(OCC_CATALOG_FMA) OCC_MIXED_VARIANTS(OCC_CATALOG_MIXED)                       \
    OCC_SMEM_CHASE_VARIANTS(OCC_CATALOG_SMEM_CHASE) OCC_SMEM_STREAM_VARIANTS(OCC_CATALOG_SMEM_STREAM) \
    OCC_MMA_VARIANTS(OCC_CATALOG_MMA)

#endif
