# SPDX-License-Identifier: Apache-2.0
# plots/inflight.gp: the Volkov points against bytes in flight per SM (resident warps x 32 x U x V,
# log2 axis), where Little's law should collapse the (U, V) curves onto one; curves drawn as in
# occupancy.gp (volkov.gp's encoding; the groups of equal U x V named in a column at the right),
# the roof lines named in the key, % of the memcpy roof on the right axis, and the Little's-law
# model as a grey dash-dot line up to where it meets the roof (past that it is the roof, whose
# line stays visible), and beside it the loaded-latency model when the run measured L(X): thin
# dotted lines, black to grey, a style no measured curve has.
#
#   gnuplot -c plots/inflight.gp DATA OUT TITLE [ROOF_GBPS [DRAM_PEAK_GBPS [SM_COUNT LATENCY_NS
#           [TRAFFIC [LOADED [SPREAD]]]]]]
#
# DATA  plots/csvsel.py data of an inflight figure: PLOT_BY=unroll,vec_bytes,lever,block_threads
#       (one block size), PLOT_X=bytes_in_flight_per_sm, PLOT_Y=gbps_median, PLOT_POSITIVE_X=1
# OUT   output path without extension: writes OUT.png and OUT.svg
# ROOF_GBPS       memcpy device-to-device GB/s of the run; empty: no roof line, no right axis.
#       "MEMCPY:MODEL" gives the roof the models stop at as well (read-only rows: the run's
#       cub::DeviceReduce GB/s, the roof their CSV prediction uses), drawn as a second line
# DRAM_PEAK_GBPS  theoretical DRAM peak GB/s; empty: no peak line
# SM_COUNT, LATENCY_NS, TRAFFIC  when all three are given, the Little's-law model
#       min(ROOF, TRAFFIC x bytes_in_flight_per_sm x SM_COUNT / LATENCY_NS) (bytes/ns = GB/s)
#       is drawn; TRAFFIC is the rows' dram_bytes_per_load_byte, the DRAM bytes gbps_median
#       counts per loaded byte (2 where each load is stored again)
# LOADED  with SM_COUNT, TRAFFIC and ROOF_GBPS: the run's ok loaded-latency levels (plots/loaded.gp's
#       DATA: gbps mean_ns p5 p50 p95 p99, then max2_ns max4_ns max8_ns). The loaded model
#       X = min(ROOF, TRAFFIC x B x SM_COUNT / L_U(X)) holds exactly where
#       B = X x L_k(X) / (TRAFFIC x SM_COUNT), L_k the expected slowest of k latencies (a warp
#       whose trip touches k 128-byte lines, U x V / 4 for a stream): its curve for k = 1, 2, 4,
#       8 is drawn through the levels'
#       (X x L_k / (TRAFFIC x SM_COUNT), min(X, ROOF)), then on the last level's latency (L is
#       flat above it) up to the roof, then the roof; empty: not drawn
# SPREAD  the run's trip spread s (harness/model/loaded_model.h, occ_curve_trip_spread): a
#       stream's k adjacent lines wait L + s x (L_k - L), as the CSV's prediction; empty: 1
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
LOADED = ARGC >= 9 ? ARG9 : ""
SPREAD = ARGC >= 10 && ARG10 ne "" ? ARG10 + 0.0 : 1.0

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
LOADED_ON = LOADED ne "" && ROOF > 0 && SMS > 0 && TRAFFIC > 0
# The widths drawn: a warp that waits on k adjacent lines per trip is predicted from the mean
# plus SPREAD of the way to the expected slowest of k latencies (harness/model/loaded_model.h),
# LOADED's column WCOL[i] for k = 1, 2, 4, 8.
array WCOL[4] = [2, 7, 8, 9]
# The predictions are black to grey, thin and dotted: a style no measured curve has.
array WRGB[4] = ["#000000", "#444444", "#777777", "#aaaaaa"]
array WK[4] = [1, 2, 4, 8]
array LAST_NS[4]
if (LOADED_ON) {
    stats LOADED using 1 nooutput
    LAST = STATS_records - 1
    stats LOADED every ::LAST::LAST using 1 nooutput
    LAST_GBPS = STATS_max
    do for [i = 1 : 4] {
        stats LOADED every ::LAST::LAST using ($2 + SPREAD * (column(WCOL[i]) - $2)) nooutput
        LAST_NS[i] = STATS_max
    }
}
# The loaded model's clauses, a macro: gnuplot opens a clause's file even where a loop skips it.
LOADED_PLOT = LOADED_ON ? "for [i = 1 : 4] LOADED using " . \
    "($1 * ($2 + SPREAD * (column(WCOL[i]) - $2)) / (TRAFFIC * SMS)):" . \
    "($1 < MROOF ? $1 : MROOF) with lines linewidth 2 dashtype (2, 3) linecolor rgb WRGB[i] " . \
    "title (i == 1 ? 'predicted: loaded latency L(X)' : ''), " . \
    "for [i = 1 : 4] loaded_tail(x, i) with lines linewidth 2 dashtype (2, 3) " . \
    "linecolor rgb WRGB[i] notitle," : ""
# Above the last level: B x SMS x TRAFFIC / LAST_NS from that level's B up to the roof's.
loaded_tail(x, i) = LOADED_ON && x >= LAST_GBPS * LAST_NS[i] / (TRAFFIC * SMS) ? \
    (TRAFFIC * x * SMS / LAST_NS[i] < MROOF ? TRAFFIC * x * SMS / LAST_NS[i] : MROOF) : NaN

TOPROOF = MROOF > ROOF ? MROOF : ROOF
YTOP = 1.1 * (YMAX > TOPROOF ? (YMAX > PEAK ? YMAX : PEAK) : (TOPROOF > PEAK ? TOPROOF : PEAK))
set yrange [0 : YTOP]
eval BYTE_TICS
set xlabel "bytes in flight per SM (resident warps × 32 × U × V)"
set ylabel "median bandwidth (GB/s)"
if (ROOF > 0) {
    set link y2 via 100.0 * y / ROOF inverse y * ROOF / 100.0
    set y2tics nice_step(YTOP * 100.0 / ROOF) out nomirror format "%g%%"
}
set title ARG3 noenhanced
set samples 1000
# The groups of equal U x V, by colour, in a column at the right of the plot.
set rmargin 25
set label 300 "U × V, bytes per" at graph 1, graph 1 left offset 7.5, 0.4 font ",12"
set label 299 "thread per trip:" at graph 1, graph 1 left offset 7.5, -0.9 font ",12"
do for [g = 1 : NG] {
    set label 300 + g G_TEXT[g] at graph 1, graph 1 left offset 7.5, -0.9 - 1.3 * g \
        font ",12" textcolor rgb uv_rgb(G_UV[g])
}
set key maxrows 3 font ",14" width -4

eval PNG_BEGIN
plot @VOLKOV_CURVES, @VOLKOV_KEY, \
     for [k = 1 : LITTLE] little(x) with lines linewidth 3 dashtype (6, 3, 1.5, 3) \
         linecolor rgb "#999999" title (LITTLE ? LITTLE_TITLE : ""), \
     @LOADED_PLOT \
     for [k = 1 : (ROOF > 0)] ROOF with lines dashtype 2 linewidth 2 linecolor rgb ROOF_RGB \
         title (ROOF > 0 ? ROOF_TITLE : ""), \
     for [k = 1 : MROOF_ON] MROOF with lines dashtype 4 linewidth 2 linecolor rgb ROOF_RGB \
         title (MROOF_ON ? MROOF_TITLE : ""), \
     for [k = 1 : (PEAK > 0)] PEAK with lines dashtype 3 linewidth 2 linecolor rgb ROOF_RGB \
         title (PEAK > 0 ? PEAK_TITLE : "")
eval SVG_AGAIN
