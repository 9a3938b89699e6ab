/* SPDX-License-Identifier: Apache-2.0 */
/* harness/core/catalog.c: the families' descriptors (kernels/families.def), expanded into arrays:
 * the descriptors' families are read-only; the variants are resolved on first use, and the
 * families and variants a plugin registers are appended at run time. */
#include "catalog.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "arch.h"
#include "families.def"

/* The families' catalog indices by entry id (OCC_FAMILY_ID_chase_warp, ...), in registry order. */
#define ID(id_, ...) OCC_FAMILY_ID_##id_,
#define OCC_FAMILY(F) OCC_##F##_MODES(ID)
enum {
#include "families.def"
    N_FAMILIES
};
#undef OCC_FAMILY
#undef ID
_Static_assert((int)N_FAMILIES <= (int)OCC_MAX_FAMILIES, "OccOptions.families holds at most 32 families");

/* An entry is the values of the fields it may leave out (catalog.h), then its own initializers,
 * which override them (C11 6.7.9: the last initializer of a member wins); that override is what
 * -Woverride-init (in -Wextra) warns about, so it is off for the table alone. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
#define FAMILY(id_, ...) {.id = #id_, .options = "", .dram_bytes_per_load_byte = NAN, __VA_ARGS__},
#define OCC_FAMILY(F) OCC_##F##_MODES(FAMILY)
static const OccFamilyInfo families[] = {
#include "families.def"
};
#undef OCC_FAMILY
#undef FAMILY
#pragma GCC diagnostic pop

/* The descriptors' variant lists as uniform entries, in registry order; natural, capped and slot
 * are resolved on first use. A descriptor's entry is OCC_CATALOG_ENTRY(id, name, U, V, A, cap,
 * own, peak, work), or OCC_CATALOG_ENTRY_BLOCK(block, id, ...) for a kernel written for one block
 * size (kernels/families/README.md); a capped twin follows its natural variant. */
typedef struct RawVariant {
    int family;
    const char *name;
    int unroll, vec_bytes, fma_per_element, reg_cap, own_dyn_smem_bytes;
    OccArchRate peak;
    double work_per_op;
    int block_threads;
} RawVariant;
#define RAW_(block_, id_, name_, u_, v_, a_, cap_, own_, peak_, work_)                             \
    {OCC_FAMILY_ID_##id_, name_, u_, v_, a_, cap_, own_, peak_, work_, block_},
/* One level more, so that an id given as a macro (smem.h's OCC_SMEM_MODE_read) is expanded. */
#define OCC_CATALOG_ENTRY(id_, ...) RAW_(0, id_, __VA_ARGS__)
#define OCC_CATALOG_ENTRY_BLOCK(block_, id_, ...) RAW_(block_, id_, __VA_ARGS__)
#define OCC_FAMILY(F) OCC_##F##_CATALOG
static const RawVariant raw[] = {
#include "families.def"
};
#undef OCC_FAMILY
#undef OCC_CATALOG_ENTRY
#undef OCC_CATALOG_ENTRY_BLOCK
#undef RAW_
#define N_VARIANTS ((int)(sizeof raw / sizeof raw[0]))

/* The mutable part of the catalog, file statics on purpose: there is one catalog per process,
 * read by every module through the functions below. It changes only while the process is still
 * single-threaded (occsweep starts no thread; its workers are processes): the variants are
 * resolved on first use, and a plugin's family is added (occ_catalog_add_family) before the
 * options are parsed; every later use only reads. */
static OccVariantInfo variants[N_VARIANTS];
static int resolved;

/* Families and variants registered at run time (occ_catalog_add_family), after the table's. */
static OccFamilyInfo added_families[OCC_MAX_FAMILIES - N_FAMILIES];
static OccVariantInfo added_variants[OCC_MAX_ADDED_VARIANTS];
static int n_added_families, n_added_variants;

static int raw_index(const char *name)
{
    for (int i = 0; i < N_VARIANTS; i++)
        if (strcmp(raw[i].name, name) == 0) return i;
    return -1;
}

/* The first catalog family of descriptor entry f's descriptor: the families of one kernel are
 * adjacent in registry order. */
static int first_of_kernel(int f)
{
    while (f > 0 && strcmp(families[f - 1].kernel, families[f].kernel) == 0) f--;
    return f;
}

/* Fills variants[] from raw[] on the first call (see the statics above). A variant's slot counts
 * from the first variant of its kernel's descriptor; a capped twin's natural variant is the last
 * uncapped one before it. */
static void resolve(void)
{
    if (resolved) return;
    int natural = -1, slot = 0;
    for (int i = 0; i < N_VARIANTS; i++) {
        const RawVariant *r = &raw[i];
        const OccFamilyInfo *f = &families[r->family];
        if (i == 0 || first_of_kernel(raw[i - 1].family) != first_of_kernel(r->family)) slot = 0;
        if (!r->reg_cap) natural = i;
        variants[i] = (OccVariantInfo){.name = r->name, .kernel = f->kernel, .mode = f->mode,
                                       .family = r->family, .slot = slot++,
                                       .unroll = r->unroll, .vec_bytes = r->vec_bytes,
                                       .fma_per_element = r->fma_per_element,
                                       .reg_cap = r->reg_cap, .natural = natural,
                                       .own_dyn_smem_bytes = r->own_dyn_smem_bytes,
                                       .peak = r->peak, .work_per_op = r->work_per_op,
                                       .block_threads = r->block_threads};
    }
    for (int i = 0; i < N_VARIANTS; i++) {
        OccVariantInfo *nat = &variants[variants[i].natural];
        if (variants[i].reg_cap && nat->n_capped < OCC_MAX_REG_CAPS)
            nat->capped[nat->n_capped++] = i;
    }
    resolved = 1;
}

int occ_family_count(void) { return N_FAMILIES + n_added_families; }

const OccFamilyInfo *occ_family_at(int i)
{
    if (i >= 0 && i < N_FAMILIES) return &families[i];
    return i >= N_FAMILIES && i < occ_family_count() ? &added_families[i - N_FAMILIES] : NULL;
}

int occ_family_find(const char *kernel, const char *mode)
{
    for (int i = 0; kernel && i < occ_family_count(); i++) {
        const OccFamilyInfo *f = occ_family_at(i);
        if (strcmp(f->kernel, kernel) == 0 &&
            (mode ? strcmp(f->mode, mode) == 0 : f->default_mode))
            return i;
    }
    return -1;
}

int occ_family_is_levels(const OccFamilyInfo *f)
{
    return f != NULL && f->shape == OCC_SHAPE_LEVELS;
}

const char *occ_family_arch_skip(const OccFamilyInfo *f, int cc_major, int cc_minor, char *buf,
                                 size_t len)
{
    const int cc = 10 * cc_major + cc_minor;
    const char *what = f->instruction ? f->instruction : f->kernel;
    if (f->cc_min > 0 && f->cc_max == f->cc_min && cc != f->cc_min)
        snprintf(buf, len, "%s runs on sm_%d only; the arch is sm_%d", what, f->cc_min, cc);
    else if (f->cc_min > 0 && cc < f->cc_min)
        snprintf(buf, len, "%s needs sm_%d or newer; the arch is sm_%d", what, f->cc_min, cc);
    else if (f->cc_max > 0 && cc > f->cc_max)
        snprintf(buf, len, "%s runs on sm_%d and older only; the arch is sm_%d", what,
                 f->cc_max, cc);
    else
        return NULL;
    return buf;
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
    /* Built on first use per family and kept: callers hold the pointer (one catalog, above). */
    static char names[OCC_MAX_FAMILIES][48];
    const OccFamilyInfo *fi = occ_family_at(f);
    if (!fi) return NULL;
    if (!names[f][0]) snprintf(names[f], sizeof names[f], "%s_%s", fi->kernel, fi->mode);
    return names[f];
}

long long occ_family_default_bytes(const OccFamilyInfo *f, long long l2_bytes,
                                   long long free_bytes)
{
    const long long base = f->size_l2_multiple * l2_bytes;
    const long long floor = (long long)f->size_floor_gib << 30;
    const long long room = free_bytes / 4;
    const long long raised = floor < room ? floor : room;
    return raised > base ? raised : base;
}

int occ_variant_count(void) { return N_VARIANTS + n_added_variants; }

const OccVariantInfo *occ_variant_at(int i)
{
    resolve();
    if (i >= 0 && i < N_VARIANTS) return &variants[i];
    return i >= N_VARIANTS && i < occ_variant_count() ? &added_variants[i - N_VARIANTS] : NULL;
}

int occ_variant_find(const char *name)
{
    if (!name) return -1;
    const int i = raw_index(name);
    if (i >= 0) return i;
    for (int a = 0; a < n_added_variants; a++)
        if (strcmp(added_variants[a].name, name) == 0) return N_VARIANTS + a;
    return -1;
}

/* 1 when s is a non-empty word of [A-Za-z0-9_] (safe in CSV cells, file names and NVTX). */
static int is_word(const char *s)
{
    static const char word[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";
    return s && *s && strspn(s, word) == strlen(s);
}

int occ_catalog_add_family(const OccFamilyInfo *f, const OccVariantInfo *v, int n, char *err,
                           size_t err_len)
{
    if (occ_family_count() >= OCC_MAX_FAMILIES || n_added_variants + n > OCC_MAX_ADDED_VARIANTS) {
        snprintf(err, err_len, "%s: the catalog holds at most %d families and %d added variants",
                 f->kernel, OCC_MAX_FAMILIES, OCC_MAX_ADDED_VARIANTS);
        return -1;
    }
    if (!is_word(f->kernel) || !is_word(f->mode) || n < 1) {
        snprintf(err, err_len, "kernel name '%s': want letters, digits or '_' and 1..%d variants",
                 f->kernel ? f->kernel : "(null)", OCC_MAX_ADDED_VARIANTS);
        return -1;
    }
    for (int i = 0; i < occ_family_count(); i++)
        if (strcmp(occ_family_at(i)->kernel, f->kernel) == 0) {
            snprintf(err, err_len, "kernel name '%s' is already in the catalog", f->kernel);
            return -1;
        }
    for (int i = 0; i < n; i++) {
        int twice = 0;
        for (int j = 0; j < i; j++) twice |= strcmp(v[j].name, v[i].name) == 0;
        if (!is_word(v[i].name) || twice || occ_variant_find(v[i].name) >= 0) {
            snprintf(err, err_len, "%s: variant name '%s' is %s", f->kernel,
                     v[i].name ? v[i].name : "(null)",
                     is_word(v[i].name) ? "already in the catalog" : "not letters, digits or '_'");
            return -1;
        }
    }
    const int fam = occ_family_count();
    added_families[n_added_families++] = *f;
    for (int i = 0; i < n; i++) {
        OccVariantInfo *a = &added_variants[n_added_variants];
        *a = v[i];
        a->kernel = f->kernel;
        a->mode = f->mode;
        a->family = fam;
        a->reg_cap = 0;
        a->natural = occ_variant_count();
        a->n_capped = 0;
        a->slot = i;
        n_added_variants++;
    }
    return fam;
}

int occ_family_axis_values(int f, char axis, int *out, int max)
{
    int n = 0;
    resolve();
    /* Insertion into a sorted, distinct list; values beyond max are counted, not stored. */
    int vals[64];
    for (int i = 0; i < occ_variant_count(); i++) {
        const OccVariantInfo *vi = occ_variant_at(i);
        if (vi->family != f) continue;
        int v = axis == 'u'   ? vi->unroll
                : axis == 'a' ? vi->fma_per_element
                              : vi->vec_bytes,
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
    for (int i = 0; i < occ_variant_count(); i++)
        if (occ_variant_at(i)->family == f && occ_variant_at(i)->reg_cap) return 1;
    return 0;
}
