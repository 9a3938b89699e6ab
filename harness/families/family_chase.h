/* SPDX-License-Identifier: Apache-2.0 */
/* harness/families/family_chase.h: what the chase throughput families export beyond their
 * OccFamilyOps. */
#ifndef OCC_FAMILY_CHASE_H
#define OCC_FAMILY_CHASE_H

#include "api.h"
#include "variant.h"

/* The launcher of catalog variant v, or NULL when v is not a chase throughput variant: for the
 * GPU tests. */
OccChaseLaunchFn occ_chase_launcher(const OccVariantInfo *v);

#endif
