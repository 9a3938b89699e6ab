/* SPDX-License-Identifier: Apache-2.0 */
/* harness/cli/options_names.h: the command-line spellings of the enum options --lever,
 * --schedule, --carveout and --chain. The option table accepts exactly these names (the field
 * gets the name's index, which is the enum value); the *_name functions spell a value back for
 * the CSV, the messages and the run axes. */
#ifndef OCC_OPTIONS_NAMES_H
#define OCC_OPTIONS_NAMES_H

#include "options_types.h"

/* The names of --lever, indexed by OccLever: "auto", "pad", "bounds", "both". */
extern const char *const occ_option_lever_names[];
enum { OCC_OPTION_N_LEVERS = 4 }; /* entries in occ_option_lever_names */

/* The names of --schedule, indexed by OccSchedulePolicy: "dynamic", "static". */
extern const char *const occ_option_schedule_names[];
enum { OCC_OPTION_N_SCHEDULES = 2 }; /* entries in occ_option_schedule_names */

/* The names of --carveout, indexed by OccCarveout: "min", "max". */
extern const char *const occ_option_carveout_names[];
enum { OCC_OPTION_N_CARVEOUTS = 2 }; /* entries in occ_option_carveout_names */

/* The names of --chain, indexed by OccChain: "address", "index". */
extern const char *const occ_option_chain_names[];
enum { OCC_OPTION_N_CHAINS = 2 }; /* entries in occ_option_chain_names */

/* The command-line spelling of a lever ("auto", "pad", "bounds", "both"); "unknown" if invalid. */
const char *occ_lever_name(OccLever l);

/* The command-line spelling of a carveout ("min", "max"); "unknown" if invalid. */
const char *occ_carveout_name(OccCarveout c);

/* The command-line spelling of a schedule ("dynamic", "static"); "unknown" if invalid. */
const char *occ_schedule_name(OccSchedulePolicy s);

/* The command-line spelling of a chain ("address", "index"); "unknown" if invalid. */
const char *occ_chain_name(OccChain c);

#endif
