/* SPDX-License-Identifier: Apache-2.0 */
/* kernels/families/chase.h: the pointer-chase families' descriptor (kernels/chase.cu and
 * kernels/loaded.cu; harness/families/family_chase.c, family_ladder.c, family_loaded.c): the
 * throughput chase in warp and thread mode, the latency ladder and the loaded-latency levels.
 * The fields and the entry shapes are documented in kernels/families/README.md. */
#ifndef OCC_FAMILIES_CHASE_H
#define OCC_FAMILIES_CHASE_H

/* The SASS audit (tests/build/test_sass_audit.py reads these lines): a variant whose name
 * matches PATTERN keeps group 1 of it in loads in flight (AXIS U or K), or issues no load (AXIS
 * loads).
 * SASS promise: ^chase_(?:warp|thread)_k(\d+)$ K */
/* Thread mode has 32x the chains of warp mode at the same occupancy: its default footprint is
 * larger (size_l2_multiple) so that every chain keeps enough hops. */
#define OCC_CHASE_MODES(M)                                                                         \
    M(chase_warp, .kernel = "chase", .mode = "warp", .default_mode = 1,                            \
      .shape = OCC_SHAPE_OCCUPANCY, .options = "unroll,occ,block,lever,carveout,size",             \
      .dram_bytes_per_load_byte = 1.0, .requests = OCC_REQUESTS_RANDOM_LINES,                      \
      .curve_traffic = OCC_CURVE_GATHER, .size_l2_multiple = 8, .launch_ms = 0.65)                 \
    M(chase_thread, .kernel = "chase", .mode = "thread", .shape = OCC_SHAPE_OCCUPANCY,             \
      .options = "unroll,occ,block,lever,carveout,size", .dram_bytes_per_load_byte = 1.0,          \
      .requests = OCC_REQUESTS_LANES, .curve_traffic = OCC_CURVE_SECTOR,                           \
      .size_l2_multiple = 16)                                                                      \
    M(ladder, .kernel = "chase", .mode = "latency", .shape = OCC_SHAPE_FOOTPRINT,                  \
      .options = "footprint,stride,cold,chain,index-bytes")                                        \
    M(loaded, .kernel = "chase", .mode = "loaded", .shape = OCC_SHAPE_LEVELS)

/* The throughput variants: X(mode, K), K independent chains per warp (warp mode: lane i reads
 * word i of each 128-byte line, one coalesced request per chain per hop) or per thread (thread
 * mode: 32 separate requests per warp per hop). Name chase_<mode>_k<K>. */
#define OCC_CHASE_VARIANTS(X)                                                                      \
    X(warp, 1) X(warp, 2) X(warp, 4) X(warp, 8) X(thread, 1) X(thread, 2) X(thread, 4) X(thread, 8)

#define OCC_CHASE_CATALOG_ENTRY(mode, k)                                                           \
    OCC_CATALOG_ENTRY(chase_##mode, "chase_" #mode "_k" #k, k, 4, 0, 0, 0, OCC_RATE_NONE, 0)
#define OCC_CHASE_CATALOG OCC_CHASE_VARIANTS(OCC_CHASE_CATALOG_ENTRY)

#endif
/* The registry hook (kernels/families.def). */
#ifdef OCC_FAMILY
OCC_FAMILY(CHASE)
#endif
