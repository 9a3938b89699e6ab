/* SPDX-License-Identifier: Apache-2.0 */
/* harness/families/resources.h: the registers, local memory and static shared memory of every catalog
 * variant, from the device's runtime attributes or, without a device, from the build's resource
 * table (kernels/kernel_resources.h). */
#ifndef OCC_RESOURCES_H
#define OCC_RESOURCES_H

#include <stddef.h>

#include "arch.h"
#include "variant.h"

/* Fills res[0..occ_variant_count()) for arch: from cudaFuncGetAttributes when have_device, else
 * from the build-time table (cuobjdump counts the per-block reserved shared memory in a kernel's
 * SHARED figure when it has any; it is taken out here, as the runtime reports it). Returns 0, or
 * -1 with a one-line err naming the arch missing from the binary and how to rebuild. A loaded
 * plugin's variants come from occ_plugin_resources (plugin_load.h). */
int occ_resources_get(const OccArchLimits *arch, int have_device, OccVariantResources *res,
                      char *err, size_t err_len);

#endif
