/* harness/registry.h: the table of compiled kernel variants, expanded from kernels/variants.h. */
#ifndef OCC_REGISTRY_H
#define OCC_REGISTRY_H

#include "api.h"
#include "variant.h"

/* One compiled variant: its axes, its launcher and its kernel handle. */
typedef struct OccVariant {
    OccVariantInfo info;       /* name and axes */
    OccStreamLaunchFn launch;  /* copy/reduce: enqueues one launch; returns the launch error */
    OccChaseLaunchFn launch_chase; /* chase: the same (exactly one of the two is set) */
    OccKernelHandleFn kernel;  /* the kernel, for cudaFuncGetAttributes and the occupancy API */
} OccVariant;

/* Number of compiled variants, and the i-th (0 <= i < count) in variants.h order. */
int occ_registry_count(void);
const OccVariant *occ_registry_at(int i);
/* The variant of that name, or NULL; its index in *index when index is not NULL. */
const OccVariant *occ_registry_find(const char *name, int *index);
/* Copies every variant's info into infos (occ_registry_count() entries), for the pure planner. */
void occ_registry_infos(OccVariantInfo *infos);

#endif
