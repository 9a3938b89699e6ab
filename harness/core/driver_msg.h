/* SPDX-License-Identifier: Apache-2.0 */
/* harness/core/driver_msg.h: why no CUDA device can be used, in words: no NVIDIA driver on this machine,
 * a driver older than the CUDA runtime the binary carries, or a driver that lists no device.
 * Pure: no CUDA header (the caller passes the error's name and text). */
#ifndef OCC_DRIVER_MSG_H
#define OCC_DRIVER_MSG_H

#include <stddef.h>

/* 1 when an NVIDIA kernel driver is loaded here (/dev/nvidiactl or /proc/driver/nvidia/version),
 * else 0. */
int occ_driver_present(void);

/* "CUDA 12.4" for a CUDA version as cudaDriverGetVersion/cudaRuntimeGetVersion give it (12040);
 * "no CUDA driver" for 0. */
void occ_cuda_version_name(int version, char *buf, size_t len);

/* One line (no newline) into buf, after `what` (e.g. "no usable CUDA device
 * (cudaGetDeviceCount)"): the CUDA error `err_name` (cudaGetErrorName) with `err_text`
 * (cudaGetErrorString) explained by whether a driver is present and the driver's and runtime's
 * versions (cudaDriverGetVersion, cudaRuntimeGetVersion; 0 when unknown). */
void occ_no_device_message(const char *what, const char *err_name, const char *err_text,
                           int driver_present, int driver_version, int runtime_version,
                           char *buf, size_t len);

#endif
