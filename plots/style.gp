# SPDX-License-Identifier: Apache-2.0
# plots/style.gp: the look every occsweep figure shares; each plots/*.gp script loads it first.
#
# Sized for a report: 1200x800 px with 16-point text stays legible when the PNG is scaled down to
# a text width. Colours are the Okabe-Ito set, which stays distinguishable under colour-vision
# deficiencies. Unroll U (and chain count K) pick the colour and vector width V the point shape
# by value, not by rank, so that U = 4 has one colour in every figure; GPUs and chase variants,
# which have no such value, go by rank. Titles and legends come from data (GPU names with
# underscores), so text is never parsed for enhanced-text markup.
#
# Provides:
#   PNG_BEGIN, SVG_AGAIN  strings to eval: before the plot command (PNG terminal, output OUT.png)
#                         and after it (SVG terminal, replot into OUT.svg); OUT is the script's
#                         output path without extension. SVG_BEGIN: SVG_AGAIN without the
#                         replot, for a multiplot, which is drawn again (replot redraws only
#                         its last panel)
#   rank_rgb(r), rank_pt(r), rank_pt_open(r)   colour, filled and open point type for rank r >= 1
#   unroll_slot(u)        1, 2, 3, ... for unroll (or chain count) 1, 2, 4, ...
#   unroll_rgb(u), vec_pt(v), vec_pt_open(v)  colour of unroll u, filled and open point type
#                         of vector width v bytes
#   capped_row(0)         in a `using` of DATA with a lever column: 1 on a row of a
#                         register-capped variant (lever bounds), else 0
#   CAPPED_TITLE          the legend line that says how a capped twin is drawn
#   max2(a, b)            the larger of a and b
#   bytes_label(b)        "512 B", "4 KiB", "1.5 MiB", ...
#   BYTE_TICS             string to eval: log2 x axis over [BYTES_LO:BYTES_HI] with byte labels,
#                         about BYTE_LABELS of them
#   nice_step(r)          a 1, 2 or 5 x 10^k tic step giving about 8 tics over a range r > 0
#   ROOF_RGB, GRID_RGB    colours of roof lines and the grid
#   OCC_LABEL, OCC_AXIS   the occupancy axis: its label (the API's, theoretical, occupancy:
#                         occ_achieved_pct; the measured one is occ_measured_pct) and a string
#                         to eval with OCC_LO (the lowest level drawn) and OCC_HI (100, or more
#                         to leave room for labels at the curves' ends) set: x from OCC_LO

set encoding utf8
set datafile separator tab
set datafile missing "NaN"

FONT = "sans-serif,16"
SIZE = "1200,800"
PNG_BEGIN = "set terminal pngcairo size " . SIZE . " font '" . FONT . "' linewidth 1.5 " . \
            "noenhanced; set output OUT . '.png'"
# The svg terminal draws points larger and text smaller than pngcairo at equal settings; PS
# (every pointsize is written as a multiple of it) and SVG_FONTSCALE, which scales every font
# size a script names as well as the default, bring the SVG to the PNG's look.
PS = 1.0
SVG_FONTSCALE = "1.25"
SVG_BEGIN = "unset output; PS = 0.6; set pointsize 1.3 * PS; " . \
            "set terminal svg size " . SIZE . " dynamic font '" . FONT . "' fontscale " . \
            SVG_FONTSCALE . " linewidth 1.5 noenhanced background rgb 'white'; " . \
            "set output OUT . '.svg'"
SVG_AGAIN = SVG_BEGIN . "; replot; unset output"

array RANK_RGB[8] = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", \
                     "#000000", "#999999"]
array RANK_PT[6] = [7, 5, 9, 13, 11, 15]
rank_rgb(r) = RANK_RGB[(int(r) - 1) % |RANK_RGB| + 1]
rank_pt(r) = RANK_PT[(int(r) - 1) % |RANK_PT| + 1]
rank_pt_open(r) = rank_pt(r) - 1
unroll_slot(u) = int(log(u) / log(2) + 0.5) + 1
unroll_rgb(u) = rank_rgb(unroll_slot(u))
vec_pt(v) = rank_pt(v >= 4 ? int(log(v) / log(2) + 0.5) - 1 : v >= 2 ? 5 : 6)
vec_pt_open(v) = vec_pt(v) - 1

# gnuplot has no functions without arguments; the argument is ignored.
capped_row(unused) = strcol("lever") eq "bounds"
CAPPED_TITLE = "register-capped (dashed, open)"

max2(a, b) = a > b ? a : b

ROOF_RGB = "#333333"
GRID_RGB = "#d9d9d9"

bytes_unit(b) = b >= 2**30 ? 2**30 : b >= 2**20 ? 2**20 : b >= 2**10 ? 2**10 : 1
bytes_name(u) = u == 2**30 ? "GiB" : u == 2**20 ? "MiB" : u == 2**10 ? "KiB" : "B"
bytes_label(b) = sprintf("%g %s", b / bytes_unit(b), bytes_name(bytes_unit(b)))

nice_mult(f) = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10
nice_step(r) = nice_mult(r / 8.0 / 10**floor(log10(r / 8.0))) * 10**floor(log10(r / 8.0))

# Labels at most ~BYTE_LABELS powers of two (8; fewer for a narrow panel; aligned to the label
# step so they read 1 KiB, 16 KiB, ...),
# the range widened to the labels on both sides so that the last label lies at or past the data,
# and marks every other power as a minor tic.
BYTE_LABELS = 8
BYTE_TICS = "set logscale x 2; set xtics (); " . \
            "e_lo = floor(log(BYTES_LO) / log(2)); e_hi = ceil(log(BYTES_HI) / log(2)); " . \
            "if (e_hi == e_lo) { e_lo = e_lo - 1; e_hi = e_hi + 1 }; " . \
            "e_step = int((e_hi - e_lo) / (BYTE_LABELS - 1.0)) + 1; " . \
            "e_lo = floor(e_lo / real(e_step)) * e_step; " . \
            "e_hi = ceil(e_hi / real(e_step)) * e_step; " . \
            "do for [e = e_lo : e_hi] { if (e % e_step == 0) { " . \
            "set xtics add (bytes_label(2**e) 2**e) } else { set xtics add ('' 2**e 1) } }; " . \
            "set xrange [2**e_lo / 1.001 : 2**e_hi * 1.001]"

set border linewidth 1.2
set grid xtics ytics linetype 1 linecolor rgb GRID_RGB linewidth 1
set tics out nomirror
# Keys go below the plot, in rows, so that they take neither the plot's width nor hide a curve;
# samples long enough to show two periods of any dash pattern drawn.
set key below center horizontal Left reverse noenhanced noopaque nobox samplen 5 spacing 1.1 \
    maxrows 4 width -5 height 1
set title font ",18"
set pointsize 1.3 * PS
set offsets 0, 0, 0, 0

OCC_LABEL = "occupancy, theoretical (occupancy API: resident warps per SM, % of the maximum)"
OCC_HI = 100
OCC_AXIS = "OCC_LO = OCC_LO >= 0 && OCC_LO < 100 ? OCC_LO : 0; " . \
    "OCC_PAD = 0.02 * (100 - OCC_LO); set xrange [OCC_LO - OCC_PAD : OCC_HI + OCC_PAD]; " . \
    "set xtics 0, 12.5, 100; set mxtics 2; " . \
    "set xlabel OCC_LABEL"
