/* SPDX-License-Identifier: Apache-2.0 */
/* harness/core/catalog.h: what the pure side knows of every kernel family and compiled variant:
 * the families' descriptors (kernels/families/<family>.h, registered in kernels/families.def), their
 * modes and variant lists in registry order, plus the family a plugin registers at run time. No CUDA header: options, planner, resume, model and plots-side
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
 * kernels/api.h), one of which each family's rows are predicted from (its descriptor,
 * kernels/families/<family>.h). */
typedef enum OccCurveTraffic {
    OCC_CURVE_READ = 0,  /* contiguous read-only streams (reduce) */
    OCC_CURVE_COPY = 1,  /* contiguous read + write streams (copy) */
    OCC_CURVE_GATHER = 2, /* 128-byte lines at random addresses (the warp chase) */
    OCC_CURVE_SECTOR = 3  /* 32-byte sectors at random addresses (the thread chase) */
} OccCurveTraffic;
#define OCC_CURVE_TRAFFICS 4

/* One family of the catalog: one mode of a descriptor's OCC_<NAME>_MODES list, an entry
 * M(id, .field = value, ...) of designated initializers of this struct; a field an entry leaves
 * out holds what its comment says as "omitted". */
typedef struct OccFamilyInfo {
    const char *id;                  /* C identifier, the entry's id (the GPU side's ops are
                                        occ_family_<id>), e.g. "chase_warp" */
    const char *kernel;              /* --kernel name and the CSV `kernel` column (required) */
    const char *mode;                /* --mode name and the CSV `mode` column (required) */
    int default_mode;                /* 1: what --kernel <kernel> runs when --mode is not given
                                        (one family per kernel); omitted: 0 */
    OccFamilyShape shape;            /* OCC_SHAPE_OCCUPANCY, _FOOTPRINT or _LEVELS (the
                                        loaded-latency levels, planned first, also for any
                                        sweep whose model uses them: dram_bytes_per_load_byte
                                        set and no --no-loaded) (required) */
    const char *options;             /* comma list of the scoped options
                                        (harness/cli/options_table.c) it takes; omitted: "" */
    double dram_bytes_per_load_byte; /* DRAM bytes gbps_median counts per byte of loads in
                                        flight, for the Little's-law model; omitted: NaN (the
                                        model does not apply) */
    OccRequestShape requests;        /* what one warp waits on per trip and per chain (unroll
                                        step), for the model: the model's latency for such a
                                        warp is the expected largest of (requests per step) x
                                        unroll latencies (loaded_model.h), for a stream's
                                        adjacent lines only the run's measured share of that
                                        spread (occ_curve_trip_spread); omitted:
                                        OCC_REQUESTS_NONE (width 1) */
    int curve_traffic;               /* the OccCurveTraffic (above) of the
                                        loaded-latency curve its rows are predicted from and
                                        whose roof they are predicted against (model.h
                                        occ_model_row_roof): READ for read-only streams, COPY
                                        for read + write streams, GATHER for 128-byte lines at
                                        random addresses, SECTOR for 32-byte sectors at random
                                        addresses; omitted: OCC_CURVE_READ */
    int size_l2_multiple;            /* default buffer/footprint of a run, in L2 sizes; a family
                                        that sets it takes "size"; omitted: 0 (no --size) */
    int size_floor_gib;              /* ... raised to this many GiB where free memory allows (a
                                        quarter of it), so that one launch lasts long against
                                        its ramp and tail; omitted: 0 (not raised) */
    double launch_ms;                /* one launch at the default options on the H200 the
                                        estimator is calibrated on, ms (a family with a size
                                        floor: at that size; it scales with --size):
                                        harness/plan/plan_estimate.c; omitted: 0 (its guess) */
    int cc_min;                      /* lowest compute capability x 10 whose GPU has the family's
                                        instruction (90: sm_90); omitted: 0 (any) */
    int cc_max;                      /* highest one (90 for sm_90a code, which runs on 9.0
                                        alone); omitted: 0 (no bound) */
    const char *instruction;         /* the instruction cc_min and cc_max are about, named in the
                                        skip reason of an arch outside them; omitted: NULL */
    const char *plugin_path;         /* the shared object a family registered at run time came
                                        from (occ_catalog_add_family); NULL for the table's */
} OccFamilyInfo;

/* Number of families, and family i (NULL when out of range), in table order. */
int occ_family_count(void);
const OccFamilyInfo *occ_family_at(int i);
/* Index of the family of that kernel and mode (mode NULL: the kernel's default mode), or -1. */
int occ_family_find(const char *kernel, const char *mode);
/* 1 when family f (NULL: none) is of shape OCC_SHAPE_LEVELS (the load levels the model's curves
 * are built from), else 0. */
int occ_family_is_levels(const OccFamilyInfo *f);
/* NULL when an arch of compute capability cc_major.cc_minor has family f's instruction (its
 * cc_min and cc_max), else why not, one line in buf (e.g. "cp.async.bulk needs sm_90 or newer;
 * the arch is sm_80", "wgmma.mma_async runs on sm_90 only; the arch is sm_100"). */
const char *occ_family_arch_skip(const OccFamilyInfo *f, int cc_major, int cc_minor, char *buf,
                                 size_t len);
/* The CSV variant name of footprint-shaped family f's fixed kernel: "<kernel>_<mode>". */
const char *occ_family_variant_name(int f);
/* 1 when family f takes the scoped option `name` (without dashes, e.g. "vec"), else 0. */
int occ_family_takes(const OccFamilyInfo *f, const char *name);

/* The default buffer/footprint of family f, bytes: size_l2_multiple x l2_bytes, raised to
 * size_floor_gib GiB where a quarter of free_bytes allows it (0 when f takes no --size). */
long long occ_family_default_bytes(const OccFamilyInfo *f, long long l2_bytes,
                                   long long free_bytes);

/* Number of compiled variants, and variant i (NULL when out of range), in registry order (each
 * descriptor's list in turn). Every variant's family field indexes the family table. */
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
