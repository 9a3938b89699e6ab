/* SPDX-License-Identifier: Apache-2.0 */
/* harness/cli/options_catalog.c: the options seen through the catalog: takers, compiled values,
 * family and mode names. */
#include "options_catalog.h"

#include "catalog.h"
#include "options_msg.h"

#include <string.h>

int occ_option_first_of_kernel(int f)
{
    for (int g = 0; g < f; g++)
        if (strcmp(occ_family_at(g)->kernel, occ_family_at(f)->kernel) == 0) return 0;
    return 1;
}

unsigned occ_option_kernel_families(int f)
{
    unsigned set = 0;
    for (int g = 0; g < occ_family_count(); g++)
        if (strcmp(occ_family_at(g)->kernel, occ_family_at(f)->kernel) == 0) set |= 1u << g;
    return set;
}

unsigned occ_option_takers(const char *name)
{
    unsigned set = 0;
    for (int f = 0; f < occ_family_count(); f++)
        if (occ_family_takes(occ_family_at(f), name)) set |= 1u << f;
    return set;
}

int occ_option_compiled(const OccOptSpec *s, unsigned families, int *out, int max)
{
    int n = 0, vals[64];
    families &= occ_option_takers(s->name);
    for (int f = 0; f < occ_family_count(); f++) {
        int nv = (families >> f & 1u) ? occ_family_axis_values(f, s->axis, vals, 64) : 0;
        for (int i = 0; i < nv && i < 64; i++) {
            int at = 0;
            while (at < n && out[at] < vals[i])
                at++;
            if ((at < n && out[at] == vals[i]) || n == max) continue;
            memmove(&out[at + 1], &out[at], (size_t)(n - at) * sizeof out[0]);
            out[at] = vals[i];
            n++;
        }
    }
    return n;
}

char *occ_option_family_names(unsigned set, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int f = 0; f < occ_family_count(); f++) {
        unsigned of_kernel = occ_option_kernel_families(f);
        if (!(set >> f & 1u)) continue;
        if ((set & of_kernel) == of_kernel && !occ_option_first_of_kernel(f)) continue;
        if ((set & of_kernel) == of_kernel)
            occ_msg_append(buf, len, &at, "%s%s", at ? ", " : "", occ_family_at(f)->kernel);
        else
            occ_msg_append(buf, len, &at, "%s%s %s", at ? ", " : "", occ_family_at(f)->kernel,
                           occ_family_at(f)->mode);
    }
    return buf;
}

char *occ_option_kernel_modes(const char *kernel, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int f = 0; f < occ_family_count(); f++)
        if (strcmp(occ_family_at(f)->kernel, kernel) == 0)
            occ_msg_append(buf, len, &at, "%s%s", at ? ", " : "", occ_family_at(f)->mode);
    return buf;
}
