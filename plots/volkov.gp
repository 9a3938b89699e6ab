# SPDX-License-Identifier: Apache-2.0
# plots/volkov.gp: what the Volkov figures (occupancy.gp, inflight.gp) and compare.gp share, loaded
# after style.gp with DATA (plots/csvsel.py data with PLOT_BY=unroll,vec_bytes,lever and
# PLOT_Y=gbps_median: one block per curve) and XCOL (its x column) set.
#
# Each curve is one (unroll U, vector width V, lever) block. Its colour is the bytes per thread
# per trip, U x V (one colour per value, the same in every figure): curves of equal U x V, which
# Little's law puts on top of each other (u1_v16, u2_v8, u4_v4), are one group, named once by a
# label at their end. Within a group the point shape and line width tell V (the narrowest loads
# the widest line, drawn first, so that the thinner runs inside the wider and both show). A
# register-capped twin (lever bounds) is its own curve, dashed, with larger open points and its
# cap and spill bytes written where they change: a switch of binary, not a point of the natural
# variant's curve.
#
# Provides: NB (blocks), YMAX (largest y), per block b U_B[b], V_B[b], UV_B[b], CAP_B[b]
# (1: capped), VR[b] (rank of V), XEND[b], YEND[b] (its last point); NU, NV, U_OF_RANK[r],
# V_OF_RANK[r]; CAPPED (some block is capped); the groups of the natural curves NG, G_UV[g]
# (U x V), G_Y[g] (mean y of their last points), G_TEXT[g] ("16 B: 1×16, 2×8, 4×4"); uv_rgb(p)
# the colour of U x V = p bytes; v_lw(r) the line width of V rank r; VOLKOV_CURVES and
# VOLKOV_KEY, plot clauses to expand with @ (the curves, then the key's V and capped entries;
# plots/caplabels.gp sets the capped curves' labels); CAP_LABELS (1: those labels are drawn) and
# cap_text(b); set ycol(b) before a plot to give block b's y (default: column gbps_median).

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
array UV_B[NB]
array XEND[NB]
array YEND[NB]
do for [b = 1 : NB] { UV_B[b] = U_B[b] * V_B[b] }
# Blocks are sorted by x: the last row of each is its end.
stats DATA using (strcol("set_idx") eq "set_idx" ? 0 : (b = column(-2) + 1, \
                  XEND[b] = column(XCOL), YEND[b] = column("gbps_median"), 0)) nooutput
uv_slot(p) = int(max2(1, int(log(p) / log(2) + 0.5) - 1))
uv_rgb(p) = rank_rgb(uv_slot(p))
# The groups, in the order of their first curve; members by U (the blocks' order).
array G_UV[NB]
array G_Y[NB]
array G_N[NB]
array G_TEXT[NB]
# A figure of capped curves only (lever bounds) groups them; their caps are the levers figure's.
ALLCAP = 1
do for [b = 1 : NB] { ALLCAP = ALLCAP && CAP_B[b] }
CAP_LABELS = CAPPED && !ALLCAP
NG = 0
do for [b = 1 : NB] {
    if (!CAP_B[b] || ALLCAP) {
        gi = 0
        do for [g = 1 : NG] { if (G_UV[g] == UV_B[b]) { gi = g } }
        if (gi == 0) {
            NG = NG + 1
            gi = NG
            G_UV[gi] = UV_B[b]
            G_Y[gi] = 0
            G_N[gi] = 0
            G_TEXT[gi] = sprintf("%d B:", UV_B[b])
        }
        G_TEXT[gi] = G_TEXT[gi] . " " . sprintf("%d×%d", U_B[b], V_B[b])
        G_Y[gi] = G_Y[gi] + YEND[b]
        G_N[gi] = G_N[gi] + 1
    }
}
do for [g = 1 : NG] { G_Y[g] = G_Y[g] / G_N[g] }
# A capped point's label where its cap or spill differs from the point before: "r40: 88 B".
CAP_PREV = ""
cap_text(b) = !CAP_B[b] ? "" : (CAP_NOW = sprintf("r%d: %d B spill", \
    column("reg_cap_per_thread"), column("local_bytes_per_thread")), \
    CAP_SHOW = (column(0) == 0 || CAP_NOW ne CAP_PREV) ? CAP_NOW : "", CAP_PREV = CAP_NOW, \
    CAP_SHOW)
v_lw(r) = NV > 1 ? 1.5 + 3.5 * (NV - r) / (NV - 1.0) : 2.5
cap_pt(b) = CAP_B[b] ? vec_pt_open(V_B[b]) : vec_pt(V_B[b])
cap_ps(b) = (CAP_B[b] ? 1.8 : 1.3) * PS
ycol(b) = column("gbps_median")

VOLKOV_CURVES = "for [k = 1 : NB] DATA index (ORDER[k] - 1) using XCOL:(ycol(ORDER[k])) " . \
    "with lines linewidth v_lw(VR[ORDER[k]]) linecolor rgb uv_rgb(UV_B[ORDER[k]]) " . \
    "dashtype 1 + CAP_B[ORDER[k]] notitle, " . \
    "for [b = 1 : NB] DATA index (b - 1) using XCOL:(ycol(b)) " . \
    "with points linecolor rgb 'white' " . \
    "pointtype vec_pt(V_B[b]) pointsize cap_ps(b) notitle, " . \
    "for [b = 1 : NB] DATA index (b - 1) using XCOL:(ycol(b)) with points linewidth 1.5 " . \
    "linecolor rgb uv_rgb(UV_B[b]) pointtype cap_pt(b) pointsize cap_ps(b) notitle"
# A clause iterating over nothing still takes a row in the key unless its title is empty, hence
# the conditional title of the capped entry.
VOLKOV_KEY = "for [r = 1 : NV] NaN with linespoints linewidth v_lw(r) linecolor rgb 'black' " . \
    "pointtype vec_pt(V_OF_RANK[r]) pointsize 1.6 * PS " . \
    "title sprintf('V = %d B loads', V_OF_RANK[r]), " . \
    "for [k = 1 : CAPPED] NaN with linespoints linewidth 2 dashtype 2 linecolor rgb 'black' " . \
    "pointtype vec_pt_open(V_OF_RANK[1]) pointsize 1.8 * PS title (CAPPED ? CAPPED_TITLE : '')"
