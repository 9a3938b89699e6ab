# SPDX-License-Identifier: Apache-2.0
# plots/intensity.gp: the arithmetic-intensity figure of the mixed family (Volkov's thesis): for
# each A (FMAs per loaded float) the lowest occupancy reaching 90% of that A's best throughput,
# against FLOP per byte, with the machine balance (arithmetic peak over the memcpy roof) marked;
# below it, in a panel of its own, the best throughput of each A as % of the arithmetic peak and
# as % of the memcpy roof (the roofline's two arms).
#
#   gnuplot -c plots/intensity.gp DATA OUT TITLE ROOF_GBPS
#
# DATA  plots/csvsel.py figure data (check --data) of an intensity figure: one block per A, one
#       point per occupancy with the median GB/s of its rows and the medians of gflops_median,
#       flops_per_launch, bytes_per_launch and flop_peak_gflops (GB/s and GFLOP/s of one A are
#       proportional, so the knee is the same in either, and A = 0 has only GB/s)
# OUT   output path without extension: writes OUT.png and OUT.svg
# ROOF_GBPS  the run's memcpy roof, GB/s (the balance's denominator; empty: no balance line, no
#       % of roof)
# The knee of a block is computed here from its own points, as the run's summary computes it (the
# CSV states per-point rates, not knees); FLOP per byte is flops_per_launch / bytes_per_launch.
# A = 0 (no arithmetic) has no place on the log axis: it is a point of its own at the left edge,
# labelled 0, not joined to the others, with a break mark on the axis. The key is below the
# plots (style.gp). plots/plot prepares DATA.

load ARG0[1 : strlen(ARG0) - strlen("intensity.gp")] . "style.gp"
DATA = ARG1
OUT = ARG2
ROOF = ARGC >= 4 && ARG4 ne "" ? ARG4 + 0.0 : 0.0
KNEE_FRACTION = 0.9

stats DATA using "gbps_median" nooutput
NB = STATS_blocks
array A[NB]
array INTENSITY[NB]
array BEST[NB]
array KNEE[NB]
array PCT_PEAK[NB]
array PCT_ROOF[NB]
PEAK = 0
do for [b = 1 : NB] {
    stats DATA index (b - 1) using "gbps_median" nooutput
    BEST[b] = STATS_max
    PCT_ROOF[b] = ROOF > 0 ? 100.0 * BEST[b] / ROOF : NaN
    stats DATA index (b - 1) using (column("gbps_median") >= KNEE_FRACTION * BEST[b] ? \
                                    column("occ_achieved_pct") : NaN) nooutput
    KNEE[b] = STATS_min
    stats DATA index (b - 1) using "fma_per_element" nooutput
    A[b] = STATS_min
    stats DATA index (b - 1) using (column("flops_per_launch") / column("bytes_per_launch")) \
        nooutput
    INTENSITY[b] = STATS_min
    PCT_PEAK[b] = NaN
    if (A[b] > 0) {
        stats DATA index (b - 1) using "gflops_median" nooutput
        FLOPS_BEST = STATS_max
        stats DATA index (b - 1) using "flop_peak_gflops" nooutput
        PEAK = max2(PEAK, STATS_max)
        PCT_PEAK[b] = STATS_max > 0 ? 100.0 * FLOPS_BEST / STATS_max : NaN
    }
}
BALANCE = ROOF > 0 && PEAK > 0 ? PEAK / ROOF : 0
# FLOP per byte on a log2 axis; A = 0 drawn two octaves left of the smallest positive one, past
# a break of the axis.
XMIN = 1e30
do for [b = 1 : NB] { if (INTENSITY[b] > 0 && INTENSITY[b] < XMIN) { XMIN = INTENSITY[b] } }
XMIN = XMIN < 1e30 ? XMIN : 1.0
ZERO_AT = XMIN / 4
XMAX = 0
do for [b = 1 : NB] { XMAX = max2(XMAX, INTENSITY[b]) }
XMAX = max2(max2(XMAX, 2 * XMIN), BALANCE)
x_of(b) = INTENSITY[b] > 0 ? INTENSITY[b] : ZERO_AT
pos(b, v) = INTENSITY[b] > 0 ? v : NaN
zero(b, v) = INTENSITY[b] > 0 ? NaN : v
HAS_ZERO = 0
do for [b = 1 : NB] { if (!(INTENSITY[b] > 0)) { HAS_ZERO = 1 } }

set logscale x 2
set xrange [ZERO_AT / 1.5 : XMAX * 1.5]
# Tics at every other power of two from the smallest positive intensity, and 0; TICS_OFF the
# same without labels (the upper panel).
E_LO = floor(log(XMIN) / log(2) + 0.5)
E_HI = ceil(log(XMAX * 1.5) / log(2))
TICS = "set xtics (" . (HAS_ZERO ? "'0' ZERO_AT" : "") . ")"
TICS_OFF = "set xtics (" . (HAS_ZERO ? "'' ZERO_AT" : "") . ")"
do for [e = E_LO : E_HI : 2] {
    TICS = TICS . sprintf("; set xtics add ('%g' %.17g)", 2.0**e, 2.0**e)
    TICS_OFF = TICS_OFF . sprintf("; set xtics add ('' %.17g)", 2.0**e)
}
set mxtics 2
BREAK = HAS_ZERO ? "set label 10 '//' at XMIN / 2, graph 0 center front font ',16' " . \
    "offset 0, 0.05" : ""
BALANCE_TITLE = sprintf("balance %.1f FLOP/B", BALANCE)
if (BALANCE > 0) {
    set arrow 1 from BALANCE, graph 0 to BALANCE, graph 1 nohead dashtype 2 linewidth 2 \
        linecolor rgb ROOF_RGB
    set label 11 BALANCE_TITLE . " (peak / memcpy roof)" at BALANCE, graph 1 right \
        offset -0.5, -0.9 front font ",13"
}

DRAW = "set multiplot layout 2, 1 title ARG3 noenhanced; " . \
    "set tmargin 1; set bmargin 1; set lmargin 12; set rmargin 4; " . TICS_OFF . "; " . BREAK . \
    "; unset xlabel; set yrange [0 : 105]; set ytics 0, 25, 100; " . \
    "set ylabel 'occupancy for 90% of the best (%)'; " . \
    "plot KNEE using (x_of($1)):(pos($1, KNEE[$1])) with linespoints linewidth 3 " . \
    "linecolor rgb rank_rgb(1) pointtype rank_pt(1) pointsize 1.6 * PS notitle, " . \
    "KNEE using (x_of($1)):(zero($1, KNEE[$1])) with points linecolor rgb rank_rgb(1) " . \
    "pointtype rank_pt(1) pointsize 1.6 * PS notitle; " . \
    "set tmargin 0.5; set bmargin 6; " . TICS . "; unset label 11; " . \
    "set xlabel 'arithmetic intensity (FLOP per byte loaded, A / 2 for A FMAs per float)' offset 0, 0.2; " . \
    "set ylabel 'best throughput (%)'; set yrange [0 : 112]; " . \
    "set key at screen 0.5, screen 0.005 center bottom horizontal maxrows 1 maxcols 3 width 1 samplen 3 height 0; " . \
    "plot PCT_PEAK using (x_of($1)):(pos($1, PCT_PEAK[$1])) with linespoints linewidth 2.5 " . \
    "linecolor rgb rank_rgb(2) pointtype rank_pt(2) title '% of the FMA peak', " . \
    "for [k = 1 : (ROOF > 0)] PCT_ROOF using (x_of($1)):(pos($1, PCT_ROOF[$1])) " . \
    "with linespoints linewidth 2.5 linecolor rgb rank_rgb(3) pointtype rank_pt(3) " . \
    "title (ROOF > 0 ? '% of the memcpy roof' : ''), " . \
    "for [k = 1 : (ROOF > 0)] PCT_ROOF using (x_of($1)):(zero($1, PCT_ROOF[$1])) " . \
    "with points linecolor rgb rank_rgb(3) pointtype rank_pt(3) notitle, " . \
    "for [k = 1 : (BALANCE > 0)] NaN with lines dashtype 2 linewidth 2 linecolor rgb ROOF_RGB " . \
    "title (BALANCE > 0 ? BALANCE_TITLE : ''); " . \
    "unset multiplot"

eval PNG_BEGIN
eval DRAW
eval SVG_BEGIN
eval DRAW
unset output
