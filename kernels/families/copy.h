/* SPDX-License-Identifier: Apache-2.0 */
/* kernels/families/copy.h: the copy family's descriptor (kernels/copy.cu,
 * harness/families/family_copy.c): out = in over the run's stream buffers, U independent V-byte
 * loads per thread per trip before the U stores; one launch moves 2 x the buffer. The fields and
 * the entry shapes are documented in kernels/families/README.md. */
#ifndef OCC_FAMILIES_COPY_H
#define OCC_FAMILIES_COPY_H

#include "variants.h"

/* The SASS audit (tests/build/test_sass_audit.py reads these lines): a variant whose name
 * matches PATTERN keeps group 1 of it in loads in flight (AXIS U or K), or issues no load (AXIS
 * loads).
 * SASS promise: ^copy_u(\d+)_v\d+(?:_r\d+)?$ U */
#define OCC_COPY_MODES(M)                                                                          \
    M(copy, .kernel = "copy", .mode = "stream", .default_mode = 1, .shape = OCC_SHAPE_OCCUPANCY,   \
      .options = "unroll,vec,occ,block,lever,carveout,schedule,size,waves",                        \
      .dram_bytes_per_load_byte = 2.0, .requests = OCC_REQUESTS_LINES,                             \
      .curve_traffic = OCC_CURVE_COPY, .size_l2_multiple = 8, .size_floor_gib = 4,                 \
      .launch_ms = 3.2)

/* X(fam, U, V, CAP, SUFFIX): the stream ladder (variants.h). */
#define OCC_COPY_VARIANTS(X) OCC_STREAM_VARIANTS(X, copy)
#define OCC_COPY_CATALOG OCC_COPY_VARIANTS(OCC_STREAM_CATALOG)

#endif
/* The registry hook (kernels/families.def). */
#ifdef OCC_FAMILY
OCC_FAMILY(COPY)
#endif
