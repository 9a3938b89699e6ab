/* harness/chase.c: footprint set-up, chase throughput points and the latency ladder. */
#include "chase.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <nvtx3/nvToolsExt.h>

#include "perm.h"
#include "registry.h"
#include "stats.h"
#include "sweep.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

int occ_chase_init(OccChase *c, size_t footprint_bytes, unsigned int line_words,
                   unsigned int index_bytes, size_t max_chains, uint64_t seed, char *err,
                   size_t err_len)
{
    memset(c, 0, sizeof *c);
    c->line_words = line_words;
    c->index_bytes = index_bytes;
    c->n_lines = footprint_bytes / (4u * line_words);
    c->max_chains = max_chains;
    if (c->n_lines < 2 || (index_bytes == 4 && c->n_lines * line_words > 0xFFFFFFFFu) ||
        (index_bytes == 8 && line_words < 2)) {
        snprintf(err, err_len, "chase footprint of %zu bytes is outside 2 lines .. %s",
                 footprint_bytes, index_bytes == 4 ? "16 GiB (4-byte indices)" : "any size");
        return -1;
    }
    size_t free_bytes = 0, total = 0;
    size_t need = c->n_lines * (4u * line_words + 8) + max_chains * 4;
    if (cudaMemGetInfo(&free_bytes, &total) == cudaSuccess && need > free_bytes) {
        snprintf(err, err_len, "chase footprint needs %.2f GiB of device memory but %.2f GiB is "
                               "free; pass a smaller --size or --footprint",
                 need / 1073741824.0, free_bytes / 1073741824.0);
        return -1;
    }
    uint32_t *next = malloc(c->n_lines * sizeof *next);
    c->host_order = malloc(c->n_lines * sizeof *c->host_order);
    if (!next || !c->host_order) {
        free(next);
        snprintf(err, err_len, "chase footprint: no host memory for %zu lines", c->n_lines);
        return -1;
    }
    double t0 = now_ms();
    occ_perm_cycle(next, c->host_order, c->n_lines, seed);
    c->perm_build_ms = now_ms() - t0;
    unsigned int *next_dev = NULL;
    cudaError_t e = cudaMalloc((void **)&c->lines, c->n_lines * line_words * 4);
    if (e == cudaSuccess) e = cudaMalloc((void **)&c->order, c->n_lines * 4);
    if (e == cudaSuccess) e = cudaMalloc((void **)&c->ends, (max_chains ? max_chains : 1) * 4);
    if (e == cudaSuccess) e = cudaMalloc((void **)&next_dev, c->n_lines * 4);
    if (e == cudaSuccess) e = cudaMemcpy(next_dev, next, c->n_lines * 4, cudaMemcpyHostToDevice);
    if (e == cudaSuccess)
        e = cudaMemcpy(c->order, c->host_order, c->n_lines * 4, cudaMemcpyHostToDevice);
    if (e == cudaSuccess)
        e = occ_chase_fill_lines(c->lines, next_dev, c->n_lines, line_words, index_bytes, 0);
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    cudaFree(next_dev);
    free(next);
    if (e != cudaSuccess) {
        occ_device_format_error(e, "building the chase footprint", err, err_len);
        return -1;
    }
    return 0;
}

void occ_chase_free(OccChase *c)
{
    cudaFree(c->lines);
    cudaFree(c->order);
    cudaFree(c->ends);
    free(c->host_order);
    memset(c, 0, sizeof *c);
}

/* One timed launch of a throughput variant; each launch rotates the start points. */
typedef struct ChaseCtx {
    OccChaseLaunchFn launch;
    OccLaunch cfg;
    OccChaseArgs args;
} ChaseCtx;

static cudaError_t launch_chase(void *ctx, cudaStream_t stream)
{
    ChaseCtx *c = ctx;
    c->cfg.stream = stream;
    cudaError_t e = c->launch(&c->cfg, &c->args);
    /* A large odd step: consecutive launches start elsewhere in every chain's segment. */
    c->args.shift = (c->args.shift + 1000003u) % c->args.n_lines;
    return e;
}

/* Launches once with a known shift and counts chains that did not end where the host's walk
 * of the same cycle ends. */
static cudaError_t verify_chains(OccSweep *s, ChaseCtx *c, size_t chains, double *wrong)
{
    OccChase *ch = &s->chase;
    c->args.shift = 12345 % ch->n_lines;
    ChaseCtx once = *c;
    cudaError_t e = cudaMemsetAsync(ch->ends, 0xff, chains * 4, s->timer.stream);
    if (e == cudaSuccess) e = launch_chase(&once, s->timer.stream);
    unsigned int *ends = malloc(chains * 4);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(ends, ch->ends, chains * 4, cudaMemcpyDeviceToHost, s->timer.stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(s->timer.stream);
    size_t bad = 0;
    for (size_t i = 0; e == cudaSuccess && i < chains; i++) {
        size_t pos = (i * c->args.chain_spacing + c->args.shift + (size_t)c->args.hops) % ch->n_lines;
        bad += ends[i] != ch->host_order[pos] * ch->line_words;
    }
    free(ends);
    *wrong = (double)bad;
    return e;
}

cudaError_t occ_chase_time_point(OccSweep *s, const void *variant, int grid_blocks,
                                 int block_threads, int pad_bytes, OccSweepRow *out)
{
    static OccTiming t; /* large (sample array); points run one at a time */
    const OccVariant *v = variant;
    OccChase *ch = &s->chase;
    OccRow *r = &out->row;
    const int warp_mode = strcmp(v->info.mode, "warp") == 0;
    const size_t threads = (size_t)grid_blocks * block_threads;
    const size_t chains = (warp_mode ? threads / 32 : threads) * (size_t)v->info.unroll;
    const size_t spacing = chains ? ch->n_lines / chains : 0;
    /* Chains walk disjoint stretches that together cover the footprint once per launch, so a
     * line comes back only after the whole footprint (>> L2) has been read. */
    if (chains > ch->max_chains || spacing < 8) {
        snprintf(out->status, sizeof out->status,
                 "skip:footprint holds %zu lines for %zu chains; raise --size", ch->n_lines, chains);
        return cudaSuccess;
    }
    ChaseCtx c = {.launch = v->launch_chase,
                  .cfg = {.grid_blocks = grid_blocks, .block_threads = block_threads,
                          .dyn_smem_bytes = (size_t)pad_bytes},
                  .args = {.lines = ch->lines, .order = ch->order, .n_lines = ch->n_lines,
                           .line_words = ch->line_words, .chain_spacing = spacing, .shift = 0,
                           .hops = (int)spacing, .ends = ch->ends}};
    cudaError_t e = occ_time_work(&s->timer, launch_chase, &c, &s->policy, &t);
    double wrong = 0;
    if (e == cudaSuccess) e = verify_chains(s, &c, chains, &wrong);
    c.args.probe = s->buf.probe;
    if (e == cudaSuccess)
        e = occ_sweep_probe(s, launch_chase, &c, grid_blocks, (block_threads + 31) / 32, r);
    if (e != cudaSuccess) return e;
    const double hops = (double)chains * (double)spacing;
    const double line_bytes = 4.0 * ch->line_words;
    r->buffer_bytes = (long long)(ch->n_lines * line_bytes);
    r->bytes_per_launch = (long long)(hops * line_bytes);
    r->l2_resident = r->buffer_bytes <= 2 * s->dev->l2_bytes;
    r->bytes_in_flight_per_sm = (long long)(chains / (size_t)s->dev->sm_count * line_bytes);
    occ_sweep_fill_timing(s, &t, r);
    r->hops_per_s_median = hops / (t.stats.median * 1e-3);
    r->ns_per_hop_median = t.stats.median * 1e6 / (double)spacing; /* loaded latency per hop */
    r->verify_err = wrong;
    snprintf(out->status, sizeof out->status, "%s",
             wrong == 0 ? "ok" : "fail:chains ended away from the host-walked line");
    return cudaSuccess;
}

/* Hops per timed segment: every line of a small footprint is visited several times (warm), a
 * large one gets a bounded, still long, stretch (at DRAM latency 65536 hops take ~45 ms). */
static int ladder_hops(size_t n_lines)
{
    return n_lines < 8192 ? 8192 : n_lines > 65536 ? 65536 : (int)n_lines;
}

enum { LADDER_SEGMENTS = 11, COLD_PASSES = 5 };

/* Device-side results of one latency launch (LADDER_SEGMENTS entries each). */
typedef struct LadderDev {
    long long *cycles;
    unsigned long long *ns;
    unsigned long long *end;
} LadderDev;

static cudaError_t ladder_dev_alloc(LadderDev *d)
{
    cudaError_t e = cudaMalloc((void **)&d->cycles, LADDER_SEGMENTS * sizeof *d->cycles);
    if (e == cudaSuccess) e = cudaMalloc((void **)&d->ns, LADDER_SEGMENTS * sizeof *d->ns);
    if (e == cudaSuccess) e = cudaMalloc((void **)&d->end, sizeof *d->end);
    return e;
}

static void ladder_dev_free(LadderDev *d)
{
    cudaFree(d->cycles);
    cudaFree(d->ns);
    cudaFree(d->end);
}

/* One launch: from position `from` of the cycle, `warm` untimed hops, then `segments` timed
 * stretches of `hops`; appends cycles and ns per segment and counts a wrong end in *wrong. */
static cudaError_t run_chain(OccSweep *s, const LadderDev *d, size_t from, int warm, int hops,
                             int segments, long long *cycles, unsigned long long *ns, int *wrong)
{
    OccChase *ch = &s->chase;
    cudaStream_t st = s->timer.stream;
    /* Indices count index_bytes-wide entries: a line is line_words 4-byte words. */
    const unsigned long long per_line = ch->line_words * 4u / ch->index_bytes;
    unsigned long long end = 0;
    cudaError_t e = occ_chase_latency(ch->lines, ch->index_bytes, ch->host_order[from] * per_line,
                                      warm, hops, segments, d->cycles, d->ns, d->end, st);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(cycles, d->cycles, segments * sizeof *cycles, cudaMemcpyDeviceToHost, st);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(ns, d->ns, segments * sizeof *ns, cudaMemcpyDeviceToHost, st);
    if (e == cudaSuccess) e = cudaMemcpyAsync(&end, d->end, sizeof end, cudaMemcpyDeviceToHost, st);
    if (e == cudaSuccess) e = cudaStreamSynchronize(st);
    const size_t done = from + (size_t)warm + (size_t)hops * (size_t)segments;
    *wrong += end != ch->host_order[done % ch->n_lines] * per_line;
    return e;
}

/* Measures one footprint already built in s->chase into out. Warm: one launch that walks the
 * footprint once (caches warm, in the same launch on the same SM) and times 11 segments. Cold:
 * 5 launches, each after L2 is flushed (2 x L2 bytes written), each timing one pass from a
 * different point of the cycle with no warm-up. */
static cudaError_t ladder_point(OccSweep *s, const LadderDev *d, int cold, OccSweepRow *out)
{
    OccChase *ch = &s->chase;
    OccRow *r = &out->row;
    long long cycles[LADDER_SEGMENTS];
    unsigned long long ns[LADDER_SEGMENTS];
    int n = 0, wrong = 0, hops;
    cudaError_t e = cudaSuccess;
    if (!cold) {
        hops = ladder_hops(ch->n_lines);
        /* Warm every line of a footprint that caches could hold; beyond 2^20 lines only DRAM
         * answers, and a short warm-up keeps the first TLB walks out. */
        const int warm = ch->n_lines <= (1u << 20) ? (int)ch->n_lines : 8192;
        e = run_chain(s, d, 0, warm, hops, LADDER_SEGMENTS, cycles, ns, &wrong);
        n = LADDER_SEGMENTS;
    } else {
        hops = ch->n_lines < 65536 ? (int)ch->n_lines : 65536;
        const size_t flush_bytes = (size_t)(2 * s->dev->l2_bytes);
        for (; n < COLD_PASSES && e == cudaSuccess; n++) {
            e = cudaMemsetAsync(s->buf.out, n, flush_bytes, s->timer.stream);
            if (e == cudaSuccess)
                e = run_chain(s, d, (size_t)n * ch->n_lines / COLD_PASSES, 0, hops, 1, &cycles[n],
                              &ns[n], &wrong);
        }
    }
    if (e != cudaSuccess) return e;
    double per_hop[LADDER_SEGMENTS], sorted[LADDER_SEGMENTS], total_cycles = 0, total_ns = 0;
    for (int i = 0; i < n; i++) {
        per_hop[i] = (double)cycles[i] / hops;
        total_cycles += (double)cycles[i];
        total_ns += (double)ns[i];
    }
    /* ns from cycles and the clock measured over all segments: %globaltimer alone ticks too
     * coarsely for one short segment. */
    const double ghz = total_cycles / total_ns;
    OccSampleStats st_cycles;
    occ_stats_summarize(per_hop, n, &st_cycles);
    memcpy(sorted, per_hop, sizeof sorted);
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
            double t = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = t;
        }
    r->mode = cold ? "latency-cold" : "latency";
    r->buffer_bytes = (long long)(ch->n_lines * 4 * ch->line_words);
    r->l2_resident = r->buffer_bytes <= s->dev->l2_bytes;
    r->samples = n;
    r->launches_per_sample = 1;
    r->cycles_per_hop_median = st_cycles.median;
    r->cycles_per_hop_p5 = sorted[0];     /* p5 of 11 (or 5) segments: the lowest */
    r->cycles_per_hop_p95 = sorted[n - 1]; /* p95 of 11 (or 5): the highest */
    r->ns_per_hop_median = st_cycles.median / ghz;
    r->sm_clock_mhz_measured = ghz * 1e3;
    r->hops_per_s_median = 1e9 / r->ns_per_hop_median;
    r->noise_pct = st_cycles.rel_stddev_pct;
    r->verify_err = wrong;
    snprintf(out->status, sizeof out->status, "%s",
             wrong == 0 ? "ok" : "fail:chase ended away from the host-walked line");
    return cudaSuccess;
}

int occ_chase_dram_latency(OccSweep *s, size_t footprint_bytes, double *ns, double *cycles,
                           char *err, size_t err_len)
{
    LadderDev d = {0};
    OccSweepRow out;
    occ_sweep_row_init(s, &out.row);
    if (occ_chase_init(&s->chase, footprint_bytes, 32, 4, 0, 0xd7a3ull, err, err_len) != 0) return -1;
    cudaError_t e = ladder_dev_alloc(&d);
    if (e == cudaSuccess) e = ladder_point(s, &d, 0, &out);
    ladder_dev_free(&d);
    occ_chase_free(&s->chase);
    if (e != cudaSuccess) {
        occ_device_format_error(e, "measuring the DRAM latency", err, err_len);
        return -1;
    }
    *ns = out.row.ns_per_hop_median;
    *cycles = out.row.cycles_per_hop_median;
    return 0;
}

int occ_chase_ladder(OccSweep *s, const long long *footprints, int n, int stride_bytes,
                     int index_bytes, int cold,
                     void (*on_row)(void *user, int i, int n, const OccSweepRow *row), void *user,
                     cudaError_t *fatal, char *err, size_t err_len)
{
    LadderDev d = {0};
    *fatal = ladder_dev_alloc(&d);
    /* The largest L1 the SRAM allows: the ladder's first step is an L1 hit. */
    if (*fatal == cudaSuccess)
        *fatal = cudaFuncSetAttribute(occ_kernel_chase_latency((unsigned)index_bytes),
                                      cudaFuncAttributePreferredSharedMemoryCarveout, 0);
    int i = 0;
    for (; *fatal == cudaSuccess && i < n && !(s->stop && *s->stop); i++) {
        OccSweepRow out;
        occ_sweep_row_init(s, &out.row);
        out.row.kernel = "chase";
        out.row.mode = "latency";
        out.row.variant = "chase_latency";
        out.row.unroll = 1;
        out.row.vec_bytes = 4;
        out.row.block_threads = 32;
        out.row.blocks_per_sm = 1;
        out.row.grid_blocks = 1;
        if (occ_chase_init(&s->chase, (size_t)footprints[i], (unsigned)stride_bytes / 4,
                           (unsigned)index_bytes, 0, 0x1adde5ull + (uint64_t)i, err, err_len) != 0) {
            snprintf(out.status, sizeof out.status, "skip:%.150s", err);
        } else {
            char range[64];
            snprintf(range, sizeof range, "chase_latency %lld B", footprints[i]);
            nvtxRangePushA(range);
            *fatal = ladder_point(s, &d, cold, &out);
            nvtxRangePop();
            s->ladder_perm_ms += s->chase.perm_build_ms;
            occ_chase_free(&s->chase);
            if (*fatal != cudaSuccess) {
                occ_device_format_error(*fatal, "latency ladder", err, err_len);
                break;
            }
        }
        out.row.status = out.status;
        on_row(user, i, n, &out);
    }
    ladder_dev_free(&d);
    return i;
}
