# SPDX-License-Identifier: Apache-2.0
# plots/ncu.gp: what Nsight Compute saw at each point of a --ncu run. Top: the stall reasons per
# issued instruction (long scoreboard: waiting on memory; not selected: parallelism to spare;
# wait; math-pipe throttle) against the occupancy that ran, for one variant (the data's first
# block). Bottom: the achieved occupancy ncu measured and occsweep's own measured residency
# against the API's occupancy, every variant of the data, with the line where they agree.
#
#   gnuplot -c plots/ncu.gp DATA OUT TITLE WHICH
#
# DATA  plots/csvsel.py select output: PLOT_BY=variant, PLOT_X=occ_achieved_pct,
#       PLOT_Y=ncu_stall_long_scoreboard, PLOT_KEEP=ncu_stall_not_selected,ncu_stall_wait,
#       ncu_stall_math_throttle,ncu_occ_achieved_pct,occ_measured_pct
# OUT   output path without extension: writes OUT.png and OUT.svg
# WHICH the bottom panel's key title: which variants the data holds (e.g. "every variant")
# plots/plot draws it for every CSV whose metadata has ncu_version (a --ncu run).

load ARG0[1 : strlen(ARG0) - strlen("ncu.gp")] . "style.gp"
DATA = ARG1
OUT = ARG2
stats DATA using "ncu_stall_long_scoreboard" nooutput
NB = STATS_blocks
array VNAME[NB]
stats DATA using (strcol("set_idx") eq "set_idx" ? 0 : (b = column(-2) + 1, \
                  VNAME[b] = strcol("variant"), 0)) nooutput
stats DATA index 0 using "ncu_stall_long_scoreboard" nooutput
SMAX = STATS_max

DRAW = "set multiplot layout 2, 1 title ARG3 noenhanced; " . \
    "set lmargin at screen 0.1; set rmargin at screen 0.58; " . \
    "set ylabel 'stalls per instruction'; set yrange [0 : 1.15 * SMAX]; " . \
    "set key at screen 0.61, graph 1 left top vertical noenhanced width 0 title VNAME[1]; " . \
    "plot DATA index 0 using 'occ_achieved_pct':'ncu_stall_long_scoreboard' " . \
    "with linespoints linewidth 2.5 linecolor rgb rank_rgb(1) pointtype rank_pt(1) " . \
    "title 'long scoreboard', " . \
    "'' index 0 using 'occ_achieved_pct':'ncu_stall_not_selected' " . \
    "with linespoints linewidth 2.5 linecolor rgb rank_rgb(2) pointtype rank_pt(2) " . \
    "title 'not selected', " . \
    "'' index 0 using 'occ_achieved_pct':'ncu_stall_wait' " . \
    "with linespoints linewidth 2.5 linecolor rgb rank_rgb(3) pointtype rank_pt(3) " . \
    "title 'wait', " . \
    "'' index 0 using 'occ_achieved_pct':'ncu_stall_math_throttle' " . \
    "with linespoints linewidth 2.5 linecolor rgb rank_rgb(4) pointtype rank_pt(4) " . \
    "title 'math-pipe throttle'; " . \
    "set ylabel 'measured (% of max warps)'; set yrange [0 : 100]; " . \
    "set key at screen 0.61, graph 1 left top vertical noenhanced width 0 title ARG4; " . \
    "plot x with lines dashtype 2 linecolor rgb ROOF_RGB title 'measured = API', " . \
    "DATA index 0:" . sprintf("%d", NB - 1) . " using 'occ_achieved_pct':'ncu_occ_achieved_pct' with points " . \
    "pointtype 7 pointsize 0.9 linecolor rgb rank_rgb(1) title 'Nsight Compute achieved', " . \
    "DATA index 0:" . sprintf("%d", NB - 1) . " using 'occ_achieved_pct':'occ_measured_pct' with points " . \
    "pointtype 6 pointsize 1.4 linecolor rgb rank_rgb(2) title 'occsweep measured residency'; " . \
    "unset multiplot"

set xrange [0 : 100]
set xtics 12.5
set format x "%g"
set xlabel "occupancy that ran (API, % of max warps per SM)"
eval PNG_BEGIN
eval DRAW
eval SVG_BEGIN
eval DRAW
unset output
