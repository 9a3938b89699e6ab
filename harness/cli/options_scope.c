/* SPDX-License-Identifier: Apache-2.0 */
/* harness/cli/options_scope.c: the family selection and the per-family option rules. */
#include "options_scope.h"

#include "catalog.h"
#include "exitcodes.h"
#include "options_catalog.h"
#include "options_msg.h"
#include "options_names.h"
#include "options_table.h"
#include "options_values.h"

#include <stdarg.h>
#include <string.h>

/* Where the messages go, and which options the command line gave. */
typedef struct OccScopeCtx {
    char *err;                /* the message buffer, or NULL */
    size_t err_len;           /* bytes of err */
    unsigned long long given; /* bit i: table option i was on the command line */
} OccScopeCtx;

/* occ_msg_usage into c's message buffer. */
__attribute__((format(printf, 2, 3))) static int usage(const OccScopeCtx *c, const char *fmt, ...)
{
    va_list ap;
    int rc;
    va_start(ap, fmt);
    rc = occ_msg_vusage(c->err, c->err_len, fmt, ap);
    va_end(ap);
    return rc;
}

/* The first option of that kind in the table. */
static const OccOptSpec *spec_of_kind(OccOptKind kind)
{
    for (int i = 0; i < occ_option_count(); i++)
        if (occ_option_at(i)->kind == kind) return occ_option_at(i);
    return NULL;
}

/* o->families from the kernel list (or the table's unset list) and o->mode_arg. */
static int select_families(const OccScopeCtx *c, OccOptions *o)
{
    if (o->plugin_path && !o->kernel_arg) {
        unsigned plugins = 0;
        for (int f = 0; f < occ_family_count(); f++)
            if (occ_family_at(f)->plugin_path) plugins |= 1u << f;
        if (!plugins)
            return usage(c, "--plugin %s was not loaded (spell the option --plugin in full)",
                         OCC_QUOTE(o->plugin_path));
        o->families = plugins;
        return OCC_EXIT_OK;
    }
    const char *list = o->kernel_arg ? o->kernel_arg : spec_of_kind(OCC_OPT_KERNELS)->unset_text;
    char modes[256];
    unsigned set = 0;
    for (const char *b = list;; b++) {
        size_t len = strcspn(b, ",");
        int all = occ_value_kernel_word(b, len) == 2;
        for (int f = 0; f < occ_family_count(); f++) {
            const char *kernel = occ_family_at(f)->kernel;
            int g = occ_family_find(kernel, o->mode_arg);
            if (!all && !(strlen(kernel) == len && memcmp(kernel, b, len) == 0)) continue;
            if (g >= 0) {
                set |= 1u << g;
                continue;
            }
            occ_option_kernel_modes(kernel, modes, sizeof modes);
            if (o->mode_arg != NULL)
                return usage(c, "--mode: '%s' does not apply to %s (its modes: %s)",
                             OCC_QUOTE(o->mode_arg), kernel, modes);
            /* Only a family table without a default mode for this kernel gets here. */
            return usage(c, "--kernel: '%s' has no default mode (give --mode: %s)", kernel, modes);
        }
        b += len;
        if (*b == '\0') break;
    }
    o->families = set;
    return OCC_EXIT_OK;
}

/* A scoped option given on the command line must be taken by a selected family. */
static int check_scoped(const OccScopeCtx *c, const OccOptions *o)
{
    char names[256], takes[256];
    for (int i = 0; i < occ_option_count(); i++) {
        const OccOptSpec *s = occ_option_at(i);
        size_t at = 0;
        if (!s->scoped || !(c->given >> i & 1u) || (occ_option_takers(s->name) & o->families))
            continue;
        takes[0] = '\0';
        for (int j = 0; j < occ_option_count(); j++)
            if (occ_option_at(j)->scoped &&
                (occ_option_takers(occ_option_at(j)->name) & o->families))
                occ_msg_append(takes, sizeof takes, &at, "%s%s", at ? ", " : "",
                               occ_option_at(j)->name);
        return usage(c, "--%s does not apply to %s (%s: %s)", s->name,
                     occ_option_family_names(o->families, names, sizeof names),
                     (o->families & (o->families - 1)) ? "they take" : "it takes",
                     at ? takes : "none");
    }
    return OCC_EXIT_OK;
}

/* List options: the values given must be compiled for a selected family taking the option; a
 * list not given is every such value. */
static int check_lists(const OccScopeCtx *c, OccOptions *o)
{
    for (int i = 0; i < occ_option_count(); i++) {
        const OccOptSpec *s = occ_option_at(i);
        int compiled[OCC_MAX_LIST], n_compiled, *vals, *n;
        char accepted[256] = "";
        size_t at = 0;
        if (s->kind != OCC_OPT_LIST) continue;
        n_compiled = occ_option_compiled(s, o->families, compiled, OCC_MAX_LIST);
        vals = OCC_OPTION_FIELD(o, s->field, int);
        n = OCC_OPTION_FIELD(o, s->field2, int);
        if (!(c->given >> i & 1u)) {
            memcpy(vals, compiled, (size_t)n_compiled * sizeof compiled[0]);
            *n = n_compiled;
            continue;
        }
        for (int k = 0; k < n_compiled; k++)
            occ_msg_append(accepted, sizeof accepted, &at, "%s%d", k ? ", " : "", compiled[k]);
        for (int v = 0; v < *n; v++) {
            int k = 0;
            while (k < n_compiled && compiled[k] != vals[v])
                k++;
            if (k == n_compiled)
                return usage(c, "--%s: '%d' is not compiled (accepted: %s)", s->name, vals[v],
                             accepted);
        }
    }
    return OCC_EXIT_OK;
}

/* The bounds lever needs register-capped variants in every selected sweep family. */
static int check_lever(const OccScopeCtx *c, const OccOptions *o)
{
    char name[64], others[64];
    size_t at = 0;
    if (o->lever != OCC_LEVER_BOUNDS) return OCC_EXIT_OK;
    for (int l = 0, k = 0; l < OCC_OPTION_N_LEVERS; l++)
        if (l != OCC_LEVER_BOUNDS)
            occ_msg_append(others, sizeof others, &at, "%s%s",
                           k++ == 0                       ? ""
                           : k == OCC_OPTION_N_LEVERS - 1 ? " or "
                                                          : ", ",
                           occ_option_lever_names[l]);
    for (int f = 0; f < occ_family_count(); f++)
        if ((o->families >> f & 1u) && occ_family_at(f)->shape == OCC_SHAPE_OCCUPANCY &&
            !occ_family_has_capped(f))
            return usage(c, "--lever bounds: %s has no register-capped variants (use %s)",
                         occ_option_family_names(1u << f, name, sizeof name), others);
    return OCC_EXIT_OK;
}

/* An option given on the command line must apply: the value its requires rule names is set. */
static int check_requires(const OccScopeCtx *c, const OccOptions *o)
{
    const OccOptSpec *r;
    char want[32], got[32];
    for (int i = 0; i < occ_option_count(); i++)
        if ((c->given >> i & 1u) && !occ_option_applies(o, occ_option_at(i), &r, want, sizeof want))
            return r->kind == OCC_OPT_FLAG
                       ? usage(c, "--%s applies only with --%s", occ_option_at(i)->name, r->name)
                       : usage(c, "--%s applies only with --%s %s (this run has --%s %s)",
                               occ_option_at(i)->name, r->name, want, r->name,
                               occ_option_value(o, r, got, sizeof got));
    return OCC_EXIT_OK;
}

int occ_options_check_scope(OccOptions *o, unsigned long long given, char *err, size_t err_len)
{
    const OccScopeCtx c = {.err = err, .err_len = err_len, .given = given};
    if (select_families(&c, o) != OCC_EXIT_OK || check_scoped(&c, o) != OCC_EXIT_OK ||
        check_requires(&c, o) != OCC_EXIT_OK || check_lists(&c, o) != OCC_EXIT_OK ||
        check_lever(&c, o) != OCC_EXIT_OK)
        return OCC_EXIT_USAGE;
    return OCC_EXIT_OK;
}
