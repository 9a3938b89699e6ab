# plots/inflight.gp: the Volkov points against bytes in flight per SM (resident warps x 32 x U x V,
# log2 axis), where Little's law should collapse the (U, V) curves onto one; colour by unroll U,
# point shape by vector width V, open points for the register-capped variants (lever bounds) as
# in occupancy.gp, the roof lines named in the key, % of the memcpy roof on the right axis.
#
#   gnuplot -c plots/inflight.gp DATA OUT TITLE [ROOF_GBPS [DRAM_PEAK_GBPS [SM_COUNT LATENCY_NS
#           [TRAFFIC]]]]
#
# DATA  plots/csvsel.py select output with PLOT_BY=unroll,vec_bytes,
#       PLOT_X=bytes_in_flight_per_sm, PLOT_Y=gbps_median, PLOT_POSITIVE_X=1, PLOT_KEEP=lever
# OUT   output path without extension: writes OUT.png and OUT.svg
# ROOF_GBPS       memcpy device-to-device GB/s of the run; empty: no roof line, no right axis
# DRAM_PEAK_GBPS  theoretical DRAM peak GB/s; empty: no peak line
# SM_COUNT, LATENCY_NS, TRAFFIC  when all three are given, the Little's-law model
#       min(ROOF, TRAFFIC x bytes_in_flight_per_sm x SM_COUNT / LATENCY_NS) (bytes/ns = GB/s)
#       is drawn; TRAFFIC is the rows' dram_bytes_per_load_byte, the DRAM bytes gbps_median
#       counts per loaded byte (2 where each load is stored again)
# plots/plot prepares DATA and the arguments from a sweep CSV.

load ARG0[1 : strlen(ARG0) - strlen("inflight.gp")] . "style.gp"
DATA = ARG1
OUT = ARG2
XCOL = "bytes_in_flight_per_sm"
ROOF = ARGC >= 4 && ARG4 ne "" ? ARG4 + 0.0 : 0.0
PEAK = ARGC >= 5 && ARG5 ne "" ? ARG5 + 0.0 : 0.0
SMS = ARGC >= 6 && ARG6 ne "" ? ARG6 + 0.0 : 0.0
LAT_NS = ARGC >= 7 && ARG7 ne "" ? ARG7 + 0.0 : 0.0
TRAFFIC = ARGC >= 8 && ARG8 ne "" ? ARG8 + 0.0 : 0.0

stats DATA using "bytes_in_flight_per_sm" nooutput
BYTES_LO = STATS_min
BYTES_HI = STATS_max
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
LITTLE = ROOF > 0 && SMS > 0 && LAT_NS > 0 && TRAFFIC > 0
LITTLE_TITLE = sprintf("Little: %.0f SMs, %.0f ns", SMS, LAT_NS) . \
               (TRAFFIC != 1 ? sprintf(", traffic ×%g", TRAFFIC) : "")
LITTLE_GBPS(x) = TRAFFIC * x * SMS / LAT_NS
KEY_LEN = max2(KEY_LEN, LITTLE ? strlen(LITTLE_TITLE) : 0)

YTOP = 1.1 * (YMAX > ROOF ? (YMAX > PEAK ? YMAX : PEAK) : (ROOF > PEAK ? ROOF : PEAK))
set yrange [0 : YTOP]
eval BYTE_TICS
set xlabel "bytes in flight per SM (resident warps × 32 × U × V)"
set ylabel "median bandwidth (GB/s)"
if (ROOF > 0) {
    set link y2 via 100.0 * y / ROOF inverse y * ROOF / 100.0
    set y2tics 10 out nomirror
    set y2label "% of memcpy roof"
}
set title ARG3 noenhanced left offset graph -0.5, 0
set key outside right top vertical Left reverse noenhanced width key_trim(KEY_LEN)
set samples 500

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
     for [k = 1 : LITTLE] (LITTLE_GBPS(x) < ROOF ? LITTLE_GBPS(x) : ROOF) with lines \
         linewidth 3 dashtype 4 linecolor rgb "#999999" \
         title (LITTLE ? LITTLE_TITLE : ""), \
     for [k = 1 : (ROOF > 0)] ROOF with lines dashtype 2 linewidth 2 linecolor rgb ROOF_RGB \
         title (ROOF > 0 ? ROOF_TITLE : ""), \
     for [k = 1 : (PEAK > 0)] PEAK with lines dashtype 3 linewidth 2 linecolor rgb ROOF_RGB \
         title (PEAK > 0 ? PEAK_TITLE : "")
eval SVG_AGAIN
