/* SPDX-License-Identifier: Apache-2.0 */
/* harness/cli/options_help.h: --help and the man page, generated from the option table and the
 * catalog, so that what they state (accepted values, defaults, the kernels that take an option)
 * is what the parser does. Public through harness/cli/options.h. */
#ifndef OCC_OPTIONS_HELP_H
#define OCC_OPTIONS_HELP_H

#include <stdio.h>

/* Writes the full --help text (options with accepted values, defaults and the kernels that take
 * each scoped one; examples; exit codes 0-3) to f; prog is the program name shown in the usage
 * line and the examples. */
void occ_options_print_help(FILE *f, const char *prog);

/* Writes the man page (roff, section 1) of the same table and texts as occ_options_print_help:
 * every option with its help line, accepted values and default, the levers, examples and exit
 * codes. version goes in the title line. */
void occ_options_print_man(FILE *f, const char *prog, const char *version);

#endif
