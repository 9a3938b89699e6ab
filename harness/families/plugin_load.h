/* SPDX-License-Identifier: Apache-2.0 */
/* harness/families/plugin_load.h: a user's kernel as a family (`--plugin FILE`): the shared object
 * is opened (dlopen), its occ_plugin() descriptor (include/occsweep/plugin.h) checked, and its
 * variants registered in the catalog (catalog.h) and its ops in the family table (family.h) before
 * the options are parsed, so that the planner, options, resume and outputs treat it as any family.
 * One plugin per process, held by this module (plugin_load.c says why). */
#ifndef OCC_PLUGIN_LOAD_H
#define OCC_PLUGIN_LOAD_H

#include <stddef.h>

#include "arch.h"
#include "occsweep/plugin.h"
#include "variant.h"

/* The loaded plugin. */
typedef struct OccLoadedPlugin {
    const OccPlugin *api; /* a copy of what its occ_plugin() returned, whose variants and names
                             point to copies too (its functions and kernels are the plugin's) */
    const char *path;     /* the shared object, as given */
    int family;           /* its catalog family */
} OccLoadedPlugin;

/* Opens the shared object at path, first in a child process (a trial load: its constructors and
 * occ_plugin() run there, for at most OCC_PLUGIN_TIMEOUT_S seconds, 60 unless set), then in this
 * one; copies and checks its descriptor (ABI version, every required field, the bounds
 * occsweep/plugin.h gives its numbers and names) and registers its family:
 * kernel = the plugin's name, mode "persistent" or "own_grid", options unroll, occ, block,
 * carveout, size, default size 8 x L2 raised to 4 GiB (as copy's). The descriptor is read with
 * SIGSEGV and SIGBUS caught (the previous handlers restored after). Returns the family index, or
 * -1 with a one-line err naming the file and what is wrong (an empty path, cannot be opened, with
 * a hint for a bare name of a file in the current directory, its constructors or occ_plugin()
 * ending, crashing or hanging the trial load, no occ_plugin symbol or a data one,
 * occ_plugin() crashing or returning NULL or memory it cannot read, another ABI version, a missing
 * field, a number out of bounds, a name that is reserved ("all", a built-in kernel's) or that the
 * catalog refuses, a second plugin). */
int occ_plugin_load(const char *path, char *err, size_t err_len);

/* The loaded plugin, or NULL when none is. */
const OccLoadedPlugin *occ_plugin_loaded(void);

/* The index in the loaded plugin's variants of catalog variant v, or -1 when v is not one. */
int occ_plugin_variant_index(const OccVariantInfo *v);

/* The resources of the plugin's catalog variant v for arch: with have_device from the runtime (the
 * kernel's cudaKernel_t, on the current device), else from cuobjdump's report of the shared
 * object's cubin (cuobjdump from OCC_CUOBJDUMP, else the one the build found, else PATH's; run
 * for at most OCC_PLUGIN_TIMEOUT_S seconds). Returns 0, or -1 with a one-line err: no code for
 * arch in the shared object (rebuild it with -arch=sm_NN), a kernel it cannot name, cuobjdump
 * failing or stopped at the time limit, a resource value in its report that is no number. */
int occ_plugin_resources(const OccArchLimits *arch, int have_device, const OccVariantInfo *v,
                         OccVariantResources *r, char *err, size_t err_len);

/* The kernel handle of plugin variant i (index into api->variants) for occsweep's runtime: its
 * cudaKernel_t from the plugin's runtime, on the current device; NULL when that fails. */
const void *occ_plugin_kernel(int i);

#endif
