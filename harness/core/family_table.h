/* SPDX-License-Identifier: Apache-2.0 */
/* harness/family_table.h: the one table of kernel families (experiments), an X-macro expanded by
 * the pure catalog (harness/catalog.c: names, modes, options, model inputs) and by the GPU side
 * (harness/family_ops.c: each family's OccFamilyOps, defined in harness/family_<id>.c).
 *
 * Entry: X(id, kernel, mode, default_mode, shape, options, dram_bytes_per_load_byte,
 *          requests, curve_traffic, size_l2_multiple, size_floor_gib, bound_note)
 *   id                        C identifier: the GPU side's ops are occ_family_<id>
 *   kernel                    --kernel name and the CSV `kernel` column
 *   mode                      --mode name and the CSV `mode` column
 *   default_mode              1: what --kernel <kernel> runs when --mode is not given
 *   shape                     OCC_SHAPE_OCCUPANCY (variants x occupancy levels),
 *                             OCC_SHAPE_FOOTPRINT (footprints, no occupancy axis) or
 *                             OCC_SHAPE_LEVELS (the loaded-latency levels, planned first, also
 *                             for any sweep whose model uses them: dram_bytes_per_load_byte set
 *                             and no --no-loaded)
 *   options                   comma list of the scoped options (options.c) this family takes
 *   dram_bytes_per_load_byte  DRAM bytes gbps_median counts per byte of loads in flight, for the
 *                             Little's-law model (NAN: the model does not apply)
 *   requests                  what one warp waits on per trip and per chain (unroll step), for
 *                             the model (OccRequestShape, catalog.h): OCC_REQUESTS_LINES for a
 *                             coalesced load (the 128-byte lines it touches, 32 lanes x vec_bytes
 *                             / 128: a stream's load, or one line per hop of a warp-wide
 *                             chase), OCC_REQUESTS_LANES for one load per lane at random
 *                             addresses (32 sector requests). The model's latency for such a warp
 *                             is the expected largest of (requests per step) x unroll
 *                             latencies (loaded_model.h). OCC_REQUESTS_NONE: width 1
 *   curve_traffic             the loaded-latency curve its rows are predicted from
 *                             (OccCurveTraffic, loaded_model.h): READ for read-only streams, COPY
 *                             for read + write streams, GATHER for loads at random addresses
 *   size_l2_multiple          default buffer/footprint of a run, in L2 sizes (0: no --size)
 *   size_floor_gib            ... raised to this many GiB where free memory allows (a quarter of
 *                             it), so that one launch lasts long against its ramp and tail
 *   bound_note                what bounds the family besides latency, quoted by the knee report
 *                             when the model misses (NULL: none)
 * Adding a family: its variants in kernels/variants.h, one .cu, harness/family_<id>.c, one line
 * here. */
#ifndef OCC_FAMILY_TABLE_H
#define OCC_FAMILY_TABLE_H

#define OCC_FAMILY_TABLE(X)                                                                        \
    X(copy, "copy", "stream", 1, OCC_SHAPE_OCCUPANCY, "unroll,vec,occ,block,lever,carveout,schedule,size,waves",     \
      2.0, OCC_REQUESTS_LINES, OCC_CURVE_COPY, 8, 4, NULL)                                                                                \
    X(reduce, "reduce", "stream", 1, OCC_SHAPE_OCCUPANCY,                                          \
      "unroll,vec,occ,block,lever,carveout,schedule,size,waves", 1.0, OCC_REQUESTS_LINES, OCC_CURVE_READ, 8, 4, NULL)                                       \
    X(chase_warp, "chase", "warp", 1, OCC_SHAPE_OCCUPANCY, "unroll,occ,block,lever,carveout,size", 1.0, OCC_REQUESTS_LINES, \
      OCC_CURVE_GATHER, 8, 0, NULL)                                                                                        \
    X(chase_thread, "chase", "thread", 0, OCC_SHAPE_OCCUPANCY, "unroll,occ,block,lever,carveout,size", 1.0, \
      OCC_REQUESTS_LANES, OCC_CURVE_GATHER, 16, 0, "32-byte sector requests: DRAM efficiency, not latency, bounds it")                     \
    X(ladder, "chase", "latency", 0, OCC_SHAPE_FOOTPRINT,                                          \
      "footprint,stride,cold,chain,index-bytes", NAN, OCC_REQUESTS_NONE, OCC_CURVE_READ, 0, 0, NULL)                                  \
    X(loaded, "chase", "loaded", 0, OCC_SHAPE_LEVELS, "", NAN, OCC_REQUESTS_NONE, OCC_CURVE_READ, 0, 0, NULL)                      \
    X(fma, "fma", "chain", 1, OCC_SHAPE_OCCUPANCY, "unroll,vec,occ,block,lever,carveout", NAN, OCC_REQUESTS_NONE, \
      OCC_CURVE_READ, 0, 0, NULL)                                                                                        \
    X(mixed, "mixed", "stream", 1, OCC_SHAPE_OCCUPANCY,                                            \
      "fmas,occ,block,lever,carveout,schedule,size,waves", NAN, OCC_REQUESTS_NONE, OCC_CURVE_READ, 8, 4, NULL)

#endif
