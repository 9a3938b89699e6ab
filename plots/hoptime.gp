# SPDX-License-Identifier: Apache-2.0
# plots/hoptime.gp: the throughput pointer chase as the time one chain takes per hop: SM cycles
# per dependent load of one chain against theoretical occupancy, one curve per chain count K (the
# unroll column). Flat where every hop costs the bare latency; rising once the chains in flight
# saturate the pipe or memory they chase through (the companion of plots/chase.gp's loads/s).
#
#   gnuplot -c plots/hoptime.gp DATA OUT TITLE [CHAINS_PER]
#
# DATA  plots/csvsel.py select output with PLOT_BY=unroll, PLOT_X=occ_achieved_pct,
#       PLOT_Y=ns_per_hop_median and PLOT_KEEP=sm_clock_mhz_median (PLOT_NEED the same), for
#       one (kernel, mode); drawn as cycles = ns x MHz / 1000 of each point
# OUT   output path without extension: writes OUT.png and OUT.svg
# CHAINS_PER  what owns the K chains, for the legend: the rows' mode, e.g. "warp" or "thread"
#       (default "warp")
# plots/plot prepares DATA and the arguments from a sweep CSV.

load ARG0[1 : strlen(ARG0) - strlen("hoptime.gp")] . "style.gp"
DATA = ARG1
OUT = ARG2
CHAINS_PER = ARGC >= 4 && ARG4 ne "" ? ARG4 : "warp"
# gnuplot has no functions without arguments; the argument is ignored.
cycles(unused) = column("ns_per_hop_median") * column("sm_clock_mhz_median") / 1000.0

stats DATA using (strcol("set_idx") eq "set_idx" ? NaN : cycles(0)) nooutput
NB = STATS_blocks
YMAX = STATS_max
array K_OF_BLOCK[NB]
stats DATA using (strcol("set_idx") eq "set_idx" ? 0 : (b = column(-2) + 1, \
                  K_OF_BLOCK[b] = column("unroll"), 0)) nooutput

stats DATA using "occ_achieved_pct" nooutput
OCC_LO = STATS_min
eval OCC_AXIS
set yrange [0 : 1.1 * YMAX]
set ylabel "cycles per dependent load of one chain"
set title ARG3 noenhanced

# Key columns as wide as the longest title (the style's narrower ones overlap these).
set key width 0
eval PNG_BEGIN
plot for [b = 1 : NB] DATA index (b - 1) using "occ_achieved_pct":(cycles(0)) \
         with linespoints linewidth 2.5 linecolor rgb unroll_rgb(K_OF_BLOCK[b]) \
         pointtype rank_pt(unroll_slot(K_OF_BLOCK[b])) \
         title sprintf("K = %d chain%s per %s", K_OF_BLOCK[b], K_OF_BLOCK[b] == 1 ? "" : "s", \
                       CHAINS_PER)
eval SVG_AGAIN
