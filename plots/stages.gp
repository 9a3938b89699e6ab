# SPDX-License-Identifier: Apache-2.0
# plots/stages.gp: bytes in flight held in shared memory: median GB/s against theoretical
# occupancy (log2 axis: the few warps these kernels need lie at its left), one curve per variant
# of S stages of C bytes, one panel per block size. A curve's colour is its bytes in flight per
# block, S x C (one colour per value, dark to light as they grow: the curves Little's law puts
# together share it), its point shape the bytes of one stage, C. The register path's best (the
# best GB/s of a read-only stream of registers, e.g. reduce, of the same GPU) is a dash-dot line
# named in the key, the run's read roof (cub::DeviceReduce) a dotted one.
#
#   gnuplot -c plots/stages.gp DATA OUT TITLE ROOF_GBPS REF_GBPS REF_WHO
#
# DATA       plots/csvsel.py data of a stages figure: PLOT_BY=variant,block_threads,lever,
#            PLOT_X=occ_achieved_pct, PLOT_Y=gbps_median, then the columns stages, block_bytes
#            (S x C) and stage_bytes (C) (one block per curve, sorted by x)
# OUT        output path without extension: writes OUT.png and OUT.svg
# ROOF_GBPS  the run's cub::DeviceReduce GB/s (roof_cub_reduce_gbps); empty: no roof line
# REF_GBPS   the register path's best GB/s; empty: no line, and the key says none was given
# REF_WHO    the rows it is the best of, for the key ("reduce (stream)", "reduce (stream) of X.csv")
# plots/plot prepares DATA and the arguments from a sweep CSV (and the CSVs given beside it).

HERE = ARG0[1 : strlen(ARG0) - strlen("stages.gp")]
load HERE . "style.gp"
DATA = ARG1
OUT = ARG2
ROOF = ARG4 ne "" ? ARG4 + 0.0 : 0.0
REF = ARG5 ne "" ? ARG5 + 0.0 : 0.0
XCOL = "occ_achieved_pct"

stats DATA using "gbps_median" nooutput
NB = STATS_blocks
YMAX = STATS_max
stats DATA using XCOL nooutput
X_LO = STATS_min
X_HI = STATS_max
array PANEL[NB]
array THREADS[NB]
array BLOCK_B[NB]
array STAGE_B[NB]
stats DATA using (strcol("set_idx") eq "set_idx" ? 0 : (b = column(-2) + 1, \
                  PANEL[b] = int(column("block_threads_rank")), \
                  THREADS[b] = int(column("block_threads")), \
                  BLOCK_B[b] = column("block_bytes"), STAGE_B[b] = column("stage_bytes"), 0)) \
      nooutput
NP = 0
do for [b = 1 : NB] { NP = PANEL[b] > NP ? PANEL[b] : NP }
array P_THREADS[NP]
do for [b = 1 : NB] { P_THREADS[PANEL[b]] = THREADS[b] }

# The distinct S x C and C values, ascending: the key's colours and shapes.
array BB_V[NB]
array SB_V[NB]
NBB = 0
NSB = 0
do for [b = 1 : NB] {
    seen = 0
    do for [i = 1 : NBB] { if (BB_V[i] == BLOCK_B[b]) { seen = 1 } }
    if (!seen) { NBB = NBB + 1; BB_V[NBB] = BLOCK_B[b] }
    seen = 0
    do for [i = 1 : NSB] { if (SB_V[i] == STAGE_B[b]) { seen = 1 } }
    if (!seen) { NSB = NSB + 1; SB_V[NSB] = STAGE_B[b] }
}
do for [i = 1 : NBB] {
    do for [j = i + 1 : NBB] {
        if (BB_V[j] < BB_V[i]) { t = BB_V[i]; BB_V[i] = BB_V[j]; BB_V[j] = t }
    }
}
do for [i = 1 : NSB] {
    do for [j = i + 1 : NSB] {
        if (SB_V[j] < SB_V[i]) { t = SB_V[i]; SB_V[i] = SB_V[j]; SB_V[j] = t }
    }
}
# The blocks by panel: panel r holds P_ORDER[P_FIRST[r] .. P_LAST[r]].
array P_ORDER[NB]
array P_FIRST[NP]
array P_LAST[NP]
k = 0
do for [r = 1 : NP] {
    P_FIRST[r] = k + 1
    do for [b = 1 : NB] { if (PANEL[b] == r) { k = k + 1; P_ORDER[k] = b } }
    P_LAST[r] = k
}
sb_rank(v) = sum [i = 1 : NSB] (SB_V[i] == v ? i : 0)
# Colour: log2 of S x C placed along a dark-to-light sequential palette (viridis-like, its last
# yellow left out, which white paper washes out).
L_LO = log(BB_V[1]) / log(2)
L_HI = log(BB_V[NBB]) / log(2)
bb_frac(v) = L_HI > L_LO ? (log(v) / log(2) - L_LO) / (L_HI - L_LO) : 0.5
set palette defined (0 "#440154", 0.25 "#3b528b", 0.5 "#21908c", 0.75 "#5dc863", 1 "#b5b000")
set cbrange [0 : 1]
unset colorbox
REF_TITLE = REF > 0 ? sprintf("register path %.0f GB/s", REF) : "no register-path reference"
REF_WHO = REF > 0 ? "register path: the best of " . ARG6 : \
    "register path: none; give a CSV of this GPU's read-only register rows (reduce) beside it"
ROOF_TITLE = sprintf("cub::DeviceReduce %.0f GB/s", ROOF)

XL = X_LO / 1.25
XH = X_HI * 1.25
YTOP = 1.12 * max2(max2(YMAX, ROOF), REF)
# Tics at the whole halvings of 100%: 50, 25, 12.5, ..., 1.5625 (one warp of 64).
TICS = "set xtics ()"
do for [k = 0 : 12] {
    if (100.0 / 2**k >= XL && 100.0 / 2**k <= XH) {
        TICS = TICS . sprintf("; set xtics add ('%g' %.17g)", 100.0 / 2**k, 100.0 / 2**k)
    }
}
# The panels' axes, set again before each drawing (the key's plot unsets them).
AXES = "set border; set tics; set format y '%g'; set grid xtics ytics; set logscale x 2; " . \
    "set xrange [XL : XH]; set yrange [0 : YTOP]; " . TICS . "; set mxtics 1; " . \
    "set ylabel 'median bandwidth (GB/s)'; set xlabel 'occupancy, theoretical (%)'"
KEY_TITLE = "colour: bytes in flight per block, S × C · shape: C, bytes per stage\n" . REF_WHO
# The panels side by side over the upper two thirds; the key, a plot of its own below them, as
# wide as the figure (a panel's key would be as narrow as the panel).
P_W = (0.86 - 0.06 * (NP - 1)) / NP
PANELS = AXES . "; set key off; do for [r = 1 : NP] { " . \
    "set lmargin at screen 0.12 + (r - 1) * (P_W + 0.06); " . \
    "set rmargin at screen 0.12 + (r - 1) * (P_W + 0.06) + P_W; " . \
    "set tmargin at screen 0.86; set bmargin at screen 0.36; " . \
    "set title sprintf('%d-thread blocks (%d warp%s)', P_THREADS[r], P_THREADS[r] / 32, " . \
    "P_THREADS[r] > 32 ? 's' : '') offset 0, -0.5; " . \
    "if (r > 1) { set ylabel ' '; set format y '' }; " . \
    "plot for [k = P_FIRST[r] : P_LAST[r]] DATA index (P_ORDER[k] - 1) " . \
    "using XCOL:'gbps_median' with linespoints linewidth 2 " . \
    "linecolor palette frac bb_frac(BLOCK_B[P_ORDER[k]]) " . \
    "pointtype rank_pt(sb_rank(STAGE_B[P_ORDER[k]])) pointsize 1.3 * PS notitle, " . \
    "for [k = 1 : (ROOF > 0)] ROOF with lines dashtype 3 linewidth 1.5 linecolor rgb ROOF_RGB " . \
    "notitle, " . \
    "for [k = 1 : (REF > 0)] REF with lines dashtype 4 linewidth 3 linecolor rgb 'black' " . \
    "notitle }"
KEY = "set lmargin at screen 0.02; set rmargin at screen 0.98; set tmargin at screen 0.25; " . \
    "set bmargin at screen 0.01; unset title; unset xlabel; unset ylabel; unset border; " . \
    "unset tics; unset grid; unset logscale x; set xrange [0 : 1]; set yrange [0 : 1]; " . \
    "set key inside center top horizontal maxrows 5 width -3 samplen 2.5 font ',13' " . \
    "title KEY_TITLE; " . \
    "plot for [i = 1 : NBB] NaN with lines linewidth 5 linecolor palette frac bb_frac(BB_V[i]) " . \
    "title bytes_label(BB_V[i]), " . \
    "for [i = 1 : NSB] NaN with points linecolor rgb 'black' pointtype rank_pt(i) " . \
    "pointsize 1.6 * PS title 'C = ' . bytes_label(SB_V[i]), " . \
    "NaN with lines dashtype 4 linewidth 3 linecolor rgb (REF > 0 ? 'black' : 'white') " . \
    "title REF_TITLE, " . \
    "for [k = 1 : (ROOF > 0)] NaN with lines dashtype 3 linewidth 1.5 linecolor rgb ROOF_RGB " . \
    "title (ROOF > 0 ? ROOF_TITLE : '')"
DRAW = "set multiplot title ARG3 noenhanced; " . PANELS . "; " . KEY . "; unset multiplot"

eval PNG_BEGIN
eval DRAW
eval SVG_BEGIN
eval DRAW
unset output
