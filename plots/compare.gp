# plots/compare.gp: several GPUs on one figure: each curve's bandwidth as % of its own GPU's
# memcpy roof, against achieved occupancy or bytes in flight per SM. Colour names the GPU, point
# shape the vector width V, dash pattern the unroll U.
#
#   gnuplot -c plots/compare.gp DATA OUT TITLE XKIND
#
# DATA   plots/csvsel.py select output over all the CSVs, with PLOT_BY=unroll,vec_bytes,
#        PLOT_X=occ_achieved_pct or bytes_in_flight_per_sm (PLOT_POSITIVE_X=1),
#        PLOT_Y=gbps_median, PLOT_NORM=roof_memcpy_gbps (each row carries its file's roof)
#        and PLOT_KEEP=lever (one block per GPU and curve; points of lever bounds, the
#        register-capped variants, are drawn open)
# OUT    output path without extension: writes OUT.png and OUT.svg
# XKIND  occ or inflight: which x column DATA holds
# plots/plot prepares DATA and the arguments from the sweep CSVs.

load ARG0[1 : strlen(ARG0) - strlen("compare.gp")] . "style.gp"
DATA = ARG1
OUT = ARG2
INFLIGHT = ARG4 eq "inflight"
XCOL = INFLIGHT ? "bytes_in_flight_per_sm" : "occ_achieved_pct"
# % of the row's own GPU's roof.
pct(unused) = 100.0 * column("gbps_median") / column("roof_memcpy_gbps")

stats DATA using (pct(0)) nooutput
NB = STATS_blocks
YMAX = STATS_max
stats DATA using XCOL nooutput
BYTES_LO = STATS_min
BYTES_HI = STATS_max
array GPU[NB]
array UR[NB]
array VR[NB]
array GPU_NAME[NB]
array U_OF_RANK[NB]
array V_OF_RANK[NB]
stats DATA using (strcol("set_idx") eq "set_idx" ? 0 : (b = column(-2) + 1, \
                  GPU[b] = int(column("set_idx")), GPU_NAME[GPU[b]] = strcol("label"), \
                  UR[b] = int(column("unroll_rank")), VR[b] = int(column("vec_bytes_rank")), \
                  U_OF_RANK[UR[b]] = column("unroll"), V_OF_RANK[VR[b]] = column("vec_bytes"), \
                  0)) nooutput
NG = 0
NU = 0
NV = 0
do for [b = 1 : NB] {
    NG = GPU[b] > NG ? GPU[b] : NG
    NU = UR[b] > NU ? UR[b] : NU
    NV = VR[b] > NV ? VR[b] : NV
}
stats DATA using (capped_row(0)) nooutput
CAPPED = STATS_sum > 0

if (INFLIGHT) {
    eval BYTE_TICS
    set xlabel "bytes in flight per SM (resident warps × 32 × U × V)"
} else {
    set xrange [0 : 100]
    set xtics 0, 12.5, 100
    set mxtics 2
    set xlabel "achieved occupancy (% of max warps per SM)"
}
set yrange [0 : (YMAX > 100 ? 1.1 * YMAX : 110)]
set ytics 10
set ylabel "% of the GPU's own memcpy roof (median GB/s / roof)"
set title ARG3 noenhanced
# Inside, where curves that rise with x leave room: outside, long GPU names would squeeze the plot.
set key inside right bottom vertical Left reverse noenhanced

# Dash pattern by unroll rank: the smallest U drawn is solid, whichever it is.
array U_DASH[5] = ["", "-", ".", "- .", "-- ."]
u_dash(r) = U_DASH[(int(r) - 1) % |U_DASH| + 1]
u_dashtype(r) = u_dash(r) eq "" ? 1 : u_dash(r)

eval PNG_BEGIN
# As in occupancy.gp, which says why the title is conditional: lines, then white points, then
# the filled or open ones on top.
plot 100 with lines dashtype 2 linewidth 2 linecolor rgb ROOF_RGB notitle, \
     for [b = 1 : NB] DATA index (b - 1) using XCOL:(pct(0)) with lines linewidth 2 \
         linecolor rgb rank_rgb(GPU[b]) dashtype u_dashtype(UR[b]) notitle, \
     for [b = 1 : NB] DATA index (b - 1) using XCOL:(pct(0)) with points linecolor rgb "white" \
         pointtype vec_pt(V_OF_RANK[VR[b]]) pointsize 1.1 * PS notitle, \
     for [b = 1 : NB] DATA index (b - 1) using XCOL:(pct(0)):(lever_pt(V_OF_RANK[VR[b]])) \
         with points linewidth 1.5 linecolor rgb rank_rgb(GPU[b]) pointtype variable \
         pointsize 1.1 * PS notitle, \
     for [g = 1 : NG] NaN with lines linewidth 5 linecolor rgb rank_rgb(g) title GPU_NAME[g], \
     for [r = 1 : NU] NaN with lines linewidth 2 linecolor rgb "black" \
         dashtype u_dashtype(r) title sprintf("unroll %d", U_OF_RANK[r]), \
     for [r = 1 : NV] NaN with points linecolor rgb "black" pointtype vec_pt(V_OF_RANK[r]) \
         pointsize 1.6 * PS title sprintf("%d B loads", V_OF_RANK[r]), \
     for [k = 1 : CAPPED] NaN with points linewidth 1.5 linecolor rgb "black" \
         pointtype vec_pt_open(V_OF_RANK[1]) pointsize 1.6 * PS \
         title (CAPPED ? CAPPED_TITLE : "")
eval SVG_AGAIN
