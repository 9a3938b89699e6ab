/* SPDX-License-Identifier: Apache-2.0 */
/* harness/plan/plan_carveout.h: the run's carveout: how much of the L1/shared SRAM the
 * occupancy points give to shared memory (--carveout), one value for every point of a run so
 * that padding pins each level inside it (pure). */
#ifndef OCC_PLAN_CARVEOUT_H
#define OCC_PLAN_CARVEOUT_H

#include "arch.h"
#include "options_types.h"
#include "variant.h"

/* The carveout of family's occupancy points, bytes of shared memory per SM. For
 * OCC_CARVEOUT_MIN: the smallest step of arch inside which padding can pin every level from 1
 * block per SM to the most blocks of block_threads (warp slots and block limit), with the
 * largest shared memory of a block of the variants in res[] (res[] holds every catalog
 * variant's resources) that own no dynamic shared memory, and of family's variants (family < 0:
 * none) that do (their own dynamic shared memory counts as static: the smem family's tile, a
 * plugin's): so the families that own none share one carveout, which depends on neither --occ
 * nor the selected kernels, and a family with a tile gets a larger one only for itself. The
 * allocation unit decides: 32 blocks of 32 threads on sm_90 need 132 KiB, since in 64 KiB no
 * multiple of 128 bytes puts exactly 31 blocks per SM. For OCC_CARVEOUT_MAX:
 * arch->smem_per_sm_bytes. */
int occ_plan_carveout_bytes(const OccArchLimits *arch, OccCarveout policy, int block_threads,
                            const OccVariantResources *res, int family);

/* The same for a run of several block sizes (block_threads[0..n_blocks)): one carveout holds
 * for every point, so for OCC_CARVEOUT_MIN it is the smallest step in which padding pins every
 * level of every one of them (e.g. on sm_90, 32 and 1024 threads: 132 KiB, what 32 alone
 * needs). */
int occ_plan_run_carveout_bytes(const OccArchLimits *arch, OccCarveout policy,
                                const int *block_threads, int n_blocks,
                                const OccVariantResources *res, int family);

#endif
