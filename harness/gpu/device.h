/* SPDX-License-Identifier: Apache-2.0 */
/* harness/gpu/device.h: the GPU a sweep runs on: its properties, limits and memory. */
#ifndef OCC_DEVICE_H
#define OCC_DEVICE_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#include "arch.h"
#include "variant.h"

/* What the run records about its GPU (all from the runtime, none from memory). */
typedef struct OccDevice {
    int index;                   /* CUDA device ordinal */
    char name[256];              /* cudaDeviceProp.name */
    char slug[64];               /* name lower-cased, runs of non-alphanumerics -> '-', without a
                                    leading "nvidia-" ("NVIDIA H200" -> "h200"): results/<slug>/ */
    char uuid[48];               /* "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" (as nvidia-smi -L
                                    prints it), from cudaDeviceProp.uuid */
    char pci_bus_id[32];         /* "0000:19:00.0", from cudaDeviceGetPCIBusId */
    char arch_name[16];          /* "sm_90" */
    int cc_major, cc_minor;      /* compute capability */
    int sm_count;                /* multiprocessors */
    int sm_clock_khz;            /* peak SM clock, cudaDevAttrClockRate */
    int mem_clock_khz;           /* peak memory clock, cudaDevAttrMemoryClockRate */
    int mem_bus_bits;            /* memory bus width */
    double dram_peak_gbps;       /* 2 x mem clock x bus width / 8: theoretical DRAM bandwidth */
    long long l2_bytes;          /* L2 cache size */
    size_t free_bytes, total_bytes; /* device memory at open */
    int driver_version, runtime_version; /* cudaDriverGetVersion / cudaRuntimeGetVersion */
    OccArchLimits limits;        /* the arch table entry, overridden by the device's attributes */
} OccDevice;

/* Opens device `index` and fills d. Returns 0, or OCC_EXIT_NO_GPU with one line in err naming
 * the CUDA error and what to do (e.g. "--dry-run --arch sm_90" without a GPU). */
int occ_device_open(int index, OccDevice *d, char *err, size_t err_len);

/* What tells the GPUs of one node apart, read without creating a context (a fleet supervisor
 * lists them, its workers measure). */
typedef struct OccDeviceId {
    int index;                   /* CUDA device ordinal (as CUDA_VISIBLE_DEVICES renumbers it) */
    char name[256];              /* cudaDeviceProp.name */
    char slug[64];               /* as OccDevice.slug */
    char uuid[48];               /* as OccDevice.uuid */
    char pci_bus_id[32];         /* as OccDevice.pci_bus_id */
} OccDeviceId;

/* Fills ids[0..*n) with every device present (at most max). 0, or OCC_EXIT_NO_GPU with one
 * line in err. */
int occ_device_list(OccDeviceId *ids, int max, int *n, char *err, size_t err_len);

/* Resources of a kernel as the runtime reports them (cudaFuncGetAttributes). 0 or -1. */
int occ_device_kernel_resources(const void *kernel, OccVariantResources *out, cudaError_t *error);

/* Formats a CUDA error as "what: cudaErrorName: message" into buf. */
void occ_device_format_error(cudaError_t e, const char *what, char *buf, size_t len);

#endif
