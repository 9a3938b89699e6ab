/* harness/variant.h: what the sweep plan needs to know about a compiled kernel variant (pure). */
#ifndef OCC_VARIANT_H
#define OCC_VARIANT_H

#ifdef __cplusplus
extern "C" {
#endif

/* The axes of one compiled variant (one entry of kernels/variants.h). */
typedef struct OccVariantInfo {
    const char *name;   /* "<family>_u<U>_v<V>[_lb<K>]": the CSV `variant` value */
    const char *family; /* "copy", "reduce" or "chase" */
    const char *mode;   /* "stream" (copy, reduce); "warp" or "thread" (chase) */
    int unroll;         /* U: independent loads in flight per thread per trip (chase: chains K) */
    int vec_bytes;      /* V: bytes per load instruction per thread */
    int reg_capped;     /* 1: the _lbfull twin, registers capped so 100% occupancy fits; 0: natural */
} OccVariantInfo;

/* A variant's resources as compiled for one GPU (runtime attributes or the build-time table). */
typedef struct OccVariantResources {
    int regs_per_thread;        /* registers per thread */
    int local_bytes_per_thread; /* local memory per thread (spills, stack) */
    int static_smem_bytes;      /* static shared memory per block, reserved part excluded */
} OccVariantResources;

#ifdef __cplusplus
}
#endif

#endif
