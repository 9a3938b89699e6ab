/* harness/options_help.c: --help, generated from the option table and the catalog, so that what
 * it states (accepted values, defaults, the kernels that take an option) is what the parser
 * does. */
#include "options.h"

#include "catalog.h"
#include "options_table.h"

#include <string.h>

enum { HELP_COL = 22, HELP_WIDTH = 79 };

/* Prints text from column *col, wrapping at spaces before HELP_WIDTH onto lines indented to
 * HELP_COL; leaves *col after the last word. */
static void put_wrapped(FILE *f, const char *text, int *col)
{
    while (*text != '\0') {
        size_t word = strcspn(text, " ");
        if (*col > HELP_COL && *col + 1 + (int)word > HELP_WIDTH) {
            fprintf(f, "\n%*s", HELP_COL, "");
            *col = HELP_COL;
        } else if (*col > HELP_COL) {
            fputc(' ', f);
            (*col)++;
        }
        fprintf(f, "%.*s", (int)word, text);
        *col += (int)word;
        text += word + strspn(text + word, " ");
    }
}

/* One option: "  --name METAVAR" padded to HELP_COL, the help line (with the value it requires
 * and the kernels that take a scoped option), then "accepted: ...; default: ..." for an option
 * with a value. */
static void put_option(FILE *f, const OccOptSpec *s)
{
    char head[64], text[1024], accepted[512], def[512], takers[256];
    int len, col = s->short_name
                       ? snprintf(head, sizeof head, "  -%c, --%s", s->short_name, s->name)
                       : snprintf(head, sizeof head, "  --%s", s->name);
    if (s->metavar != NULL)
        col += snprintf(head + col, sizeof head - (size_t)col, " %s", s->metavar);
    if (col >= HELP_COL)
        fprintf(f, "%s\n%*s", head, HELP_COL, "");
    else
        fprintf(f, "%s%*s", head, HELP_COL - col, "");
    col = HELP_COL;
    len = snprintf(text, sizeof text, "%s", s->help);
    /* "NAME=VALUE" reads "only with --NAME VALUE". */
    if (s->requires != NULL)
        len += snprintf(text + len, sizeof text - (size_t)len, ", only with --%.*s %s",
                        (int)strcspn(s->requires, "="), s->requires,
                        s->requires + strcspn(s->requires, "=") + 1);
    if (s->scoped)
        snprintf(text + len, sizeof text - (size_t)len, " (%s)",
                 occ_option_family_names(occ_option_takers(s->name), takers, sizeof takers));
    put_wrapped(f, text, &col);
    if (s->kind != OCC_OPT_FLAG) {
        fprintf(f, "\n%*s", HELP_COL, "");
        col = HELP_COL;
        snprintf(text, sizeof text, "accepted: %s; default: %s",
                 occ_option_accepted(s, accepted, sizeof accepted),
                 occ_option_default(s, def, sizeof def));
        put_wrapped(f, text, &col);
    }
    fputc('\n', f);
}

/* First family of that shape taking option `name` (a default mode first), or -1. */
static int example_family(OccFamilyShape shape, const char *name)
{
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < occ_family_count(); i++) {
            const OccFamilyInfo *fi = occ_family_at(i);
            if (fi->shape == shape && occ_family_takes(fi, name) && (pass || fi->default_mode))
                return i;
        }
    return -1;
}

/* The --kernel (and, for a family not in its kernel's default mode, --mode) of family i. */
static void put_selection(FILE *f, const char *prog, int i)
{
    const OccFamilyInfo *fi = occ_family_at(i);
    fprintf(f, "  %s --kernel %s%s%s", prog, fi->kernel, fi->default_mode ? "" : " --mode ",
            fi->default_mode ? "" : fi->mode);
}

static void put_examples(FILE *f, const char *prog)
{
    int vals[16], n, i;
    if ((i = example_family(OCC_SHAPE_OCCUPANCY, "unroll")) >= 0 &&
        (n = occ_family_axis_values(i, 'u', vals, 16)) > 0) {
        put_selection(f, prog, i);
        fputs(" --unroll ", f);
        for (int k = 0; k < n && k < 3 && k < 16; k++)
            fprintf(f, "%s%d", k ? "," : "", vals[k]);
        fputs(" --occ 25..100\n", f);
    }
    if ((i = example_family(OCC_SHAPE_OCCUPANCY, "vec")) >= 0 &&
        (n = occ_family_axis_values(i, 'v', vals, 16)) > 0) {
        put_selection(f, prog, i);
        fprintf(f, " --vec %d --occ 10..100:10 --plot\n", vals[(n < 16 ? n : 16) - 1]);
    }
    if ((i = example_family(OCC_SHAPE_FOOTPRINT, "footprint")) >= 0) {
        put_selection(f, prog, i);
        fputs(" --footprint 4K..1G\n", f);
    }
    fprintf(f, "  %s --dry-run --arch sm_90\n", prog);
}

void occ_options_print_help(FILE *f, const char *prog)
{
    char kernels[512];
    fprintf(f,
            "Usage: %s [OPTIONS]\n"
            "Sweeps occupancy (resident warps per SM / max warps per SM) against unroll,\n"
            "vector width and arithmetic on the GPU kernels\n%s; one CSV row per point.\n",
            prog, occ_option_family_names(~0u, kernels, sizeof kernels));
    for (int scoped = 0; scoped < 2; scoped++) {
        fputs(scoped ? "\nOptions for some kernels (in parentheses: the kernels that take each; "
                       "any other\nselection refuses it):\n"
                     : "\nOptions for every run:\n",
              f);
        for (int i = 0; i < occ_option_count(); i++)
            if (occ_option_at(i)->scoped == scoped) put_option(f, occ_option_at(i));
    }
    fputs("\n"
          "Levers: auto pads shared memory on the natural variant where its registers\n"
          "allow the level, else uses the __launch_bounds__ variant; pad: natural variant\n"
          "only (unreachable levels become skip rows); bounds: register-capped variants\n"
          "only; both: a row for each lever where it reaches the level.\n"
          "\n"
          "Examples:\n",
          f);
    put_examples(f, prog);
    fputs("\n"
          "Exit codes:\n"
          "  0  every point measured (or skipped with a reason) and verified\n"
          "  1  a point failed verification, or a runtime error after the start\n"
          "  2  bad command line; nothing was written\n"
          "  3  no usable CUDA device (driver, device index, or arch not in the binary)\n",
          f);
}
