/* SPDX-License-Identifier: Apache-2.0 */
/* harness/families/plugin_load.c: opening a plugin, checking it, registering its family; its
 * kernels' handles and resources. */
#define _GNU_SOURCE /* dladdr */
#include "plugin_load.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog.h"
#include "device.h"
#include "family.h"
#include "loaded_model.h"
#include "plugin_open.h"
#include "plugin_res.h"

extern const OccFamilyOps occ_family_plugin;

/* The bounds of a descriptor's numbers, as include/occsweep/plugin.h documents them. With them a
 * row's bytes in flight per SM (threads x loads_in_flight x load_bytes, at most 2048 x 2^12 x
 * 2^20 = 2^43) and its model (x dram_bytes_per_load_byte) stay far from overflow. */
enum {
    OCC_PLUGIN_MAX_DYN_SMEM_BYTES = 1 << 20, /* more than any GPU gives a block (sm_90: 227 KiB) */
    OCC_PLUGIN_MAX_LOADS_IN_FLIGHT = 4096,
    OCC_PLUGIN_MAX_LOAD_BYTES = 1 << 20,
};
#define OCC_PLUGIN_MAX_DRAM_FACTOR 16.0

/* The loaded plugin, a file static on purpose: one plugin per process, whose family joins the
 * process-wide catalog (harness/core/catalog.c) and whose kernels and resources are asked for
 * by catalog variant alone (occ_plugin_kernel, occ_plugin_resources: the point loop's kernel()
 * op and harness/families/resources.c hold no plugin state). It is set while the process is
 * single-threaded, before the options are parsed; later calls fill the caches below. The
 * descriptor, its variant table and its names are copies (plugin_open.h): nothing after the
 * load reads the plugin's own memory but through its functions. */
static struct {
    OccLoadedPlugin loaded;
    int is_loaded;
    OccPluginCopy copy; /* copy.desc is loaded.api */
    cudaKernel_t kernels[OCC_MAX_ADDED_VARIANTS]; /* from the plugin's runtime, by its index */
    int device_set; /* the device last selected in the plugin's runtime (-1: none) */
    char *report;   /* cuobjdump's resource report of the shared object (CPU plans) */
} plugin = {.device_set = -1};

/* The first fault of p's names and numbers (p: the copy), or NULL when there is none. */
static const char *descriptor_fault(const OccPlugin *p, char *buf, size_t len)
{
    const struct { const void *value; const char *name; } need[] = {
        {p->name, "name"}, {p->variants, "variants"}, {(const void *)p->get_kernel, "get_kernel"},
        {(const void *)p->set_device, "set_device"},
        {(const void *)p->func_set_attribute, "func_set_attribute"},
        {(const void *)p->setup, "setup"},
        {(const void *)p->teardown, "teardown"}, {(const void *)p->work, "work"},
        {(const void *)p->verify, "verify"},
        {p->persistent ? (const void *)p : (const void *)p->grid_blocks, "grid_blocks"},
    };
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
        if (!need[i].value) return snprintf(buf, len, "OccPlugin.%s is NULL", need[i].name), buf;
    if (strlen(p->name) > OCC_PLUGIN_MAX_NAME)
        return snprintf(buf, len, "OccPlugin.name is longer than %d characters",
                        OCC_PLUGIN_MAX_NAME), buf;
    if (strcmp(p->name, "all") == 0)
        return snprintf(buf, len, "OccPlugin.name 'all' is reserved (--kernel all selects every "
                        "kernel)"), buf;
    for (int f = 0; f < occ_family_count(); f++)
        if (strcmp(occ_family_at(f)->kernel, p->name) == 0)
            return snprintf(buf, len, "OccPlugin.name '%s' is a built-in kernel's (give the "
                            "plugin another)", p->name), buf;
    if (!isfinite(p->dram_bytes_per_load_byte) || p->dram_bytes_per_load_byte < 0 ||
        p->dram_bytes_per_load_byte > OCC_PLUGIN_MAX_DRAM_FACTOR)
        return snprintf(buf, len, "OccPlugin.dram_bytes_per_load_byte is %g (want 0..%g; 0: no "
                        "model)", p->dram_bytes_per_load_byte, OCC_PLUGIN_MAX_DRAM_FACTOR), buf;
    if (p->n_variants < 1 || p->n_variants > OCC_MAX_ADDED_VARIANTS)
        return snprintf(buf, len, "OccPlugin.n_variants is %d (want 1..%d)", p->n_variants,
                        OCC_MAX_ADDED_VARIANTS), buf;
    for (int i = 0; i < p->n_variants; i++) {
        const OccPluginVariant *v = &p->variants[i];
        const char *what = !v->name ? "name" : !v->kernel ? "kernel" : !v->launch ? "launch" : NULL;
        if (what) return snprintf(buf, len, "variants[%d].%s is NULL", i, what), buf;
        if (strlen(v->name) > OCC_PLUGIN_MAX_NAME)
            return snprintf(buf, len, "variants[%d].name is longer than %d characters", i,
                            OCC_PLUGIN_MAX_NAME), buf;
        const struct { int value, max; const char *name; } num[] = {
            {v->loads_in_flight, OCC_PLUGIN_MAX_LOADS_IN_FLIGHT, "loads_in_flight"},
            {v->load_bytes, OCC_PLUGIN_MAX_LOAD_BYTES, "load_bytes"}};
        for (size_t k = 0; k < sizeof num / sizeof num[0]; k++)
            if (num[k].value < 0 || num[k].value > num[k].max)
                return snprintf(buf, len, "variants[%d] (%s): %s is %d (want 0..%d)", i, v->name,
                                num[k].name, num[k].value, num[k].max), buf;
        if ((v->loads_in_flight > 0) != (v->load_bytes > 0))
            return snprintf(buf, len, "variants[%d] (%s): loads_in_flight and load_bytes are "
                            "both 0 or both positive", i, v->name), buf;
        if (v->dyn_smem_bytes > OCC_PLUGIN_MAX_DYN_SMEM_BYTES)
            return snprintf(buf, len, "variants[%d] (%s): dyn_smem_bytes %zu is more than a block "
                            "can have (%d)", i, v->name, v->dyn_smem_bytes,
                            OCC_PLUGIN_MAX_DYN_SMEM_BYTES), buf;
    }
    return NULL;
}



int occ_plugin_load(const char *path, char *err, size_t err_len)
{
    char why[160];
    if (plugin.is_loaded) return snprintf(err, err_len, "--plugin: one plugin per run"), -1;
    if (occ_plugin_open(path, &plugin.copy, err, err_len) != 0) return -1;
    if (plugin.copy.abi_version != OCC_PLUGIN_ABI_VERSION)
        return snprintf(err, err_len, "--plugin %s: built for plugin ABI %d, this occsweep takes "
                        "ABI %d (rebuild it against this occsweep's occsweep/plugin.h)", path,
                        plugin.copy.abi_version, OCC_PLUGIN_ABI_VERSION), -1;
    const OccPlugin *p = &plugin.copy.desc;
    if (descriptor_fault(p, why, sizeof why))
        return snprintf(err, err_len, "--plugin %s: %s", path, why), -1;
    OccVariantInfo v[OCC_MAX_ADDED_VARIANTS];
    for (int i = 0; i < p->n_variants; i++)
        v[i] = (OccVariantInfo){.name = p->variants[i].name,
                                .unroll = p->variants[i].loads_in_flight,
                                .vec_bytes = p->variants[i].load_bytes,
                                .own_dyn_smem_bytes = (int)p->variants[i].dyn_smem_bytes};
    const OccFamilyInfo f = {
        .id = p->name, .kernel = p->name, .mode = p->persistent ? "persistent" : "own_grid",
        .default_mode = 1, .shape = OCC_SHAPE_OCCUPANCY,
        .options = "unroll,occ,block,carveout,size",
        .dram_bytes_per_load_byte =
            p->dram_bytes_per_load_byte > 0 ? p->dram_bytes_per_load_byte : NAN,
        /* Its rows are predicted from the read + write curve when they store what they load. */
        .curve_traffic = p->dram_bytes_per_load_byte > 1 ? OCC_CURVE_COPY : OCC_CURVE_READ,
        /* The streaming families' default size: a launch long against its ramp and tail. */
        .size_l2_multiple = 8, .size_floor_gib = 4, .plugin_path = path};
    const int fam = occ_catalog_add_family(&f, v, p->n_variants, why, sizeof why);
    if (fam < 0) return snprintf(err, err_len, "--plugin %s: %s", path, why), -1;
    occ_family_ops_register(fam, &occ_family_plugin);
    plugin.loaded = (OccLoadedPlugin){.api = p, .path = path, .family = fam};
    plugin.is_loaded = 1;
    return fam;
}

const OccLoadedPlugin *occ_plugin_loaded(void)
{
    return plugin.is_loaded ? &plugin.loaded : NULL;
}

int occ_plugin_variant_index(const OccVariantInfo *v)
{
    if (!plugin.is_loaded || v->family != plugin.loaded.family) return -1;
    return v->slot; /* its index in the plugin's table (occ_catalog_add_family) */
}

/* The handle from the plugin's runtime, on the device occsweep's runtime has current. */
static cudaError_t plugin_kernel(int i, cudaKernel_t *k)
{
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess && dev != plugin.device_set) {
        e = plugin.loaded.api->set_device(dev);
        plugin.device_set = e == cudaSuccess ? dev : -1;
    }
    if (e == cudaSuccess && !plugin.kernels[i]) {
        e = plugin.loaded.api->get_kernel(&plugin.kernels[i],
                                          plugin.loaded.api->variants[i].kernel);
        if (e != cudaSuccess) plugin.kernels[i] = NULL;
    }
    *k = plugin.kernels[i];
    return e;
}

const void *occ_plugin_kernel(int i)
{
    cudaKernel_t k = NULL;
    return plugin_kernel(i, &k) == cudaSuccess ? (const void *)k : NULL;
}

static void no_code(const OccArchLimits *arch, const char *what, char *err, size_t err_len)
{
    snprintf(err, err_len, "--plugin %s has no code for %s (%s): rebuild it with -arch=%s",
             plugin.loaded.path, arch->name, what, arch->name);
}

/* Without a device: the kernel's symbol (its host stub's, from the shared object's symbol table)
 * looked up in cuobjdump's report of the shared object. */
static int from_cubin(const OccArchLimits *arch, int i, OccVariantResources *r, char *err,
                      size_t err_len)
{
    const OccPluginVariant *pv = &plugin.loaded.api->variants[i];
    const char *tool = getenv("OCC_CUOBJDUMP");
    if (!tool || !*tool)
        tool = access(OCC_CUOBJDUMP_PATH, X_OK) == 0 ? OCC_CUOBJDUMP_PATH : "cuobjdump";
    double timeout_s;
    if (!plugin.report && occ_plugin_timeout_s(&timeout_s, err, err_len) != 0) return -1;
    const int rc = plugin.report ? 0 : occ_plugin_res_read(tool, plugin.loaded.path, timeout_s,
                                                          &plugin.report, err, err_len);
    if (rc == -2) return no_code(arch, "cuobjdump: no device code in it", err, err_len), -1;
    if (rc != 0) return -1;
    if (!occ_plugin_res_has_arch(plugin.report, arch->name))
        return no_code(arch, "cuobjdump", err, err_len), -1;
    Dl_info info;
    char symbol[512];
    if (!dladdr(pv->kernel, &info) ||
        occ_plugin_res_symbol(info.dli_fname,
                              (unsigned long long)((const char *)pv->kernel -
                                                   (const char *)info.dli_fbase),
                              symbol, sizeof symbol) != 0)
        return snprintf(err, err_len, "--plugin %s: variant %s: no symbol names its kernel (is the "
                        "shared object stripped?)", plugin.loaded.path, pv->name), -1;
    OccKernelResources t;
    const char *bad = NULL;
    const int parsed = occ_plugin_res_parse(plugin.report, symbol, arch->name, &t, &bad);
    const size_t bad_len = parsed == -2 ? strcspn(bad, " \n") : 0;
    if (parsed == -2)
        return snprintf(err, err_len, "--plugin %s: variant %s: %s -res-usage gives kernel %s on "
                        "%s '%.*s', not a whole number", plugin.loaded.path, pv->name, tool,
                        symbol, arch->name, (int)(bad_len < 60 ? bad_len : 60), bad), -1;
    if (parsed != 0)
        return snprintf(err, err_len, "--plugin %s: variant %s: kernel %s is not in its %s cubin",
                        plugin.loaded.path, pv->name, symbol, arch->name), -1;
    int smem = t.static_smem_bytes;
    const int reserved = arch->smem_reserved_per_block_bytes;
    if (reserved && smem >= reserved) smem -= reserved; /* as resources.c, see resources.h */
    *r = (OccVariantResources){.regs_per_thread = t.regs_per_thread,
                               .local_bytes_per_thread = t.stack_bytes_per_thread,
                               .static_smem_bytes = smem};
    return 0;
}

int occ_plugin_resources(const OccArchLimits *arch, int have_device, const OccVariantInfo *v,
                         OccVariantResources *r, char *err, size_t err_len)
{
    const int i = occ_plugin_variant_index(v);
    if (i < 0) return snprintf(err, err_len, "%s is no plugin variant", v->name), -1;
    if (!have_device) {
        if (from_cubin(arch, i, r, err, err_len) != 0) return -1;
    } else {
        cudaKernel_t k;
        cudaError_t e = plugin_kernel(i, &k);
        if (e == cudaSuccess) occ_device_kernel_resources((const void *)k, r, &e);
        if (e == cudaErrorNoKernelImageForDevice || e == cudaErrorInvalidDeviceFunction ||
            e == cudaErrorInvalidKernelImage)
            return no_code(arch, cudaGetErrorName(e), err, err_len), -1;
        if (e != cudaSuccess) return occ_device_format_error(e, v->name, err, err_len), -1;
        r->loads_in_flight_sass = 0;
    }
    return 0;
}
