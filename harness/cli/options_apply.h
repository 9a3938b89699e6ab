/* SPDX-License-Identifier: Apache-2.0 */
/* harness/cli/options_apply.h: one option's value, parsed by its kind (harness/cli/options_table.h)
 * and checked against its table entry's range, multiple and power-of-two rules, into its
 * OccOptions field(s). The rules between options come later (harness/cli/options_scope.h and
 * occ_options_parse). Private to harness/cli. */
#ifndef OCC_OPTIONS_APPLY_H
#define OCC_OPTIONS_APPLY_H

#include <stddef.h>

#include "options_table.h"

/* Parses arg, the value of option s (NULL for a flag), into o's field(s) of s. A LIST option's
 * values are checked for syntax only: what is compiled depends on the families, known once
 * every option is read. Returns OCC_EXIT_OK, or OCC_EXIT_USAGE with the one-line message in
 * err[0..err_len) (err may be NULL), e.g. "--block: '48' is not a multiple of 32 (accepted:
 * ...)"; o's fields may then be partly written. */
int occ_option_apply(const OccOptSpec *s, const char *arg, OccOptions *o, char *err,
                     size_t err_len);

/* Writes "--NAME: 'VALUE' reason (accepted: ...)" for option s into err[0..err_len) and returns
 * OCC_EXIT_USAGE. The quote is of at[0..len), or of the whole value arg when at is NULL, cut to
 * a prefix (occ_msg_quote) so that the reason and what is accepted always fit. */
int occ_option_bad_value(const OccOptSpec *s, const char *arg, const char *at, size_t len,
                         const char *reason, char *err, size_t err_len);

#endif
