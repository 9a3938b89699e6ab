/* SPDX-License-Identifier: Apache-2.0 */
/* tests/cli/plugin_stub.c: shared objects the plugin loader must refuse, one line each
 * (tests/cli/test_plugin.sh), by OCC_STUB: 1 no occ_plugin symbol, 2 another ABI version, 3 a
 * required field NULL (verify), 4 a name the catalog refuses, 5 occ_plugin() returning a wild
 * pointer, 6 occ_plugin exported as the descriptor itself (data, not a function), 7 a descriptor
 * whose variant table is unreadable, 8 loads_in_flight and load_bytes of INT_MAX, 9
 * dram_bytes_per_load_byte 1e308, 10 the name "all", 11 a built-in kernel's name ("copy"), 12 a
 * valid descriptor (built without device code, as every case is: refused when its registers are
 * looked up without a GPU); the descriptor of 12 with a constructor that calls exit(0) (13),
 * crashes (14) or never returns (15), or with an occ_plugin() that calls exit(0) (16). No
 * kernel: never launched. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "occsweep/plugin.h"

/* Addresses below the lowest one Linux maps (vm.mmap_min_addr, 4 KiB at least): never
 * readable. */
#define OCC_STUB_WILD(type) ((type)(uintptr_t)0x1008)

#if OCC_STUB != 1
static cudaError_t setup(void **state, long long size_bytes, cudaStream_t stream)
{
    (void)size_bytes, (void)stream;
    *state = 0;
    return cudaSuccess;
}
static void teardown(void *state) { (void)state; }
static void work(void *state, int v, long long *bytes, long long *flops)
{
    (void)state, (void)v;
    *bytes = *flops = 0;
}
static cudaError_t verify(void *state, int v, const OccPluginLaunch *l, double *e, int *ok)
{
    (void)state, (void)v, (void)l;
    *e = 0;
    *ok = 1;
    return cudaSuccess;
}
static cudaError_t launch(void *state, const OccPluginLaunch *l)
{
    (void)state, (void)l;
    return cudaSuccess;
}
static cudaError_t get_kernel(cudaKernel_t *k, const void *entry)
{
    (void)k, (void)entry;
    return cudaErrorInvalidDeviceFunction;
}
static cudaError_t set_device(int device)
{
    (void)device;
    return cudaSuccess;
}
static cudaError_t set_attribute(const void *entry, enum cudaFuncAttribute attr, int value)
{
    (void)entry, (void)attr, (void)value;
    return cudaSuccess;
}

#if OCC_STUB == 8
#define OCC_STUB_LOADS INT_MAX, INT_MAX
#else
#define OCC_STUB_LOADS 4, 16
#endif
#if OCC_STUB == 4
#define OCC_STUB_NAME "my kernel"
#elif OCC_STUB == 10
#define OCC_STUB_NAME "all"
#elif OCC_STUB == 11
#define OCC_STUB_NAME "copy"
#else
#define OCC_STUB_NAME "stub"
#endif

static const OccPluginVariant variants[] = {
    {"stub_v1", (const void *)&variants, launch, OCC_STUB_LOADS, 0}};
#define OCC_STUB_PLUGIN                                                                          \
    {.abi_version = OCC_STUB == 2 ? OCC_PLUGIN_ABI_VERSION + 1 : OCC_PLUGIN_ABI_VERSION,          \
     .name = OCC_STUB_NAME, .persistent = 1,                                                     \
     .dram_bytes_per_load_byte = OCC_STUB == 9 ? 1e308 : 1,                                      \
     .variants = OCC_STUB == 7 ? OCC_STUB_WILD(const OccPluginVariant *) : variants,             \
     .n_variants = 1, .get_kernel = get_kernel, .set_device = set_device,                       \
     .func_set_attribute = set_attribute, .setup = setup, .teardown = teardown, .work = work,    \
     .verify = OCC_STUB == 3 ? 0 : verify}

#if OCC_STUB == 6
/* The descriptor itself under the entry's name (the header's occ_plugin() is only declared
 * here, so the symbol is this object): calling it would jump into read-only data. */
OCC_PLUGIN_EXPORT const OccPlugin occ_plugin_as_data __asm__("occ_plugin") = OCC_STUB_PLUGIN;
#else
static const OccPlugin plugin = OCC_STUB_PLUGIN;

const OccPlugin *occ_plugin(void)
{
    if (OCC_STUB == 16) exit(0);
    return OCC_STUB == 5 ? OCC_STUB_WILD(const OccPlugin *) : &plugin;
}
#endif

#if OCC_STUB >= 13 && OCC_STUB <= 15
/* Run by dlopen, before occsweep sees the descriptor. */
__attribute__((constructor)) static void stub_constructor(void)
{
    if (OCC_STUB == 13) exit(0);
    if (OCC_STUB == 14) *OCC_STUB_WILD(volatile int *) = 1;
    for (;;) pause();
}
#endif
#else
int occ_plugin_stub_has_no_entry;
#endif
