# SPDX-License-Identifier: Apache-2.0
# plots/compare.gp: several GPUs (or runs) side by side: each curve's bandwidth as % of its own
# file's memcpy roof, against theoretical occupancy or bytes in flight per SM, one panel per unroll U
# (so that each panel holds GPUs x V curves, not all of them). Colour names the GPU, point shape
# and line width the vector width V (as volkov.gp has it); a register-capped twin is its own
# curve, dashed with open points. The key is below the panels.
#
#   gnuplot -c plots/compare.gp DATA OUT TITLE XKIND
#
# DATA   plots/csvsel.py compare data over all the CSVs: PLOT_BY=unroll,vec_bytes,lever,
#        PLOT_X=occ_achieved_pct or bytes_in_flight_per_sm, PLOT_Y=gbps_median,
#        PLOT_NORM=roof_memcpy_gbps (each row carries its file's roof); one block per GPU and
#        curve
# OUT    output path without extension: writes OUT.png and OUT.svg
# XKIND  occ or inflight: which x column DATA holds
# plots/plot prepares DATA and the arguments from the sweep CSVs.

HERE = ARG0[1 : strlen(ARG0) - strlen("compare.gp")]
load HERE . "style.gp"
DATA = ARG1
OUT = ARG2
INFLIGHT = ARG4 eq "inflight"
XCOL = INFLIGHT ? "bytes_in_flight_per_sm" : "occ_achieved_pct"
stats DATA using XCOL nooutput
BYTES_LO = STATS_min
BYTES_HI = STATS_max
load HERE . "volkov.gp"
# % of the row's own GPU's roof.
ycol(b) = 100.0 * column("gbps_median") / column("roof_memcpy_gbps")
stats DATA using (ycol(0)) nooutput
YPCT = STATS_max
array GPU[NB]
array GPU_NAME[NB]
stats DATA using (strcol("set_idx") eq "set_idx" ? 0 : (b = column(-2) + 1, \
                  GPU[b] = int(column("set_idx")), GPU_NAME[GPU[b]] = strcol("label"), 0)) nooutput
NG = 0
do for [b = 1 : NB] { NG = GPU[b] > NG ? GPU[b] : NG }
# Panels: one per unroll rank, in a grid of up to 2 columns.
NCOL = NU > 1 ? 2 : 1
NROW = (NU + NCOL - 1) / NCOL

if (INFLIGHT) {
    eval BYTE_TICS
    XLABEL = "bytes in flight per SM (resident warps × 32 × U × V)"
} else {
    set xrange [0 : 100]
    set xtics 0, 12.5, 100
    set mxtics 2
    XLABEL = OCC_LABEL
}
set yrange [0 : (YPCT > 100 ? 1.1 * YPCT : 110)]
set ytics 20
set ylabel "% of own memcpy roof"
# The key of the first panel is drawn below all panels, in rows, hiding none of them.
set key at screen 0.5, 0.15 center top vertical width 0 Left reverse \
    noenhanced font ",14" \
    noopaque nobox samplen 4 spacing 1.0

# The blocks by panel, widest line first within each: panel r holds
# P_ORDER[P_FIRST[r] .. P_LAST[r]].
array P_ORDER[NB]
array P_FIRST[NU]
array P_LAST[NU]
k = 0
do for [r = 1 : NU] {
    P_FIRST[r] = k + 1
    do for [j = 1 : NB] {
        if (UR[ORDER[j]] == r) { k = k + 1; P_ORDER[k] = ORDER[j] }
    }
    P_LAST[r] = k
}

DRAW = "set multiplot layout NROW, NCOL title ARG3 noenhanced margins 0.1, 0.97, 0.3, 0.9 " . \
    "spacing 0.1, 0.15; " . \
    "do for [r = 1 : NU] { set title sprintf('unroll %d', U_OF_RANK[r]) offset 0, -0.5; " . \
    "if (r <= NU - NCOL) { set xlabel ' ' } else { set xlabel XLABEL }; " . \
    "if (r > 1) { set key off }; " . \
    "plot 100 with lines dashtype 2 linewidth 2 linecolor rgb ROOF_RGB notitle, " . \
    "for [k = P_FIRST[r] : P_LAST[r]] DATA index (P_ORDER[k] - 1) " . \
    "using XCOL:(ycol(P_ORDER[k])) " . \
    "with lines linewidth v_lw(VR[P_ORDER[k]]) linecolor rgb rank_rgb(GPU[P_ORDER[k]]) " . \
    "dashtype 1 + CAP_B[P_ORDER[k]] notitle, " . \
    "for [k = P_FIRST[r] : P_LAST[r]] DATA index (P_ORDER[k] - 1) " . \
    "using XCOL:(ycol(P_ORDER[k])) " . \
    "with points linecolor rgb 'white' pointtype vec_pt(V_B[P_ORDER[k]]) " . \
    "pointsize cap_ps(P_ORDER[k]) notitle, " . \
    "for [k = P_FIRST[r] : P_LAST[r]] DATA index (P_ORDER[k] - 1) " . \
    "using XCOL:(ycol(P_ORDER[k])) " . \
    "with points linewidth 1.5 linecolor rgb rank_rgb(GPU[P_ORDER[k]]) " . \
    "pointtype cap_pt(P_ORDER[k]) pointsize cap_ps(P_ORDER[k]) notitle, " . \
    "for [g = 1 : NG] NaN with lines linewidth 5 linecolor rgb rank_rgb(g) title GPU_NAME[g], " . \
    "for [v = 1 : NV] NaN with linespoints linewidth v_lw(v) linecolor rgb 'black' " . \
    "pointtype vec_pt(V_OF_RANK[v]) pointsize 1.4 * PS " . \
    "title sprintf('%d B loads', V_OF_RANK[v]), " . \
    "for [k = 1 : CAPPED] NaN with linespoints linewidth 2 dashtype 2 linecolor rgb 'black' " . \
    "pointtype vec_pt_open(V_OF_RANK[1]) pointsize 1.6 * PS " . \
    "title (CAPPED ? CAPPED_TITLE : '') }; " . \
    "unset multiplot"

eval PNG_BEGIN
eval DRAW
eval SVG_BEGIN
eval DRAW
unset output
