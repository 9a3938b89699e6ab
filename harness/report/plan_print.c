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

void occ_plan_print_dry_run(const OccPlan *plan, const char *target, const char *notes,
                            int with_l2, const OccOptions *opt)
{
    char line[320];
    int footprints = 0;
    printf("plan for %s: %d points\n", target, plan->n);
    occ_plan_print_levels(stdout, "levels ", notes, plan);
    occ_plan_print_carveouts(stdout, plan);
    for (int i = 0; i < plan->n; i++) {
        occ_plan_format_point(&plan->points[i], line, sizeof line);
        printf("%s\n", line);
        footprints += plan->points[i].variant_index < 0;
    }
    if (footprints && !with_l2)
        printf("footprints: planned without the L2 size (--arch); a run on the GPU adds 8 per "
               "octave within a factor 4 of its L2\n");
    printf("%d points\n", plan->n);
    OccPlanEstimate est;
    occ_plan_estimate(plan, opt, &est);
    printf("%s\n", occ_plan_format_estimate(&est, opt, line, sizeof line));
    if (occ_plan_ladder_left_out(opt))
        printf("%s\n", occ_plan_format_ladder_note(line, sizeof line));
}
