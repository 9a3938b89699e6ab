/* SPDX-License-Identifier: Apache-2.0 */
/* harness/families/family_plugin.c: the family of a loaded plugin (plugin_load.h): OccFamilyOps
 * over the plugin's own set-up, launchers, work and verification (include/occsweep/plugin.h). A
 * persistent plugin gets the loop's one-wave grid; another launches the grid it asks for, its
 * occupancy set by the padding alone. */
#include <stdio.h>
#include <stdlib.h>

#include "family.h"
#include "plugin_load.h"

typedef struct PluginState {
    const OccLoadedPlugin *p;
    void *user;             /* the plugin's own state */
    long long size_bytes;   /* the problem size set-up was asked for */
    int v;                  /* bound variant: index into p->api->variants */
    OccPluginLaunch launch; /* bound launch shape (stream and probe set per launch) */
    int set_up;             /* 1: the plugin's setup succeeded, its teardown is due */
} PluginState;

/* The plugin's teardown runs only after its setup succeeded (s->set_up). */
static void teardown(void *sp)
{
    PluginState *s = sp;
    if (s && s->set_up) s->p->api->teardown(s->user);
    free(s);
}

static int setup(void **out, const OccRunEnv *env, char *err, size_t err_len)
{
    PluginState *s = occ_family_state_new(sizeof *s, "plugin", err, err_len);
    *out = s;
    if (!s) return -1;
    s->p = occ_plugin_loaded();
    s->size_bytes = env->stream->want_bytes;
    const OccPlugin *api = s->p->api;
    cudaError_t e = api->set_device(env->dev->index);
    if (e == cudaSuccess) e = api->setup(&s->user, s->size_bytes, env->timer->stream);
    if (e != cudaSuccess) {
        char what[128];
        snprintf(what, sizeof what, "plugin %s: setup for %lld bytes", api->name, s->size_bytes);
        occ_device_format_error(e, what, err, err_len);
        teardown(s);
        *out = NULL;
        return -1;
    }
    s->set_up = 1;
    env->meta(env->meta_user, "plugin", "%s", s->p->path);
    env->meta(env->meta_user, "plugin_grid", "%s", api->persistent ? "persistent" : "own_grid");
    return 0;
}

static const void *kernel(const OccVariantInfo *v)
{
    return occ_plugin_kernel(occ_plugin_variant_index(v));
}

static int bind(void *sp, const OccVariantInfo *v, const OccShape *sh, OccRow *r,
                long long *touched_bytes, char *skip, size_t skip_len)
{
    PluginState *s = sp;
    const OccPlugin *api = s->p->api;
    long long bytes = 0, flops = 0;
    s->v = occ_plugin_variant_index(v);
    s->launch = (OccPluginLaunch){.grid_blocks = sh->launch.grid_blocks,
                                  .block_threads = sh->launch.block_threads,
                                  .dyn_smem_bytes = sh->launch.dyn_smem_bytes};
    api->work(s->user, s->v, &bytes, &flops);
    r->buffer_bytes = s->size_bytes;
    r->bytes_per_launch = bytes;
    r->flops_per_launch = flops;
    *touched_bytes = bytes;
    if (sh->blocks_per_sm == 0) return 0;
    /* The launches happen in the plugin's runtime: its limit is set there too. */
    const cudaError_t e = api->func_set_attribute(api->variants[s->v].kernel,
                                                  cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                  (int)sh->launch.dyn_smem_bytes);
    if (e != cudaSuccess) {
        snprintf(skip, skip_len, "plugin %s: its runtime refused %zu B of dynamic shared memory "
                 "(%s)", api->name, sh->launch.dyn_smem_bytes, cudaGetErrorName(e));
        return 1;
    }
    if (api->persistent) return 0;
    s->launch.grid_blocks = api->grid_blocks(s->user, s->v, sh->launch.block_threads);
    r->grid_blocks = s->launch.grid_blocks;
    if (s->launch.grid_blocks > 0) return 0;
    snprintf(skip, skip_len, "plugin %s gives no grid for %d threads per block", api->name,
             sh->launch.block_threads);
    return 1;
}

static cudaError_t launch(void *sp, cudaStream_t st, unsigned long long *probe)
{
    PluginState *s = sp;
    s->launch.stream = st;
    s->launch.probe = probe;
    return s->p->api->variants[s->v].launch(s->user, &s->launch);
}

static cudaError_t verify(void *sp, cudaStream_t st, OccRow *r, char *status, size_t len)
{
    PluginState *s = sp;
    int ok = 0;
    s->launch.stream = st;
    s->launch.probe = NULL;
    cudaError_t e = s->p->api->verify(s->user, s->v, &s->launch, &r->verify_err, &ok);
    if (e == cudaSuccess) e = cudaStreamSynchronize(st);
    if (ok) snprintf(status, len, "ok");
    else snprintf(status, len, "fail:plugin %s verification failed (error %g)", s->p->api->name,
                  r->verify_err);
    return e;
}

const OccFamilyOps occ_family_plugin = {.setup = setup, .teardown = teardown, .kernel = kernel,
                                        .bind = bind, .launch = launch, .verify = verify};
