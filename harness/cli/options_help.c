/* SPDX-License-Identifier: Apache-2.0 */
/* harness/cli/options_help.c: --help and the man page, from the option table, the texts of each
 * option (options_text.c) and the catalog. */
#include "options_help.h"

#include "catalog.h"
#include "options_catalog.h"
#include "options_table.h"
#include "options_text.h"

#include <string.h>

/* --help's layout: the help texts start at column HELP_COL and wrap before HELP_WIDTH. */
enum { HELP_COL = 22, HELP_WIDTH = 79 };

/* What each --lever value does: --help's "Levers:" and the man page's LEVERS. */
static const char levers_text[] =
    "auto pads shared memory on the natural variant where its registers\n"
    "allow the level, else uses a register-capped twin; pad: natural variant only\n"
    "(unreachable levels become skip rows); bounds: the register ladder only, the\n"
    "twins _r56, _r48, _r40, _r32 (__maxnreg__): per level the twin whose registers\n"
    "alone set it, else the next rung down with padding; both: a pad and a bounds\n"
    "row at every level. Rows carry reg_cap_per_thread and local_bytes_per_thread\n"
    "(spills).";

/* What --device LIST|all and the fake device list add to the exit codes. */
static const char fleet_note[] =
    "\nWith --device LIST|all: the worst of the workers' exit statuses (a worker\n"
    "ended by a signal counts as 1). Environment: OCC_FAKE_DEVICES=sm_90,sm_90:0.8\n"
    "(arch[:bandwidth scale], ...) is a fake device list for testing --device\n"
    "without GPUs: with --dry-run each fake GPU writes its plan as a CSV of\n"
    "synthetic rows (# fake_device=1).\n";

/* "<status>  <meaning>" lines of --help's exit codes; the man page splits them at column 3. */
static const char *const exit_codes[] = {
    "0  every point measured (or skipped with a reason) and verified",
    "1  a point failed verification, or a runtime error after the start",
    "2  bad command line, or an unusable input or output file; nothing was written",
    "3  no usable CUDA device (driver, device index, or arch not in the binary)",
};

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

/* 1 when the option s requires is a flag (its "NAME=1" needs no value in the text). */
static int requires_flag(const OccOptSpec *s)
{
    const OccOptSpec *r = occ_option_named(s->requires, strcspn(s->requires, "="));
    return r != NULL && r->kind == OCC_OPT_FLAG;
}

/* An option's texts: its head ("-h, --help" or "--name METAVAR"), its help line (with the value
 * it requires and the kernels that take a scoped option) and, for an option with a value,
 * "accepted: ...; default: ..." (else empty). --help and the man page print the same three. */
static void option_texts(const OccOptSpec *s, char *head, size_t head_len, char *text,
                         size_t text_len, char *values, size_t values_len)
{
    char accepted[512], def[512], takers[256];
    int len = s->short_name ? snprintf(head, head_len, "-%c, --%s", s->short_name, s->name)
                            : snprintf(head, head_len, "--%s", s->name);
    if (s->metavar != NULL) snprintf(head + len, head_len - (size_t)len, " %s", s->metavar);
    len = snprintf(text, text_len, "%s", s->help);
    /* "NAME=VALUE" reads "only with --NAME VALUE", and "only with --NAME" for a flag. */
    if (s->requires != NULL)
        len += snprintf(text + len, text_len - (size_t)len, ", only with --%.*s%s%s",
                        (int)strcspn(s->requires, "="), s->requires,
                        requires_flag(s) ? "" : " ",
                        requires_flag(s) ? "" : s->requires + strcspn(s->requires, "=") + 1);
    if (s->scoped)
        snprintf(text + len, text_len - (size_t)len, " (%s)",
                 occ_option_family_names(occ_option_takers(s->name), takers, sizeof takers));
    values[0] = '\0';
    if (s->kind != OCC_OPT_FLAG)
        snprintf(values, values_len, "accepted: %s; default: %s",
                 occ_option_accepted(s, accepted, sizeof accepted),
                 occ_option_default(s, def, sizeof def));
}

/* One option: "  HEAD" padded to HELP_COL, the help line, then the values line. */
static void put_option(FILE *f, const OccOptSpec *s)
{
    char head[64], text[1024], values[1100];
    option_texts(s, head, sizeof head, text, sizeof text, values, sizeof values);
    int col = 2 + (int)strlen(head);
    if (col >= HELP_COL)
        fprintf(f, "  %s\n%*s", head, HELP_COL, "");
    else
        fprintf(f, "  %s%*s", head, HELP_COL - col, "");
    col = HELP_COL;
    put_wrapped(f, text, &col);
    if (values[0] != '\0') {
        fprintf(f, "\n%*s", HELP_COL, "");
        col = HELP_COL;
        put_wrapped(f, values, &col);
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

/* The examples of --help and the man page, each from a family that takes the options shown. */
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
    fprintf(f, "  %s --calc --arch sm_90 --block 256 --regs 40 --smem 16K\n", prog);
}

void occ_options_print_help(FILE *f, const char *prog)
{
    char kernels[512];
    fprintf(f,
            "Usage: %s [OPTIONS]\n"
            "Sweeps occupancy (resident warps per SM / max warps per SM) against unroll,\n"
            "vector width and arithmetic on the GPU kernels\n%s;\none CSV row per point.\n"
            "An option given more than once takes its last value.\n",
            prog, occ_option_family_names(~0u, kernels, sizeof kernels));
    for (int scoped = 0; scoped < 2; scoped++) {
        fputs(scoped ? "\nOptions for some kernels (in parentheses: the kernels that take each; "
                       "any other\nselection refuses it):\n"
                     : "\nOptions for every run:\n",
              f);
        for (int i = 0; i < occ_option_count(); i++)
            if (occ_option_at(i)->scoped == scoped) put_option(f, occ_option_at(i));
    }
    fprintf(f, "\nLevers: %s\n\nExamples:\n", levers_text);
    put_examples(f, prog);
    fputs("\nExit codes:\n", f);
    for (size_t i = 0; i < sizeof exit_codes / sizeof *exit_codes; i++)
        fprintf(f, "  %s\n", exit_codes[i]);
    fputs(fleet_note, f);
}

/* text for roff: backslashes and hyphens escaped, a leading '.' or '\'' kept literal. */
static void put_roff(FILE *f, const char *text)
{
    if (*text == '.' || *text == '\'') fputs("\\&", f);
    for (; *text; text++) {
        if (*text == '\\') fputs("\\e", f);
        else if (*text == '-') fputs("\\-", f);
        else fputc(*text, f);
    }
}

void occ_options_print_man(FILE *f, const char *prog, const char *version)
{
    char kernels[512], head[64], text[1024], values[1100];
    fprintf(f, ".TH %s 1 \"\" \"occsweep %s\" \"User Commands\"\n.SH NAME\n", prog, version);
    fprintf(f, "%s \\- sweep GPU occupancy against unroll and vector width\n", prog);
    fprintf(f, ".SH SYNOPSIS\n.B %s\n[\\fIOPTIONS\\fR]\n.SH DESCRIPTION\n", prog);
    fprintf(f, "Sweeps occupancy (resident warps per SM / max warps per SM) against unroll and\n"
               "vector width on the GPU kernels %s; one CSV row per point.\n",
            occ_option_family_names(~0u, kernels, sizeof kernels));
    for (int scoped = 0; scoped < 2; scoped++) {
        fputs(scoped ? ".SH OPTIONS FOR SOME KERNELS\nIn parentheses: the kernels that take each; "
                       "any other selection refuses it.\n"
                     : ".SH OPTIONS\n",
              f);
        for (int i = 0; i < occ_option_count(); i++) {
            const OccOptSpec *s = occ_option_at(i);
            if (s->scoped != scoped) continue;
            option_texts(s, head, sizeof head, text, sizeof text, values, sizeof values);
            fputs(".TP\n.B ", f);
            put_roff(f, head);
            fputc('\n', f);
            put_roff(f, text);
            fputc('\n', f);
            if (values[0] != '\0') {
                fputs(".br\n", f);
                put_roff(f, values);
                fputc('\n', f);
            }
        }
    }
    fputs(".SH LEVERS\n", f);
    put_roff(f, levers_text);
    fputs("\n.SH EXAMPLES\n.nf\n", f);
    put_examples(f, prog);
    fputs(".fi\n.SH EXIT STATUS\n", f);
    for (size_t i = 0; i < sizeof exit_codes / sizeof *exit_codes; i++) {
        fputs(".TP\n.B ", f);
        fprintf(f, "%.1s\n", exit_codes[i]);
        put_roff(f, exit_codes[i] + 3);
        fputc('\n', f);
    }
    fputs(".SH NOTES\n", f);
    put_roff(f, fleet_note + 1);
}
