/* harness/registry.c: the variant table, generated from the one list in kernels/variants.h. */
#include "registry.h"

#include <string.h>

#define ENTRY(fam, u, v, lb, sfx)                                                                  \
    {.info = {.name = #fam "_u" #u "_v" #v #sfx,                                                   \
              .kernel = #fam,                                                                      \
              .mode = "stream",                                                                    \
              .unroll = u,                                                                         \
              .vec_bytes = v,                                                                      \
              .reg_capped = lb},                                                                \
     .launch = occ_launch_##fam##_u##u##_v##v##sfx,                                                \
     .kernel = occ_kernel_##fam##_u##u##_v##v##sfx},
#define CHASE_ENTRY(m, k)                                                                          \
    {.info = {.name = "chase_" #m "_k" #k,                                                         \
              .kernel = "chase",                                                                   \
              .mode = #m,                                                                          \
              .unroll = k,                                                                         \
              .vec_bytes = 4,                                                                      \
              .reg_capped = 0},                                                                    \
     .launch_chase = occ_launch_chase_##m##_k##k,                                                  \
     .kernel = occ_kernel_chase_##m##_k##k},
static const OccVariant variants[] = {OCC_COPY_VARIANTS(ENTRY) OCC_REDUCE_VARIANTS(ENTRY)
                                          OCC_CHASE_VARIANTS(CHASE_ENTRY)};
#undef ENTRY
#undef CHASE_ENTRY

int occ_registry_count(void) { return (int)(sizeof variants / sizeof variants[0]); }

const OccVariant *occ_registry_at(int i)
{
    return i >= 0 && i < occ_registry_count() ? &variants[i] : NULL;
}

const OccVariant *occ_registry_find(const char *name, int *index)
{
    for (int i = 0; i < occ_registry_count(); i++) {
        if (strcmp(variants[i].info.name, name) == 0) {
            if (index) *index = i;
            return &variants[i];
        }
    }
    return NULL;
}

void occ_registry_infos(OccVariantInfo *infos)
{
    for (int i = 0; i < occ_registry_count(); i++) infos[i] = variants[i].info;
}
