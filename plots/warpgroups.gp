# SPDX-License-Identifier: Apache-2.0
# plots/warpgroups.gp: warp-group MMA against warp groups per SM: median GFLOP/s (drawn in
# TFLOP/s) against resident warp groups (blocks per SM x threads per block / 128), one panel per N
# (the variant name's axis n), one curve per variant: colour by groups in flight G (the unroll
# column, coloured as chains are in every figure), line and point style by the name's other
# words (its form: ss, rs, ss noswz). The headline rate the rows are judged against (the largest
# flop_peak_gflops, at the clock the rows measured) is a dashed line and the right axis of the
# last panel; the mma.sync plateau (the best GFLOP/s of an arithmetic run of the same headline
# rate, e.g. mma) a dash-dot line, so that the gap wgmma closes shows.
#
#   gnuplot -c plots/warpgroups.gp DATA OUT TITLE REF_GFLOPS REF_WHO
#
# DATA        plots/csvsel.py data of a warpgroups figure: PLOT_BY=variant,unroll,block_threads,
#             lever, PLOT_X=blocks_per_sm, PLOT_Y=gflops_median, PLOT_KEEP=flop_peak_gflops,
#             sm_clock_mhz_median, then the columns panel (N) and form (one block per curve)
# OUT         output path without extension: writes OUT.png and OUT.svg
# REF_GFLOPS  the mma.sync plateau in GFLOP/s; empty: no line, and the key says none was given
# REF_WHO     the rows it is the best of, for the key ("mma (f16)", "mma (f16) of X.csv")
# plots/plot prepares DATA and the arguments from a sweep CSV (and the CSVs given beside it).

HERE = ARG0[1 : strlen(ARG0) - strlen("warpgroups.gp")]
load HERE . "style.gp"
DATA = ARG1
OUT = ARG2
YSCALE = 1e3
REF = ARG4 ne "" ? ARG4 / YSCALE : 0.0

stats DATA using "gflops_median" nooutput
NB = STATS_blocks
YMAX = STATS_max / YSCALE
stats DATA using "flop_peak_gflops" nooutput
PEAK = STATS_max / YSCALE
array N_B[NB]
array G_B[NB]
array FORM_B[NB]
array WG_B[NB]
stats DATA using (strcol("set_idx") eq "set_idx" ? 0 : (b = column(-2) + 1, \
                  N_B[b] = int(column("panel")), G_B[b] = int(column("unroll")), \
                  FORM_B[b] = strcol("form"), WG_B[b] = column("block_threads") / 128.0, 0)) \
      nooutput
# Warp groups per SM of a row of block b.
wg(b) = column("blocks_per_sm") * WG_B[b]
stats DATA using (strcol("set_idx") eq "set_idx" ? NaN : column("blocks_per_sm") * \
                  column("block_threads") / 128.0) nooutput
X_HI = STATS_max

# The distinct N (panels), G and forms: N and G ascending, forms in the order they appear.
array NS[NB]
array GS[NB]
array FORMS[NB]
NP = 0
NG = 0
NF = 0
do for [b = 1 : NB] {
    seen = 0
    do for [i = 1 : NP] { if (NS[i] == N_B[b]) { seen = 1 } }
    if (!seen) { NP = NP + 1; NS[NP] = N_B[b] }
    seen = 0
    do for [i = 1 : NG] { if (GS[i] == G_B[b]) { seen = 1 } }
    if (!seen) { NG = NG + 1; GS[NG] = G_B[b] }
    seen = 0
    do for [i = 1 : NF] { if (FORMS[i] eq FORM_B[b]) { seen = 1 } }
    if (!seen) { NF = NF + 1; FORMS[NF] = FORM_B[b] }
}
do for [i = 1 : NP] {
    do for [j = i + 1 : NP] { if (NS[j] < NS[i]) { t = NS[i]; NS[i] = NS[j]; NS[j] = t } }
}
do for [i = 1 : NG] {
    do for [j = i + 1 : NG] { if (GS[j] < GS[i]) { t = GS[i]; GS[i] = GS[j]; GS[j] = t } }
}
array F_RANK[NB]
do for [b = 1 : NB] {
    do for [i = 1 : NF] { if (FORMS[i] eq FORM_B[b]) { F_RANK[b] = i } }
}
# The blocks by panel: panel r (N = NS[r]) holds P_ORDER[P_FIRST[r] .. P_LAST[r]].
array P_ORDER[NB]
array P_FIRST[NP]
array P_LAST[NP]
k = 0
do for [r = 1 : NP] {
    P_FIRST[r] = k + 1
    do for [b = 1 : NB] { if (N_B[b] == NS[r]) { k = k + 1; P_ORDER[k] = b } }
    P_LAST[r] = k
}

YTOP = 1.12 * max2(max2(YMAX, PEAK), REF)
PEAK_TITLE = sprintf("headline peak %.0f TFLOP/s at the rows' clock", PEAK)
REF_TITLE = REF > 0 ? sprintf("mma.sync plateau %.1f TFLOP/s", REF) : "no mma.sync plateau"
REF_WHO = REF > 0 ? "mma.sync plateau: the best of " . ARG5 : \
    "mma.sync plateau: none; give a CSV of this GPU's mma rows of the same input type beside it"
form_title(i) = FORMS[i] eq "-" ? "the variants" : FORMS[i]
KEY_TITLE = "colour: G, groups in flight (wait_group G-1) · line and point: the form\n" . REF_WHO
g_title(g) = sprintf("G = %d group%s in flight", g, g == 1 ? "" : "s")

AXES = "set border; set tics; set format y '%g'; set grid xtics ytics; " . \
    "set xrange [0.5 : X_HI + 0.5]; " . \
    "set xtics 1; set mxtics 1; set yrange [0 : YTOP]; " . \
    "set xlabel 'warp groups per SM'; " . \
    "set ylabel 'median throughput (TFLOP/s)'"
P_W = (0.81 - 0.05 * (NP - 1)) / NP
PANELS = AXES . "; set key off; do for [r = 1 : NP] { " . \
    "set lmargin at screen 0.09 + (r - 1) * (P_W + 0.05); " . \
    "set rmargin at screen 0.09 + (r - 1) * (P_W + 0.05) + P_W; " . \
    "set tmargin at screen 0.86; set bmargin at screen 0.36; " . \
    "set title sprintf('N = %d (m64n%dk16)', NS[r], NS[r]) offset 0, -0.5; " . \
    "if (r > 1) { set ylabel ' '; set format y '' }; " . \
    "if (r == NP && PEAK > 0) { set link y2 via 100.0 * y / PEAK inverse y * PEAK / 100.0; " . \
    "set y2tics 10 out nomirror; set y2label '% of the headline peak' }; " . \
    "plot for [k = P_FIRST[r] : P_LAST[r]] DATA index (P_ORDER[k] - 1) " . \
    "using (wg(P_ORDER[k])):(column('gflops_median') / YSCALE) with linespoints linewidth 2 " . \
    "dashtype F_RANK[P_ORDER[k]] linecolor rgb unroll_rgb(G_B[P_ORDER[k]]) " . \
    "pointtype rank_pt(F_RANK[P_ORDER[k]]) pointsize 1.3 * PS notitle, " . \
    "for [k = 1 : (PEAK > 0)] PEAK with lines dashtype 2 linewidth 2 linecolor rgb ROOF_RGB " . \
    "notitle, " . \
    "for [k = 1 : (REF > 0)] REF with lines dashtype 4 linewidth 3 linecolor rgb 'black' " . \
    "notitle }; unset y2tics; unset y2label; unset link y2"
KEY = "set lmargin at screen 0.02; set rmargin at screen 0.98; set tmargin at screen 0.25; " . \
    "set bmargin at screen 0.01; unset title; unset xlabel; unset ylabel; unset border; " . \
    "unset tics; unset grid; set xrange [0 : 1]; set yrange [0 : 1]; " . \
    "set key inside center top horizontal maxrows 3 width 0 samplen 4 font ',13' " . \
    "title KEY_TITLE; " . \
    "plot for [i = 1 : NG] NaN with lines linewidth 5 linecolor rgb unroll_rgb(GS[i]) " . \
    "title g_title(GS[i]), " . \
    "for [i = 1 : NF] NaN with linespoints linewidth 2 dashtype i linecolor rgb 'black' " . \
    "pointtype rank_pt(i) pointsize 1.6 * PS title form_title(i), " . \
    "for [k = 1 : (PEAK > 0)] NaN with lines dashtype 2 linewidth 2 linecolor rgb ROOF_RGB " . \
    "title (PEAK > 0 ? PEAK_TITLE : ''), " . \
    "NaN with lines dashtype 4 linewidth 3 linecolor rgb (REF > 0 ? 'black' : 'white') " . \
    "title REF_TITLE"
DRAW = "set multiplot title ARG3 noenhanced; " . PANELS . "; " . KEY . "; unset multiplot"

eval PNG_BEGIN
eval DRAW
eval SVG_BEGIN
eval DRAW
unset output
