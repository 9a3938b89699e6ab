# SPDX-License-Identifier: Apache-2.0
# plots/volkov.gp: what the Volkov figures (occupancy.gp, inflight.gp) and compare.gp share, loaded
# after style.gp with DATA (plots/csvsel.py data with PLOT_BY=unroll,vec_bytes,lever and
# PLOT_Y=gbps_median: one block per curve) and XCOL (its x column) set.
#
# Each curve is one (unroll U, vector width V, lever) block: colour by U, point shape by V, line
# width by V (the narrowest loads the widest line). Lines of equal width are drawn widest first,
# so where the curves of equal U x V coincide (u1_v8 and u2_v4) the thinner runs inside the wider
# and both show. A register-capped twin (lever bounds) is its own curve, dashed, with larger open
# points: a switch of binary, not a point of the natural variant's curve.
#
# Provides: NB (blocks), YMAX (largest y), per block b U_B[b], V_B[b], CAP_B[b] (1: capped),
# VR[b] (rank of V); NU, NV, U_OF_RANK[r], V_OF_RANK[r]; CAPPED (some block is capped);
# v_lw(r) the line width of V rank r; VOLKOV_CURVES and VOLKOV_KEY, plot clauses to expand with
# @ (the curves, then the key's unroll, V and capped entries); set ycol(b) before a plot to
# give block b's y (default: column gbps_median).

stats DATA using "gbps_median" nooutput
NB = STATS_blocks
YMAX = STATS_max
array U_B[NB]
array V_B[NB]
array CAP_B[NB]
array UR[NB]
array VR[NB]
array U_OF_RANK[NB]
array V_OF_RANK[NB]
# Each block repeats the header line; stats evaluates it too, so it is skipped by name.
stats DATA using (strcol("set_idx") eq "set_idx" ? 0 : (b = column(-2) + 1, \
                  U_B[b] = column("unroll"), V_B[b] = column("vec_bytes"), \
                  CAP_B[b] = capped_row(0), UR[b] = int(column("unroll_rank")), \
                  VR[b] = int(column("vec_bytes_rank")), U_OF_RANK[UR[b]] = U_B[b], \
                  V_OF_RANK[VR[b]] = V_B[b], 0)) nooutput
NU = 0
NV = 0
CAPPED = 0
do for [b = 1 : NB] {
    NU = UR[b] > NU ? UR[b] : NU
    NV = VR[b] > NV ? VR[b] : NV
    CAPPED = CAPPED || CAP_B[b]
}
# The blocks widest line first (by V rank, then in file order).
array ORDER[NB]
k = 0
do for [w = 1 : NV] {
    do for [b = 1 : NB] {
        if (VR[b] == w) { k = k + 1; ORDER[k] = b }
    }
}
v_lw(r) = NV > 1 ? 1.5 + 3.5 * (NV - r) / (NV - 1.0) : 2.5
cap_pt(b) = CAP_B[b] ? vec_pt_open(V_B[b]) : vec_pt(V_B[b])
cap_ps(b) = (CAP_B[b] ? 1.8 : 1.3) * PS
ycol(b) = column("gbps_median")

VOLKOV_CURVES = "for [k = 1 : NB] DATA index (ORDER[k] - 1) using XCOL:(ycol(ORDER[k])) " . \
    "with lines linewidth v_lw(VR[ORDER[k]]) linecolor rgb unroll_rgb(U_B[ORDER[k]]) " . \
    "dashtype 1 + CAP_B[ORDER[k]] notitle, " . \
    "for [b = 1 : NB] DATA index (b - 1) using XCOL:(ycol(b)) " . \
    "with points linecolor rgb 'white' " . \
    "pointtype vec_pt(V_B[b]) pointsize cap_ps(b) notitle, " . \
    "for [b = 1 : NB] DATA index (b - 1) using XCOL:(ycol(b)) with points linewidth 1.5 " . \
    "linecolor rgb unroll_rgb(U_B[b]) pointtype cap_pt(b) pointsize cap_ps(b) notitle"
# A clause iterating over nothing still takes a row in the key unless its title is empty, hence
# the conditional title of the capped entry.
VOLKOV_KEY = "for [r = 1 : NU] NaN with lines linewidth 5 " . \
    "linecolor rgb unroll_rgb(U_OF_RANK[r]) " . \
    "title sprintf('unroll %d', U_OF_RANK[r]), " . \
    "for [r = 1 : NV] NaN with linespoints linewidth v_lw(r) linecolor rgb 'black' " . \
    "pointtype vec_pt(V_OF_RANK[r]) pointsize 1.6 * PS " . \
    "title sprintf('%d B loads', V_OF_RANK[r]), " . \
    "for [k = 1 : CAPPED] NaN with linespoints linewidth 2 dashtype 2 linecolor rgb 'black' " . \
    "pointtype vec_pt_open(V_OF_RANK[1]) pointsize 1.8 * PS title (CAPPED ? CAPPED_TITLE : '')"
