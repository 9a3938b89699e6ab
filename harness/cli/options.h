/* SPDX-License-Identifier: Apache-2.0 */
/* harness/cli/options.h: the occsweep command line, parsed into one OccOptions value
 * (harness/cli/options_types.h). The header the rest of the program includes: it brings the
 * types, the enum spellings (options_names.h), the value parsers (options_values.h) and --help
 * (options_help.h) with it.
 *
 * Pure C (no CUDA): parsing never prints and never exits; a bad command line comes back as
 * OCC_EXIT_USAGE plus a one-line message that names the bad value and what is accepted. Every
 * option may be repeated; the last one wins. Parsing stops at --help or --version.
 *
 * One table (harness/cli/options_table.c) defines every option: its kind, range, default, help
 * line, and whether it is global (every run) or scoped (only the kernel families whose options
 * list in their descriptor, kernels/families/<family>.h, names it). --help, the defaults and the
 * range checks are all generated from it, and kernel names, modes and compiled unroll/vec values come from the
 * catalog (harness/core/catalog.h). A scoped option given on the command line that no selected
 * family takes is a usage error, and so is an option given while the value another option must
 * have for it to apply (the table's requires rule: --index-bytes needs --chain index) is not
 * set. */
#ifndef OCC_OPTIONS_H
#define OCC_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "options_help.h"
#include "options_names.h"
#include "options_types.h"
#include "options_values.h"

/* Fills *o with the defaults documented on each field. */
void occ_options_defaults(OccOptions *o);

/* Parses argv[1..argc-1] into *o, starting from the defaults. Long options take their value as
 * "--opt VALUE" or "--opt=VALUE"; unambiguous prefixes are accepted (getopt_long). argv is not
 * reordered. Rules between options (selection, applicability, an option that requires another's
 * value, compiled values, --arch needs --dry-run or --calc, --calc needs --regs and, unless
 * --carveout is given, sets the max carveout, --resume excludes --out) are checked once every
 * option is read, so their order does not matter. Re-entrant across calls (getopt state is reset
 * each time), not thread-safe.
 * Returns OCC_EXIT_OK, or OCC_EXIT_USAGE with a one-line message in err (no trailing newline, no
 * program-name prefix, control bytes shown as '?'; truncated to err_len; err may be NULL), e.g.
 * "--block: '48' is not a multiple of 32 (accepted: 32..1024, a multiple of 32; ...)" or
 * "--vec does not apply to chase warp (it takes: unroll, occ, block, lever, size)" or
 * "--index-bytes applies only with --chain index (this run has --chain address)".
 * Never prints, never exits. Parsing stops at --help or --version with OCC_EXIT_OK: no rule is
 * checked, the options after it are not read, and families and the unroll/vec lists not given
 * stay those of the default selection. */
int occ_options_parse(int argc, char **argv, OccOptions *o, char *err, size_t err_len);

/* One run axis for --resume: an option that changes what a point measures but is no per-row CSV
 * column, so rows of runs that differ in it must not be mixed. */
typedef struct OccRunAxis {
    const char *name; /* option name without dashes, e.g. "size", "index-bytes" */
    char value[32];   /* canonical value: "auto" or the byte count (size), "0"/"1" (cold), the
                         name (chain), decimal otherwise */
} OccRunAxis;

/* The run axes of o: each option the table marks as a run axis (carveout, schedule, size,
 * waves, stride, cold, chain, index-bytes) that at least one family selected in o->families
 * takes and that applies to o (index-bytes only with --chain index: the table's requires rule),
 * in table order, into out[0..max). Returns how many there are (which may exceed max: only max
 * are written). */
int occ_options_run_axes(const OccOptions *o, OccRunAxis *out, int max);

#endif
