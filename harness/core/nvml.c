/* SPDX-License-Identifier: Apache-2.0 */
/* harness/nvml.c: the few NVML calls occsweep logs, resolved with dlsym. The prototypes below are
 * NVML's documented C API (nvmlReturn_t is an int, 0 = success; a device is an opaque handle). */
#include "nvml.h"

#include <dlfcn.h>
#include <stdio.h>

typedef void *NvmlDevice;
enum { NVML_TEMPERATURE_GPU = 0, NVML_CLOCK_SM = 1 };

int occ_nvml_reading(const char *pci_bus_id, char *buf, size_t len)
{
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(buf, len, "NVML not available");
        return -1;
    }
    int (*init)(void) = (int (*)(void))dlsym(lib, "nvmlInit_v2");
    int (*shutdown)(void) = (int (*)(void))dlsym(lib, "nvmlShutdown");
    int (*by_bus)(const char *, NvmlDevice *) =
        (int (*)(const char *, NvmlDevice *))dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
    int (*temp)(NvmlDevice, int, unsigned *) =
        (int (*)(NvmlDevice, int, unsigned *))dlsym(lib, "nvmlDeviceGetTemperature");
    int (*clock)(NvmlDevice, int, unsigned *) =
        (int (*)(NvmlDevice, int, unsigned *))dlsym(lib, "nvmlDeviceGetClockInfo");
    int (*power)(NvmlDevice, unsigned *) =
        (int (*)(NvmlDevice, unsigned *))dlsym(lib, "nvmlDeviceGetPowerUsage");
    /* The clocks-event-reasons call (NVML 12.x and later drivers) replaces the deprecated
     * throttle-reasons one, which older drivers alone have; both return the same bit mask. */
    void *reasons_sym = dlsym(lib, "nvmlDeviceGetCurrentClocksEventReasons");
    if (!reasons_sym) reasons_sym = dlsym(lib, "nvmlDeviceGetCurrentClocksThrottleReasons");
    int (*reasons)(NvmlDevice, unsigned long long *) =
        (int (*)(NvmlDevice, unsigned long long *))reasons_sym;
    int rc = -1;
    NvmlDevice dev = NULL;
    unsigned t = 0, mhz = 0, mw = 0;
    unsigned long long why = 0;
    if (!init || !shutdown || !by_bus || !temp || !clock || !power || !reasons) {
        snprintf(buf, len, "NVML lacks an expected function");
    } else if (init() != 0) {
        snprintf(buf, len, "NVML did not initialise");
    } else {
        if (by_bus(pci_bus_id, &dev) == 0 && temp(dev, NVML_TEMPERATURE_GPU, &t) == 0 &&
            clock(dev, NVML_CLOCK_SM, &mhz) == 0 && power(dev, &mw) == 0 && reasons(dev, &why) == 0) {
            snprintf(buf, len, "temp %u C, sm clock %u MHz, power %u W, throttle reasons 0x%llx", t,
                     mhz, mw / 1000, why);
            rc = 0;
        } else {
            snprintf(buf, len, "NVML could not read device %s", pci_bus_id);
        }
        shutdown();
    }
    dlclose(lib);
    return rc;
}
