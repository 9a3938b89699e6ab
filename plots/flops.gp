# SPDX-License-Identifier: Apache-2.0
# plots/flops.gp: arithmetic throughput against theoretical occupancy: median GFLOP/s (drawn in
# TFLOP/s), one curve per value of one axis column, the clock-derived arithmetic peak as a line
# named in the key and, on the right axis, the throughput as % of that peak. For the fma family
# (one curve per number of independent chains U: how ILP substitutes for TLP) and for the mixed
# family (one curve per FMAs per loaded float A).
#
#   gnuplot -c plots/flops.gp DATA OUT TITLE BY
#
# DATA  plots/csvsel.py figure data (check --data) of a flops or flops-fmas figure: one block
#       per curve, sorted by x, one point per x (the median GFLOP/s of its rows)
# OUT   output path without extension: writes OUT.png and OUT.svg
# BY    the curve column: unroll (colour by value, as in every figure) or fma_per_element
#       (colour by rank)
# The peak is the largest flop_peak_gflops of the points (each point's peak is the median of its
# rows', each at its own clock). The key is below the plot (style.gp).
# plots/plot prepares DATA and the arguments from a sweep CSV.

load ARG0[1 : strlen(ARG0) - strlen("flops.gp")] . "style.gp"
DATA = ARG1
OUT = ARG2
BY = ARG4
XCOL = "occ_achieved_pct"
YSCALE = 1e3

stats DATA using "gflops_median" nooutput
NB = STATS_blocks
YMAX = STATS_max / YSCALE
stats DATA using "flop_peak_gflops" nooutput
PEAK = STATS_max / YSCALE
# The peak is the arch's FMA rate at the SM clock the rows measured (their highest median).
stats DATA using "sm_clock_mhz_median" nooutput
CLOCK = STATS_records > 0 ? STATS_max : 0
array VAL[NB]
array RK[NB]
stats DATA using (strcol("set_idx") eq "set_idx" ? 0 : (b = column(-2) + 1, \
                  VAL[b] = column(BY), RK[b] = int(column(BY . "_rank")), 0)) nooutput
curve_rgb(b) = BY eq "unroll" ? unroll_rgb(VAL[b]) : rank_rgb(RK[b])
curve_pt(b) = BY eq "unroll" ? rank_pt(unroll_slot(VAL[b])) : rank_pt(RK[b])
curve_title(b) = BY eq "unroll" ? sprintf("U = %d chain%s", VAL[b], VAL[b] == 1 ? "" : "s") \
                                : sprintf("A = %d", VAL[b])
PEAK_TITLE = sprintf("peak %.1f TFLOP/s", PEAK) . \
    (CLOCK > 0 ? sprintf(" at %.0f MHz", CLOCK) : "")

set yrange [0 : 1.1 * max2(YMAX, PEAK)]
stats DATA using XCOL nooutput
OCC_LO = STATS_min
eval OCC_AXIS
set ylabel "median throughput (TFLOP/s)"
if (PEAK > 0) {
    set link y2 via 100.0 * y / PEAK inverse y * PEAK / 100.0
    set y2tics 10 out nomirror format "%g%%"
    set y2label CLOCK > 0 ? sprintf("%% of the peak at %.0f MHz", CLOCK) : \
        "% of the clock-derived peak (flop_peak_gflops)"
}
set title ARG3 noenhanced
# Key columns as wide as the longest title (the style's narrower ones overlap the peak's).
set key width 0 maxrows 2
if (BY ne "unroll") { set key title "\nA: FMAs per loaded float" }

# The peak named on its line (a key entry would set the key's column width).
if (PEAK > 0) {
    set label 1 PEAK_TITLE at graph 0.5, first PEAK center offset 0, 0.7 front
}
eval PNG_BEGIN
plot for [b = 1 : NB] DATA index (b - 1) using XCOL:(column("gflops_median") / YSCALE) \
         with linespoints linewidth 2.5 linecolor rgb curve_rgb(b) pointtype curve_pt(b) \
         title curve_title(b), \
     for [k = 1 : (PEAK > 0)] PEAK with lines dashtype 2 linewidth 2 linecolor rgb ROOF_RGB \
         notitle
eval SVG_AGAIN
