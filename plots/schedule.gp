# SPDX-License-Identifier: Apache-2.0
# plots/schedule.gp: static against dynamic work sharing for one variant: GB/s against the
# occupancy the API set (top), and the residency measured in the same launch shape against it
# (bottom, with the line where they agree), one curve per schedule (and file).
#
#   gnuplot -c plots/schedule.gp DATA OUT TITLE
#
# DATA  plots/csvsel.py select output with PLOT_WHERE holding one variant (and kernel),
#       PLOT_BY=schedule, PLOT_X=occ_achieved_pct, PLOT_Y=gbps_median,
#       PLOT_KEEP=occ_measured_pct; rows of several files may be given (e.g. a --schedule static
#       run and a dynamic one)
# OUT   output path without extension: writes OUT.png and OUT.svg
# Made by hand for a report (plots/plot does not call it), e.g. for reduce_u4_v16:
#   PLOT_WHERE=$'variant=reduce_u4_v16' PLOT_BY=schedule PLOT_X=occ_achieved_pct \
#   PLOT_Y=gbps_median PLOT_KEEP=occ_measured_pct python3 plots/csvsel.py select A.csv B.csv >d.tsv
#   gnuplot -c plots/schedule.gp d.tsv out "reduce_u4_v16: static vs dynamic"

load ARG0[1 : strlen(ARG0) - strlen("schedule.gp")] . "style.gp"
DATA = ARG1
OUT = ARG2
stats DATA using "gbps_median" nooutput
NB = STATS_blocks
YMAX = STATS_max
array SNAME[NB]
array SR[NB]
stats DATA using (strcol("set_idx") eq "set_idx" ? 0 : (b = column(-2) + 1, \
                  SNAME[b] = strcol("schedule"), SR[b] = int(column("schedule_rank")), 0)) nooutput

# A multiplot is drawn once per terminal (replot would redraw only its last panel).
DRAW = "set multiplot layout 2, 1 title ARG3 noenhanced; " . \
    "set ylabel 'median bandwidth (GB/s)'; set yrange [0 : 1.1 * YMAX]; " . \
    "plot for [b = 1 : NB] DATA index (b - 1) using 'occ_achieved_pct':'gbps_median' " . \
    "with linespoints linewidth 2.5 linecolor rgb rank_rgb(SR[b]) pointtype rank_pt(SR[b]) " . \
    "title SNAME[b]; " . \
    "set ylabel 'measured residency (% of max warps)'; set yrange [0 : 100]; " . \
    "plot x with lines dashtype 2 linecolor rgb ROOF_RGB title 'measured = API', " . \
    "for [b = 1 : NB] DATA index (b - 1) using 'occ_achieved_pct':'occ_measured_pct' " . \
    "with linespoints linewidth 2.5 linecolor rgb rank_rgb(SR[b]) pointtype rank_pt(SR[b]) " . \
    "title SNAME[b]; unset multiplot"

set key inside right bottom vertical noenhanced width 0
set xrange [0 : 100]
set xtics 12.5
set format x "%g"
set xlabel "occupancy set by the padding (API, % of max warps per SM)"
eval PNG_BEGIN
eval DRAW
eval SVG_BEGIN
eval DRAW
unset output
