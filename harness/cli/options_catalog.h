/* SPDX-License-Identifier: Apache-2.0 */
/* harness/cli/options_catalog.h: what the catalog (harness/core/catalog.h) says about the
 * options: the families that take a scoped option, the compiled values of a list option, and
 * the names of a set of families and of a kernel's modes as messages and --help print them.
 * Private to harness/cli. */
#ifndef OCC_OPTIONS_CATALOG_H
#define OCC_OPTIONS_CATALOG_H

#include <stddef.h>

#include "options_table.h"

/* Bit set of the catalog families that take the scoped option `name`. */
unsigned occ_option_takers(const char *name);

/* The distinct compiled values of LIST option s over the families in `families` that take it,
 * ascending, into out[0..max); returns how many were written. */
int occ_option_compiled(const OccOptSpec *s, unsigned families, int *out, int max);

/* 1 when family f is the first of its kernel in the catalog: the way to visit each kernel once. */
int occ_option_first_of_kernel(int f);

/* Bit set of the families of family f's kernel. */
unsigned occ_option_kernel_families(int f);

/* The families in `set` for a message or --help: "copy, reduce, chase warp" (a kernel alone
 * when all its families are in the set, "kernel mode" otherwise). Returns buf. */
char *occ_option_family_names(unsigned set, char *buf, size_t len);

/* The modes of kernel `kernel`, in catalog order: "warp, thread, latency". Returns buf. */
char *occ_option_kernel_modes(const char *kernel, char *buf, size_t len);

#endif
