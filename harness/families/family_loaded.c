/* SPDX-License-Identifier: Apache-2.0 */
/* harness/families/family_loaded.c: the loaded-latency experiment (chase/loaded), a family of its
 * own whose points are the load levels (loaded_levels.h): latency of dependent DRAM loads while
 * background warps hold the memory system at stepped throughputs, one launch per level
 * (kernels/loaded.cu), with one block per SM (SMs blocks). The probes chase addresses over their
 * own random cycle of 12 x L2 (128-byte lines), the background streams over its own buffer of the
 * same size in claimed chunks, as copy.cu's dynamic schedule walks (or, for gather traffic, loads
 * lines of it at random). Each level is ok, or fail: a probe off its walk, two probes on one SM, a
 * background sum that is not the sum of the words it loaded, a window outside the events. A sweep
 * whose model uses L(X) plans these points first (plan.h), and the model takes its curve from their
 * rows. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "chase_footprint.h"
#include "family.h"
#include "loaded_levels.h"
#include "walltime.h"

_Static_assert((int)OCC_LOADED_READ == (int)OCC_CURVE_READ &&
                   (int)OCC_LOADED_COPY == (int)OCC_CURVE_COPY &&
                   (int)OCC_LOADED_GATHER == (int)OCC_CURVE_GATHER &&
                   (int)OCC_LOADED_SECTOR == (int)OCC_CURVE_SECTOR && OCC_CURVE_TRAFFICS == 4,
               "the kernel's traffics are the model's");

/* Untimed and timed hops per probe and level: 1024 hops of at most ~1.5 us keep a level's launch
 * within a few ms. Each level's probe walks on from where the previous level's stopped, so no
 * line is visited twice in a sweep (a line visited by an earlier level may still be in L2: the
 * background's evict-first loads leave it there, and it would be timed as an L2 hit). */
#define WARM_HOPS 128
#define TIMED_HOPS 1024
#define LEVEL_HOPS (WARM_HOPS + TIMED_HOPS)
/* Bytes a probe's hop counts towards the delivered bandwidth: one 32-byte sector. */
#define PROBE_HOP_BYTES 32
/* The GPU timer's window may exceed the events' time by its tick (1 us or finer) and 1%. */
#define WINDOW_SLACK_MS 0.002
/* The background buffer's bytes are 0x01: every 4-byte word it loads is this. */
#define BG_WORD 0x01010101ull
/* The probes' cycle and the background buffer, in L2 sizes, far beyond what L2 holds; set-up
 * makes them larger where the probes need more room for every level's hops on lines no level
 * visited before (an H100 SXM: 12 x 50 MiB holds 37,236 lines a probe of its 132, the 44 levels
 * take 50,688; an H200: 12 x 60 MiB holds 44,683 a probe, against the same 50,688). */
#define FOOTPRINT_L2 12
/* 4-byte words per line of the probes' cycle: 128-byte lines. */
#define LINE_WORDS 32

/* Bytes the delivered bandwidth counts per background load, and 4-byte words per load, by
 * traffic (OccLoadedTraffic): a 16-byte vector (copy: also stored), one word of a line (the
 * warp's 32 words make the line's 128 bytes), or one word of a sector, counted as the sector's
 * 32 bytes (as the thread chase counts a hop). */
static const double bytes_per_load[OCC_CURVE_TRAFFICS] = {16.0, 32.0, 4.0, 32.0};
static const unsigned long long words_per_load[OCC_CURVE_TRAFFICS] = {4, 4, 1, 1};

/* Device buffers of one sweep. */
typedef struct LoadedDev {
    unsigned int *stream_buf;
    unsigned int *stream_dst; /* copy traffic's destination */
    unsigned long long *starts;
    unsigned int *hist;
    OccLoadedProbe *probes;
    unsigned int *done;
    unsigned int *claim;          /* the background's chunk claims */
    unsigned long long *counters; /* [0] background loads, [1] their sum */
} LoadedDev;

static void dev_free(LoadedDev *d)
{
    cudaFree(d->stream_buf);
    cudaFree(d->stream_dst);
    cudaFree(d->starts);
    cudaFree(d->hist);
    cudaFree(d->probes);
    cudaFree(d->done);
    cudaFree(d->claim);
    cudaFree(d->counters);
}

static cudaError_t dev_alloc(LoadedDev *d, int sm, size_t bytes, cudaStream_t st)
{
    cudaError_t e = cudaMalloc((void **)&d->stream_buf, bytes);
    if (e == cudaSuccess) e = cudaMemsetAsync(d->stream_buf, 0x01, bytes, st);
    if (e == cudaSuccess) e = cudaMalloc((void **)&d->stream_dst, bytes);
    if (e == cudaSuccess) e = cudaMalloc((void **)&d->starts, sm * sizeof *d->starts);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&d->hist, (size_t)sm * OCC_LOADED_BINS * sizeof *d->hist);
    if (e == cudaSuccess) e = cudaMalloc((void **)&d->probes, sm * sizeof *d->probes);
    if (e == cudaSuccess) e = cudaMalloc((void **)&d->done, sizeof *d->done);
    if (e == cudaSuccess) e = cudaMalloc((void **)&d->claim, sizeof *d->claim);
    if (e == cudaSuccess) e = cudaMalloc((void **)&d->counters, 2 * sizeof *d->counters);
    return e;
}

/* Host-side results of one launch. */
typedef struct LoadedHost {
    unsigned int *hist;     /* sm x OCC_LOADED_BINS */
    unsigned int *merged;   /* OCC_LOADED_BINS */
    OccLoadedProbe *probes; /* sm */
    unsigned long long *starts;
    size_t *from;           /* sm: each probe's first position in the cycle, this level */
    int *sm_seen;           /* counts per SM id, up to 4 x sm ids */
} LoadedHost;

/* Verifies one level's launch and fills lv from it; event_ms is the launch's time between its
 * events, *window_ms the time its blocks ran by the GPU's global timer (from the first block's
 * start to the last probe's or background's end), over which lv->gbps is taken: the events also
 * hold the launch's start and end outside the kernel. */
static void level_figures(const OccFootprint *fp, const LoadedHost *h, int sm,
                          const unsigned long long counters[2], float event_ms, double *window_ms,
                          OccLoadedLevel *lv)
{
    double sum_cycles = 0, loop_cycles = 0, loop_ns = 0, lo = INFINITY, hi = 0;
    unsigned long long begin_ns = ~0ull, end_ns = 0;
    int off_walk = -1, shared_sm = -1;
    memset(h->merged, 0, OCC_LOADED_BINS * sizeof *h->merged);
    memset(h->sm_seen, 0, 4 * (size_t)sm * sizeof *h->sm_seen);
    for (int b = 0; b < sm; b++) {
        const OccLoadedProbe *p = &h->probes[b];
        const size_t at = (h->from[b] + LEVEL_HOPS) % fp->n_lines;
        if (p->end != occ_footprint_link(fp, fp->host_order[at]) && off_walk < 0) off_walk = b;
        if (p->smid < 4u * (unsigned)sm && h->sm_seen[p->smid]++ && shared_sm < 0)
            shared_sm = (int)p->smid;
        sum_cycles += (double)p->sum_hop_cycles;
        lo = fmin(lo, (double)p->sum_hop_cycles / TIMED_HOPS);
        hi = fmax(hi, (double)p->sum_hop_cycles / TIMED_HOPS);
        if (p->begin_ns < begin_ns) begin_ns = p->begin_ns;
        if (p->chase_end_ns > end_ns) end_ns = p->chase_end_ns;
        if (p->stream_end_ns > end_ns) end_ns = p->stream_end_ns;
        loop_cycles += (double)p->loop_cycles;
        loop_ns += (double)p->loop_ns;
        for (int i = 0; i < OCC_LOADED_BINS; i++)
            h->merged[i] += h->hist[(size_t)b * OCC_LOADED_BINS + i];
    }
    const double bytes = bytes_per_load[lv->traffic] * (double)counters[0] +
                         (double)PROBE_HOP_BYTES * sm * LEVEL_HOPS;
    *window_ms = end_ns > begin_ns ? (double)(end_ns - begin_ns) / 1e6 : 0;
    lv->gbps = *window_ms > 0 ? bytes / (*window_ms * 1e6) : 0;
    const double mhz = loop_ns > 0 ? 1000.0 * loop_cycles / loop_ns : 0;
    occ_loaded_level_stats(lv, h->merged, OCC_LOADED_BINS, OCC_LOADED_BIN_CYCLES, sum_cycles,
                           (long long)sm * TIMED_HOPS, mhz);
    lv->probe_min_ns = mhz > 0 ? lo * 1000.0 / mhz : NAN;
    lv->probe_max_ns = mhz > 0 ? hi * 1000.0 / mhz : NAN;
    snprintf(lv->status, sizeof lv->status, "ok");
    if (off_walk >= 0)
        snprintf(lv->status, sizeof lv->status, "fail:probe %d ended off its walk", off_walk);
    else if (shared_sm >= 0)
        snprintf(lv->status, sizeof lv->status, "fail:two probes ran on SM %d", shared_sm);
    else if (counters[1] != counters[0] * words_per_load[lv->traffic] * BG_WORD)
        snprintf(lv->status, sizeof lv->status,
                 "fail:background sum %llu is not %llu loads of its words", counters[1],
                 counters[0]);
    else if (lv->stream_warps > 0 && counters[0] == 0)
        snprintf(lv->status, sizeof lv->status, "fail:the background loaded nothing");
    else if (!(*window_ms > 0) || *window_ms > 1.01 * event_ms + WINDOW_SLACK_MS)
        snprintf(lv->status, sizeof lv->status,
                 "fail:GPU-timer window %.3f ms outside the events' %.3f ms",
                 *window_ms, event_ms);
}

/* One launch of level lv (traffic, warps and U set) from h->starts; fills lv and *window_ms
 * (level_figures). */
static cudaError_t run_level(cudaStream_t st, const OccFootprint *fp, const LoadedDev *d,
                             const LoadedHost *h, int sm, size_t bg_vecs, cudaEvent_t ev[2],
                             OccLoadedLevel *lv, double *window_ms)
{
    const OccLoadedArgs a = {.stream_buf = d->stream_buf, .stream_dst = d->stream_dst,
                             .traffic = lv->traffic, .stream_vecs = bg_vecs,
                             .stream_warps = lv->stream_warps, .unroll = lv->unroll,
                             .probe_start = d->starts, .warm_hops = WARM_HOPS,
                             .hops = TIMED_HOPS, .hist = d->hist, .probes = d->probes,
                             .probes_done = d->done, .stream_loads = &d->counters[0],
                             .stream_sum = &d->counters[1], .stream_claim = d->claim};
    unsigned long long counters[2];
    float ms = 0;
    cudaError_t e = cudaMemcpyAsync(d->starts, h->starts, sm * sizeof *h->starts,
                                    cudaMemcpyHostToDevice, st);
    if (e == cudaSuccess) e = cudaMemsetAsync(d->done, 0, sizeof *d->done, st);
    if (e == cudaSuccess) e = cudaMemsetAsync(d->claim, 0, sizeof *d->claim, st);
    if (e == cudaSuccess) e = cudaMemsetAsync(d->probes, 0, sm * sizeof *d->probes, st);
    if (e == cudaSuccess) e = cudaMemsetAsync(d->counters, 0, 2 * sizeof *d->counters, st);
    if (e == cudaSuccess) e = cudaEventRecord(ev[0], st);
    if (e == cudaSuccess) e = occ_loaded_latency(&a, sm, st);
    if (e == cudaSuccess) e = cudaEventRecord(ev[1], st);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(h->hist, d->hist, (size_t)sm * OCC_LOADED_BINS * sizeof *h->hist,
                            cudaMemcpyDeviceToHost, st);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(h->probes, d->probes, sm * sizeof *h->probes, cudaMemcpyDeviceToHost,
                            st);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(counters, d->counters, sizeof counters, cudaMemcpyDeviceToHost, st);
    if (e == cudaSuccess) e = cudaStreamSynchronize(st);
    if (e == cudaSuccess) e = cudaEventElapsedTime(&ms, ev[0], ev[1]);
    if (e == cudaSuccess) level_figures(fp, h, sm, counters, ms, window_ms, lv);
    return e;
}

/* The experiment's state: the probes' cycle, the device buffers and the host copies. */
typedef struct LoadedState {
    OccFootprint fp;
    LoadedDev dev;
    LoadedHost host;
    cudaEvent_t ev[2];
    cudaStream_t stream;
    int sm;
    size_t bg_vecs; /* 16-byte vectors of the background buffer */
} LoadedState;

static void teardown(void *sp)
{
    LoadedState *s = sp;
    if (!s) return;
    if (s->ev[0]) cudaEventDestroy(s->ev[0]);
    if (s->ev[1]) cudaEventDestroy(s->ev[1]);
    dev_free(&s->dev);
    occ_footprint_free(&s->fp);
    free(s->host.hist);
    free(s->host.merged);
    free(s->host.probes);
    free(s->host.starts);
    free(s->host.from);
    free(s->host.sm_seen);
    free(s);
}

static int setup(void **out, const OccRunEnv *env, char *err, size_t err_len)
{
    LoadedState *s = occ_family_state_new(sizeof *s, "chase loaded", err, err_len);
    *out = s;
    if (!s) return -1;
    const double t0 = occ_walltime_s();
    const int sm = s->sm = env->dev->sm_count;
    const size_t probe_bytes = (size_t)sm * OCC_LOADED_LEVELS * LEVEL_HOPS * LINE_WORDS * 4;
    size_t footprint = (size_t)FOOTPRINT_L2 * (size_t)env->dev->l2_bytes;
    if (footprint < probe_bytes) footprint = probe_bytes;
    s->stream = env->timer->stream;
    s->bg_vecs = footprint / 16;
    if (occ_footprint_init(&s->fp, footprint, LINE_WORDS, OCC_CHASE_ADDRESS, 0, 0x10ade5ull, err,
                           err_len) != 0) {
        teardown(s);
        *out = NULL;
        return -1;
    }
    if (s->fp.n_lines / (size_t)sm < (size_t)OCC_LOADED_LEVELS * LEVEL_HOPS) {
        snprintf(err, err_len,
                 "the loaded-latency footprint of %zu lines is too small for %d probes of %d "
                 "levels x %d hops",
                 s->fp.n_lines, sm, OCC_LOADED_LEVELS, LEVEL_HOPS);
        teardown(s);
        *out = NULL;
        return -1;
    }
    LoadedHost *h = &s->host;
    h->hist = malloc((size_t)sm * OCC_LOADED_BINS * sizeof *h->hist);
    h->merged = malloc(OCC_LOADED_BINS * sizeof *h->merged);
    h->probes = malloc(sm * sizeof *h->probes);
    h->starts = malloc(sm * sizeof *h->starts);
    h->from = malloc(sm * sizeof *h->from);
    h->sm_seen = malloc(4 * (size_t)sm * sizeof *h->sm_seen);
    cudaError_t e = cudaErrorMemoryAllocation;
    if (h->hist && h->merged && h->probes && h->starts && h->from && h->sm_seen)
        e = dev_alloc(&s->dev, sm, footprint, s->stream);
    if (e == cudaSuccess) e = cudaEventCreate(&s->ev[0]);
    if (e == cudaSuccess) e = cudaEventCreate(&s->ev[1]);
    if (e != cudaSuccess) {
        occ_device_format_error(e, "setting up the loaded-latency experiment", err, err_len);
        teardown(s);
        *out = NULL;
        return -1;
    }
    env->meta(env->meta_user, "loaded_footprint_bytes", "%zu", footprint);
    env->meta(env->meta_user, "loaded_hops_per_probe", "%d untimed, then %d timed per level",
              WARM_HOPS, TIMED_HOPS);
    env->meta(env->meta_user, "loaded_setup_s", "%.2f", occ_walltime_s() - t0);
    return 0;
}

/* Level p->ordinal: the probes start evenly spread over one cycle and walk on level by level, so
 * their walks never meet and no line is visited twice (setup checked: spacing >= every level's
 * hops). */
static cudaError_t measure(void *sp, const OccRunEnv *env, const OccPoint *p, OccRow *r,
                           char *status, size_t len)
{
    LoadedState *s = sp;
    OccLoadedLevel lv;
    (void)env;
    occ_loaded_level_spec(p->ordinal, &lv);
    const size_t spacing = s->fp.n_lines / (size_t)s->sm;
    for (int b = 0; b < s->sm; b++) {
        s->host.from[b] = (size_t)b * spacing + (size_t)p->ordinal * LEVEL_HOPS;
        s->host.starts[b] = occ_footprint_link(&s->fp, s->fp.host_order[s->host.from[b]]);
    }
    double ms = 0;
    cudaError_t e = run_level(s->stream, &s->fp, &s->dev, &s->host, s->sm, s->bg_vecs, s->ev,
                              &lv, &ms);
    if (e != cudaSuccess) return e;
    occ_loaded_level_to_row(&lv, r);
    r->vec_bytes = 16;
    r->block_threads = 32 * (1 + lv.stream_warps);
    r->blocks_per_sm = 1;
    r->grid_blocks = s->sm;
    r->buffer_bytes = (long long)occ_footprint_bytes(&s->fp);
    r->time_ms_median = ms;
    r->launches_per_sample = 1;
    snprintf(status, len, "%s", lv.status);
    return cudaSuccess;
}

const OccFamilyOps occ_family_loaded = {.setup = setup, .teardown = teardown, .measure = measure};
