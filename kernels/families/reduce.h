/* SPDX-License-Identifier: Apache-2.0 */
/* kernels/families/reduce.h: the reduce family's descriptor (kernels/reduce.cu,
 * harness/families/family_reduce.c): a grid-stride sum with U independent accumulators per thread
 * and V-byte loads; one launch moves the buffer once. The fields and the entry shapes are
 * documented in kernels/families/README.md. */
#ifndef OCC_FAMILIES_REDUCE_H
#define OCC_FAMILIES_REDUCE_H

#include "variants.h"

/* The SASS audit (tests/build/test_sass_audit.py reads these lines): a variant whose name
 * matches PATTERN keeps group 1 of it in loads in flight (AXIS U or K), or issues no load (AXIS
 * loads).
 * SASS promise: ^reduce_u(\d+)_v\d+(?:_r\d+)?$ U */
#define OCC_REDUCE_MODES(M)                                                                        \
    M(reduce, .kernel = "reduce", .mode = "stream", .default_mode = 1,                             \
      .shape = OCC_SHAPE_OCCUPANCY,                                                                \
      .options = "unroll,vec,occ,block,lever,carveout,schedule,size,waves",                        \
      .dram_bytes_per_load_byte = 1.0, .requests = OCC_REQUESTS_LINES,                             \
      .curve_traffic = OCC_CURVE_READ, .size_l2_multiple = 8, .size_floor_gib = 4,                 \
      .launch_ms = 1.8)

/* X(fam, U, V, CAP, SUFFIX): the stream ladder (variants.h). */
#define OCC_REDUCE_VARIANTS(X) OCC_STREAM_VARIANTS(X, reduce)
#define OCC_REDUCE_CATALOG OCC_REDUCE_VARIANTS(OCC_STREAM_CATALOG)

#endif
/* The registry hook (kernels/families.def). */
#ifdef OCC_FAMILY
OCC_FAMILY(REDUCE)
#endif
