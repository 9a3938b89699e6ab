# SPDX-License-Identifier: Apache-2.0
# plots/chase.gp: the throughput pointer chase against theoretical occupancy, one curve per chain
# count K (the unroll column): how many independent chains, rather than how many warps, it
# takes to hide the memory latency.
#
#   gnuplot -c plots/chase.gp DATA OUT TITLE [CHAINS_PER]
#
# DATA  plots/csvsel.py select output with PLOT_BY=unroll, PLOT_X=occ_achieved_pct and
#       PLOT_Y=hops_per_s_median (drawn in 10⁹ loads/s), for one (kernel, mode)
# OUT   output path without extension: writes OUT.png and OUT.svg
# CHAINS_PER  what owns the K chains, for the legend: the rows' mode, e.g. "warp" or "thread"
#       (default "warp")
# plots/plot prepares DATA and the arguments from a sweep CSV.

load ARG0[1 : strlen(ARG0) - strlen("chase.gp")] . "style.gp"
DATA = ARG1
OUT = ARG2
YCOL = "hops_per_s_median"
CHAINS_PER = ARGC >= 4 && ARG4 ne "" ? ARG4 : "warp"
YSCALE = 1e9

stats DATA using YCOL nooutput
NB = STATS_blocks
YMAX = STATS_max / YSCALE
array K_OF_BLOCK[NB]
stats DATA using (strcol("set_idx") eq "set_idx" ? 0 : (b = column(-2) + 1, \
                  K_OF_BLOCK[b] = column("unroll"), 0)) nooutput

stats DATA using "occ_achieved_pct" nooutput
OCC_LO = STATS_min
eval OCC_AXIS
set yrange [0 : 1.1 * YMAX]
set ylabel "dependent loads completed (10⁹/s, all chains)"
set title ARG3 noenhanced

# Key columns as wide as the longest title (the style's narrower ones overlap these).
set key width 0
eval PNG_BEGIN
plot for [b = 1 : NB] DATA index (b - 1) using "occ_achieved_pct":(column(YCOL) / YSCALE) \
         with linespoints linewidth 2.5 linecolor rgb unroll_rgb(K_OF_BLOCK[b]) \
         pointtype rank_pt(unroll_slot(K_OF_BLOCK[b])) \
         title sprintf("K = %d chain%s per %s", K_OF_BLOCK[b], K_OF_BLOCK[b] == 1 ? "" : "s", \
                       CHAINS_PER)
eval SVG_AGAIN
