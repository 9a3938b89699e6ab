# SPDX-License-Identifier: Apache-2.0
# plots/levers.gp: one (unroll U, vector width V) of a --lever both run through each lever: median
# GB/s against theoretical occupancy, the natural variant padded by shared memory (pad) and the
# register ladder's capped twins (bounds, dashed, open points), each capped point labelled with
# its cap and spill bytes ("r40: 32 B": local memory per thread from cudaFuncGetAttributes,
# written downwards under the point, clear of the roof above), so that what more occupancy through
# fewer registers costs is visible; the memcpy roof as a line, and % of it on the right axis.
#
#   gnuplot -c plots/levers.gp DATA OUT TITLE [ROOF_GBPS]
#
# DATA  plots/csvsel.py data: PLOT_BY=lever, PLOT_X=occ_achieved_pct, PLOT_Y=gbps_median,
#       PLOT_KEEP=reg_cap_per_thread,local_bytes_per_thread, rows of one kernel, mode, U and V
#       (one block per lever, sorted by x)
# OUT   output path without extension: writes OUT.png and OUT.svg
# ROOF_GBPS  memcpy device-to-device GB/s of the run; empty: no roof line
# plots/plot prepares DATA and the arguments from a sweep CSV.

HERE = ARG0[1 : strlen(ARG0) - strlen("levers.gp")]
load HERE . "style.gp"
DATA = ARG1
OUT = ARG2
ROOF = ARGC >= 4 && ARG4 ne "" ? ARG4 + 0.0 : 0.0

stats DATA using "gbps_median" nooutput
NB = STATS_blocks
YMAX = STATS_max
array CAP_B[NB]
# Each block repeats the header line; stats evaluates it too, so it is skipped by name.
stats DATA using (strcol("set_idx") eq "set_idx" ? 0 : (CAP_B[column(-2) + 1] = capped_row(0), 0)) \
    nooutput
lever_rgb(b) = rank_rgb(CAP_B[b] ? 2 : 1)
lever_title(b) = CAP_B[b] ? "bounds: register cap (+ padding where no rung fits)" \
                          : "pad: natural registers + shared-memory padding"
spill_label(b) = CAP_B[b] ? sprintf("r%d: %d B", column("reg_cap_per_thread"), \
                                    column("local_bytes_per_thread")) : ""

set yrange [0 : 1.15 * max2(YMAX, ROOF)]
stats DATA using "occ_achieved_pct" nooutput
OCC_LO = STATS_min
eval OCC_AXIS
set ylabel "median bandwidth (GB/s)"
if (ROOF > 0) {
    set link y2 via 100.0 * y / ROOF inverse y * ROOF / 100.0
    set y2tics nice_step(1.15 * max2(YMAX, ROOF) * 100.0 / ROOF) out nomirror format "%g%%"
    set y2label "% of memcpy roof"
}
set title ARG3 noenhanced

eval PNG_BEGIN
plot for [b = 1 : NB] DATA index (b - 1) using "occ_achieved_pct":"gbps_median" \
         with linespoints linewidth 2.5 dashtype 1 + CAP_B[b] linecolor rgb lever_rgb(b) \
         pointtype (CAP_B[b] ? rank_pt_open(1) : rank_pt(1)) pointsize 1.6 * PS \
         title lever_title(b), \
     for [b = 1 : NB] DATA index (b - 1) using "occ_achieved_pct":"gbps_median":(spill_label(b)) \
         with labels rotate by -90 left offset 0, -1.1 font ",11" textcolor rgb lever_rgb(b) \
         notitle, \
     for [k = 1 : (ROOF > 0)] ROOF with lines dashtype 2 linewidth 2 linecolor rgb ROOF_RGB \
         title (ROOF > 0 ? sprintf("memcpy roof %.0f GB/s", ROOF) : "")
eval SVG_AGAIN
