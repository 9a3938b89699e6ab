/* SPDX-License-Identifier: Apache-2.0 */
/* harness/core/catalog.h: what the pure side knows of every kernel family and compiled variant:
 * the family table (family_table.h) and the variant list (kernels/variants.h), plus the family a
 * plugin registers at run time. No CUDA header: options, planner, resume, model and plots-side
 * tools read it on machines without a GPU. */
#ifndef OCC_CATALOG_H
#define OCC_CATALOG_H

#include <stddef.h>

#include "variant.h"

/* How a family's points are laid out. */
typedef enum OccFamilyShape {
    OCC_SHAPE_OCCUPANCY, /* variants x occupancy levels (x levers): a sweep */
    OCC_SHAPE_FOOTPRINT, /* one fixed kernel over a list of footprints: an experiment */
    OCC_SHAPE_LEVELS,    /* one fixed experiment over its own list of load levels
                            (loaded_levels.h), planned before every other family: the model
                            of the sweeps after it is built from its rows */
} OccFamilyShape;

/* Most families the table may hold (OccOptions.families is a bit set of them). */
enum { OCC_MAX_FAMILIES = 32 };

/* What one warp's load of one chain step (unroll step) waits on, for the model's width (the
 * family table's `requests`). */
typedef enum OccRequestShape {
    OCC_REQUESTS_NONE = 0,  /* no bandwidth model, or nothing known: width 1 */
    OCC_REQUESTS_LINES = 1, /* coalesced loads of a stream: the 128-byte lines of 32 lanes x
                               vec_bytes, at least 1, adjacent to the trip's other lines */
    OCC_REQUESTS_LANES = 2, /* one request per lane at a random address: 32 */
    OCC_REQUESTS_RANDOM_LINES = 3 /* coalesced, as LINES, but each chain step's lines at a random
                                     address, independent of the trip's others */
} OccRequestShape;

/* The background traffics a curve is measured under (the values of OccLoadedTraffic,
 * kernels/api.h), one of which each family's rows are predicted from (family_table.h). */
typedef enum OccCurveTraffic {
    OCC_CURVE_READ = 0,  /* contiguous read-only streams (reduce) */
    OCC_CURVE_COPY = 1,  /* contiguous read + write streams (copy) */
    OCC_CURVE_GATHER = 2, /* 128-byte lines at random addresses (the warp chase) */
    OCC_CURVE_SECTOR = 3  /* 32-byte sectors at random addresses (the thread chase) */
} OccCurveTraffic;
#define OCC_CURVE_TRAFFICS 4

/* One family of the table; the fields, and what one left out of an entry holds, are documented
 * in family_table.h. */
typedef struct OccFamilyInfo {
    const char *id;                  /* C identifier, e.g. "chase_warp" */
    const char *kernel;              /* --kernel name, CSV kernel */
    const char *mode;                /* --mode name, CSV mode */
    int default_mode;                /* 1: selected by --kernel <kernel> without --mode */
    OccFamilyShape shape;            /* sweep or footprint experiment */
    const char *options;             /* comma list of the scoped options it takes */
    double dram_bytes_per_load_byte; /* model traffic factor; NaN: no bandwidth model */
    OccRequestShape requests;        /* model: what a warp waits on per chain step and trip */
    int curve_traffic;               /* model: the OccCurveTraffic its rows are predicted from */
    int size_l2_multiple;            /* default size in L2 sizes; 0: takes no --size */
    int size_floor_gib;              /* default raised to this where memory allows; 0: none */
    const char *plugin_path;         /* the shared object a family registered at run time came
                                        from (occ_catalog_add_family); NULL for the table's */
} OccFamilyInfo;

/* Number of families, and family i (NULL when out of range), in table order. */
int occ_family_count(void);
const OccFamilyInfo *occ_family_at(int i);
/* Index of the family of that kernel and mode (mode NULL: the kernel's default mode), or -1. */
int occ_family_find(const char *kernel, const char *mode);
/* 1 when kernel and mode (neither NULL) name a family of shape OCC_SHAPE_LEVELS (the load levels
 * the model's curves are built from), else 0. */
int occ_family_is_levels(const char *kernel, const char *mode);
/* The CSV variant name of footprint-shaped family f's fixed kernel: "<kernel>_<mode>". */
const char *occ_family_variant_name(int f);
/* 1 when family f takes the scoped option `name` (without dashes, e.g. "vec"), else 0. */
int occ_family_takes(const OccFamilyInfo *f, const char *name);

/* The default buffer/footprint of family f, bytes: size_l2_multiple x l2_bytes, raised to
 * size_floor_gib GiB where a quarter of free_bytes allows it (0 when f takes no --size). */
long long occ_family_default_bytes(const OccFamilyInfo *f, long long l2_bytes,
                                   long long free_bytes);

/* Number of compiled variants, and variant i (NULL when out of range), in variants.h order.
 * Every variant's family field indexes the family table. */
int occ_variant_count(void);
const OccVariantInfo *occ_variant_at(int i);
/* Index of the variant of that name, or -1. */
int occ_variant_find(const char *name);

/* The distinct U (axis 'u'), V (axis 'v') or A (axis 'a', FMAs per loaded element) values of
 * family f's variants, ascending, into out[0..max); returns how many there are (which may exceed
 * max: only max are written). */
int occ_family_axis_values(int f, char axis, int *out, int max);
/* Most variants families registered at run time may add, all together. */
enum { OCC_MAX_ADDED_VARIANTS = 64 };

/* Registers one more family (a plugin's: harness/families/plugin_load.c, before the options are
 * parsed) with its variants v[0..n), which get catalog indices occ_variant_count() .. + n - 1 in
 * that order (each variant's family, natural and capped fields are set here: natural,
 * uncapped). *f and the strings it and v point to must outlive the catalog. Returns the new
 * family's index, or
 * -1 with a one-line err: a kernel or variant name already in the catalog, a name with other
 * characters than [A-Za-z0-9_], no variants, or more families or variants than the catalog
 * holds. */
int occ_catalog_add_family(const OccFamilyInfo *f, const OccVariantInfo *v, int n, char *err,
                           size_t err_len);

/* 1 when family f has register-capped variants (the bounds lever applies), else 0. */
int occ_family_has_capped(int f);

#endif
