/* kernels/kernel_resources.h: per-kernel resources recorded at build time (see
 * gen_resources.sh), so that a dry run can plan for an arch without a GPU. */
#ifndef OCC_KERNEL_RESOURCES_H
#define OCC_KERNEL_RESOURCES_H

typedef struct OccKernelResources {
    const char *variant;          /* variant name: <family>_u<U>_v<V>[_lbfull] or
                                     chase_<mode>_k<K>, e.g. "reduce_u4_v16_lbfull" */
    const char *arch;             /* SASS target, e.g. "sm_90" */
    int regs_per_thread;          /* registers per thread */
    int stack_bytes_per_thread;   /* stack frame per thread, spills included */
    int static_smem_bytes;        /* shared memory as cuobjdump reports it (static + reserved) */
} OccKernelResources;

/* The table of every occsweep kernel x compiled arch, and its length. */
extern const OccKernelResources occ_kernel_resources[];
extern const int occ_kernel_resources_count;

#endif
