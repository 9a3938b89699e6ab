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

enum { N_TABLE = sizeof ops / sizeof ops[0] };

/* The ops of families registered at run time (a plugin's), by catalog index. */
static const OccFamilyOps *added[OCC_MAX_FAMILIES];

const OccFamilyOps *occ_family_ops(int f)
{
    if (f >= 0 && f < N_TABLE) return ops[f];
    return f >= N_TABLE && f < OCC_MAX_FAMILIES ? added[f] : NULL;
}

void occ_family_ops_register(int f, const OccFamilyOps *family_ops)
{
    if (f >= N_TABLE && f < OCC_MAX_FAMILIES) added[f] = family_ops;
}
