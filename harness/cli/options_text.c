/* SPDX-License-Identifier: Apache-2.0 */
/* harness/cli/options_text.c: the accepted values and the default of an option, in words. The
 * catalog-derived ones (compiled list values, kernels, modes, the auto buffer size) are built
 * from the catalog each time, so that --help states what this build parses. */
#include "options_text.h"

#include "catalog.h"
#include "options_catalog.h"
#include "options_msg.h"

#include <limits.h>
#include <stdio.h>

/* The powers of two in lo..hi, when there are at most three ("4 or 8"), else a range. */
static void pow2_accepted(const OccOptSpec *s, char *buf, size_t len, size_t *at)
{
    int n = 0;
    for (long long p = 1; p <= (long long)s->hi; p *= 2)
        n += p >= (long long)s->lo;
    if (n > 3) {
        occ_msg_append(buf, len, at, "a power of two in %.0f..%.0f", s->lo, s->hi);
        return;
    }
    for (long long p = 1, i = 0; p <= (long long)s->hi; p *= 2)
        if (p >= (long long)s->lo)
            occ_msg_append(buf, len, at, "%s%lld", i++ == 0 ? "" : i == n ? " or " : ", ", p);
}

/* Each kernel with its modes, "copy warp|thread, chase warp|latency", appended at *at; with
 * defaults_only, each kernel with its default mode only. */
static void modes_accepted(char *buf, size_t len, size_t *at, int defaults_only)
{
    for (int f = 0; f < occ_family_count(); f++) {
        if (!occ_option_first_of_kernel(f)) continue;
        occ_msg_append(buf, len, at, "%s%s ", *at ? ", " : "", occ_family_at(f)->kernel);
        for (int g = f, n = 0; g < occ_family_count(); g++)
            if ((occ_option_kernel_families(f) >> g & 1u) &&
                (!defaults_only || occ_family_at(g)->default_mode))
                occ_msg_append(buf, len, at, "%s%s", n++ ? "|" : "", occ_family_at(g)->mode);
    }
}

char *occ_option_accepted(const OccOptSpec *s, char *buf, size_t len)
{
    size_t at = 0;
    int vals[OCC_MAX_LIST], n;
    buf[0] = '\0';
    switch (s->kind) {
    case OCC_OPT_FLAG:
        break;
    case OCC_OPT_INT:
        if (s->pow2)
            pow2_accepted(s, buf, len, &at);
        else if (s->hi == INT_MAX)
            occ_msg_append(buf, len, &at, "an integer >= %.0f", s->lo);
        else
            occ_msg_append(buf, len, &at, "%.0f..%.0f", s->lo, s->hi);
        if (s->multiple > 1) occ_msg_append(buf, len, &at, ", a multiple of %d", s->multiple);
        break;
    case OCC_OPT_INT_LIST:
        occ_msg_append(buf, len, &at, "%.0f..%.0f", s->lo, s->hi);
        if (s->multiple > 1) occ_msg_append(buf, len, &at, ", a multiple of %d", s->multiple);
        occ_msg_append(buf, len, &at,
                       "; a list like %.0f,%.0f or a range of powers of two "
                       "like %.0f..%.0f",
                       s->lo * 4, s->lo * 8, s->lo * 4, s->hi);
        break;
    case OCC_OPT_DOUBLE:
        occ_msg_append(buf, len, &at, "a number in (%g, %g]", s->lo, s->hi);
        break;
    case OCC_OPT_SIZE:
        occ_msg_append(buf, len, &at,
                       "a %s byte count with optional suffix K, M, G, "
                       "KiB, MiB or GiB, like 512M", s->zero_ok ? "zero or positive" : "positive");
        break;
    case OCC_OPT_LIST:
        n = occ_option_compiled(s, ~0u, vals, OCC_MAX_LIST);
        for (int i = 0; i < n; i++)
            occ_msg_append(buf, len, &at, "%s%d", i ? ", " : "", vals[i]);
        if (n > 0) occ_msg_append(buf, len, &at, " or a range like %d..%d", vals[0], vals[n - 1]);
        break;
    case OCC_OPT_ENUM:
        for (int i = 0; i < s->n_names; i++)
            occ_msg_append(buf, len, &at, "%s%s", i ? ", " : "", s->names[i]);
        break;
    case OCC_OPT_OCC:
        occ_msg_append(buf, len, &at,
                       "LO..HI, LO..HI:STEP or a list like 25,50,100, percent "
                       "in (0, 100]");
        break;
    case OCC_OPT_FOOTPRINT:
        occ_msg_append(buf, len, &at, "LO..HI of byte sizes like 4K..1G");
        break;
    case OCC_OPT_PATH:
    case OCC_OPT_ARCH:
        occ_msg_append(buf, len, &at, "%s", s->accepted);
        break;
    case OCC_OPT_KERNELS:
        n = 0;
        for (int f = 0; f < occ_family_count(); f++)
            if (occ_option_first_of_kernel(f) && n < OCC_MAX_LIST) vals[n++] = f;
        for (int i = 0; i < n; i++)
            occ_msg_append(buf, len, &at, "%s, ", occ_family_at(vals[i])->kernel);
        occ_msg_append(buf, len, &at, "all");
        if (n > 1)
            occ_msg_append(buf, len, &at, " or a comma list like %s,%s",
                           occ_family_at(vals[0])->kernel, occ_family_at(vals[1])->kernel);
        break;
    case OCC_OPT_MODE:
        modes_accepted(buf, len, &at, 0);
        break;
    case OCC_OPT_DEVICES:
        occ_msg_append(buf, len, &at, "an index >= 0, a list like 0,2 or 0..3, or all");
        break;
    }
    return buf;
}

/* "auto: 8 x the L2 size, at least 4 GiB where memory allows (families), 16 x (others)", from
 * each family's size_l2_multiple and size_floor_gib. */
static void size_default(char *buf, size_t len, size_t *at)
{
    char names[256];
    unsigned done = 0;
    occ_msg_append(buf, len, at, "auto:");
    for (int f = 0, n = 0; f < occ_family_count(); f++) {
        const OccFamilyInfo *fi = occ_family_at(f);
        unsigned same = 0;
        if ((done >> f & 1u) || fi->size_l2_multiple <= 0) continue;
        for (int g = f; g < occ_family_count(); g++)
            if (occ_family_at(g)->size_l2_multiple == fi->size_l2_multiple &&
                occ_family_at(g)->size_floor_gib == fi->size_floor_gib)
                same |= 1u << g;
        done |= same;
        occ_msg_append(buf, len, at, "%s %d x%s", n ? "," : "", fi->size_l2_multiple,
                       n ? "" : " the L2 size");
        if (fi->size_floor_gib > 0)
            occ_msg_append(buf, len, at,
                           ", at least %d GiB where a quarter of the free "
                           "memory allows",
                           fi->size_floor_gib);
        occ_msg_append(buf, len, at, " (%s)", occ_option_family_names(same, names, sizeof names));
        n++;
    }
}

char *occ_option_default(const OccOptSpec *s, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    if (s->default_text != NULL)
        occ_msg_append(buf, len, &at, "%s", s->default_text);
    else if (s->kind == OCC_OPT_LIST)
        occ_msg_append(buf, len, &at, "every compiled value of the selected kernels");
    else if (s->kind == OCC_OPT_SIZE && s->unset_text == NULL)
        size_default(buf, len, &at);
    else if (s->kind == OCC_OPT_MODE)
        modes_accepted(buf, len, &at, 1);
    else if (s->unset_text != NULL)
        occ_msg_append(buf, len, &at, "%s", s->unset_text);
    return buf;
}
