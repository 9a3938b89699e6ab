/* SPDX-License-Identifier: Apache-2.0 */
/* tests/plugin_stub.c: shared objects the plugin loader must refuse, one line each
 * (tests/test_plugin.sh), by OCC_STUB: 1 no occ_plugin symbol, 2 another ABI version, 3 a
 * required field NULL (verify), 4 a name the catalog refuses. No kernel: never launched. */
#include "occsweep/plugin.h"

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

static const OccPluginVariant variants[] = {{"stub_v1", (const void *)&variants, launch, 0, 0, 0}};
static const OccPlugin plugin = {
    .abi_version = OCC_STUB == 2 ? OCC_PLUGIN_ABI_VERSION + 1 : OCC_PLUGIN_ABI_VERSION,
    .name = OCC_STUB == 4 ? "my kernel" : "stub", .persistent = 1, .variants = variants,
    .n_variants = 1, .get_kernel = get_kernel, .set_device = set_device,
    .func_set_attribute = set_attribute, .setup = setup,
    .teardown = teardown, .work = work, .verify = OCC_STUB == 3 ? 0 : verify};

const OccPlugin *occ_plugin(void) { return &plugin; }
#else
int occ_plugin_stub_has_no_entry;
#endif
