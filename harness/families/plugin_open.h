/* SPDX-License-Identifier: Apache-2.0 */
/* harness/families/plugin_open.h: a plugin's shared object opened without letting it take the
 * process down: tried first in a child process (its constructors and occ_plugin() may end,
 * crash or hang it there), then opened here (dlopen) and its occ_plugin() descriptor copied with
 * faults caught. The checks of what the descriptor says are plugin_load.c's. */
#ifndef OCC_PLUGIN_OPEN_H
#define OCC_PLUGIN_OPEN_H

#include <stddef.h>

#include "occsweep/plugin.h"
#include "catalog.h" /* OCC_MAX_ADDED_VARIANTS */

/* Characters of the plugin's and of each variant's name, at most (include/occsweep/plugin.h). */
#define OCC_PLUGIN_MAX_NAME 63
/* Seconds the trial load and cuobjdump may take unless OCC_PLUGIN_TIMEOUT_S says otherwise,
 * and the most it may say. */
#define OCC_PLUGIN_TIMEOUT_DEFAULT_S 60.0
#define OCC_PLUGIN_TIMEOUT_MAX_S 86400.0

/* A copy of what the plugin's occ_plugin() returned: nothing after the open reads the plugin's
 * own memory but through its functions. */
typedef struct OccPluginCopy {
    int abi_version;                                   /* as the plugin's descriptor has it */
    OccPlugin desc; /* the descriptor (when abi_version is this header's), name and variants
                       pointing to the copies below (when they could be read) */
    OccPluginVariant variants[OCC_MAX_ADDED_VARIANTS]; /* desc.variants, names pointing below */
    char name[OCC_PLUGIN_MAX_NAME + 2]; /* desc.name (one more character: too long shows) */
    char variant_names[OCC_MAX_ADDED_VARIANTS][OCC_PLUGIN_MAX_NAME + 2];
} OccPluginCopy;

/* Opens the shared object at path and copies its descriptor into *copy: the descriptor, its name
 * and, when n_variants is 1..OCC_MAX_ADDED_VARIANTS, its variant table and their names (each
 * copy replacing the plugin's pointer in copy->desc), read with SIGSEGV and SIGBUS caught (the
 * previous handlers restored after). Before the dlopen here, the same is done in a child process
 * for at most OCC_PLUGIN_TIMEOUT_S seconds. Returns 0, or -1 with a one-line err naming the file
 * and what is wrong: an empty path, no regular file, its constructors or occ_plugin() ending,
 * crashing or hanging the trial, dlopen's error (with a hint for a bare name of a file in the
 * current directory), no occ_plugin symbol or a data one, occ_plugin() crashing or returning
 * NULL or memory it cannot read. The descriptor's fields are not checked. */
int occ_plugin_open(const char *path, OccPluginCopy *copy, char *err, size_t err_len);

/* The seconds of OCC_PLUGIN_TIMEOUT_S, else OCC_PLUGIN_TIMEOUT_DEFAULT_S: 0, or -1 with a
 * one-line err when it is no number of seconds above 0 and at most OCC_PLUGIN_TIMEOUT_MAX_S. */
int occ_plugin_timeout_s(double *timeout_s, char *err, size_t err_len);

#endif
