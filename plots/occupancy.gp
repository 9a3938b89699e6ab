# SPDX-License-Identifier: Apache-2.0
# plots/occupancy.gp: the Volkov curve: median GB/s against theoretical occupancy, one curve per
# (unroll U, vector width V) and one more, dashed with open points, for its register-capped
# _r<cap> twins (lever bounds) where they ran (the encoding is volkov.gp's); the memcpy roof and DRAM
# peak as lines named in the key, and on the right axis the bandwidth as % of that roof.
#
#   gnuplot -c plots/occupancy.gp DATA OUT TITLE [ROOF_GBPS [DRAM_PEAK_GBPS]]
#
# DATA  plots/csvsel.py data of an occupancy figure: PLOT_BY=unroll,vec_bytes,lever,block_threads
#       (one block size), PLOT_X=occ_achieved_pct, PLOT_Y=gbps_median (one block per curve,
#       sorted by x)
# OUT   output path without extension: writes OUT.png and OUT.svg
# ROOF_GBPS       memcpy device-to-device GB/s of the run; empty: no roof line, no right axis
# DRAM_PEAK_GBPS  theoretical DRAM peak GB/s; empty: no peak line
# plots/plot prepares DATA and the arguments from a sweep CSV.

HERE = ARG0[1 : strlen(ARG0) - strlen("occupancy.gp")]
load HERE . "style.gp"
DATA = ARG1
OUT = ARG2
XCOL = "occ_achieved_pct"
ROOF = ARGC >= 4 && ARG4 ne "" ? ARG4 + 0.0 : 0.0
PEAK = ARGC >= 5 && ARG5 ne "" ? ARG5 + 0.0 : 0.0
load HERE . "volkov.gp"
ROOF_TITLE = sprintf("memcpy roof %.0f GB/s", ROOF)
PEAK_TITLE = sprintf("DRAM peak %.0f GB/s", PEAK)

YTOP = 1.1 * (YMAX > ROOF ? (YMAX > PEAK ? YMAX : PEAK) : (ROOF > PEAK ? ROOF : PEAK))
set yrange [0 : YTOP]
# x from the lowest level measured, with room on the right for the groups' labels.
stats DATA using XCOL nooutput
OCC_LO = STATS_min
OCC_HI = 100 + 0.3 * (100 - (OCC_LO < 100 ? OCC_LO : 0))
eval OCC_AXIS
set ylabel "median bandwidth (GB/s)"
if (ROOF > 0) {
    set link y2 via 100.0 * y / ROOF inverse y * ROOF / 100.0
    set y2tics nice_step(YTOP * 100.0 / ROOF) out nomirror format "%g%%"
    set y2label "% of memcpy roof" offset 1.2, 0
}
set title ARG3 noenhanced

# Each group's label at the right of its curves' ends, its height the mean of theirs; where
# labels would overlap (closer than GAP of the y range) each pair is pushed apart evenly, and the
# column kept inside the plot.
GAP = 0.042 * YTOP
array G_AT[NG > 0 ? NG : 1]
array G_IDX[NG > 0 ? NG : 1]
do for [g = 1 : NG] { G_IDX[g] = g }
do for [i = 1 : NG] {
    do for [j = i + 1 : NG] {
        if (G_Y[G_IDX[j]] < G_Y[G_IDX[i]]) { t = G_IDX[i]; G_IDX[i] = G_IDX[j]; G_IDX[j] = t }
    }
}
do for [i = 1 : NG] { G_AT[i] = G_Y[G_IDX[i]] }
do for [pass = 1 : 40] {
    do for [i = 2 : NG] {
        short = G_AT[i - 1] + GAP - G_AT[i]
        if (short > 0) { G_AT[i - 1] = G_AT[i - 1] - short / 2; G_AT[i] = G_AT[i] + short / 2 }
    }
    if (NG > 0 && G_AT[NG] > YTOP - 0.5 * GAP) {
        do for [i = 1 : NG] { G_AT[i] = G_AT[i] - (G_AT[NG] - (YTOP - 0.5 * GAP)) }
    }
    if (NG > 0 && G_AT[1] < 0.5 * GAP) {
        do for [i = 1 : NG] { G_AT[i] = G_AT[i] + (0.5 * GAP - G_AT[1]) }
    }
}
LABEL_X = 100 + 0.02 * (100 - OCC_LO)
do for [i = 1 : NG] {
    set label 100 + i G_TEXT[G_IDX[i]] at LABEL_X, G_AT[i] left front font ",12" \
        textcolor rgb uv_rgb(G_UV[G_IDX[i]])
}
# The column's title above the plot, short enough to end before the right axis's tick labels.
set label 100 "U × V, bytes/thread/trip" at LABEL_X, graph 1 left front font ",12" \
    offset 0, 0.7
# A group whose curves all end before the right edge (a variant whose registers allow no higher
# occupancy) is joined to its label by a thin dotted line from its furthest end.
array LEAD_X0[NG > 0 ? NG : 1]
array LEAD_Y0[NG > 0 ? NG : 1]
array LEAD_X1[NG > 0 ? NG : 1]
array LEAD_Y1[NG > 0 ? NG : 1]
NLEAD = 0
do for [i = 1 : NG] {
    GX = -1
    do for [b = 1 : NB] {
        if ((!CAP_B[b] || ALLCAP) && UV_B[b] == G_UV[G_IDX[i]] && XEND[b] > GX) {
            GX = XEND[b]
            GY = YEND[b]
        }
    }
    if (GX < 100 - 0.05 * (100 - OCC_LO)) {
        NLEAD = NLEAD + 1
        LEAD_X0[NLEAD] = GX
        LEAD_Y0[NLEAD] = GY
        LEAD_X1[NLEAD] = LABEL_X - 0.01 * (100 - OCC_LO)
        LEAD_Y1[NLEAD] = G_AT[i]
        set arrow 100 + NLEAD from GX, GY to LEAD_X1[NLEAD], G_AT[i] nohead dashtype (2, 4) \
            linewidth 1.5 linecolor rgb uv_rgb(G_UV[G_IDX[i]]) back
    }
}
XLO = OCC_LO - OCC_PAD
XHI = OCC_HI + OCC_PAD
LOGX = 0
LABEL_GX = (100 - XLO) / (XHI - XLO)
HLINES = sprintf("%g %g", ROOF, PEAK)
EXTRA_Y = ""

eval PNG_BEGIN
plot @VOLKOV_CURVES, @VOLKOV_KEY, \
     for [k = 1 : (ROOF > 0)] (x <= 100 ? ROOF : NaN) with lines dashtype 2 linewidth 2 linecolor rgb ROOF_RGB \
         title (ROOF > 0 ? ROOF_TITLE : ""), \
     for [k = 1 : (PEAK > 0)] (x <= 100 ? PEAK : NaN) with lines dashtype 3 linewidth 2 linecolor rgb ROOF_RGB \
         title (PEAK > 0 ? PEAK_TITLE : "")
# The capped curves' labels, placed by the geometry of the plot just drawn, then drawn again.
if (CAP_LABELS) { load HERE . "caplabels.gp"; eval PNG_BEGIN; replot }
eval SVG_AGAIN
