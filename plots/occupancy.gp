# plots/occupancy.gp: the Volkov curve: median GB/s against achieved occupancy, one curve per
# (unroll U, vector width V), colour by U and point shape by V, filled points for the natural
# variant and open ones for its register-capped _lbfull twin (lever bounds), whichever measured
# the point; the memcpy roof and DRAM peak as lines named in the key, and on the right axis the
# bandwidth as % of that roof.
#
#   gnuplot -c plots/occupancy.gp DATA OUT TITLE [ROOF_GBPS [DRAM_PEAK_GBPS]]
#
# DATA  plots/csvsel.py select output with PLOT_BY=unroll,vec_bytes,
#       PLOT_X=occ_achieved_pct, PLOT_Y=gbps_median, PLOT_KEEP=lever (one block per curve,
#       sorted by x)
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
stats DATA using (capped_row(0)) nooutput
CAPPED = STATS_sum > 0
ROOF_TITLE = sprintf("memcpy roof %.0f GB/s", ROOF)
PEAK_TITLE = sprintf("DRAM peak %.0f GB/s", PEAK)
KEY_LEN = max2(strlen(sprintf("%d B loads", V_OF_RANK[NV])), CAPPED ? strlen(CAPPED_TITLE) : 0)
KEY_LEN = max2(KEY_LEN, max2(ROOF > 0 ? strlen(ROOF_TITLE) : 0, PEAK > 0 ? strlen(PEAK_TITLE) : 0))

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
set title ARG3 noenhanced left offset graph -0.5, 0
set key outside right top vertical Left reverse noenhanced width key_trim(KEY_LEN)

eval PNG_BEGIN
# A clause iterating over nothing still takes a row in the key unless its title is empty, hence
# the conditional titles of the optional entries.
# Lines first, so that every point sits on top of them; under each point a filled white one of
# the same shape, so that no line runs through an open point.
plot for [b = 1 : NB] DATA index (b - 1) using XCOL:"gbps_median" \
         with lines linewidth 2 linecolor rgb unroll_rgb(U_OF_RANK[UR[b]]) notitle, \
     for [b = 1 : NB] DATA index (b - 1) using XCOL:"gbps_median" \
         with points linecolor rgb "white" pointtype vec_pt(V_OF_RANK[VR[b]]) notitle, \
     for [b = 1 : NB] DATA index (b - 1) using XCOL:"gbps_median":(lever_pt(V_OF_RANK[VR[b]])) \
         with points linewidth 1.5 linecolor rgb unroll_rgb(U_OF_RANK[UR[b]]) \
         pointtype variable notitle, \
     for [r = 1 : NU] NaN with lines linewidth 4 linecolor rgb unroll_rgb(U_OF_RANK[r]) \
         title sprintf("unroll %d", U_OF_RANK[r]), \
     for [r = 1 : NV] NaN with points linecolor rgb "black" pointtype vec_pt(V_OF_RANK[r]) \
         pointsize 1.6 * PS title sprintf("%d B loads", V_OF_RANK[r]), \
     for [k = 1 : CAPPED] NaN with points linewidth 1.5 linecolor rgb "black" \
         pointtype vec_pt_open(V_OF_RANK[1]) pointsize 1.6 * PS \
         title (CAPPED ? CAPPED_TITLE : ""), \
     for [k = 1 : (ROOF > 0)] ROOF with lines dashtype 2 linewidth 2 linecolor rgb ROOF_RGB \
         title (ROOF > 0 ? ROOF_TITLE : ""), \
     for [k = 1 : (PEAK > 0)] PEAK with lines dashtype 3 linewidth 2 linecolor rgb ROOF_RGB \
         title (PEAK > 0 ? PEAK_TITLE : "")
eval SVG_AGAIN
