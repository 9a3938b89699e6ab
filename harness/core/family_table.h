/* SPDX-License-Identifier: Apache-2.0 */
/* harness/core/family_table.h: the one table of kernel families (experiments), an X-macro
 * expanded by the pure catalog (harness/core/catalog.c: names, modes, options, model inputs) and
 * by the GPU side (harness/families/family_ops.c: each family's OccFamilyOps, defined in
 * harness/families/family_<file>.c).
 *
 * Entry: X(id, .field = value, ...): id, then designated initializers of OccFamilyInfo
 * (catalog.h), which sets .id = "<id>". A field left out takes the value given here as omitted.
 *   id                        C identifier: the GPU side's ops are occ_family_<id>
 *   .kernel                   --kernel name and the CSV `kernel` column (required)
 *   .mode                     --mode name and the CSV `mode` column (required)
 *   .default_mode             1: what --kernel <kernel> runs when --mode is not given (one family
 *                             per kernel); omitted: 0
 *   .shape                    OCC_SHAPE_OCCUPANCY (variants x occupancy levels),
 *                             OCC_SHAPE_FOOTPRINT (footprints, no occupancy axis) or
 *                             OCC_SHAPE_LEVELS (the loaded-latency levels, planned first, also
 *                             for any sweep whose model uses them: dram_bytes_per_load_byte set
 *                             and no --no-loaded) (required)
 *   .options                  comma list of the scoped options (harness/cli/options_table.c)
 *                             this family takes; omitted: "" (none)
 *   .dram_bytes_per_load_byte DRAM bytes gbps_median counts per byte of loads in flight, for the
 *                             Little's-law model; omitted: NAN (the model does not apply)
 *   .requests                 what one warp waits on per trip and per chain (unroll step), for
 *                             the model (OccRequestShape, catalog.h): OCC_REQUESTS_LINES for a
 *                             stream's coalesced load (the 128-byte lines it touches, 32 lanes x
 *                             vec_bytes / 128, adjacent to the trip's other lines),
 *                             OCC_REQUESTS_RANDOM_LINES for a coalesced load at a random line
 *                             per chain step (a warp-wide chase), OCC_REQUESTS_LANES for one
 *                             load per lane at random addresses (32 sector requests). The
 *                             model's latency for such a warp is the expected largest of
 *                             (requests per step) x unroll latencies (loaded_model.h), for a
 *                             stream's adjacent lines only the run's measured share of that
 *                             spread (occ_curve_trip_spread). Omitted: OCC_REQUESTS_NONE
 *                             (width 1)
 *   .curve_traffic            the loaded-latency curve its rows are predicted from
 *                             and whose roof they are predicted against (OccCurveTraffic,
 *                             loaded_model.h; model.h occ_model_row_roof): READ for read-only
 *                             streams, COPY for read + write streams, GATHER for 128-byte lines
 *                             at random addresses, SECTOR for 32-byte sectors at random
 *                             addresses; omitted: OCC_CURVE_READ (read only where the model
 *                             applies)
 *   .size_l2_multiple         default buffer/footprint of a run, in L2 sizes; a family that sets
 *                             it takes "size"; omitted: 0 (no --size)
 *   .size_floor_gib           ... raised to this many GiB where free memory allows (a quarter of
 *                             it), so that one launch lasts long against its ramp and tail;
 *                             omitted: 0 (not raised)
 * tests/unit/test_family_table.c checks every entry: its ops, options, default size, and each of
 * its variants' resource rows and SASS promise.
 * Adding a family: its variants in kernels/variants.h, one .cu, harness/families/family_<id>.c,
 * one entry here. */
#ifndef OCC_FAMILY_TABLE_H
#define OCC_FAMILY_TABLE_H

#define OCC_FAMILY_TABLE(X)                                                                        \
    X(copy, .kernel = "copy", .mode = "stream", .default_mode = 1, .shape = OCC_SHAPE_OCCUPANCY,   \
      .options = "unroll,vec,occ,block,lever,carveout,schedule,size,waves",                        \
      .dram_bytes_per_load_byte = 2.0, .requests = OCC_REQUESTS_LINES,                             \
      .curve_traffic = OCC_CURVE_COPY, .size_l2_multiple = 8, .size_floor_gib = 4)                 \
    X(reduce, .kernel = "reduce", .mode = "stream", .default_mode = 1,                             \
      .shape = OCC_SHAPE_OCCUPANCY,                                                                \
      .options = "unroll,vec,occ,block,lever,carveout,schedule,size,waves",                        \
      .dram_bytes_per_load_byte = 1.0, .requests = OCC_REQUESTS_LINES,                             \
      .curve_traffic = OCC_CURVE_READ, .size_l2_multiple = 8, .size_floor_gib = 4)                 \
    X(chase_warp, .kernel = "chase", .mode = "warp", .default_mode = 1,                            \
      .shape = OCC_SHAPE_OCCUPANCY, .options = "unroll,occ,block,lever,carveout,size",             \
      .dram_bytes_per_load_byte = 1.0, .requests = OCC_REQUESTS_RANDOM_LINES,                      \
      .curve_traffic = OCC_CURVE_GATHER, .size_l2_multiple = 8)                                    \
    X(chase_thread, .kernel = "chase", .mode = "thread", .shape = OCC_SHAPE_OCCUPANCY,             \
      .options = "unroll,occ,block,lever,carveout,size", .dram_bytes_per_load_byte = 1.0,          \
      .requests = OCC_REQUESTS_LANES, .curve_traffic = OCC_CURVE_SECTOR,                           \
      .size_l2_multiple = 16)                                                                      \
    X(ladder, .kernel = "chase", .mode = "latency", .shape = OCC_SHAPE_FOOTPRINT,                  \
      .options = "footprint,stride,cold,chain,index-bytes")                                        \
    X(loaded, .kernel = "chase", .mode = "loaded", .shape = OCC_SHAPE_LEVELS)                      \
    X(fma, .kernel = "fma", .mode = "chain", .default_mode = 1, .shape = OCC_SHAPE_OCCUPANCY,      \
      .options = "unroll,vec,occ,block,lever,carveout")                                            \
    X(mixed, .kernel = "mixed", .mode = "stream", .default_mode = 1,                               \
      .shape = OCC_SHAPE_OCCUPANCY,                                                                \
      .options = "fmas,occ,block,lever,carveout,schedule,size,waves", .size_l2_multiple = 8,       \
      .size_floor_gib = 4)                                                                         \
    X(smem_chase, .kernel = "smem", .mode = "chase", .default_mode = 1,                            \
      .shape = OCC_SHAPE_OCCUPANCY, .options = "unroll,occ,block,lever,carveout")                  \
    X(smem_stream, .kernel = "smem", .mode = "stream", .shape = OCC_SHAPE_OCCUPANCY,               \
      .options = "unroll,vec,occ,block,lever,carveout")                                            \
    X(smem_rw, .kernel = "smem", .mode = "rw", .shape = OCC_SHAPE_OCCUPANCY,                       \
      .options = "unroll,vec,occ,block,lever,carveout")                                            \
    X(mma_f16, .kernel = "mma", .mode = "f16", .default_mode = 1, .shape = OCC_SHAPE_OCCUPANCY,    \
      .options = "unroll,occ,block,lever,carveout")                                                \
    X(mma_bf16, .kernel = "mma", .mode = "bf16", .shape = OCC_SHAPE_OCCUPANCY,                     \
      .options = "unroll,occ,block,lever,carveout")                                                \
    X(mma_tf32, .kernel = "mma", .mode = "tf32", .shape = OCC_SHAPE_OCCUPANCY,                     \
      .options = "unroll,occ,block,lever,carveout")                                                \
    X(mma_f64, .kernel = "mma", .mode = "f64", .shape = OCC_SHAPE_OCCUPANCY,                       \
      .options = "unroll,occ,block,lever,carveout")

#endif
