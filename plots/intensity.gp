# SPDX-License-Identifier: Apache-2.0
# plots/intensity.gp: the arithmetic-intensity figure of the mixed family (Volkov's thesis): for
# each A (FMAs per loaded float) the lowest occupancy reaching 90% of that A's best throughput,
# against FLOP per byte, with the machine balance (arithmetic peak over the memcpy roof) marked;
# on the right axis the best throughput of each A as % of the arithmetic peak and as % of the
# memcpy roof (the roofline's two arms).
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
# A = 0 (no arithmetic) sits at the left edge, labelled 0. The key is below the plot
# (style.gp). plots/plot prepares DATA.

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
# FLOP per byte on a log2 axis; A = 0 (intensity 0) drawn at half the smallest positive one.
XMIN = 1e30
do for [b = 1 : NB] { if (INTENSITY[b] > 0 && INTENSITY[b] < XMIN) { XMIN = INTENSITY[b] } }
XMIN = XMIN < 1e30 ? XMIN : 1.0
ZERO_AT = XMIN / 2
XMAX = 0
do for [b = 1 : NB] { XMAX = max2(XMAX, INTENSITY[b]) }
XMAX = max2(max2(XMAX, 2 * XMIN), BALANCE)
x_of(b) = INTENSITY[b] > 0 ? INTENSITY[b] : ZERO_AT

set logscale x 2
set xrange [ZERO_AT / 1.5 : XMAX * 1.5]
set format x "%g"
set xtics add ("0" ZERO_AT)
set yrange [0 : 105]
set y2range [0 : 105]
set ytics 0, 12.5, 100 nomirror
set y2tics 0, 20, 100 out nomirror
set xlabel "arithmetic intensity (FLOP per byte loaded)"
set ylabel "occupancy needed for 90% of the best (%)"
set y2label "best throughput (% of peak or roof)"
set title ARG3 noenhanced
if (BALANCE > 0) {
    set arrow 1 from BALANCE, graph 0 to BALANCE, graph 1 nohead dashtype 2 linewidth 2 \
        linecolor rgb ROOF_RGB
}
BALANCE_TITLE = sprintf("balance %.1f FLOP/B (peak / memcpy roof)", BALANCE)

eval PNG_BEGIN
plot KNEE using (x_of($1)):(KNEE[$1]) with linespoints linewidth 3 linecolor rgb rank_rgb(1) \
         pointtype rank_pt(1) pointsize 1.6 * PS title "occupancy for 90% of the best", \
     PCT_PEAK using (x_of($1)):(PCT_PEAK[$1]) axes x1y2 with linespoints linewidth 1.5 \
         dashtype 3 linecolor rgb rank_rgb(2) pointtype rank_pt(2) title "best, % of FMA peak", \
     for [k = 1 : (ROOF > 0)] PCT_ROOF using (x_of($1)):(PCT_ROOF[$1]) axes x1y2 \
         with linespoints linewidth 1.5 dashtype 3 linecolor rgb rank_rgb(3) pointtype rank_pt(3) \
         title (ROOF > 0 ? "best, % of memcpy roof" : ""), \
     for [k = 1 : (BALANCE > 0)] NaN with lines dashtype 2 linewidth 2 linecolor rgb ROOF_RGB \
         title (BALANCE > 0 ? BALANCE_TITLE : "")
eval SVG_AGAIN
