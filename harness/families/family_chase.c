/* SPDX-License-Identifier: Apache-2.0 */
/* harness/families/family_chase.c: the pointer-chase throughput families, warp and thread mode.
 * Each chain follows dependent loads through a random single cycle of lines (chase_footprint.h).
 * Chains start spaced evenly along the cycle and make, on average, a whole number of times as many
 * hops as their stretch has lines (at least LAUNCH_HOPS), so a launch reads the footprint that
 * many times over, a line comes back only after the whole footprint (>> L2) has been read, and
 * every launch rotates the start points. The warps claim their hops (kernels/api.h,
 * OccChaseArgs), so every warp walks to the end of the launch: a chain whose SM is served faster
 * walks on into the next stretch, read a whole footprint earlier. Verified by the host's walk of
 * the same cycle, as far as each warp's trips took it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "chase_footprint.h"
#include "claims.h"
#include "family.h"
#include "family_chase.h"
#include "flops.h"

/* One compiled chase kernel. */
typedef struct ChaseKernel {
    const char *name;
    OccChaseLaunchFn launch;
    OccKernelHandleFn kernel;
    int chains; /* K: chains per warp or thread */
} ChaseKernel;
#define ENTRY(mode, k)                                                                             \
    {"chase_" #mode "_k" #k, occ_launch_chase_##mode##_k##k, occ_kernel_chase_##mode##_k##k, k},
static const ChaseKernel kernels[] = {OCC_CHASE_VARIANTS(ENTRY)};
#undef ENTRY
/* MIN_HOPS: the fewest lines a chain's stretch may have. LAUNCH_HOPS: the fewest hops a chain makes
 * per launch; a chain whose stretch is shorter walks the footprint's stretches that many times over
 * (a line still comes back only after the whole footprint has been read), so a launch lasts
 * hundreds of microseconds or more at any occupancy: long against the blocks' launch ramp and a
 * claim's chunk. */
enum { N_KERNELS = sizeof kernels / sizeof kernels[0], MIN_HOPS = 8, LAUNCH_HOPS = 1024 };

typedef struct ChaseState {
    OccFootprint fp;
    OccClaims b;               /* the chains' ends, each warp's trips and the claim counters */
    int per_warp;              /* 1: one chain per warp (warp mode); 0: one per thread */
    const ChaseKernel *k;      /* the bound variant */
    OccLaunch launch;
    OccChaseArgs args;
    size_t chains;             /* chains of the bound launch */
    size_t chains_per_warp;    /* K (warp mode) or 32 x K (thread mode) */
    long long warps;           /* warps of the bound launch */
} ChaseState;

static void teardown(void *sp)
{
    ChaseState *c = sp;
    if (!c) return;
    occ_footprint_free(&c->fp);
    occ_claims_free(&c->b);
    free(c);
}

/* Thread mode has 32x the chains of warp mode at the same occupancy: 32-byte lines (one sector
 * each) and a larger default footprint (kernels/families/chase.h) keep every chain >= MIN_HOPS hops. */
static int setup_mode(void **out, const char *mode, unsigned int line_words, const OccRunEnv *env,
                      char *err, size_t err_len)
{
    ChaseState *c = occ_family_state_new(sizeof *c, "chase", err, err_len);
    *out = c;
    if (!c) return -1;
    c->per_warp = line_words == 32;
    const OccFamilyInfo *f = occ_family_at(occ_family_find("chase", mode));
    long long bytes = env->opt->size_bytes
                          ? env->opt->size_bytes
                          : occ_family_default_bytes(f, env->dev->l2_bytes,
                                                     (long long)env->dev->free_bytes);
    int max_k = 0;
    for (int i = 0; i < N_KERNELS; i++)
        if (kernels[i].chains > max_k) max_k = kernels[i].chains;
    const size_t max_threads = (size_t)env->max_grid_blocks * (size_t)env->max_block_threads;
    const size_t max_chains = max_threads * max_k;
    if (occ_footprint_init(&c->fp, (size_t)bytes, line_words, OCC_CHASE_INDEX4, max_chains,
                           0xc4a5eull, err, err_len) != 0) {
        teardown(c);
        *out = NULL;
        return -1;
    }
    const cudaError_t e = occ_claims_alloc(&c->b, max_chains * 4, max_threads / 32);
    if (e != cudaSuccess) {
        occ_device_format_error(e, "allocating the chase's claims", err, err_len);
        teardown(c);
        *out = NULL;
        return -1;
    }
    env->meta(env->meta_user, "chase_footprint_bytes", "%lld", occ_footprint_bytes(&c->fp));
    env->meta(env->meta_user, "chase_line_bytes", "%u", 4 * line_words);
    env->meta(env->meta_user, "chase_perm_build_ms", "%.1f", c->fp.perm_build_ms);
    return 0;
}

static int setup_warp(void **out, const OccRunEnv *env, char *err, size_t err_len)
{
    return setup_mode(out, "warp", 32, env, err, err_len);
}

static int setup_thread(void **out, const OccRunEnv *env, char *err, size_t err_len)
{
    return setup_mode(out, "thread", 8, env, err, err_len);
}

static const void *kernel(const OccVariantInfo *v)
{
    return v->slot >= 0 && v->slot < N_KERNELS ? kernels[v->slot].kernel() : NULL;
}

static int bind(void *sp, const OccVariantInfo *v, const OccShape *s, OccRow *r,
                long long *touched_bytes, char *skip, size_t skip_len)
{
    ChaseState *c = sp;
    const OccFootprint *fp = &c->fp;
    const size_t threads = (size_t)s->launch.grid_blocks * s->launch.block_threads;
    c->chains_per_warp = (c->per_warp ? 1 : 32) * (size_t)v->unroll;
    c->warps = (long long)(threads / 32);
    c->chains = (size_t)c->warps * c->chains_per_warp;
    const size_t spacing = c->chains ? fp->n_lines / c->chains : 0;
    const double line_bytes = 4.0 * fp->line_words;
    r->buffer_bytes = occ_footprint_bytes(fp);
    *touched_bytes = r->buffer_bytes;
    if (c->chains > fp->max_chains || spacing < MIN_HOPS) {
        snprintf(skip, skip_len, "footprint holds %zu lines for %zu chains; raise --size",
                 fp->n_lines, c->chains);
        return 1;
    }
    const size_t rounds = (LAUNCH_HOPS + spacing - 1) / spacing;
    const size_t hops = spacing * rounds;
    c->k = &kernels[v->slot];
    c->launch = s->launch;
    const unsigned int groups = (unsigned int)(c->warps < OCC_CLAIM_GROUPS_MAX
                                                   ? c->warps
                                                   : OCC_CLAIM_GROUPS_MAX);
    c->args = (OccChaseArgs){.lines = fp->lines, .order = fp->order, .n_lines = fp->n_lines,
                             .line_words = fp->line_words, .chain_spacing = spacing, .shift = 0,
                             .trips_per_warp = (unsigned int)hops,
                             .chunk_trips = occ_fma_chunk_trips((int)hops),
                             .claim_groups = groups, .ends = c->b.out,
                             .warp_trips = c->b.warp_trips,
                             .claim = (unsigned int *)c->b.claim,
                             .warps_done = c->b.warps_done};
    r->bytes_per_launch = (long long)((double)c->chains * (double)hops * line_bytes);
    r->bytes_in_flight_per_sm = (long long)(c->chains / (size_t)s->sm_count * line_bytes);
    return 0;
}

/* One launch; each launch rotates the start points by a large odd step, so consecutive launches
 * start elsewhere in every chain's stretch. */
static cudaError_t launch(void *sp, cudaStream_t st, unsigned long long *probe)
{
    ChaseState *c = sp;
    c->launch.stream = st;
    c->args.probe = probe;
    cudaError_t e = c->k->launch(&c->launch, &c->args);
    c->args.shift = (c->args.shift + 1000003u) % c->args.n_lines;
    return e;
}

/* Launches once with a known shift and counts chains that did not end where the host's walk of
 * the same cycle ends after their warp's trips, and checks that the warps ran the launch's
 * trips. */
static cudaError_t verify(void *sp, cudaStream_t st, OccRow *r, char *status, size_t len)
{
    ChaseState *c = sp;
    const OccFootprint *fp = &c->fp;
    c->args.shift = 12345 % fp->n_lines;
    const size_t shift = c->args.shift;
    const cudaError_t e = occ_claims_run_checked(&c->b, c->chains * 4, c->warps, st, launch, c);
    if (e != cudaSuccess) return e;
    const unsigned int *ends = c->b.host, *trips = c->b.host_trips;
    size_t bad = 0;
    for (size_t i = 0; i < c->chains; i++) {
        const size_t walked = trips[i / c->chains_per_warp];
        const size_t pos = (i * c->args.chain_spacing + shift + walked) % fp->n_lines;
        bad += ends[i] != fp->host_order[pos] * fp->line_words;
    }
    unsigned long long ran = 0;
    for (long long w = 0; w < c->warps; w++) ran += trips[w];
    const unsigned long long want = (unsigned long long)c->warps * c->args.trips_per_warp;
    r->verify_err = (double)bad;
    if (bad)
        snprintf(status, len, "fail:chains ended away from the host-walked line");
    else if (ran != want)
        snprintf(status, len, "fail:the warps ran %llu trips, the launch had %llu", ran, want);
    else
        snprintf(status, len, "ok");
    return cudaSuccess;
}

static void fill(void *sp, const OccTiming *t, OccRow *r)
{
    const ChaseState *c = sp;
    const double hops = (double)c->chains * (double)c->args.trips_per_warp;
    r->hops_per_s_median = hops / (t->stats.median * 1e-3);
    /* The loaded latency per hop: a chain makes trips_per_warp dependent hops per launch on
     * average, and every chain walks for the whole launch. */
    r->ns_per_hop_median = t->stats.median * 1e6 / (double)c->args.trips_per_warp;
}

const OccFamilyOps occ_family_chase_warp = {.setup = setup_warp, .teardown = teardown,
                                            .kernel = kernel, .bind = bind, .launch = launch,
                                            .verify = verify, .fill = fill};
const OccFamilyOps occ_family_chase_thread = {.setup = setup_thread, .teardown = teardown,
                                              .kernel = kernel, .bind = bind, .launch = launch,
                                              .verify = verify, .fill = fill};

OccChaseLaunchFn occ_chase_launcher(const OccVariantInfo *v)
{
    const int ours = v->slot >= 0 && v->slot < N_KERNELS &&
                     strcmp(kernels[v->slot].name, v->name) == 0;
    return ours ? kernels[v->slot].launch : NULL;
}
