# SPDX-License-Identifier: Apache-2.0
# plots/occupancy.gp: the Volkov curve: median GB/s against achieved occupancy, one curve per
# (unroll U, vector width V) and one more, dashed with open points, for its register-capped
# _r<cap> twins (lever bounds) where they ran (the encoding is volkov.gp's); the memcpy roof and DRAM
# peak as lines named in the key, and on the right axis the bandwidth as % of that roof.
#
#   gnuplot -c plots/occupancy.gp DATA OUT TITLE [ROOF_GBPS [DRAM_PEAK_GBPS]]
#
# DATA  plots/csvsel.py data of an occupancy figure: PLOT_BY=unroll,vec_bytes,lever,
#       PLOT_X=occ_achieved_pct, PLOT_Y=gbps_median (one block per curve, sorted by x)
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
set xrange [0 : 100]
set xtics 0, 12.5, 100
set mxtics 2
set xlabel "achieved occupancy (% of max warps per SM)"
set ylabel "median bandwidth (GB/s)"
if (ROOF > 0) {
    set link y2 via 100.0 * y / ROOF inverse y * ROOF / 100.0
    set y2tics 10 out nomirror
    set y2label "% of memcpy roof"
}
set title ARG3 noenhanced

eval PNG_BEGIN
plot @VOLKOV_CURVES, @VOLKOV_KEY, \
     for [k = 1 : (ROOF > 0)] ROOF with lines dashtype 2 linewidth 2 linecolor rgb ROOF_RGB \
         title (ROOF > 0 ? ROOF_TITLE : ""), \
     for [k = 1 : (PEAK > 0)] PEAK with lines dashtype 3 linewidth 2 linecolor rgb ROOF_RGB \
         title (PEAK > 0 ? PEAK_TITLE : "")
eval SVG_AGAIN
