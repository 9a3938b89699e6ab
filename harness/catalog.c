/* SPDX-License-Identifier: Apache-2.0 */
/* harness/catalog.c: the family table and the variant list, expanded into read-only arrays. */
#include "catalog.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "family_table.h"
#include "variants.h"

#define FAMILY(id_, kernel_, mode_, def_, shape_, opts_, traffic_, size_, floor_, note_)           \
    {.id = #id_, .kernel = kernel_, .mode = mode_, .default_mode = def_, .shape = shape_,          \
     .options = opts_, .dram_bytes_per_load_byte = traffic_, .size_l2_multiple = size_,           \
     .size_floor_gib = floor_, .bound_note = note_},
static const OccFamilyInfo families[] = {OCC_FAMILY_TABLE(FAMILY)};
#undef FAMILY
#define N_FAMILIES ((int)(sizeof families / sizeof families[0]))
_Static_assert(N_FAMILIES <= OCC_MAX_FAMILIES, "OccOptions.families holds at most 32 families");

/* The raw list; family, natural and capped are resolved on first use. */
typedef struct RawVariant {
    const char *kernel, *mode, *name;
    int unroll, vec_bytes, fma_per_element, reg_cap;
    const char *natural;
} RawVariant;
#define OCC_CATALOG_ENTRY(kernel_, mode_, name_, u_, v_, a_, lb_, natural_)                        \
    {kernel_, mode_, name_, u_, v_, a_, lb_, natural_},
static const RawVariant raw[] = {OCC_CATALOG};
#undef OCC_CATALOG_ENTRY
#define N_VARIANTS ((int)(sizeof raw / sizeof raw[0]))

static OccVariantInfo variants[N_VARIANTS];
static int resolved;

static int raw_index(const char *name)
{
    for (int i = 0; i < N_VARIANTS; i++)
        if (strcmp(raw[i].name, name) == 0) return i;
    return -1;
}

/* Not thread-safe on the first call; every caller is single-threaded. */
static void resolve(void)
{
    if (resolved) return;
    for (int i = 0; i < N_VARIANTS; i++) {
        const RawVariant *r = &raw[i];
        variants[i] = (OccVariantInfo){.name = r->name, .kernel = r->kernel, .mode = r->mode,
                                       .family = occ_family_find(r->kernel, r->mode),
                                       .unroll = r->unroll, .vec_bytes = r->vec_bytes,
                                       .fma_per_element = r->fma_per_element,
                                       .reg_cap = r->reg_cap,
                                       .natural = raw_index(r->natural)};
    }
    for (int i = 0; i < N_VARIANTS; i++) {
        OccVariantInfo *nat = variants[i].natural >= 0 ? &variants[variants[i].natural] : NULL;
        if (variants[i].reg_cap && nat && nat->n_capped < OCC_MAX_REG_CAPS)
            nat->capped[nat->n_capped++] = i;
    }
    resolved = 1;
}

int occ_family_count(void) { return N_FAMILIES; }

const OccFamilyInfo *occ_family_at(int i) { return i >= 0 && i < N_FAMILIES ? &families[i] : NULL; }

int occ_family_find(const char *kernel, const char *mode)
{
    for (int i = 0; kernel && i < N_FAMILIES; i++)
        if (strcmp(families[i].kernel, kernel) == 0 &&
            (mode ? strcmp(families[i].mode, mode) == 0 : families[i].default_mode))
            return i;
    return -1;
}

int occ_family_takes(const OccFamilyInfo *f, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = f->options; *p;) {
        size_t n = strcspn(p, ",");
        if (n == len && memcmp(p, name, len) == 0) return 1;
        p += n + (p[n] == ',');
    }
    return 0;
}

const char *occ_family_variant_name(int f)
{
    static char names[OCC_MAX_FAMILIES][48];
    if (f < 0 || f >= N_FAMILIES) return NULL;
    if (!names[f][0]) snprintf(names[f], sizeof names[f], "%s_%s", families[f].kernel, families[f].mode);
    return names[f];
}

long long occ_family_default_bytes(const OccFamilyInfo *f, long long l2_bytes, long long free_bytes)
{
    const long long base = f->size_l2_multiple * l2_bytes;
    const long long floor = (long long)f->size_floor_gib << 30;
    const long long room = free_bytes / 4;
    const long long raised = floor < room ? floor : room;
    return raised > base ? raised : base;
}

int occ_variant_count(void) { return N_VARIANTS; }

const OccVariantInfo *occ_variant_at(int i)
{
    resolve();
    return i >= 0 && i < N_VARIANTS ? &variants[i] : NULL;
}

int occ_variant_find(const char *name) { return name ? raw_index(name) : -1; }

int occ_family_axis_values(int f, char axis, int *out, int max)
{
    int n = 0;
    resolve();
    /* Insertion into a sorted, distinct list; values beyond max are counted, not stored. */
    int vals[64];
    for (int i = 0; i < N_VARIANTS; i++) {
        if (variants[i].family != f) continue;
        int v = axis == 'u'   ? variants[i].unroll
                : axis == 'a' ? variants[i].fma_per_element
                              : variants[i].vec_bytes,
            at = 0;
        while (at < n && vals[at] < v) at++;
        if ((at < n && vals[at] == v) || n == 64) continue;
        memmove(&vals[at + 1], &vals[at], (size_t)(n - at) * sizeof vals[0]);
        vals[at] = v;
        n++;
    }
    for (int i = 0; i < n && i < max; i++) out[i] = vals[i];
    return n;
}

int occ_family_has_capped(int f)
{
    resolve();
    for (int i = 0; i < N_VARIANTS; i++)
        if (variants[i].family == f && variants[i].reg_cap) return 1;
    return 0;
}
