/* SPDX-License-Identifier: Apache-2.0 */
/* harness/gpu/device.c: device properties and limits from the CUDA runtime. */
#include "device.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "driver_msg.h"
#include "exitcodes.h"

void occ_device_format_error(cudaError_t e, const char *what, char *buf, size_t len)
{
    snprintf(buf, len, "%s: %s: %s", what, cudaGetErrorName(e), cudaGetErrorString(e));
}

/* A failed cudaGetDeviceCount as one line: no driver here, a driver older than the runtime (both
 * versions named), or another error (driver_msg.h). */
static void no_device_message(cudaError_t e, const char *what, char *buf, size_t len)
{
    int driver = 0, runtime = 0;
    if (cudaDriverGetVersion(&driver) != cudaSuccess) driver = 0;
    if (cudaRuntimeGetVersion(&runtime) != cudaSuccess) runtime = 0;
    occ_no_device_message(what, cudaGetErrorName(e), cudaGetErrorString(e), occ_driver_present(),
                          driver, runtime, buf, len);
}

static void make_slug(const char *name, char *slug, size_t len)
{
    size_t j = 0;
    int dash = 1; /* no leading dash, no runs of dashes */
    for (const char *s = name; *s && j + 1 < len; s++) {
        if (isalnum((unsigned char)*s)) {
            slug[j++] = (char)tolower((unsigned char)*s);
            dash = 0;
        } else if (!dash) {
            slug[j++] = '-';
            dash = 1;
        }
    }
    while (j > 0 && slug[j - 1] == '-') j--;
    slug[j] = '\0';
    /* "NVIDIA H200" -> "h200": the vendor prefix says nothing in results/<slug>/. */
    if (strncmp(slug, "nvidia-", 7) == 0) memmove(slug, slug + 7, strlen(slug + 7) + 1);
}

/* Name, slug, UUID and PCI bus id of device index into the given buffers. */
static cudaError_t identify(int index, struct cudaDeviceProp *p, char *slug, size_t slug_len,
                            char *uuid, size_t uuid_len, char *pci, size_t pci_len)
{
    cudaError_t e = cudaGetDeviceProperties(p, index);
    if (e != cudaSuccess) return e;
    make_slug(p->name, slug, slug_len);
    const unsigned char *u = (const unsigned char *)p->uuid.bytes;
    snprintf(uuid, uuid_len,
             "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1],
             u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14],
             u[15]);
    return cudaDeviceGetPCIBusId(pci, (int)pci_len, index);
}

int occ_device_list(OccDeviceId *ids, int max, int *n, char *err, size_t err_len)
{
    int count = 0;
    *n = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    for (int i = 0; e == cudaSuccess && i < count && i < max; i++) {
        struct cudaDeviceProp p;
        OccDeviceId *d = &ids[i];
        d->index = i;
        e = identify(i, &p, d->slug, sizeof d->slug, d->uuid, sizeof d->uuid, d->pci_bus_id,
                     sizeof d->pci_bus_id);
        snprintf(d->name, sizeof d->name, "%s", p.name);
        *n = i + 1;
    }
    if (e != cudaSuccess) {
        char what[400];
        no_device_message(e, "no usable CUDA device (listing the devices)", what, sizeof what);
        snprintf(err, err_len, "%s; to try --device without a GPU use --dry-run with "
                 "OCC_FAKE_DEVICES (see --help)", what);
        return OCC_EXIT_NO_GPU;
    }
    return 0;
}

#define ATTR(field, attr)                                                                          \
    do {                                                                                           \
        int v_ = 0;                                                                                \
        if ((e = cudaDeviceGetAttribute(&v_, attr, index)) != cudaSuccess) goto fail;              \
        field = v_;                                                                                \
    } while (0)

int occ_device_open(int index, OccDevice *d, char *err, size_t err_len)
{
    memset(d, 0, sizeof *d);
    d->index = index;
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
        char what[400];
        no_device_message(e, "no usable CUDA device (cudaGetDeviceCount)", what, sizeof what);
        snprintf(err, err_len, "%s; to plan without a GPU use --dry-run --arch sm_XX", what);
        return OCC_EXIT_NO_GPU;
    }
    if (index >= count) {
        snprintf(err, err_len, "--device %d: only %d CUDA device(s) present", index, count);
        return OCC_EXIT_NO_GPU;
    }
    if ((e = cudaSetDevice(index)) != cudaSuccess) goto fail;
    struct cudaDeviceProp p;
    if ((e = identify(index, &p, d->slug, sizeof d->slug, d->uuid, sizeof d->uuid, d->pci_bus_id,
                      sizeof d->pci_bus_id)) != cudaSuccess)
        goto fail;
    snprintf(d->name, sizeof d->name, "%s", p.name);
    d->cc_major = p.major;
    d->cc_minor = p.minor;
    snprintf(d->arch_name, sizeof d->arch_name, "sm_%d%d", p.major, p.minor);
    d->sm_count = p.multiProcessorCount;
    d->l2_bytes = p.l2CacheSize;
    /* CUDA 13 removed the clock fields from cudaDeviceProp: ask for the attributes. */
    ATTR(d->sm_clock_khz, cudaDevAttrClockRate);
    ATTR(d->mem_clock_khz, cudaDevAttrMemoryClockRate);
    ATTR(d->mem_bus_bits, cudaDevAttrGlobalMemoryBusWidth);
    d->dram_peak_gbps = 2.0 * d->mem_clock_khz * 1e3 * (d->mem_bus_bits / 8.0) / 1e9;
    if ((e = cudaDriverGetVersion(&d->driver_version)) != cudaSuccess) goto fail;
    if ((e = cudaRuntimeGetVersion(&d->runtime_version)) != cudaSuccess) goto fail;
    if ((e = cudaMemGetInfo(&d->free_bytes, &d->total_bytes)) != cudaSuccess) goto fail;

    const OccArchLimits *table = occ_arch_by_cc(p.major, p.minor);
    if (!table) {
        char known[256];
        occ_arch_list_names(known, sizeof known);
        snprintf(err, err_len, "%s is %s, which the occupancy table does not know (known: %s)",
                 d->name, d->arch_name, known);
        return OCC_EXIT_NO_GPU;
    }
    /* The device's own attributes win over the table wherever the runtime reports them. */
    d->limits = *table;
    OccArchLimits *l = &d->limits;
    ATTR(l->max_threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor);
    l->max_warps_per_sm = l->max_threads_per_sm / p.warpSize;
    ATTR(l->max_blocks_per_sm, cudaDevAttrMaxBlocksPerMultiprocessor);
    ATTR(l->regs_per_sm, cudaDevAttrMaxRegistersPerMultiprocessor);
    ATTR(l->smem_per_sm_bytes, cudaDevAttrMaxSharedMemoryPerMultiprocessor);
    ATTR(l->smem_per_block_optin_bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin);
    ATTR(l->smem_reserved_per_block_bytes, cudaDevAttrReservedSharedMemoryPerBlock);
    ATTR(l->max_threads_per_block, cudaDevAttrMaxThreadsPerBlock);
    return 0;
fail:
    occ_device_format_error(e, "reading device properties", err, err_len);
    return OCC_EXIT_NO_GPU;
}

int occ_device_kernel_resources(const void *kernel, OccVariantResources *out, cudaError_t *error)
{
    struct cudaFuncAttributes a;
    cudaError_t e = cudaFuncGetAttributes(&a, kernel);
    if (error) *error = e;
    if (e != cudaSuccess) return -1;
    out->regs_per_thread = a.numRegs;
    out->local_bytes_per_thread = (int)a.localSizeBytes;
    out->static_smem_bytes = (int)a.sharedSizeBytes;
    return 0;
}
