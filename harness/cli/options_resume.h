/* SPDX-License-Identifier: Apache-2.0 */
/* harness/cli/options_resume.h: --resume FILE alone resumes the run of FILE: the options that say
 * what a run measures and how it is timed (the table's resumed entries: kernel, mode, the sweep
 * axes, the run axes, the timing options, --no-loaded) come from the command line FILE recorded,
 * and one given on this command line must agree with it. Pure C: no file is read here. */
#ifndef OCC_OPTIONS_RESUME_H
#define OCC_OPTIONS_RESUME_H

#include <stddef.h>

#include "options_types.h"

/* o: this command line as parsed (argc, argv, with --resume). command: FILE's recorded command
 * line ("./run_sweep --kernel reduce --unroll 1,2,4"), words split at spaces, the first word
 * the program's name, or NULL when FILE records none. Parses FILE's resumed options followed by
 * argv's options into o, so that argv's values win; without o->resume_mismatch the first
 * resumed option whose value then differs from FILE's run is refused ("--resume F: --unroll 2
 * differs from the run of the file (--unroll 1,2,4); ..."), and so are a missing command, a word
 * of it this build does not know and a --plugin of it that argv does not load. With
 * o->resume_mismatch, a command that cannot be read or combined with argv leaves o as it is. FILE's --resume, --out,
 * --device and the other options that measure nothing are not read. *storage: the copy of
 * command that o's kernel and mode names point into, for the caller to free after o (NULL when
 * none). OCC_EXIT_OK, or OCC_EXIT_USAGE with a one-line err (o as it was). */
int occ_options_resume(int argc, char **argv, const char *command, OccOptions *o, char **storage,
                       char *err, size_t err_len);

#endif
