/* SPDX-License-Identifier: Apache-2.0 */
/* kernels/families/smem.h: the shared-memory family's descriptor (kernels/smem.cu, its C API in
 * kernels/smem_mma.h; harness/families/family_smem.c): chases and streams inside the block's own
 * shared memory, judged against the arch's shared-memory bytes per clock. The fields and the
 * entry shapes are documented in kernels/families/README.md. */
#ifndef OCC_FAMILIES_SMEM_H
#define OCC_FAMILIES_SMEM_H

/* The SASS audit (tests/build/test_sass_audit.py reads these lines): a variant whose name
 * matches PATTERN keeps group 1 of it in loads in flight (AXIS U or K), or issues no load (AXIS
 * loads).
 * SASS promise: ^smem_chase_k(\d+)$ K
 * SASS promise: ^smem_(?:read|rw)_u(\d+)_v\d+$ U */
#define OCC_SMEM_MODES(M)                                                                          \
    M(smem_chase, .kernel = "smem", .mode = "chase", .default_mode = 1,                            \
      .shape = OCC_SHAPE_OCCUPANCY, .options = "unroll,occ,block,lever,carveout",                  \
      .launch_ms = 2.4)                                                                            \
    M(smem_stream, .kernel = "smem", .mode = "stream", .shape = OCC_SHAPE_OCCUPANCY,               \
      .options = "unroll,vec,occ,block,lever,carveout")                                            \
    M(smem_rw, .kernel = "smem", .mode = "rw", .shape = OCC_SHAPE_OCCUPANCY,                       \
      .options = "unroll,vec,occ,block,lever,carveout")

/* Shared-memory pointer chase: X(K), K independent chains per warp, each hop one conflict-free
 * 128-byte row (lane i reads word i). Name smem_chase_k<K>. */
#define OCC_SMEM_CHASE_VARIANTS(X) X(1) X(2) X(4) X(8)
/* Shared-memory stream: X(mode, RW, U, V), U independent loads of V bytes per thread in flight
 * (conflict-free: a warp request is 32 x V contiguous bytes); RW 0: loads only (mode read, CSV
 * mode stream), 1: every loaded vector is also stored (mode rw). Name smem_<mode>_u<U>_v<V>. */
#define OCC_SMEM_STREAM_MODE_VARIANTS(X, mode, rw)                                                 \
    X(mode, rw, 1, 4) X(mode, rw, 1, 8) X(mode, rw, 1, 16)                                         \
    X(mode, rw, 2, 4) X(mode, rw, 2, 8) X(mode, rw, 2, 16)                                         \
    X(mode, rw, 4, 4) X(mode, rw, 4, 8) X(mode, rw, 4, 16)                                         \
    X(mode, rw, 8, 4) X(mode, rw, 8, 8) X(mode, rw, 8, 16)
#define OCC_SMEM_STREAM_VARIANTS(X)                                                                \
    OCC_SMEM_STREAM_MODE_VARIANTS(X, read, 0) OCC_SMEM_STREAM_MODE_VARIANTS(X, rw, 1)

/* U is the chase's chains K or the stream's loads in flight; own is the tile (OCC_SMEM_CHASE_ROWS
 * x 128 bytes; the stream's 8 slots of 32 x V bytes, twice for rw). An operation is a warp's
 * hop (128 bytes), or its load of 32 x V bytes (with its store for rw). */
#define OCC_SMEM_MODE_read smem_stream /* the catalog family of the read-only stream variants */
#define OCC_SMEM_MODE_rw smem_rw
#define OCC_SMEM_CATALOG_CHASE(k)                                                                  \
    OCC_CATALOG_ENTRY(smem_chase, "smem_chase_k" #k, k, 4, 0, 0, 4096, OCC_RATE_SMEM_BYTES, 128)
#define OCC_SMEM_CATALOG_STREAM(mode, rw, u, v)                                                    \
    OCC_CATALOG_ENTRY(OCC_SMEM_MODE_##mode, "smem_" #mode "_u" #u "_v" #v, u, v, 0, 0,             \
                      (1 + rw) * 8 * 32 * v, OCC_RATE_SMEM_BYTES, (1 + rw) * 32 * v)
/* The catalog order is the host file's table order: the chases, then the streams. */
#define OCC_SMEM_CATALOG                                                                           \
    OCC_SMEM_CHASE_VARIANTS(OCC_SMEM_CATALOG_CHASE)                                                \
    OCC_SMEM_STREAM_VARIANTS(OCC_SMEM_CATALOG_STREAM)

#endif
/* The registry hook (kernels/families.def). */
#ifdef OCC_FAMILY
OCC_FAMILY(SMEM)
#endif
