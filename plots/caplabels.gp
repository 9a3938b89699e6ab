# SPDX-License-Identifier: Apache-2.0
# plots/caplabels.gp: the labels of the register-capped curves of a Volkov figure (occupancy.gp,
# inflight.gp), placed where they cross no curve and no other label. Loaded after the figure is
# drawn once without them (its plot area is then known: GPVAL_TERM_*), with XLO, XHI (the x range
# drawn), LOGX (1: log x axis), YTOP (the y range's top), LABEL_GX (the graph fraction the
# labels stay left of), HLINES (the y values of the horizontal lines drawn, space-separated) and
# EXTRA_Y (a column of DATA drawn as a line beside each curve, or "") given, and where leader
# lines are drawn NLEAD and LEAD_X0[k], LEAD_Y0[k], LEAD_X1[k], LEAD_Y1[k] (their ends); the
# caller draws the figure again.
#
# A capped curve is labelled with its cap and spill bytes ("r40: 88 B spill") at each point
# where they change from the point before (volkov.gp's cap_text); a label that one curve of the
# same colour already has at that x is not repeated. Each label goes at the first of 64 places
# around its point (left below, right below, left above, right above, then a line further away
# each, sixteen lines at most) whose box, estimated from the label's length at the figure's size,
# stays inside the plot and meets no segment of any curve, no horizontal line and no label
# placed before; where none is free, at the one of least overlap. Labels are set with
# `set label` in graph coordinates, so they need no plot clause.

# The plot area in pixels of the 1200 x 800 figure, and a label's estimated character width and
# line height (12-point text).
CL_PW = GPVAL_TERM_XMAX - GPVAL_TERM_XMIN
CL_PH = GPVAL_TERM_YMAX - GPVAL_TERM_YMIN
CL_CW = 9.6
CL_LH = 20.0
CL_GAP = 7.0
cl_gx(x) = LOGX ? (log(x) - log(XLO)) / (log(XHI) - log(XLO)) : (x - XLO) / (XHI - XLO)

stats DATA using "gbps_median" nooutput
CL_NLEAD = exists("NLEAD") ? NLEAD : 0
CL_N = 2 * (STATS_records + NB + CL_NLEAD)
array CL_PX[CL_N]
array CL_PY[CL_N]
array CL_PB[CL_N]
array LX[CL_N]
array LY[CL_N]
array LT[CL_N]
array LB[CL_N]
NP = 0
NL = 0
CAP_PREV = ""
stats DATA using (strcol("set_idx") eq "set_idx" ? (CAP_PREV = "", 0) : (b = column(-2) + 1, \
    NP = NP + 1, CL_PX[NP] = cl_gx(column(XCOL)) * CL_PW, CL_PY[NP] = ycol(b) / YTOP * CL_PH, \
    CL_PB[NP] = b, T = CAP_LABELS ? cap_text(b) : "", \
    T ne "" ? (NL = NL + 1, LX[NL] = CL_PX[NP], LY[NL] = CL_PY[NP], LT[NL] = T, LB[NL] = b) : 0, \
    0)) nooutput
# The lines beside the curves, as blocks NB + 1 ...: their finite points.
if (EXTRA_Y ne "") {
    stats DATA using (strcol("set_idx") eq "set_idx" ? 0 : (EY = column(EXTRA_Y), \
        EY == EY ? (NP = NP + 1, CL_PX[NP] = cl_gx(column(XCOL)) * CL_PW, \
                    CL_PY[NP] = EY / YTOP * CL_PH, CL_PB[NP] = NB + column(-2) + 1) : 0, \
        0)) nooutput
}

do for [k = 1 : CL_NLEAD] {
    NP = NP + 2
    CL_PX[NP - 1] = cl_gx(LEAD_X0[k]) * CL_PW
    CL_PY[NP - 1] = LEAD_Y0[k] / YTOP * CL_PH
    CL_PX[NP] = cl_gx(LEAD_X1[k]) * CL_PW
    CL_PY[NP] = LEAD_Y1[k] / YTOP * CL_PH
    CL_PB[NP - 1] = 2 * NB + k
    CL_PB[NP] = 2 * NB + k
}

# Whether the segment (x0, y0)-(x1, y1) meets the box [bx0, bx1] x [by0, by1] (Liang-Barsky).
seg_hits(x0, y0, x1, y1, bx0, by0, bx1, by1) = (LB_T0 = 0.0, LB_T1 = 1.0, LB_OK = 1, \
    lb_edge(-(x1 - x0), x0 - bx0), lb_edge(x1 - x0, bx1 - x0), \
    lb_edge(-(y1 - y0), y0 - by0), lb_edge(y1 - y0, by1 - y0), LB_OK && LB_T0 < LB_T1)
lb_edge(p, q) = p == 0 ? (q < 0 ? LB_OK = 0 : 0) : \
    (p < 0 ? (q / p > LB_T0 ? LB_T0 = q / p : 0) : (q / p < LB_T1 ? LB_T1 = q / p : 0))

array PLX0[NL > 0 ? NL : 1]
array PLY0[NL > 0 ? NL : 1]
array PLX1[NL > 0 ? NL : 1]
array PLY1[NL > 0 ? NL : 1]
NPL = 0
do for [i = 1 : NL] {
    SAME = 0
    do for [j = 1 : i - 1] {
        if (LT[j] eq LT[i] && abs(LX[j] - LX[i]) < 1 && UV_B[LB[j]] == UV_B[LB[i]]) { SAME = 1 }
    }
    if (!SAME) {
        W = strlen(LT[i]) * CL_CW
        BEST = 1e9
        do for [c = 0 : 63] {
            if (BEST > 0) {
                RIGHT = c % 2
                ABOVE = int(c / 2) % 2
                STEP = int(c / 4)
                X0 = RIGHT ? LX[i] + CL_GAP : LX[i] - CL_GAP - W
                Y0 = ABOVE ? LY[i] + CL_GAP + STEP * CL_LH : LY[i] - CL_GAP - (STEP + 1) * CL_LH
                # The place's cost: 100 outside the plot, 10 per label it overlaps, 1 per
                # segment crossing it.
                X1 = X0 + W
                Y1 = Y0 + CL_LH
                COST = (X0 < 0 || X1 > LABEL_GX * CL_PW || Y0 < 0 || Y1 > CL_PH) ? 100 : 0
                do for [k = 1 : NPL] {
                    if (X0 < PLX1[k] && PLX0[k] < X1 && Y0 < PLY1[k] && PLY0[k] < Y1) {
                        COST = COST + 10
                    }
                }
                do for [h = 1 : words(HLINES)] {
                    HY = word(HLINES, h) / YTOP * CL_PH
                    if (HY > Y0 && HY < Y1) { COST = COST + 1 }
                }
                do for [q = 2 : NP] {
                    if (CL_PB[q] == CL_PB[q - 1]) {
                        if (seg_hits(CL_PX[q - 1], CL_PY[q - 1], CL_PX[q], CL_PY[q], X0, Y0, X1, Y1)) {
                            COST = COST + 1
                        }
                    }
                }
                if (COST < BEST) { BEST = COST; BX0 = X0; BY0 = Y0 }
            }
        }
        NPL = NPL + 1
        PLX0[NPL] = BX0
        PLY0[NPL] = BY0
        PLX1[NPL] = BX0 + W
        PLY1[NPL] = BY0 + CL_LH
        set label 400 + NPL LT[i] at graph BX0 / CL_PW, graph (BY0 + CL_LH / 2) / CL_PH \
            left front font ",12" textcolor rgb uv_rgb(UV_B[LB[i]])
    }
}
