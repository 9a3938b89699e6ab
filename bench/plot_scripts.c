/* SPDX-License-Identifier: Apache-2.0 */
/* bench/plot_scripts.c: finding and running the plot scripts (contract in
 * bench/plot_scripts.h). */
#include "plot_scripts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build_info.h"

/* The directory of this program's binary into buf (no trailing '/'); -1 when unknown. */
static int exe_dir(char *buf, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", buf, len - 1);
    if (n <= 0) return -1;
    buf[n] = '\0';
    char *slash = strrchr(buf, '/');
    if (!slash) return -1;
    *slash = '\0';
    return 0;
}

int occ_plot_scripts_dir(char *buf, size_t len)
{
    const char *env = getenv("OCC_PLOTS_DIR");
    if (env && *env) {
        snprintf(buf, len, "%s", env);
        return 0;
    }
    char dir[1024], plot[1200];
    if (exe_dir(dir, sizeof dir) != 0) return -1;
    const char *rel[] = {OCC_PLOTS_REL_INSTALLED, OCC_PLOTS_REL_BUILD};
    for (size_t i = 0; i < sizeof rel / sizeof *rel; i++) {
        snprintf(plot, sizeof plot, "%s/%s/plot", dir, rel[i]);
        if (access(plot, X_OK) == 0) {
            snprintf(buf, len, "%s/%s", dir, rel[i]);
            return 0;
        }
    }
    return -1;
}

int occ_plot_scripts_version(FILE *f)
{
    char plots[1024];
    fprintf(f, "occsweep %s (git %s)\n", OCC_VERSION, OCC_GIT_REV);
    if (occ_plot_scripts_dir(plots, sizeof plots) == 0)
        fprintf(f, "plots: %s\n", plots);
    else
        fprintf(f, "plots: not found (no plot beside this binary; set OCC_PLOTS_DIR)\n");
    return 0;
}

/* Runs '<plots dir>/<tool>' '<csv>' through the shell, or with arg "${PYTHON:-python3}"
 * '<plots dir>/<tool>' <arg> '<csv>'; what it says stands (a missing gnuplot is its one line, not
 * a failure of the sweep). flag names the option in the messages. */
static void run_plots_tool(const char *flag, const char *tool, const char *arg,
                           const char *csv_path)
{
    char dir[1024], cmd[4096];
    if (occ_plot_scripts_dir(dir, sizeof dir) != 0) {
        fprintf(stderr, "occsweep: %s: the plot scripts are not beside this binary (set "
                        "OCC_PLOTS_DIR); run plots/plot on %s\n", flag, csv_path);
        return;
    }
    /* The paths came from us or the user; quoted for the shell, refusing embedded quotes. */
    if (strchr(csv_path, '\'') || strchr(dir, '\'')) {
        fprintf(stderr, "occsweep: %s: cannot quote path %s; run plots/plot on it\n", flag,
                csv_path);
        return;
    }
    snprintf(cmd, sizeof cmd, "%s'%s/%s' %s '%s'", arg ? "\"${PYTHON:-python3}\" " : "", dir,
             tool, arg ? arg : "", csv_path);
    if (system(cmd) == -1) fprintf(stderr, "occsweep: %s: could not run %s\n", flag, tool);
}

void occ_plot_scripts_figures(const char *csv_path)
{
    run_plots_tool("--plot", "plot", NULL, csv_path);
}

void occ_plot_scripts_page(const char *csv_path)
{
    run_plots_tool("--report", "report.py", "--", csv_path);
}
