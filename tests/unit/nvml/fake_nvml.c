/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/nvml/fake_nvml.c: a stand-in libnvidia-ml.so.1 for test_nvml: one GPU at bus
 * 0000:01:00.0, 41 C, 1980 MHz, 120 W. Built twice: with OCC_FAKE_EVENTS it exports the
 * clocks-event-reasons call (mask 0x4) beside the deprecated throttle-reasons one (mask 0x1), as
 * current drivers do; without it only the deprecated one, as old drivers do. */
#include <string.h>

typedef void *NvmlDevice;
static int device;

int nvmlInit_v2(void)
{
    return 0;
}
int nvmlShutdown(void)
{
    return 0;
}
int nvmlDeviceGetHandleByPciBusId_v2(const char *bus, NvmlDevice *d)
{
    *d = &device;
    return strcmp(bus, "0000:01:00.0") == 0 ? 0 : 1;
}
int nvmlDeviceGetTemperature(NvmlDevice d, int sensor, unsigned *c)
{
    (void)d, (void)sensor;
    *c = 41;
    return 0;
}
int nvmlDeviceGetClockInfo(NvmlDevice d, int clock, unsigned *mhz)
{
    (void)d, (void)clock;
    *mhz = 1980;
    return 0;
}
int nvmlDeviceGetPowerUsage(NvmlDevice d, unsigned *mw)
{
    (void)d;
    *mw = 120000;
    return 0;
}
int nvmlDeviceGetCurrentClocksThrottleReasons(NvmlDevice d, unsigned long long *why)
{
    (void)d;
    *why = 0x1;
    return 0;
}
#ifdef OCC_FAKE_EVENTS
int nvmlDeviceGetCurrentClocksEventReasons(NvmlDevice d, unsigned long long *why)
{
    (void)d;
    *why = 0x4;
    return 0;
}
#endif
