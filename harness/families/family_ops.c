/* SPDX-License-Identifier: Apache-2.0 */
/* harness/families/family_ops.c: the GPU side of the registry (kernels/families.def): each
 * family's OccFamilyOps by catalog index, and the families' state allocation. */
#include "family.h"

#include <stdio.h>
#include <stdlib.h>

#include "catalog.h"
#include "families.def"

/* Every mode entry of every descriptor has its ops, occ_family_<id>, in its host file. */
#define DECLARE(id, ...) extern const OccFamilyOps occ_family_##id;
#define OCC_FAMILY(F) OCC_##F##_MODES(DECLARE)
#include "families.def"
#undef OCC_FAMILY
#undef DECLARE
#define ENTRY(id, ...) &occ_family_##id,
#define OCC_FAMILY(F) OCC_##F##_MODES(ENTRY)
static const OccFamilyOps *const ops[] = {
#include "families.def"
};
#undef OCC_FAMILY
#undef ENTRY

enum { N_TABLE = sizeof ops / sizeof ops[0] };

/* The ops of families registered at run time (a plugin's), by catalog index. A file static on
 * purpose: it extends the process-wide catalog (harness/core/catalog.c), is written only while
 * the process is single-threaded (a plugin is loaded before the options are parsed), and the
 * point loop looks ops up by index alone. */
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

void *occ_family_state_new(size_t bytes, const char *family, char *err, size_t err_len)
{
    void *s = calloc(1, bytes);
    if (!s) snprintf(err, err_len, "%s: out of host memory for %zu bytes of state", family, bytes);
    return s;
}
