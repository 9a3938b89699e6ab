# SPDX-License-Identifier: Apache-2.0
# plots/compare.gp: several GPUs (or runs) side by side: each curve's bandwidth as % of its own
# file's memcpy roof (or in GB/s), against theoretical occupancy or bytes in flight per SM, one
# panel per unroll U (so that each panel holds GPUs x V curves, not all of them). Colour names the
# GPU, point shape and line width the vector width V (as volkov.gp has it); a register-capped twin
# is its own curve, dashed with open points. The panels share one x label and one y label; the
# key is below them all, one entry a row where a run's label is long.
#
#   gnuplot -c plots/compare.gp DATA OUT TITLE XKIND [YKIND]
#
# DATA   plots/csvsel.py compare data over all the CSVs: PLOT_BY=unroll,vec_bytes,lever,
#        PLOT_X=occ_achieved_pct or bytes_in_flight_per_sm, PLOT_Y=gbps_median,
#        PLOT_NORM=roof_memcpy_gbps (each row carries its file's roof); one block per GPU and
#        curve
# OUT    output path without extension: writes OUT.png and OUT.svg
# XKIND  occ or inflight: which x column DATA holds
# YKIND  pct (the default): % of each row's own roof, the roof a line at 100; gbps: GB/s
# plots/plot prepares DATA and the arguments from the sweep CSVs.

HERE = ARG0[1 : strlen(ARG0) - strlen("compare.gp")]
load HERE . "style.gp"
DATA = ARG1
OUT = ARG2
INFLIGHT = ARG4 eq "inflight"
XCOL = INFLIGHT ? "bytes_in_flight_per_sm" : "occ_achieved_pct"
stats DATA using XCOL nooutput
BYTES_LO = STATS_min
BYTES_HI = STATS_max
load HERE . "volkov.gp"
GBPS = ARGC >= 5 && ARG5 eq "gbps"
# % of the row's own GPU's roof, or GB/s.
ycol(b) = GBPS ? column("gbps_median") : 100.0 * column("gbps_median") / column("roof_memcpy_gbps")
stats DATA using (ycol(0)) nooutput
YTOP = GBPS ? 1.1 * STATS_max : (STATS_max > 100 ? 1.1 * STATS_max : 110)
array GPU[NB]
array GPU_NAME[NB]
stats DATA using (strcol("set_idx") eq "set_idx" ? 0 : (b = column(-2) + 1, \
                  GPU[b] = int(column("set_idx")), GPU_NAME[GPU[b]] = strcol("label"), 0)) nooutput
NG = 0
LONGEST = 0
do for [b = 1 : NB] { NG = GPU[b] > NG ? GPU[b] : NG }
do for [g = 1 : NG] { LONGEST = strlen(GPU_NAME[g]) > LONGEST ? strlen(GPU_NAME[g]) : LONGEST }
# Panels: one per unroll rank, in a grid of up to 2 columns.
NCOL = NU > 1 ? 2 : 1
NROW = (NU + NCOL - 1) / NCOL

# The panels' axes, a string to eval before each drawing (the key's plot unsets them).
BYTE_LABELS = NCOL > 1 ? 4 : 8
AXES = "set border 31; set tics out nomirror; " . \
    "set grid xtics ytics linetype 1 linecolor rgb GRID_RGB linewidth 1; " . \
    (INFLIGHT ? BYTE_TICS : "set xrange [0 : 100]; set xtics 0, (NCOL > 1 ? 25 : 12.5), 100; " . \
                "set mxtics 2") . "; set yrange [0 : YTOP]; " . \
    (GBPS ? "set ytics nice_step(YTOP)" : "set ytics 20")
XLABEL = INFLIGHT ? "bytes in flight per SM (resident warps × 32 × U × V)" : OCC_LABEL
YLABEL = GBPS ? "median bandwidth (GB/s)" : "% of own memcpy roof"

# The key, below the panels: the GPUs, then the load widths (and the capped style); in two
# columns where every run's label is short, else one entry a row.
NKEY = NG + NV + CAPPED
KEY_ROWS = LONGEST > 40 ? NKEY : (NG > NV + CAPPED ? NG : NV + CAPPED)
ROW_H = 0.032
KEY_TOP = 0.02 + ROW_H * KEY_ROWS
# Screen fractions: the x label under the lowest panels, their tick labels, the title at the top.
XLAB_Y = KEY_TOP + 0.025
PANELS_Y0 = XLAB_Y + 0.09
PANELS_Y1 = 0.87
ROW_GAP = 0.13
PANEL_H = (PANELS_Y1 - PANELS_Y0 - (NROW - 1) * ROW_GAP) / NROW
LEFT = 0.1
RIGHT = 0.95
COL_GAP = 0.09
PANEL_W = (RIGHT - LEFT - (NCOL - 1) * COL_GAP) / NCOL

# The blocks by panel, widest line first within each: panel r holds
# P_ORDER[P_FIRST[r] .. P_LAST[r]].
array P_ORDER[NB]
array P_FIRST[NU]
array P_LAST[NU]
k = 0
do for [r = 1 : NU] {
    P_FIRST[r] = k + 1
    do for [j = 1 : NB] {
        if (UR[ORDER[j]] == r) { k = k + 1; P_ORDER[k] = ORDER[j] }
    }
    P_LAST[r] = k
}

DRAW = "set multiplot title ARG3 noenhanced; set key off; unset xlabel; unset label 1; unset label 2; " . \
    "eval AXES; " . \
    "do for [r = 1 : NU] { col = (r - 1) % NCOL; row = (r - 1) / NCOL; " . \
    "set lmargin at screen LEFT + col * (PANEL_W + COL_GAP); " . \
    "set rmargin at screen LEFT + col * (PANEL_W + COL_GAP) + PANEL_W; " . \
    "set tmargin at screen PANELS_Y1 - row * (PANEL_H + ROW_GAP); " . \
    "set bmargin at screen PANELS_Y1 - row * (PANEL_H + ROW_GAP) - PANEL_H; " . \
    "set title sprintf('unroll %d', U_OF_RANK[r]) offset 0, -0.5; " . \
    "set ylabel ''; " . \
    "plot for [k = 1 : !GBPS] 100 with lines dashtype 2 linewidth 2 linecolor rgb ROOF_RGB notitle, " . \
    "for [k = P_FIRST[r] : P_LAST[r]] DATA index (P_ORDER[k] - 1) " . \
    "using XCOL:(ycol(P_ORDER[k])) " . \
    "with lines linewidth v_lw(VR[P_ORDER[k]]) linecolor rgb rank_rgb(GPU[P_ORDER[k]]) " . \
    "dashtype 1 + CAP_B[P_ORDER[k]] notitle, " . \
    "for [k = P_FIRST[r] : P_LAST[r]] DATA index (P_ORDER[k] - 1) " . \
    "using XCOL:(ycol(P_ORDER[k])) " . \
    "with points linecolor rgb 'white' pointtype vec_pt(V_B[P_ORDER[k]]) " . \
    "pointsize cap_ps(P_ORDER[k]) notitle, " . \
    "for [k = P_FIRST[r] : P_LAST[r]] DATA index (P_ORDER[k] - 1) " . \
    "using XCOL:(ycol(P_ORDER[k])) " . \
    "with points linewidth 1.5 linecolor rgb rank_rgb(GPU[P_ORDER[k]]) " . \
    "pointtype cap_pt(P_ORDER[k]) pointsize cap_ps(P_ORDER[k]) notitle }; " . \
    "unset title; unset ylabel; unset border; unset tics; unset grid; unset logscale x; " . \
    "set xrange [0 : 1]; set yrange [0 : 1]; " . \
    "set lmargin at screen 0.02; set rmargin at screen 0.98; " . \
    "set tmargin at screen KEY_TOP; set bmargin at screen 0.01; " . \
    "set label 1 XLABEL at screen 0.5, screen XLAB_Y center; " . \
    "set label 2 YLABEL at screen 0.025, screen (PANELS_Y0 + PANELS_Y1) / 2 center rotate by 90; " . \
    "set key at screen 0.5, screen KEY_TOP center top vertical maxrows KEY_ROWS width 1 " . \
    "Left reverse noenhanced font ',14' noopaque nobox samplen 4 spacing 1.0; " . \
    "plot for [g = 1 : NG] NaN with lines linewidth 5 linecolor rgb rank_rgb(g) " . \
    "title GPU_NAME[g], " . \
    "for [v = 1 : NV] NaN with linespoints linewidth v_lw(v) linecolor rgb 'black' " . \
    "pointtype vec_pt(V_OF_RANK[v]) pointsize 1.4 * PS " . \
    "title sprintf('%d B loads', V_OF_RANK[v]), " . \
    "for [k = 1 : CAPPED] NaN with linespoints linewidth 2 dashtype 2 linecolor rgb 'black' " . \
    "pointtype vec_pt_open(V_OF_RANK[1]) pointsize 1.6 * PS " . \
    "title (CAPPED ? CAPPED_TITLE : ''); " . \
    "unset multiplot"

eval PNG_BEGIN
eval DRAW
eval SVG_BEGIN
eval DRAW
unset output
