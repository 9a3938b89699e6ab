/* SPDX-License-Identifier: Apache-2.0 */
/* harness/families/family_smem.c: the smem family (kernels/smem.cu, layouts in
 * kernels/smem_mma.h). Mode chase: K pointer chains per warp through a random single cycle of
 * the tile's rows, each hop one conflict-free 128-byte row; the rate is hops/s and shared-memory
 * GB/s, ns_per_hop_median a chain's time per hop. Modes stream (loads only) and rw (loads and
 * stores): U independent conflict-free loads of V bytes per thread; the rate is shared-memory
 * GB/s, which the knee report sets against the clock-derived peak (32 banks x 4 B per clock per
 * SM, harness/core/arch.c). The tile is the kernel's own dynamic shared memory
 * (kernels/families/smem.h); the occupancy padding comes after it. A launch runs trips x (its warps) warp
 * trips, claimed per warp as in the fma family, sized so that a full-occupancy launch lasts about
 * OCC_ONCHIP_LAUNCH_MS at the peak. Verified exactly: every chain's end and every thread's
 * checksum from the trips its warp ran (onchip.h), and the warps' trips must add up. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "claims.h"
#include "family.h"
#include "flops.h"
#include "onchip.h"
#include "perm.h"
#include "smem_mma.h"

typedef struct SmemKernel {
    const char *name;         /* the variant name (catalog) */
    OccSmemLaunchFn launch;   /* enqueues one launch */
    OccKernelHandleFn kernel; /* the kernel, for the runtime's attribute and occupancy APIs */
    int rw;                   /* stream: 1 when it also stores (mode rw); chase: 0 */
    int chase;                /* 1: a chase variant (unroll = chains K per warp) */
} SmemKernel;

#define CHASE(k) {"smem_chase_k" #k, occ_launch_smem_chase_k##k, occ_kernel_smem_chase_k##k, 0, 1},
#define STREAM(mode, rw, u, v)                                                                     \
    {"smem_" #mode "_u" #u "_v" #v, occ_launch_smem_##mode##_u##u##_v##v,                         \
     occ_kernel_smem_##mode##_u##u##_v##v, rw, 0},
static const SmemKernel kernels[] = {OCC_SMEM_CHASE_VARIANTS(CHASE)
                                         OCC_SMEM_STREAM_VARIANTS(STREAM)};
#undef CHASE
#undef STREAM
enum { N_KERNELS = sizeof kernels / sizeof kernels[0] };

/* Most words one thread stores (the chase's largest K), and the stream's seed. */
enum { MAX_OUT_WORDS = 8 };
static const unsigned int SEED = 0x5eed5u;
/* The seed of the chase's random cycle through the tile's rows. */
static const unsigned long long ORDER_SEED = 0x0cc5e3dull;

typedef struct SmemState {
    const OccDevice *dev;
    OccClaims b;                        /* results (words), trips, counters (claims.h) */
    unsigned int *order, host_order[OCC_SMEM_CHASE_ROWS]; /* the chase's cycle, device and host */
    const SmemKernel *k;                /* the bound point */
    OccLaunch launch;
    OccSmemArgs args;
    int unroll, vec_bytes;
} SmemState;

static void teardown(void *sp)
{
    SmemState *s = sp;
    if (!s) return;
    occ_claims_free(&s->b);
    cudaFree(s->order);
    free(s);
}

static int setup(void **out, const OccRunEnv *env, char *err, size_t err_len)
{
    SmemState *s = occ_family_state_new(sizeof *s, "smem", err, err_len);
    *out = s;
    if (!s) return -1;
    s->dev = env->dev;
    const size_t threads = (size_t)env->max_grid_blocks * (size_t)env->max_block_threads;
    uint32_t next[OCC_SMEM_CHASE_ROWS];
    occ_perm_cycle(next, s->host_order, OCC_SMEM_CHASE_ROWS, ORDER_SEED);
    cudaError_t e = occ_claims_alloc(&s->b, threads * MAX_OUT_WORDS * 4, threads / 32);
    if (e == cudaSuccess) e = cudaMalloc((void **)&s->order, sizeof s->host_order);
    if (e == cudaSuccess)
        e = cudaMemcpy(s->order, s->host_order, sizeof s->host_order, cudaMemcpyHostToDevice);
    if (e != cudaSuccess) {
        occ_device_format_error(e, "allocating the smem family's buffers", err, err_len);
        teardown(s);
        *out = NULL;
        return -1;
    }
    env->meta(env->meta_user, "smem_bytes_per_sm_clk", "%d",
              env->dev->limits.smem_bytes_per_sm_clk);
    env->meta(env->meta_user, "smem_chase_rows", "%d", OCC_SMEM_CHASE_ROWS);
    return 0;
}

static const void *kernel(const OccVariantInfo *v)
{
    return v->slot >= 0 && v->slot < N_KERNELS ? kernels[v->slot].kernel() : NULL;
}

/* Shared-memory bytes one trip of a warp moves: 64 hops of a 128-byte row (chase); 32 loads of
 * 32 x V bytes, twice for rw (stream). */
static double bytes_per_warp_trip(const SmemKernel *k, int vec_bytes)
{
    return k->chase ? (double)OCC_SMEM_CHASE_LOADS_PER_TRIP * 128.0
                    : (double)OCC_SMEM_STREAM_LOADS_PER_TRIP * 32.0 * vec_bytes * (1 + k->rw);
}

/* Dependent steps a chain makes per trip: hops (chase), rounds of U loads (stream). */
static int steps_per_trip(const SmemState *c)
{
    return c->k->chase ? OCC_SMEM_CHASE_LOADS_PER_TRIP / c->unroll
                       : OCC_SMEM_STREAM_LOADS_PER_TRIP / c->unroll;
}

static long long warps_of(const SmemState *c)
{
    return (long long)c->launch.grid_blocks * c->launch.block_threads / 32;
}

static int bind(void *sp, const OccVariantInfo *v, const OccShape *s, OccRow *r,
                long long *touched_bytes, char *skip, size_t skip_len)
{
    SmemState *c = sp;
    (void)skip, (void)skip_len;
    c->k = &kernels[v->slot];
    c->launch = s->launch;
    c->unroll = v->unroll;
    c->vec_bytes = v->vec_bytes;
    const OccArchLimits *l = &c->dev->limits;
    const unsigned int trips =
        occ_onchip_trips(bytes_per_warp_trip(c->k, v->vec_bytes), l->smem_bytes_per_sm_clk,
                         l->max_warps_per_sm, c->dev->sm_clock_khz / 1000.0, 1u << 16);
    const long long warps = warps_of(c);
    const unsigned int chains = (unsigned int)s->launch.block_threads / 32u * (unsigned)v->unroll;
    c->args = (OccSmemArgs){.out = c->b.out, .warp_trips = c->b.warp_trips,
                            .total_trips = (unsigned int)(trips * warps),
                            .chunk_trips = occ_fma_chunk_trips((int)trips), .claim = c->b.claim,
                            .warps_done = c->b.warps_done, .order = c->order,
                            .rows = OCC_SMEM_CHASE_ROWS, .step = 1,
                            .chain_spacing = chains >= OCC_SMEM_CHASE_ROWS
                                                 ? 1u
                                                 : OCC_SMEM_CHASE_ROWS / chains,
                            .seed = SEED, .hold_zero = 0};
    const unsigned long long total = c->args.total_trips;
    r->buffer_bytes = (long long)v->own_dyn_smem_bytes;
    r->bytes_per_launch =
        (long long)(c->k->chase ? occ_smem_chase_bytes(total)
                                : occ_smem_stream_bytes(total, c->k->rw, v->vec_bytes));
    /* Bytes of loads in flight per SM: warps x (K rows of 128 B | 32 lanes x U x V). */
    const long long warps_per_sm = (long long)s->blocks_per_sm * (s->launch.block_threads / 32);
    r->bytes_in_flight_per_sm = warps_per_sm * (c->k->chase ? 128LL * v->unroll
                                                            : 32LL * v->unroll * v->vec_bytes);
    *touched_bytes = 0;
    return 0;
}

static cudaError_t launch(void *sp, cudaStream_t st, unsigned long long *probe)
{
    SmemState *c = sp;
    c->launch.stream = st;
    c->args.probe = probe;
    return c->k->launch(&c->launch, &c->args);
}

static cudaError_t verify(void *sp, cudaStream_t st, OccRow *r, char *status, size_t len)
{
    SmemState *c = sp;
    const long long threads = (long long)c->launch.grid_blocks * c->launch.block_threads;
    const long long warps = warps_of(c);
    const size_t words = (size_t)threads * (c->k->chase ? (size_t)c->unroll : 1u);
    const cudaError_t e = occ_claims_run_checked(&c->b, words * 4, warps, st, launch, c);
    if (e != cudaSuccess) return e;
    const unsigned long long bad =
        c->k->chase
            ? occ_smem_chase_mismatches(c->b.host, c->host_order, c->args.rows, c->args.step,
                                        c->args.chain_spacing, c->unroll, threads,
                                        c->launch.block_threads, c->b.host_trips)
            : occ_smem_stream_mismatches(c->b.host, c->args.seed, c->k->rw, c->vec_bytes, threads,
                                         c->b.host_trips);
    const unsigned long long ran = occ_fma_trips_run(c->b.host_trips, warps);
    r->verify_err = (double)bad;
    if (bad)
        snprintf(status, len, "fail:%llu %s differ from the closed form", bad,
                 c->k->chase ? "chain ends" : "checksums");
    else if (ran != c->args.total_trips)
        snprintf(status, len, "fail:the warps ran %llu trips, the launch had %u", ran,
                 c->args.total_trips);
    else
        snprintf(status, len, "ok");
    return cudaSuccess;
}

static void fill(void *sp, const OccTiming *t, OccRow *r)
{
    SmemState *c = sp;
    const long long warps = warps_of(c);
    /* Its GB/s are shared-memory bytes: the DRAM shares do not apply. */
    r->pct_of_memcpy = NAN;
    r->pct_of_dram_peak = NAN;
    if (c->k->chase) {
        const double hops = (double)c->args.total_trips * OCC_SMEM_CHASE_LOADS_PER_TRIP;
        r->hops_per_s_median = hops / (t->stats.median * 1e-3);
        /* a chain's hops: the average warp's trips x the hops of one of its K chains */
        r->ns_per_hop_median = t->stats.median * 1e6 /
                               ((double)c->args.total_trips / (double)warps * steps_per_trip(c));
    }
}

#define SMEM_OPS                                                                                   \
    {.setup = setup, .teardown = teardown, .kernel = kernel, .bind = bind, .launch = launch,      \
     .verify = verify, .fill = fill}
const OccFamilyOps occ_family_smem_chase = SMEM_OPS;
const OccFamilyOps occ_family_smem_stream = SMEM_OPS;
const OccFamilyOps occ_family_smem_rw = SMEM_OPS;
