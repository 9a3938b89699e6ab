/* SPDX-License-Identifier: Apache-2.0 */
/* harness/families/family_chase.h: what the chase throughput families export beyond their
 * OccFamilyOps. */
#ifndef OCC_FAMILY_CHASE_H
#define OCC_FAMILY_CHASE_H

#include "api.h"

/* The launcher of the chase variant of that name (catalog), or NULL: for the GPU tests. */
OccChaseLaunchFn occ_chase_launcher(const char *name);

#endif
