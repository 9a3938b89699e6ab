/* SPDX-License-Identifier: Apache-2.0 */
/* harness/cli/options_text.h: what an option accepts and what its default is, in words, from
 * its table entry and the catalog: the usage messages quote the first, --help and the man page
 * print both. Private to harness/cli. */
#ifndef OCC_OPTIONS_TEXT_H
#define OCC_OPTIONS_TEXT_H

#include <stddef.h>

#include "options_table.h"

/* What s accepts, e.g. "32..256, a multiple of 32" or "1, 2, 4, 8 or a range like 1..8", as
 * quoted after "accepted:" in messages and --help. Returns buf. */
char *occ_option_accepted(const OccOptSpec *s, char *buf, size_t len);

/* s's default as --help states it, e.g. "128" or "auto: 8 x the L2 size (copy, reduce)"; empty
 * for a flag. Returns buf. */
char *occ_option_default(const OccOptSpec *s, char *buf, size_t len);

#endif
