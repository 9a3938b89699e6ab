/* SPDX-License-Identifier: Apache-2.0 */
/* harness/loaded_latency.c: the loaded-latency sweep (contract in loaded_latency.h). */
#include "loaded_latency.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "chase_footprint.h"
#include "device.h"

/* Background warps per SM and U of each level: U = 1 steps the low loads finely, U = 4 with up to
 * 31 warps keeps 63 KiB per SM in flight, past what the roof needs at any loaded latency. */
static const int level_warps[OCC_LOADED_STEPS] = {0, 1, 2, 4, 4, 4, 8, 12, 16, 24, 31};
static const int level_unroll[OCC_LOADED_STEPS] = {1, 1, 1, 1, 2, 4, 4, 4, 4, 4, 4};

/* The address probe's untimed and timed hops per level: 1024 hops of at most ~1.5 us keep a
 * level's launch within a few ms. Each level's probe walks on from where the previous level's
 * stopped, so no line is visited twice in a sweep (a line visited by an earlier level may still
 * be in L2: the background's evict-first loads leave it there, and it would be timed as an L2
 * hit). */
#define WARM_HOPS 128
#define TIMED_HOPS 1024
#define LEVEL_HOPS (WARM_HOPS + TIMED_HOPS)
/* The shaped probes': fewer, over nodes of SHAPE_NODE_BYTES (the largest trip, U 8 x V 16 x 32
 * lanes), from the same starts every launch, after L2 is flushed. */
#define SHAPE_WARM_HOPS 64
#define SHAPE_TIMED_HOPS 512
#define SHAPE_LEVEL_HOPS (SHAPE_WARM_HOPS + SHAPE_TIMED_HOPS)
#define SHAPE_NODE_BYTES 4096
/* Bytes an address probe's hop counts towards the delivered bandwidth: one 32-byte sector. */
#define PROBE_HOP_BYTES 32
/* The background buffer's bytes are 0x01: every 4-byte word it loads is this. */
#define BG_WORD 0x01010101ull

const int occ_loaded_shape_unroll[OCC_LOADED_SHAPES] = {1, 1, 1, 2, 2, 2, 4, 4, 4, 8, 8, 8};
const int occ_loaded_shape_vec_bytes[OCC_LOADED_SHAPES] = {4, 8, 16, 4, 8, 16, 4, 8, 16, 4, 8, 16};

/* Device buffers of one sweep. */
typedef struct LoadedDev {
    unsigned int *stream_buf;
    unsigned int *stream_dst; /* copy traffic's destination */
    unsigned char *flush;     /* written before each shaped launch: 2 x L2 bytes */
    size_t flush_bytes;
    unsigned long long *starts;
    unsigned int *shape_starts;
    unsigned int *hist;
    OccLoadedProbe *probes;
    unsigned int *done;
    unsigned long long *counters; /* [0] background loads, [1] their sum */
} LoadedDev;

static void dev_free(LoadedDev *d)
{
    cudaFree(d->stream_buf);
    cudaFree(d->stream_dst);
    cudaFree(d->flush);
    cudaFree(d->starts);
    cudaFree(d->shape_starts);
    cudaFree(d->hist);
    cudaFree(d->probes);
    cudaFree(d->done);
    cudaFree(d->counters);
}

static cudaError_t dev_alloc(LoadedDev *d, int sm, size_t bytes, size_t flush_bytes,
                             cudaStream_t st)
{
    d->flush_bytes = flush_bytes;
    cudaError_t e = cudaMalloc((void **)&d->stream_buf, bytes);
    if (e == cudaSuccess) e = cudaMemsetAsync(d->stream_buf, 0x01, bytes, st);
    if (e == cudaSuccess) e = cudaMalloc((void **)&d->stream_dst, bytes);
    if (e == cudaSuccess) e = cudaMalloc((void **)&d->flush, flush_bytes);
    if (e == cudaSuccess) e = cudaMalloc((void **)&d->starts, sm * sizeof *d->starts);
    if (e == cudaSuccess) e = cudaMalloc((void **)&d->shape_starts, sm * sizeof *d->shape_starts);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&d->hist, (size_t)sm * OCC_LOADED_BINS * sizeof *d->hist);
    if (e == cudaSuccess) e = cudaMalloc((void **)&d->probes, sm * sizeof *d->probes);
    if (e == cudaSuccess) e = cudaMalloc((void **)&d->done, sizeof *d->done);
    if (e == cudaSuccess) e = cudaMalloc((void **)&d->counters, 2 * sizeof *d->counters);
    return e;
}

/* Host-side state of one launch. */
typedef struct LoadedHost {
    unsigned int *hist;     /* sm x OCC_LOADED_BINS */
    unsigned int *merged;   /* OCC_LOADED_BINS */
    OccLoadedProbe *probes; /* sm */
    unsigned long long *starts;
    unsigned int *shape_starts;
    size_t *from;           /* sm: each probe's first position in its cycle, this launch */
    int *sm_seen;           /* counts per SM id, up to 4 x sm ids */
} LoadedHost;

/* What one launch's probes walk: the footprint, hops per probe (warm + timed) and timed hops. */
typedef struct ProbeWalk {
    const OccFootprint *fp;
    int hops, timed;
} ProbeWalk;

/* Verifies one launch and fills lv from it; ms is the launch's time. */
static void level_figures(const ProbeWalk *w, const LoadedHost *h, int sm,
                          const unsigned long long counters[2], float ms, OccLoadedLevel *lv)
{
    double sum_cycles = 0, loop_cycles = 0, loop_ns = 0, lo = INFINITY, hi = 0;
    int off_walk = -1, shared_sm = -1;
    memset(h->merged, 0, OCC_LOADED_BINS * sizeof *h->merged);
    memset(h->sm_seen, 0, 4 * (size_t)sm * sizeof *h->sm_seen);
    for (int b = 0; b < sm; b++) {
        const OccLoadedProbe *p = &h->probes[b];
        const size_t at = (h->from[b] + (size_t)w->hops) % w->fp->n_lines;
        if (p->end != occ_footprint_link(w->fp, w->fp->host_order[at]) && off_walk < 0)
            off_walk = b;
        if (p->smid < 4u * (unsigned)sm && h->sm_seen[p->smid]++ && shared_sm < 0)
            shared_sm = (int)p->smid;
        sum_cycles += (double)p->sum_hop_cycles;
        lo = fmin(lo, (double)p->sum_hop_cycles / w->timed);
        hi = fmax(hi, (double)p->sum_hop_cycles / w->timed);
        loop_cycles += (double)p->loop_cycles;
        loop_ns += (double)p->loop_ns;
        for (int i = 0; i < OCC_LOADED_BINS; i++)
            h->merged[i] += h->hist[(size_t)b * OCC_LOADED_BINS + i];
    }
    const double per_load = lv->traffic == OCC_LOADED_COPY ? 32.0 : 16.0;
    const double hop_bytes = lv->probe_unroll > 0
                                 ? 32.0 * lv->probe_unroll * lv->probe_vec_bytes
                                 : PROBE_HOP_BYTES;
    const double bytes = per_load * (double)counters[0] + hop_bytes * sm * w->hops;
    lv->gbps = ms > 0 ? bytes / (ms * 1e6) : 0;
    const double mhz = loop_ns > 0 ? 1000.0 * loop_cycles / loop_ns : 0;
    occ_loaded_level_stats(lv, h->merged, OCC_LOADED_BINS, OCC_LOADED_BIN_CYCLES, sum_cycles,
                           (long long)sm * w->timed, mhz);
    lv->probe_min_ns = mhz > 0 ? lo * 1000.0 / mhz : NAN;
    lv->probe_max_ns = mhz > 0 ? hi * 1000.0 / mhz : NAN;
    snprintf(lv->status, sizeof lv->status, "ok");
    if (off_walk >= 0)
        snprintf(lv->status, sizeof lv->status, "fail:probe %d ended off its walk", off_walk);
    else if (shared_sm >= 0)
        snprintf(lv->status, sizeof lv->status, "fail:two probes ran on SM %d", shared_sm);
    else if (counters[1] != counters[0] * 4 * BG_WORD)
        snprintf(lv->status, sizeof lv->status,
                 "fail:background sum %llu is not %llu loads of its words", counters[1],
                 counters[0]);
    else if (lv->stream_warps > 0 && counters[0] == 0)
        snprintf(lv->status, sizeof lv->status, "fail:the background loaded nothing");
}

/* One launch of level lv: the address probe walks fp from h->starts, or (lv->probe_unroll) the
 * shaped probe walks shape from h->shape_starts after L2 is flushed. */
static cudaError_t run_level(cudaStream_t st, const OccFootprint *fp, const OccFootprint *shape,
                             const LoadedDev *d, const LoadedHost *h, int sm, size_t bg_vecs,
                             cudaEvent_t ev[2], OccLoadedLevel *lv)
{
    const int shaped = lv->probe_unroll > 0;
    const ProbeWalk w = shaped ? (ProbeWalk){shape, SHAPE_LEVEL_HOPS, SHAPE_TIMED_HOPS}
                               : (ProbeWalk){fp, LEVEL_HOPS, TIMED_HOPS};
    const OccLoadedArgs a = {.stream_buf = d->stream_buf, .stream_dst = d->stream_dst,
                             .traffic = lv->traffic, .stream_vecs = bg_vecs,
                             .stream_warps = lv->stream_warps, .unroll = lv->unroll,
                             .probe_start = d->starts, .probe_unroll = lv->probe_unroll,
                             .probe_vec_bytes = lv->probe_vec_bytes,
                             .shape_lines = shape->lines, .shape_start = d->shape_starts,
                             .warm_hops = w.hops - w.timed, .hops = w.timed, .hist = d->hist,
                             .probes = d->probes, .probes_done = d->done,
                             .stream_loads = &d->counters[0], .stream_sum = &d->counters[1]};
    unsigned long long counters[2];
    float ms = 0;
    cudaError_t e = shaped ? cudaMemcpyAsync(d->shape_starts, h->shape_starts,
                                             sm * sizeof *h->shape_starts,
                                             cudaMemcpyHostToDevice, st)
                           : cudaMemcpyAsync(d->starts, h->starts, sm * sizeof *h->starts,
                                             cudaMemcpyHostToDevice, st);
    if (e == cudaSuccess && shaped) e = cudaMemsetAsync(d->flush, lv->probe_unroll, d->flush_bytes, st);
    if (e == cudaSuccess) e = cudaMemsetAsync(d->done, 0, sizeof *d->done, st);
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
    if (e == cudaSuccess) level_figures(&w, h, sm, counters, ms, lv);
    return e;
}

/* Level i of the sweep: traffic, then step, then probe (the address probe, then each shape). */
static OccLoadedLevel level_at(int i)
{
    const int probe = i % (1 + OCC_LOADED_SHAPES), step = i / (1 + OCC_LOADED_SHAPES);
    return (OccLoadedLevel){
        .traffic = step / OCC_LOADED_STEPS,
        .stream_warps = level_warps[step % OCC_LOADED_STEPS],
        .unroll = level_unroll[step % OCC_LOADED_STEPS],
        .probe_unroll = probe ? occ_loaded_shape_unroll[probe - 1] : 0,
        .probe_vec_bytes = probe ? occ_loaded_shape_vec_bytes[probe - 1] : 0};
}

int occ_loaded_latency_sweep(cudaStream_t stream, int sm_count, size_t footprint_bytes,
                             size_t l2_bytes, OccLoadedLevel lv[OCC_LOADED_LEVELS], char *err,
                             size_t err_len)
{
    OccFootprint fp, shape;
    LoadedDev d = {0};
    LoadedHost h = {0};
    cudaEvent_t ev[2] = {0, 0};
    const int sm = sm_count;
    const int address_levels = 2 * OCC_LOADED_STEPS;
    if (occ_footprint_init(&fp, footprint_bytes, 32, OCC_CHASE_ADDRESS, 0, 0x10ade5ull, err,
                           err_len) != 0)
        return -1;
    if (occ_footprint_init(&shape, footprint_bytes, SHAPE_NODE_BYTES / 4, OCC_CHASE_INDEX4, 0,
                           0x5ba9e5ull, err, err_len) != 0) {
        occ_footprint_free(&fp);
        return -1;
    }
    if (fp.n_lines / (size_t)sm < (size_t)address_levels * LEVEL_HOPS ||
        shape.n_lines / (size_t)sm < SHAPE_LEVEL_HOPS) {
        snprintf(err, err_len,
                 "the loaded-latency footprint of %zu bytes is too small for %d probes of %d "
                 "levels x %d hops",
                 footprint_bytes, sm, address_levels, LEVEL_HOPS);
        occ_footprint_free(&fp);
        occ_footprint_free(&shape);
        return -1;
    }
    h.hist = malloc((size_t)sm * OCC_LOADED_BINS * sizeof *h.hist);
    h.merged = malloc(OCC_LOADED_BINS * sizeof *h.merged);
    h.probes = malloc(sm * sizeof *h.probes);
    h.starts = malloc(sm * sizeof *h.starts);
    h.shape_starts = malloc(sm * sizeof *h.shape_starts);
    h.from = malloc(sm * sizeof *h.from);
    h.sm_seen = malloc(4 * (size_t)sm * sizeof *h.sm_seen);
    cudaError_t e = cudaErrorMemoryAllocation;
    if (h.hist && h.merged && h.probes && h.starts && h.shape_starts && h.from && h.sm_seen)
        e = dev_alloc(&d, sm, footprint_bytes, 2 * l2_bytes, stream);
    if (e == cudaSuccess) e = cudaEventCreate(&ev[0]);
    if (e == cudaSuccess) e = cudaEventCreate(&ev[1]);
    /* The address probes start evenly spread over one cycle and walk on level by level: their
     * walks never meet, and no line is visited twice (checked above). The shaped probes start
     * evenly spread over theirs, at the same nodes every launch (L2 is flushed before each). */
    const size_t spacing = fp.n_lines / (size_t)sm, shape_spacing = shape.n_lines / (size_t)sm;
    for (int i = 0, walked = 0; i < OCC_LOADED_LEVELS && e == cudaSuccess; i++) {
        lv[i] = level_at(i);
        for (int b = 0; b < sm; b++) {
            if (lv[i].probe_unroll > 0) {
                h.from[b] = (size_t)b * shape_spacing;
                h.shape_starts[b] =
                    (unsigned int)occ_footprint_link(&shape, shape.host_order[h.from[b]]);
            } else {
                h.from[b] = (size_t)b * spacing + (size_t)walked * LEVEL_HOPS;
                h.starts[b] = occ_footprint_link(&fp, fp.host_order[h.from[b]]);
            }
        }
        walked += lv[i].probe_unroll == 0;
        e = run_level(stream, &fp, &shape, &d, &h, sm, footprint_bytes / 16, ev, &lv[i]);
    }
    if (ev[0]) cudaEventDestroy(ev[0]);
    if (ev[1]) cudaEventDestroy(ev[1]);
    dev_free(&d);
    occ_footprint_free(&fp);
    occ_footprint_free(&shape);
    free(h.hist);
    free(h.merged);
    free(h.probes);
    free(h.starts);
    free(h.shape_starts);
    free(h.from);
    free(h.sm_seen);
    if (e != cudaSuccess) {
        occ_device_format_error(e, "the loaded-latency sweep", err, err_len);
        return -1;
    }
    return 0;
}
