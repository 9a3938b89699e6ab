/* SPDX-License-Identifier: Apache-2.0 */
/* harness/report/plan_print.c: the plan as printed before a run (contract in harness/report/plan_print.h). */
#include "plan_print.h"

#include <string.h>

#include "catalog.h"
#include "plan_estimate.h"

void occ_plan_print_levels(FILE *f, const char *prefix, const char *notes, const OccPlan *plan)
{
    int occupancy = 0;
    for (int i = 0; i < plan->n; i++) occupancy |= plan->points[i].variant_index >= 0;
    for (const char *line = notes; occupancy && *line;) {
        const size_t n = strcspn(line, "\n");
        fprintf(f, "%s%.*s\n", prefix, (int)n, line);
        line += n + (line[n] == '\n');
    }
}

void occ_plan_print_carveouts(FILE *f, const OccPlan *plan)
{
    int common = 0, own = 0;
    for (int i = 0; i < plan->n; i++) {
        const int bytes = plan->points[i].carveout_bytes;
        common |= bytes > 0 && bytes == plan->carveout_bytes;
        own |= bytes > 0 && bytes != plan->carveout_bytes;
    }
    if (common)
        fprintf(f, "carveout: %d KiB shared memory per SM for every occupancy point%s\n",
                plan->carveout_bytes / 1024, own ? " of a family without a tile" : "");
    for (int i = 0; i < plan->n; i++) {
        const OccPoint *p = &plan->points[i];
        if (p->carveout_bytes <= 0 || p->carveout_bytes == plan->carveout_bytes) continue;
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = plan->points[j].family == p->family &&
                   plan->points[j].carveout_bytes == p->carveout_bytes;
        if (!seen)
            fprintf(f, "carveout: %d KiB shared memory per SM for the %s points (their tile)\n",
                    p->carveout_bytes / 1024, occ_family_at(p->family)->kernel);
    }
}

/* 0 for a point of the sweep, 1 for a load level (a level-shaped family: the model's input,
 * measured before the sweep), 2 for a footprint (a footprint-shaped family: the ladder). */
static int point_kind(const OccPoint *p)
{
    const OccFamilyInfo *fi = occ_family_at(p->family);
    if (occ_family_is_levels(fi)) return 1;
    return fi != NULL && fi->shape == OCC_SHAPE_FOOTPRINT ? 2 : 0;
}

/* The line that heads the points of kind (point_kind), n of them. */
static void print_section(int kind, int n)
{
    static const char *const what[] = {
        "sweep points (%d):",
        "load levels (%d): the loaded-latency probes the model's curves come from, measured "
        "before the sweep:",
        "footprints of the latency ladder (%d):"};
    printf(what[kind], n);
    putchar('\n');
}

void occ_plan_print_dry_run(const OccPlan *plan, const char *target, const char *notes,
                            int with_l2, const OccOptions *opt)
{
    char line[320];
    int count[3] = {0}, kinds = 0;
    for (int i = 0; i < plan->n; i++) count[point_kind(&plan->points[i])]++;
    for (int k = 0; k < 3; k++) kinds += count[k] > 0;
    printf("plan for %s: %d points", target, plan->n);
    if (count[1] > 0)
        printf(" (%d sweep point%s + %d load level%s)", plan->n - count[1],
               plan->n - count[1] == 1 ? "" : "s", count[1], count[1] == 1 ? "" : "s");
    putchar('\n');
    occ_plan_print_levels(stdout, "levels ", notes, plan);
    occ_plan_print_carveouts(stdout, plan);
    for (int i = 0, last = -1; i < plan->n; i++) {
        const int kind = point_kind(&plan->points[i]);
        if (kinds > 1 && kind != last) print_section(kind, count[kind]);
        last = kind;
        occ_plan_format_point(&plan->points[i], line, sizeof line);
        printf("%s\n", line);
    }
    if (count[2] && !with_l2)
        printf("footprints: planned without the L2 size (--arch); a run on the GPU adds 8 per "
               "octave within a factor 4 of its L2\n");
    printf("%d points\n", plan->n);
    OccPlanEstimate est;
    occ_plan_estimate(plan, opt, &est);
    printf("%s\n", occ_plan_format_estimate(&est, opt, line, sizeof line));
    if (occ_plan_ladder_left_out(opt))
        printf("%s\n", occ_plan_format_ladder_note(line, sizeof line));
}
