# SPDX-License-Identifier: Apache-2.0
# plots/inflight.gp: the Volkov points against bytes in flight per SM (resident warps x 32 x U x V,
# log2 axis), where Little's law should collapse the (U, V) curves onto one; curves drawn as in
# occupancy.gp (volkov.gp's encoding; the groups of equal U x V named in a column at the right),
# the roof lines named in the key, % of the memcpy roof on the right axis, and the Little's-law
# model as a grey dash-dot line up to where it meets the roof (past that it is the roof, whose
# line stays visible), and beside each curve the model's own prediction of its points (the rows'
# gbps_predicted, which the run's knee report judges): a thin dotted black line, a style no
# measured curve has.
#
#   gnuplot -c plots/inflight.gp DATA OUT TITLE [ROOF_GBPS [DRAM_PEAK_GBPS [SM_COUNT LATENCY_NS
#           [TRAFFIC [PREDICTED]]]]]
#
# DATA  plots/csvsel.py data of an inflight figure: PLOT_BY=unroll,vec_bytes,lever,block_threads
#       (one block size), PLOT_X=bytes_in_flight_per_sm, PLOT_Y=gbps_median, PLOT_POSITIVE_X=1,
#       PLOT_KEEP=...,gbps_predicted
# OUT   output path without extension: writes OUT.png and OUT.svg
# ROOF_GBPS       memcpy device-to-device GB/s of the run; empty: no roof line, no right axis.
#       "MEMCPY:MODEL" gives the roof the models stop at as well (read-only rows: the run's
#       cub::DeviceReduce GB/s, the roof their CSV prediction uses), drawn as a second line
# DRAM_PEAK_GBPS  theoretical DRAM peak GB/s; empty: no peak line
# SM_COUNT, LATENCY_NS, TRAFFIC  when all three are given, the Little's-law model
#       min(ROOF, TRAFFIC x bytes_in_flight_per_sm x SM_COUNT / LATENCY_NS) (bytes/ns = GB/s)
#       is drawn; TRAFFIC is the rows' dram_bytes_per_load_byte, the DRAM bytes gbps_median
#       counts per loaded byte (2 where each load is stored again)
# PREDICTED  the key's name of the predictions (e.g. "predicted: loaded latency L(X)"): each
#       curve's points with a finite gbps_predicted are joined by a dotted line; empty: not drawn
# plots/plot prepares DATA and the arguments from a sweep CSV.

HERE = ARG0[1 : strlen(ARG0) - strlen("inflight.gp")]
load HERE . "style.gp"
DATA = ARG1
OUT = ARG2
XCOL = "bytes_in_flight_per_sm"
ROOF_TEXT = ARGC >= 4 ? ARG4 : ""
COLON = strstrt(ROOF_TEXT, ":")
ROOF = ROOF_TEXT eq "" ? 0.0 : COLON > 0 ? ROOF_TEXT[1 : COLON - 1] + 0.0 : ROOF_TEXT + 0.0
MROOF = COLON > 0 ? ROOF_TEXT[COLON + 1 :] + 0.0 : ROOF
PEAK = ARGC >= 5 && ARG5 ne "" ? ARG5 + 0.0 : 0.0
SMS = ARGC >= 6 && ARG6 ne "" ? ARG6 + 0.0 : 0.0
LAT_NS = ARGC >= 7 && ARG7 ne "" ? ARG7 + 0.0 : 0.0
TRAFFIC = ARGC >= 8 && ARG8 ne "" ? ARG8 + 0.0 : 0.0
PREDICTED = ARGC >= 9 ? ARG9 : ""

stats DATA using XCOL nooutput
BYTES_LO = STATS_min
BYTES_HI = STATS_max
load HERE . "volkov.gp"
ROOF_TITLE = sprintf("memcpy roof %.0f GB/s", ROOF)
PEAK_TITLE = sprintf("DRAM peak %.0f GB/s", PEAK)
MROOF_ON = ROOF > 0 && MROOF > 0 && MROOF != ROOF
MROOF_TITLE = sprintf("cub roof %.0f GB/s", MROOF)
LITTLE = ROOF > 0 && SMS > 0 && LAT_NS > 0 && TRAFFIC > 0
LITTLE_TITLE = sprintf("Little: %.0f SMs, %.0f ns", SMS, LAT_NS) . \
               (TRAFFIC != 1 ? sprintf(", ×%g", TRAFFIC) : "")
LITTLE_GBPS(x) = TRAFFIC * x * SMS / LAT_NS
# The bytes in flight at which the model reaches the roof; the line ends there.
KNEE_BYTES = LITTLE ? MROOF * LAT_NS / (TRAFFIC * SMS) : 0
little(x) = x <= KNEE_BYTES ? LITTLE_GBPS(x) : NaN
# The curves holding a prediction, PB[1 .. NPB] (a clause of a block without one would warn).
array PB[NB]
array PRED_N[NB]
do for [b = 1 : NB] { PRED_N[b] = 0 }
if (PREDICTED ne "") {
    stats DATA using (strcol("set_idx") eq "set_idx" ? 0 : (b = column(-2) + 1, \
                      PRED_V = column("gbps_predicted"), PRED_N[b] = PRED_N[b] + (PRED_V == PRED_V), 0)) nooutput
}
NPB = 0
do for [b = 1 : NB] { if (PRED_N[b] > 0) { NPB = NPB + 1; PB[NPB] = b } }
# Their clauses, a macro: gnuplot evaluates a clause's index even where its loop is empty.
PRED_PLOT = NPB > 0 ? "for [k = 1 : NPB] DATA index (PB[k] - 1) using XCOL:'gbps_predicted' " . \
    "with lines linewidth 2 dashtype (2, 3) linecolor rgb '#000000' " . \
    "title (k == 1 ? PREDICTED . ', per curve' : ''), " : ""

TOPROOF = MROOF > ROOF ? MROOF : ROOF
YTOP = 1.1 * (YMAX > TOPROOF ? (YMAX > PEAK ? YMAX : PEAK) : (TOPROOF > PEAK ? TOPROOF : PEAK))
set yrange [0 : YTOP]
eval BYTE_TICS
set xlabel "bytes in flight per SM (resident warps × 32 × U × V)"
set ylabel "median bandwidth (GB/s)"
if (ROOF > 0) {
    set link y2 via 100.0 * y / ROOF inverse y * ROOF / 100.0
    set y2tics nice_step(YTOP * 100.0 / ROOF) out nomirror format "%g%%"
    set y2label "% of memcpy roof" offset 1.2, 0
}
# Centred on the image, not on the plot, which the right column pushes left.
set title ARG3 noenhanced offset 7, 0
set samples 1000
# The groups of equal U x V, by colour, in a column at the right of the plot.
# (past the right axis and its label).
# Its offset (11 characters where the right axis's widest tick label is "120%") grows by 1.5 a
# character the tick labels are wider, which moves the axis label right.
set rmargin 28
COL_OFF = ROOF > 0 ? 11 + 1.5 * (strlen(sprintf("%.0f%%", YTOP * 100.0 / ROOF)) - 4) : 11
set label 300 "U × V, bytes per" at graph 1, graph 1 left offset COL_OFF, 0.4 font ",12"
set label 299 "thread per trip:" at graph 1, graph 1 left offset COL_OFF, -0.9 font ",12"
do for [g = 1 : NG] {
    set label 300 + g G_TEXT[g] at graph 1, graph 1 left offset COL_OFF, -0.9 - 1.3 * g \
        font ",12" textcolor rgb uv_rgb(G_UV[g])
}
set key maxrows 4 font ",13" width -6 samplen 6
XLO = 2**e_lo / 1.001
XHI = 2**e_hi * 1.001
LOGX = 1
LABEL_GX = 1
HLINES = sprintf("%g %g %g", ROOF, MROOF, PEAK)
EXTRA_Y = NPB > 0 ? "gbps_predicted" : ""

eval PNG_BEGIN
plot @VOLKOV_CURVES, @VOLKOV_KEY, \
     for [k = 1 : LITTLE] little(x) with lines linewidth 3 dashtype (6, 3, 1.5, 3) \
         linecolor rgb "#999999" title (LITTLE ? LITTLE_TITLE : ""), \
     @PRED_PLOT \
     for [k = 1 : (ROOF > 0)] ROOF with lines dashtype 2 linewidth 2 linecolor rgb ROOF_RGB \
         title (ROOF > 0 ? ROOF_TITLE : ""), \
     for [k = 1 : MROOF_ON] MROOF with lines dashtype 4 linewidth 2 linecolor rgb ROOF_RGB \
         title (MROOF_ON ? MROOF_TITLE : ""), \
     for [k = 1 : (PEAK > 0)] PEAK with lines dashtype 3 linewidth 2 linecolor rgb ROOF_RGB \
         title (PEAK > 0 ? PEAK_TITLE : "")
# The capped curves' labels, placed by the geometry of the plot just drawn, then drawn again.
if (CAP_LABELS) { load HERE . "caplabels.gp"; eval PNG_BEGIN; replot }
eval SVG_AGAIN
