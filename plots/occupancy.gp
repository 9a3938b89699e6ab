# plots/occupancy.gp: the Volkov curve: median GB/s against achieved occupancy, one curve per
# (unroll U, vector width V), colour by U and point shape by V, the memcpy roof as a line and on
# the right axis the bandwidth as % of that roof.
#
#   gnuplot -c plots/occupancy.gp DATA OUT TITLE [ROOF_GBPS [DRAM_PEAK_GBPS]]
#
# DATA  plots/csvsel.awk task=select output with PLOT_BY=unroll,vec_bytes,
#       PLOT_X=occ_achieved_pct, PLOT_Y=gbps_median (one block per curve, sorted by x)
# OUT   output path without extension: writes OUT.png and OUT.svg
# ROOF_GBPS       memcpy device-to-device GB/s of the run; empty: no roof line, no right axis
# DRAM_PEAK_GBPS  theoretical DRAM peak GB/s; empty: no peak line
# plots/plot prepares DATA and the arguments from a sweep CSV.

load ARG0[1 : strlen(ARG0) - strlen("occupancy.gp")] . "style.gp"
DATA = ARG1
OUT = ARG2
XCOL = "occ_achieved_pct"
ROOF = ARGC >= 4 && ARG4 ne "" ? ARG4 + 0.0 : 0.0
PEAK = ARGC >= 5 && ARG5 ne "" ? ARG5 + 0.0 : 0.0

stats DATA using "gbps_median" nooutput
NB = STATS_blocks
YMAX = STATS_max
array UR[NB]
array VR[NB]
array U_OF_RANK[NB]
array V_OF_RANK[NB]
# Each block repeats the header line; stats evaluates it too, so it is skipped by name.
stats DATA using (strcol("set_idx") eq "set_idx" ? 0 : (b = column(-2) + 1, \
                  UR[b] = int(column("unroll_rank")), VR[b] = int(column("vec_bytes_rank")), \
                  U_OF_RANK[UR[b]] = column("unroll"), V_OF_RANK[VR[b]] = column("vec_bytes"), \
                  0)) nooutput
NU = 0
NV = 0
do for [b = 1 : NB] { NU = UR[b] > NU ? UR[b] : NU; NV = VR[b] > NV ? VR[b] : NV }
eval LEVER_BLOCKS

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
set key outside right top vertical Left reverse noenhanced

eval PNG_BEGIN
# Lines first, so that every point sits on top of them; an open point is filled white so that
# the line does not run through it.
plot for [b = 1 : NB] DATA index (b - 1) using XCOL:"gbps_median" \
         with lines linewidth 2 linecolor rgb unroll_rgb(U_OF_RANK[UR[b]]) notitle, \
     for [i = 1 : NN] DATA index (NATURAL_B[i] - 1) using XCOL:(natural_y("gbps_median")) \
         with points linecolor rgb unroll_rgb(U_OF_RANK[UR[NATURAL_B[i]]]) \
         pointtype vec_pt(V_OF_RANK[VR[NATURAL_B[i]]]) notitle, \
     for [i = 1 : NC] DATA index (CAPPED_B[i] - 1) using XCOL:(capped_y("gbps_median")) \
         with points linecolor rgb "white" pointtype vec_pt(V_OF_RANK[VR[CAPPED_B[i]]]) notitle, \
     for [i = 1 : NC] DATA index (CAPPED_B[i] - 1) using XCOL:(capped_y("gbps_median")) \
         with points linewidth 1.5 linecolor rgb unroll_rgb(U_OF_RANK[UR[CAPPED_B[i]]]) \
         pointtype vec_pt_open(V_OF_RANK[VR[CAPPED_B[i]]]) notitle, \
     for [r = 1 : NU] NaN with lines linewidth 4 linecolor rgb unroll_rgb(U_OF_RANK[r]) \
         title sprintf("unroll %d", U_OF_RANK[r]), \
     for [r = 1 : NV] NaN with points linecolor rgb "black" pointtype vec_pt(V_OF_RANK[r]) \
         pointsize 1.6 * PS title sprintf("%d B loads", V_OF_RANK[r]), \
     for [k = 1 : (NC > 0)] NaN with points linewidth 1.5 linecolor rgb "black" \
         pointtype vec_pt_open(V_OF_RANK[1]) pointsize 1.6 * PS title CAPPED_TITLE, \
     for [k = 1 : (ROOF > 0)] ROOF with lines dashtype 2 linewidth 2 linecolor rgb ROOF_RGB \
         title sprintf("memcpy roof %.0f GB/s", ROOF), \
     for [k = 1 : (PEAK > 0)] PEAK with lines dashtype 3 linewidth 2 linecolor rgb ROOF_RGB \
         title sprintf("DRAM peak %.0f GB/s", PEAK)
eval SVG_AGAIN
