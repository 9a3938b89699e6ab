/* SPDX-License-Identifier: Apache-2.0 */
/* harness/cli/options_names.c: the spellings of the enum options, one array per enum in the
 * order of its values. */
#include "options_names.h"

const char *const occ_option_lever_names[OCC_OPTION_N_LEVERS] = {"auto", "pad", "bounds", "both"};
const char *const occ_option_schedule_names[OCC_OPTION_N_SCHEDULES] = {"dynamic", "static"};
const char *const occ_option_carveout_names[OCC_OPTION_N_CARVEOUTS] = {"min", "max"};
const char *const occ_option_chain_names[OCC_OPTION_N_CHAINS] = {"address", "index"};

const char *occ_schedule_name(OccSchedulePolicy s)
{
    return (unsigned)s < OCC_OPTION_N_SCHEDULES ? occ_option_schedule_names[s] : "unknown";
}

const char *occ_carveout_name(OccCarveout c)
{
    return (unsigned)c < OCC_OPTION_N_CARVEOUTS ? occ_option_carveout_names[c] : "unknown";
}

const char *occ_lever_name(OccLever l)
{
    return (unsigned)l < OCC_OPTION_N_LEVERS ? occ_option_lever_names[l] : "unknown";
}

const char *occ_chain_name(OccChain c)
{
    return (unsigned)c < OCC_OPTION_N_CHAINS ? occ_option_chain_names[c] : "unknown";
}
