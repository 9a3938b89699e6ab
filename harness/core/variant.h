/* SPDX-License-Identifier: Apache-2.0 */
/* harness/core/variant.h: what the pure side knows about one compiled kernel variant (one entry of
 * a family's descriptor, kernels/families/<family>.h, via the catalog) and its resources. */
#ifndef OCC_VARIANT_H
#define OCC_VARIANT_H

#include "arch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Most register-capped twins one natural variant has (the rungs of the register ladder). */
enum { OCC_MAX_REG_CAPS = 8 };

/* The axes of one compiled variant. */
typedef struct OccVariantInfo {
    const char *name;   /* "copy_u4_v16", "copy_u4_v16_r32", "chase_warp_k4": CSV `variant` */
    const char *kernel; /* family's kernel name, the CSV `kernel` column */
    const char *mode;   /* family's mode, the CSV `mode` column */
    int family;         /* index of its family in the catalog's family table */
    int slot;           /* its position in its descriptor's catalog list (0, 1, ...): the index
                           of its kernel in the host file's launcher table, which is expanded
                           from the same list; a plugin's: its index in the plugin's table */
    int unroll;         /* U: independent loads in flight per thread per trip (chase: chains K;
                           fma: independent FMA chains) */
    int vec_bytes;      /* V: bytes per load instruction per thread (fma: bytes per element,
                           4 fp32, 8 fp64) */
    int fma_per_element; /* A: dependent FMAs per loaded element (mixed); 0 elsewhere */
    int reg_cap;        /* registers per thread of a register-capped twin (_r<N>, __maxnreg__(N));
                           0: natural register count */
    int natural;        /* index of the natural twin (its own index when natural) */
    int n_capped;       /* register-capped twins of a natural variant (0 for a twin) */
    int capped[OCC_MAX_REG_CAPS]; /* their indices, in list order (caps descending) */
    int own_dyn_smem_bytes; /* dynamic shared memory the kernel itself uses per block (a
                           plugin's OccPluginVariant.dyn_smem_bytes; the smem family's tile; 0
                           for the other families):
                           the padding comes on top of it */
    OccArchRate peak;   /* the arch rate its rows are judged against (pct_of_flop_peak, the
                           chain model's % of peak); OCC_RATE_NONE: none */
    double work_per_op; /* work of one operation of the chain model, in the unit of peak (FLOP
                           or bytes: occ_arch_rate_is_bytes): fma 64 FLOP a warp FMA, mma the
                           instruction's FLOP, smem 128 bytes a hop or 32 x V a warp load; 0:
                           the chain model does not apply */
    int block_threads;  /* threads per block the kernel is written for (the async and wgmma
                           families: its warps are a variant axis), which the plan uses instead
                           of --block; 0: any multiple of 32 (the --block list) */
} OccVariantInfo;

/* A variant's resources as compiled for one GPU (runtime attributes or the build-time table). */
typedef struct OccVariantResources {
    int regs_per_thread;        /* registers per thread */
    int local_bytes_per_thread; /* local memory per thread (spills, stack) */
    int static_smem_bytes;      /* static shared memory per block, reserved part excluded */
    int loads_in_flight_sass;   /* global loads the steady-state loop issues before the first use
                                   of a loaded value, audited in the build's SASS for this arch
                                   (kernels/audit_sass.py); 0 when not audited */
} OccVariantResources;

#ifdef __cplusplus
}
#endif

#endif
