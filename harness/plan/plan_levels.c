/* SPDX-License-Identifier: Apache-2.0 */
/* harness/plan/plan_levels.c: occupancy levels per block size, and the notes that say what each
 * block size reaches and where an asked level moved. */
#include "plan_levels.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Warps of a block of block_threads threads. */
static int warps_per_block(const OccArchLimits *arch, int block_threads)
{
    return (block_threads + arch->warp_size - 1) / arch->warp_size;
}

int occ_plan_max_level_blocks(const OccArchLimits *arch, int block_threads)
{
    int k = arch->max_warps_per_sm / warps_per_block(arch, block_threads);
    return k < arch->max_blocks_per_sm ? k : arch->max_blocks_per_sm;
}

/* The occupancy of k blocks of block_threads per SM, percent of max warps per SM. */
static double level_pct(const OccArchLimits *arch, int block_threads, int k)
{
    return 100.0 * k * warps_per_block(arch, block_threads) / arch->max_warps_per_sm;
}

/* The whole-block level (blocks per SM) nearest to pct; the lower one on a tie. */
static int nearest_level(const OccArchLimits *arch, int block_threads, double pct)
{
    int best = 1, kmax = occ_plan_max_level_blocks(arch, block_threads);
    for (int k = 2; k <= kmax; k++)
        if (fabs(level_pct(arch, block_threads, k) - pct) <
            fabs(level_pct(arch, block_threads, best) - pct))
            best = k;
    return best;
}

/* Appends "asked A% -> B%" to the notes, "; "-separated. */
static void append_note(char *buf, size_t len, double asked, double level)
{
    if (!buf) return;
    size_t used = strlen(buf);
    if (used < len)
        snprintf(buf + used, len - used, "%sasked %g%% -> %g%%", used ? "; " : "", asked, level);
}

/* Adds level k unless already present, keeping the list ascending. */
static int add_level(OccLevel *levels, int n, int max, OccLevel lv)
{
    int at = 0;
    while (at < n && levels[at].blocks_per_sm < lv.blocks_per_sm)
        at++;
    if (at < n && levels[at].blocks_per_sm == lv.blocks_per_sm) return n;
    if (n == max) return n;
    memmove(&levels[at + 1], &levels[at], (size_t)(n - at) * sizeof *levels);
    levels[at] = lv;
    return n + 1;
}

int occ_plan_levels(const OccArchLimits *arch, int block_threads, const OccOccSpec *spec,
                    OccLevel *levels, int max_levels, char *notes, size_t notes_len)
{
    if (notes && notes_len) notes[0] = '\0';
    if (block_threads <= 0 || block_threads > arch->max_threads_per_block) return -1;
    const double eps = 1e-9;
    int n = 0, kmax = occ_plan_max_level_blocks(arch, block_threads);
    if (!spec->is_list && spec->step_pct <= 0) {
        for (int k = 1; k <= kmax; k++) {
            double p = level_pct(arch, block_threads, k);
            if (p >= spec->lo_pct - eps && p <= spec->hi_pct + eps)
                n = add_level(levels, n, max_levels, (OccLevel){block_threads, p, k, p});
        }
        if (n > 0) return n;
    }
    /* Asked-for values (a list, a stepped range, or the start of a range holding no level) map
     * to the nearest level; several may land on one level, which is kept once. */
    int n_asked = 1;
    if (spec->is_list)
        n_asked = spec->n_pct;
    else if (spec->step_pct > 0)
        n_asked = (int)floor((spec->hi_pct - spec->lo_pct) / spec->step_pct + eps) + 1;
    for (int i = 0; i < n_asked; i++) {
        double asked = spec->is_list ? spec->pct[i] : spec->lo_pct + i * spec->step_pct;
        int k = nearest_level(arch, block_threads, asked);
        double p = level_pct(arch, block_threads, k);
        if (fabs(p - asked) > eps) append_note(notes, notes_len, asked, p);
        n = add_level(levels, n, max_levels, (OccLevel){block_threads, asked, k, p});
    }
    return n;
}

/* Appends printf-formatted text to the string in buf[0..len), truncating. */
static void appendf(char *buf, size_t len, const char *fmt, ...)
{
    const size_t used = strlen(buf);
    va_list ap;
    va_start(ap, fmt);
    if (used < len) vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
}

/* One notes line of occ_plan_block_levels for block size b: what it reaches, what the sweep
 * visits (levels[0..n)) and the asked levels that moved (mapped, occ_plan_levels' notes). */
static void append_block_line(const OccArchLimits *arch, int b, const OccLevel *levels, int n,
                              const char *mapped, char *buf, size_t len)
{
    const int kmax = occ_plan_max_level_blocks(arch, b);
    appendf(buf, len, "block %d: reaches %d level%s, %g%%..%g%% in steps of %g%%; visits", b, kmax,
            kmax == 1 ? "" : "s", level_pct(arch, b, 1), level_pct(arch, b, kmax),
            level_pct(arch, b, 1));
    for (int i = 0; i < n; i++)
        appendf(buf, len, "%s %g%%", i ? "," : "", levels[i].level_pct);
    appendf(buf, len, "%s%s\n", mapped[0] ? "; " : "", mapped);
}

int occ_plan_block_levels(const OccArchLimits *arch, const int *block_threads, int n_blocks,
                          const OccOccSpec *spec, OccLevel *levels, int max_levels, char *notes,
                          size_t notes_len, char *err, size_t err_len)
{
    int n = 0;
    if (notes && notes_len) notes[0] = '\0';
    for (int i = 0; i < n_blocks; i++) {
        const int b = block_threads[i];
        char mapped[512];
        OccLevel one[32];
        const int got = occ_plan_levels(arch, b, spec, one, 32, mapped, sizeof mapped);
        if (got < 0) {
            snprintf(err, err_len, "--block: %d threads exceed %s's maximum of %d per block", b,
                     arch->name, arch->max_threads_per_block);
            return -1;
        }
        if (n + got > max_levels) {
            snprintf(err, err_len, "--block: %d block sizes give more than %d levels", n_blocks,
                     max_levels);
            return -1;
        }
        memcpy(&levels[n], one, (size_t)got * sizeof *one);
        if (notes) append_block_line(arch, b, one, got, mapped, notes, notes_len);
        n += got;
    }
    return n;
}
