/* SPDX-License-Identifier: Apache-2.0 */
/* harness/families/family_ladder.c: the latency ladder, an experiment of its own (footprint-shaped
 * family): one thread follows dependent loads through a random single cycle of lines, footprint
 * swept from L1 to far beyond L2; cycles (clock64) and ns per load. The lines hold the next line's
 * address (--chain address: one load per hop, the load-to-use latency) or its index (--chain index:
 * address arithmetic on every hop too). Warm: one launch that walks the footprint once (caches warm
 * in the same launch, on the same SM) and then times 11 segments. Cold (--cold): 5 launches, each
 * after the experiment's own flush buffer of 2 x L2 bytes was written, each timing one pass with no
 * warm-up. Also measures the unloaded DRAM latency that the Little's-law model of every sweep
 * uses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvtx3/nvToolsExt.h>

#include "chase_footprint.h"
#include "family.h"
#include "family_ladder.h"
#include "stats.h"

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

/* The experiment's buffers: the per-launch results and its own L2 flush buffer. */
typedef struct LadderState {
    LadderDev dev;
    cudaStream_t stream;
    unsigned char *flush; /* cold passes write 2 x L2 bytes here before each pass */
    size_t flush_bytes;
    OccChaseLink link; /* what the lines hold: --chain and --index-bytes */
    int stride_bytes, cold;
} LadderState;

/* One launch: from position `from` of the cycle, `warm` untimed hops, then `segments` timed
 * stretches of `hops`; appends cycles and ns per segment and counts a wrong end in *wrong. */
static cudaError_t run_chain(const OccFootprint *ch, cudaStream_t st, const LadderDev *d,
                             size_t from, int warm, int hops, int segments, long long *cycles,
                             unsigned long long *ns, int *wrong)
{
    unsigned long long end = 0;
    cudaError_t e = occ_chase_latency(ch->lines, ch->link,
                                      occ_footprint_link(ch, ch->host_order[from]), warm, hops,
                                      segments, d->cycles, d->ns, d->end, st);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(cycles, d->cycles, segments * sizeof *cycles, cudaMemcpyDeviceToHost,
                            st);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(ns, d->ns, segments * sizeof *ns, cudaMemcpyDeviceToHost, st);
    if (e == cudaSuccess) e = cudaMemcpyAsync(&end, d->end, sizeof end, cudaMemcpyDeviceToHost, st);
    if (e == cudaSuccess) e = cudaStreamSynchronize(st);
    const size_t done = from + (size_t)warm + (size_t)hops * (size_t)segments;
    *wrong += end != occ_footprint_link(ch, ch->host_order[done % ch->n_lines]);
    return e;
}

/* Measures footprint ch into r and status. Warm: one launch that walks the
 * footprint once (caches warm, in the same launch on the same SM) and times 11 segments. Cold:
 * 5 launches, each after L2 is flushed (2 x L2 bytes written), each timing one pass from a
 * different point of the cycle with no warm-up. */
static cudaError_t ladder_point(LadderState *s, const OccFootprint *ch, int cold, OccRow *r,
                                char *status, size_t len)
{
    long long cycles[LADDER_SEGMENTS];
    unsigned long long ns[LADDER_SEGMENTS];
    int n = 0, wrong = 0, hops;
    cudaError_t e = cudaSuccess;
    if (!cold) {
        hops = ladder_hops(ch->n_lines);
        /* Warm every line of a footprint that caches could hold; beyond 2^20 lines only DRAM
         * answers, and a short warm-up keeps the first TLB walks out. */
        const int warm = ch->n_lines <= (1u << 20) ? (int)ch->n_lines : 8192;
        e = run_chain(ch, s->stream, &s->dev, 0, warm, hops, LADDER_SEGMENTS, cycles, ns, &wrong);
        n = LADDER_SEGMENTS;
    } else {
        hops = ch->n_lines < 65536 ? (int)ch->n_lines : 65536;
        for (; n < COLD_PASSES && e == cudaSuccess; n++) {
            e = cudaMemsetAsync(s->flush, n, s->flush_bytes, s->stream);
            if (e == cudaSuccess)
                e = run_chain(ch, s->stream, &s->dev, (size_t)n * ch->n_lines / COLD_PASSES, 0,
                              hops, 1, &cycles[n], &ns[n], &wrong);
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
    r->buffer_bytes = occ_footprint_bytes(ch);
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
    snprintf(status, len, "%s",
             wrong == 0 ? "ok" : "fail:chase ended away from the host-walked line");
    return cudaSuccess;
}


static void teardown(void *sp)
{
    LadderState *s = sp;
    if (!s) return;
    ladder_dev_free(&s->dev);
    cudaFree(s->flush);
    free(s);
}

static int setup(void **out, const OccRunEnv *env, char *err, size_t err_len)
{
    LadderState *s = occ_family_state_new(sizeof *s, "chase latency", err, err_len);
    *out = s;
    if (!s) return -1;
    s->stream = env->timer->stream;
    s->stride_bytes = env->opt->stride_bytes;
    s->link = env->opt->chain == OCC_CHAIN_ADDRESS ? OCC_CHASE_ADDRESS
              : env->opt->index_bytes == 8         ? OCC_CHASE_INDEX8
                                                   : OCC_CHASE_INDEX4;
    s->cold = env->opt->cold;
    cudaError_t e = ladder_dev_alloc(&s->dev);
    if (e == cudaSuccess && s->cold) {
        s->flush_bytes = (size_t)(2 * env->dev->l2_bytes);
        e = cudaMalloc((void **)&s->flush, s->flush_bytes);
    }
    /* The largest L1 the SRAM allows: the ladder's first step is an L1 hit. */
    if (e == cudaSuccess)
        e = cudaFuncSetAttribute(occ_kernel_chase_latency(s->link),
                                 cudaFuncAttributePreferredSharedMemoryCarveout, 0);
    if (e != cudaSuccess) {
        occ_device_format_error(e, "setting up the latency ladder", err, err_len);
        teardown(s);
        *out = NULL;
        return -1;
    }
    env->meta(env->meta_user, "l1_bytes", "%d", env->dev->limits.l1_smem_sram_bytes);
    env->meta(env->meta_user, "chase_line_bytes", "%d", s->stride_bytes);
    env->meta(env->meta_user, "chase_chain", "%s", occ_chain_name(env->opt->chain));
    if (env->opt->chain == OCC_CHAIN_INDEX)
        env->meta(env->meta_user, "chase_index_bytes", "%d", env->opt->index_bytes);
    env->meta(env->meta_user, "ladder_mode", "%s",
              s->cold ? "cold: L2 flushed before each of 5 single passes"
                      : "warm: one pass to warm, then 11 timed segments");
    return 0;
}

static cudaError_t measure(void *sp, const OccRunEnv *env, const OccPoint *p, OccRow *r,
                           char *status, size_t len)
{
    LadderState *s = sp;
    OccFootprint fp;
    char err[200];
    (void)env;
    r->unroll = 1;
    r->vec_bytes = (int)occ_chase_link_bytes(s->link);
    r->block_threads = 32;
    r->blocks_per_sm = 1;
    r->grid_blocks = 1;
    r->buffer_bytes = p->footprint_bytes;
    if (occ_footprint_init(&fp, (size_t)p->footprint_bytes, (unsigned)s->stride_bytes / 4,
                           s->link, 0, 0x1adde5ull + (uint64_t)p->ordinal, err, sizeof err) != 0) {
        snprintf(status, len, "skip:%.150s", err);
        return cudaSuccess;
    }
    cudaError_t e = ladder_point(s, &fp, s->cold, r, status, len);
    occ_footprint_free(&fp);
    return e;
}

const OccFamilyOps occ_family_ladder = {.setup = setup, .teardown = teardown, .measure = measure};

int occ_ladder_dram_latency(cudaStream_t stream, size_t footprint_bytes, double *ns,
                            double *cycles, char *err, size_t err_len)
{
    LadderState s = {.stream = stream};
    OccFootprint fp;
    OccRow r;
    char status[160];
    occ_row_init(&r);
    if (occ_footprint_init(&fp, footprint_bytes, 32, OCC_CHASE_ADDRESS, 0, 0xd7a3ull, err,
                           err_len) != 0)
        return -1;
    cudaError_t e = ladder_dev_alloc(&s.dev);
    if (e == cudaSuccess) e = ladder_point(&s, &fp, 0, &r, status, sizeof status);
    ladder_dev_free(&s.dev);
    occ_footprint_free(&fp);
    if (e != cudaSuccess) {
        occ_device_format_error(e, "measuring the DRAM latency", err, err_len);
        return -1;
    }
    if (r.verify_err != 0) {
        snprintf(err, err_len, "measuring the DRAM latency: %s", status + strlen("fail:"));
        return -1;
    }
    *ns = r.ns_per_hop_median;
    *cycles = r.cycles_per_hop_median;
    return 0;
}
