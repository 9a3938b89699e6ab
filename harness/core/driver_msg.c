/* SPDX-License-Identifier: Apache-2.0 */
/* harness/core/driver_msg.c: why no CUDA device can be used, in words (driver_msg.h). */
#include "driver_msg.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

int occ_driver_present(void)
{
    return access("/dev/nvidiactl", F_OK) == 0 || access("/proc/driver/nvidia/version", F_OK) == 0;
}

void occ_cuda_version_name(int version, char *buf, size_t len)
{
    if (version <= 0)
        snprintf(buf, len, "no CUDA driver");
    else
        snprintf(buf, len, "CUDA %d.%d", version / 1000, version % 1000 / 10);
}

void occ_no_device_message(const char *what, const char *err_name, const char *err_text,
                           int driver_present, int driver_version, int runtime_version,
                           char *buf, size_t len)
{
    const int no_device = strcmp(err_name, "cudaErrorNoDevice") == 0;
    const int old_driver = strcmp(err_name, "cudaErrorInsufficientDriver") == 0;
    char drv[32], rt[32];
    occ_cuda_version_name(driver_version, drv, sizeof drv);
    occ_cuda_version_name(runtime_version, rt, sizeof rt);
    if ((no_device || old_driver) && !driver_present)
        snprintf(buf, len, "%s: no NVIDIA driver is loaded on this machine (no /dev/nvidiactl, no "
                 "/proc/driver/nvidia/version; %s)", what, err_name);
    else if (old_driver && driver_version > 0)
        snprintf(buf, len, "%s: the NVIDIA driver (supports %s) is older than this binary's CUDA "
                 "runtime (%s; %s): update the driver, or build with a toolkit no newer than "
                 "the driver", what, drv, rt + 5, err_name);
    else if (old_driver)
        snprintf(buf, len, "%s: an NVIDIA driver is loaded but the CUDA runtime (%s) cannot use "
                 "it (%s: %s): is libcuda.so of the same driver installed?", what, rt + 5,
                 err_name, err_text);
    else if (no_device)
        snprintf(buf, len, "%s: the NVIDIA driver is loaded but lists no CUDA device (%s): see "
                 "nvidia-smi, and CUDA_VISIBLE_DEVICES if set", what, err_name);
    else
        snprintf(buf, len, "%s: %s: %s", what, err_name, err_text);
}
