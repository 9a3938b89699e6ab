/* SPDX-License-Identifier: Apache-2.0 */
/* kernels/kernel_resources.h: per-kernel resources recorded at build time (see
 * gen_resources.sh), so that a dry run can plan for an arch without a GPU, and the ILP the
 * machine code really has (audit_sass.py). */
#ifndef OCC_KERNEL_RESOURCES_H
#define OCC_KERNEL_RESOURCES_H

typedef struct OccKernelResources {
    const char *variant;          /* variant name: <family>_u<U>_v<V>[_r<cap>] or
                                     chase_<mode>_k<K>, e.g. "reduce_u4_v16_r32"; or
                                     chase_latency_i4 / _i8, the latency ladder's kernel
                                     (4- or 8-byte indices), which is no sweep variant */
    const char *arch;             /* SASS target, e.g. "sm_90" */
    int regs_per_thread;          /* registers per thread */
    int stack_bytes_per_thread;   /* stack frame per thread, spills included */
    int static_smem_bytes;        /* shared memory as cuobjdump reports it (static + reserved) */
    int loads_in_flight_sass;     /* global loads the steady-state loop issues before the first
                                     use of one (audit_sass.py; the name promises U or K);
                                     0 = no loop holding a global load found */
} OccKernelResources;

/* The table of every occsweep kernel x compiled arch, and its length. */
extern const OccKernelResources occ_kernel_resources[];
extern const int occ_kernel_resources_count;

#endif
