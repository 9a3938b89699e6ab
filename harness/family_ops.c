/* SPDX-License-Identifier: Apache-2.0 */
/* harness/family_ops.c: the GPU side of the family table (family_table.h). */
#include "family.h"

#include "catalog.h"
#include "family_table.h"

#define DECLARE(id, ...) extern const OccFamilyOps occ_family_##id;
OCC_FAMILY_TABLE(DECLARE)
#undef DECLARE
#define ENTRY(id, ...) &occ_family_##id,
static const OccFamilyOps *const ops[] = {OCC_FAMILY_TABLE(ENTRY)};
#undef ENTRY

const OccFamilyOps *occ_family_ops(int f)
{
    return f >= 0 && f < (int)(sizeof ops / sizeof ops[0]) ? ops[f] : NULL;
}
