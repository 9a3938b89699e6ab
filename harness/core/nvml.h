/* SPDX-License-Identifier: Apache-2.0 */
/* harness/nvml.h: GPU temperature, SM clock and power through NVML, loaded at run time
 * (dlopen), so occsweep runs where NVML is absent and needs no NVML header to build. */
#ifndef OCC_NVML_H
#define OCC_NVML_H

#include <stddef.h>

/* One reading of the GPU at pci_bus_id (as cudaDeviceGetPCIBusId writes it), formatted as
 * "temp 41 C, sm clock 1980 MHz, power 412 W, throttle reasons 0x0" into buf. Returns 0, or -1
 * (buf says why, e.g. "NVML not available") when NVML or the device cannot be read. */
int occ_nvml_reading(const char *pci_bus_id, char *buf, size_t len);

#endif
