/* SPDX-License-Identifier: Apache-2.0 */
/* harness/gpu/chase_footprint.c: building a chase footprint on the device. */
#include "chase_footprint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "device.h"
#include "perm.h"
#include "walltime.h"

int occ_footprint_init(OccFootprint *c, size_t footprint_bytes, unsigned int line_words,
                       OccChaseLink link, size_t max_chains, uint64_t seed, char *err,
                       size_t err_len)
{
    memset(c, 0, sizeof *c);
    c->line_words = line_words;
    c->link = link;
    c->n_lines = footprint_bytes / (4u * line_words);
    c->max_chains = max_chains;
    const int index4 = link == OCC_CHASE_INDEX4;
    if (c->n_lines < 2 || (index4 && c->n_lines * line_words > 0xFFFFFFFFu) ||
        (!index4 && line_words < 2)) {
        snprintf(err, err_len, "chase footprint of %zu bytes is outside 2 lines .. %s",
                 footprint_bytes, index4 ? "16 GiB (4-byte indices)" : "any size");
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
    double t0 = occ_walltime_s();
    occ_perm_cycle(next, c->host_order, c->n_lines, seed);
    c->perm_build_ms = 1e3 * (occ_walltime_s() - t0);
    unsigned int *next_dev = NULL;
    cudaError_t e = cudaMalloc((void **)&c->lines, c->n_lines * line_words * 4);
    if (e == cudaSuccess) e = cudaMalloc((void **)&c->order, c->n_lines * 4);
    if (e == cudaSuccess) e = cudaMalloc((void **)&c->ends, (max_chains ? max_chains : 1) * 4);
    if (e == cudaSuccess) e = cudaMalloc((void **)&next_dev, c->n_lines * 4);
    if (e == cudaSuccess) e = cudaMemcpy(next_dev, next, c->n_lines * 4, cudaMemcpyHostToDevice);
    if (e == cudaSuccess)
        e = cudaMemcpy(c->order, c->host_order, c->n_lines * 4, cudaMemcpyHostToDevice);
    if (e == cudaSuccess)
        e = occ_chase_fill_lines(c->lines, next_dev, c->n_lines, line_words, link, 0);
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    cudaFree(next_dev);
    free(next);
    if (e != cudaSuccess) {
        occ_device_format_error(e, "building the chase footprint", err, err_len);
        return -1;
    }
    return 0;
}

void occ_footprint_free(OccFootprint *c)
{
    cudaFree(c->lines);
    cudaFree(c->order);
    cudaFree(c->ends);
    free(c->host_order);
    memset(c, 0, sizeof *c);
}

long long occ_footprint_bytes(const OccFootprint *f)
{
    return (long long)(f->n_lines * 4u * f->line_words);
}

unsigned int occ_chase_link_bytes(OccChaseLink link)
{
    return link == OCC_CHASE_INDEX4 ? 4 : 8;
}

unsigned long long occ_footprint_link(const OccFootprint *f, size_t line)
{
    const unsigned long long words = (unsigned long long)line * f->line_words;
    if (f->link == OCC_CHASE_ADDRESS) return (unsigned long long)(uintptr_t)f->lines + 4 * words;
    return words * 4 / occ_chase_link_bytes(f->link);
}
