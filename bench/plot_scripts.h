/* SPDX-License-Identifier: Apache-2.0 */
/* bench/plot_scripts.h: the plot scripts (plots/ of the source, share/occsweep/plots installed)
 * as the binary finds and runs them after a finished run: --plot's figures, --report's page, and
 * the directory --version names. Neither a missing script nor a failing one fails the sweep. */
#ifndef OCC_PLOT_SCRIPTS_H
#define OCC_PLOT_SCRIPTS_H

#include <stddef.h>
#include <stdio.h>

/* The directory of the plot scripts into buf: $OCC_PLOTS_DIR, else the first of
 * <binary's dir>/OCC_PLOTS_REL_INSTALLED (an installed tree: ../share/occsweep/plots) and
 * <binary's dir>/OCC_PLOTS_REL_BUILD (the build tree's way to the source's plots/; both set by
 * bench/meson.build) that holds an executable `plot`. 0, or -1 when none does. */
int occ_plot_scripts_dir(char *buf, size_t len);

/* --plot: draws the figures for csv_path with the plot scripts' `plot`; a missing gnuplot is the
 * one line plot prints. */
void occ_plot_scripts_figures(const char *csv_path);

/* --report: writes <csv>-report.md and <csv>-report.html with the plot scripts' report.py (the
 * figures already beside the CSV are embedded); a failure is its one line. */
void occ_plot_scripts_page(const char *csv_path);

/* --version on f: "occsweep <version> (git <rev>)" and "plots: <dir>" (or why there is none).
 * Returns the exit status, 0. */
int occ_plot_scripts_version(FILE *f);

#endif
