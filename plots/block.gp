# SPDX-License-Identifier: Apache-2.0
# plots/block.gp: one variant's median GB/s against theoretical occupancy, one curve per block size
# (threads per block): whether the same warps per SM hide latency as well in few large blocks as
# in many small ones, and which levels each block size reaches (whole blocks: 1024 threads reach
# only 50% and 100% on sm_90). The memcpy roof and DRAM peak as in occupancy.gp, and on the right
# axis the bandwidth as % of that roof.
#
#   gnuplot -c plots/block.gp DATA OUT TITLE [ROOF_GBPS [DRAM_PEAK_GBPS]]
#
# DATA  plots/csvsel.py data of a block figure: PLOT_BY=block_threads, PLOT_X=occ_achieved_pct,
#       PLOT_Y=gbps_median, the rows of one (unroll, vec_bytes, lever) (one block per curve,
#       sorted by block size, then x)
# OUT   output path without extension: writes OUT.png and OUT.svg
# ROOF_GBPS       memcpy device-to-device GB/s of the run; empty: no roof line, no right axis
# DRAM_PEAK_GBPS  theoretical DRAM peak GB/s; empty: no peak line
# plots/plot prepares DATA and the arguments from a sweep CSV.

load ARG0[1 : strlen(ARG0) - strlen("block.gp")] . "style.gp"
DATA = ARG1
OUT = ARG2
ROOF = ARGC >= 4 && ARG4 ne "" ? ARG4 + 0.0 : 0.0
PEAK = ARGC >= 5 && ARG5 ne "" ? ARG5 + 0.0 : 0.0
ROOF_TITLE = sprintf("memcpy roof %.0f GB/s", ROOF)
PEAK_TITLE = sprintf("DRAM peak %.0f GB/s", PEAK)

stats DATA using "gbps_median" nooutput
NB = STATS_blocks
YMAX = STATS_max
array THREADS_B[NB]
array RANK_B[NB]
# Each block repeats the header line; stats evaluates it too, so it is skipped by name.
stats DATA using (strcol("set_idx") eq "set_idx" ? 0 : (b = column(-2) + 1, \
                  THREADS_B[b] = column("block_threads"), \
                  RANK_B[b] = int(column("block_threads_rank")), 0)) nooutput

YTOP = 1.1 * max2(YMAX, max2(ROOF, PEAK))
set yrange [0 : YTOP]
stats DATA using "occ_achieved_pct" nooutput
OCC_LO = STATS_min
eval OCC_AXIS
set ylabel "median bandwidth (GB/s)"
if (ROOF > 0) {
    set link y2 via 100.0 * y / ROOF inverse y * ROOF / 100.0
    set y2tics 10 out nomirror format "%g%%"
    set y2label "% of memcpy roof"
}
set title ARG3 noenhanced

eval PNG_BEGIN
plot for [b = 1 : NB] DATA index (b - 1) using "occ_achieved_pct":"gbps_median" \
         with linespoints linewidth 2.5 linecolor rgb rank_rgb(RANK_B[b]) \
         pointtype rank_pt(RANK_B[b]) title sprintf("block %d", THREADS_B[b]), \
     for [k = 1 : (ROOF > 0)] ROOF with lines dashtype 2 linewidth 2 linecolor rgb ROOF_RGB \
         title (ROOF > 0 ? ROOF_TITLE : ""), \
     for [k = 1 : (PEAK > 0)] PEAK with lines dashtype 3 linewidth 2 linecolor rgb ROOF_RGB \
         title (PEAK > 0 ? PEAK_TITLE : "")
eval SVG_AGAIN
