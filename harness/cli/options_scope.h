/* SPDX-License-Identifier: Apache-2.0 */
/* harness/cli/options_scope.h: the rules that tie options to the kernel families a run selects.
 * --kernel, --mode and --plugin select the families; a scoped option given on the command line
 * must be taken by one of them, an option with a requires rule must have the value it names
 * set, the values of a list option must be compiled for a selected family that takes it (a list
 * not given is every such value), and --lever bounds needs register-capped variants in every
 * selected sweep family. Private to harness/cli. */
#ifndef OCC_OPTIONS_SCOPE_H
#define OCC_OPTIONS_SCOPE_H

#include <stddef.h>

#include "options_types.h"

/* Applies the rules above to o, once every option is read: sets o->families, fills the list
 * options not given, and checks the rest, in that order. given: bit i set when table option i
 * (occ_option_at(i)) was on the command line. Returns OCC_EXIT_OK, or OCC_EXIT_USAGE with the
 * one-line message in err[0..err_len) (err may be NULL), e.g. "--vec does not apply to chase
 * warp (it takes: unroll, occ, block, lever, size)". */
int occ_options_check_scope(OccOptions *o, unsigned long long given, char *err, size_t err_len);

#endif
