/* SPDX-License-Identifier: Apache-2.0 */
/* harness/families/resources.c: variant resources from the runtime or the build-time table. */
#include "resources.h"

#include <stdio.h>
#include <string.h>

#include "catalog.h"
#include "device.h"
#include "family.h"
#include "kernel_resources.h"
#include "plugin_load.h"

/* The build-time table's entry of v for arch, or NULL. */
static const OccKernelResources *table_entry(const OccArchLimits *arch, const OccVariantInfo *v)
{
    for (int k = 0; k < occ_kernel_resources_count; k++) {
        const OccKernelResources *t = &occ_kernel_resources[k];
        if (strcmp(t->variant, v->name) == 0 && strcmp(t->arch, arch->name) == 0) return t;
    }
    return NULL;
}

static int from_device(const OccArchLimits *arch, const OccVariantInfo *v, OccVariantResources *r,
                       char *err, size_t err_len)
{
    cudaError_t e;
    if (occ_device_kernel_resources(occ_family_ops(v->family)->kernel(v), r, &e) == 0) {
        const OccKernelResources *t = table_entry(arch, v);
        r->loads_in_flight_sass = t ? t->loads_in_flight_sass : 0;
        return 0;
    }
    if (e == cudaErrorNoKernelImageForDevice || e == cudaErrorInvalidDeviceFunction)
        snprintf(err, err_len,
                 "this build has no code for %s (%s): rebuild with meson configure build "
                 "-Dgpu_archs=...,%s (or -Dgpu_ptx=%s)",
                 arch->name, cudaGetErrorName(e), arch->name + 3, arch->name + 3);
    else
        occ_device_format_error(e, v->name, err, err_len);
    return -1;
}

static int from_table(const OccArchLimits *arch, const OccVariantInfo *v, OccVariantResources *r,
                      char *err, size_t err_len)
{
    const OccKernelResources *t = table_entry(arch, v);
    if (t) {
        int smem = t->static_smem_bytes;
        const int reserved = arch->smem_reserved_per_block_bytes;
        if (reserved && smem >= reserved) smem -= reserved;
        *r = (OccVariantResources){t->regs_per_thread, t->stack_bytes_per_thread, smem,
                                   t->loads_in_flight_sass};
        return 0;
    }
    /* The archs the build has, "80,90" (the table lists every variant for each). */
    char have[128] = "";
    size_t n = 0;
    for (int k = 0; k < occ_kernel_resources_count; k++) {
        const char *a = occ_kernel_resources[k].arch + 3, *p = have;
        size_t al = strlen(a);
        int seen = 0;
        for (; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
            if (strncmp(p, a, al) == 0 && (p[al] == ',' || p[al] == '\0')) seen = 1;
        }
        if (!seen && n + al + 2 < sizeof have)
            n += (size_t)snprintf(have + n, sizeof have - n, "%s%s", n ? "," : "", a);
    }
    snprintf(err, err_len, "--arch %s: this build has no code for it (built with "
             "gpu_archs=%s); rebuild with: meson configure build -Dgpu_archs=%s,%s (or "
             "-Dgpu_archs=all), then run again", arch->name, have, have, arch->name + 3);
    return -1;
}

int occ_resources_get(const OccArchLimits *arch, int have_device, OccVariantResources *res,
                      char *err, size_t err_len)
{
    for (int i = 0; i < occ_variant_count(); i++) {
        const OccVariantInfo *v = occ_variant_at(i);
        int rc = occ_family_at(v->family)->plugin_path
                     ? occ_plugin_resources(arch, have_device, v, &res[i], err, err_len)
                 : have_device ? from_device(arch, v, &res[i], err, err_len)
                               : from_table(arch, v, &res[i], err, err_len);
        if (rc != 0) return -1;
    }
    return 0;
}
