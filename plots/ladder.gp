# SPDX-License-Identifier: Apache-2.0
# plots/ladder.gp: the latency ladder of the pointer chase: footprint (log2 bytes) against SM
# cycles per dependent load (left axis, one series per variant) and the same in nanoseconds per
# load on the right axis (a second scale of that series at the run's clock), with the device's
# L1 and L2 sizes as vertical lines and the far half of the L2 shaded, so the L1, L2 and DRAM
# steps can be read off.
#
#   gnuplot -c plots/ladder.gp DATA OUT TITLE [L1_BYTES [L2_BYTES [SM_CLOCK_MHZ]]]
#
# DATA  plots/csvsel.py select output with PLOT_BY=variant, PLOT_X=buffer_bytes,
#       PLOT_Y=cycles_per_hop_median, PLOT_KEEP=ns_per_hop_median, PLOT_POSITIVE_X=1
# OUT   output path without extension: writes OUT.png and OUT.svg
# L1_BYTES, L2_BYTES  cache sizes to mark; empty: that marker is left out. L1_BYTES is what the
#       run's carveout left to L1 (metadata l1_kib), or, written BYTES:sram, the combined
#       L1/shared SRAM (l1_bytes, where the CSV has no l1_kib), marked as such
# SM_CLOCK_MHZ  when given, the right axis is the left one converted at this clock (ns = cycles
#       x 1000 / MHz); empty: the measured ns are drawn as their own series (open squares)
#       against a right axis scaled on its own
# plots/plot prepares DATA and the arguments from a sweep CSV.

load ARG0[1 : strlen(ARG0) - strlen("ladder.gp")] . "style.gp"
DATA = ARG1
OUT = ARG2
L1_TEXT = ARGC >= 4 ? ARG4 : ""
L1_SRAM = strstrt(L1_TEXT, ":sram") > 0
L1 = L1_TEXT eq "" ? 0.0 : (L1_SRAM ? L1_TEXT[1 : strstrt(L1_TEXT, ":") - 1] : L1_TEXT) + 0.0
L1_WORDS = L1_SRAM ? "L1/shared SRAM " . bytes_label(L1) . " (L1 at most)" : \
    "L1 " . bytes_label(L1) . " (carveout)"
L2 = ARGC >= 5 && ARG5 ne "" ? ARG5 + 0.0 : 0.0
MHZ = ARGC >= 6 && ARG6 ne "" ? ARG6 + 0.0 : 0.0

stats DATA using "buffer_bytes" nooutput
BYTES_LO = L1 > 0 && L1 < STATS_min ? L1 : STATS_min
BYTES_HI = L2 > STATS_max ? L2 : STATS_max
stats DATA using "cycles_per_hop_median" nooutput
NB = STATS_blocks
YMAX = STATS_max
array VR[NB]
array VNAME[NB]
stats DATA using (strcol("set_idx") eq "set_idx" ? 0 : (b = column(-2) + 1, \
                  VR[b] = int(column("variant_rank")), VNAME[b] = strcol("variant"), 0)) nooutput

eval BYTE_TICS
set xlabel "footprint of the chain (bytes)"
set ylabel "cycles per dependent load (SM clock)"
set y2label MHZ > 0 ? sprintf("ns per dependent load (at %g MHz)", MHZ) : \
    "ns per dependent load (open squares)"
set yrange [0 : 1.15 * YMAX]
set ytics nomirror
set y2tics out nomirror
if (MHZ > 0) {
    set link y2 via y * 1000.0 / MHZ inverse y * MHZ / 1000.0
    set y2tics nice_step(1.15 * YMAX * 1000.0 / MHZ)
} else {
    set y2range [0 : *]
}
if (L1 > 0) {
    set arrow 1 from L1, graph 0 to L1, graph 1 nohead dashtype 2 linewidth 2 \
        linecolor rgb ROOF_RGB back
    # Along the line (a long name written across would reach the L2 line): downwards from the
    # top, or upwards from the bottom where the latencies just past L1 reach the upper half (an
    # L2-flushed ladder).
    stats DATA using (column("buffer_bytes") >= L1 && column("buffer_bytes") <= 2 * L1 ? \
                      column("cycles_per_hop_median") : NaN) nooutput
    if (STATS_records > 0 && STATS_max > 0.5 * 1.15 * YMAX) {
        set label 1 L1_WORDS at L1, graph 0.03 rotate by 90 left offset 1.2, 0 front
    } else {
        set label 1 L1_WORDS at L1, graph 0.97 rotate by 90 right offset 1.2, 0 front
    }
}
if (L2 > 0) {
    set arrow 2 from L2, graph 0 to L2, graph 1 nohead dashtype 2 linewidth 2 \
        linecolor rgb ROOF_RGB back
    set label 2 "L2 " . bytes_label(L2) at L2, graph 0.03 offset 0.5, 0 left front
    # The L2 of A100/H100/H200 is two partitions: past about half of it a chain keeps lines in
    # the far one too, whose hits cost more (the H200's step at 25-40 MiB). The band says so,
    # so that no reader takes that step for the L2 size.
    set object 1 rectangle from L2 / 2.0, graph 0 to L2, graph 1 fillcolor rgb ROOF_RGB \
        fillstyle transparent solid 0.08 noborder behind
    set label 3 "far L2 partition" at L2, graph 0.97 offset -0.5, 0 right front
}
set title ARG3 noenhanced
set key width 0

# One variant is the usual ladder: its name would only repeat the title.
cycles_title(b) = NB > 1 ? VNAME[b] . (MHZ > 0 ? "" : ": cycles") : \
    (MHZ > 0 ? "cycles (left), ns (right)" : "cycles per load")
ns_title(b) = NB > 1 ? VNAME[b] . ": ns" : "ns per load"
NS_SERIES = MHZ > 0 ? 0 : NB

eval PNG_BEGIN
plot for [b = 1 : NB] DATA index (b - 1) using "buffer_bytes":"cycles_per_hop_median" \
         axes x1y1 with linespoints linewidth 2.5 linecolor rgb rank_rgb(VR[b]) \
         pointtype rank_pt(1) title cycles_title(b), \
     for [b = 1 : NS_SERIES] DATA index (b - 1) using "buffer_bytes":"ns_per_hop_median" \
         axes x1y2 with points linecolor rgb rank_rgb(VR[b]) pointtype rank_pt_open(2) \
         pointsize 2 * PS title (NS_SERIES > 0 ? ns_title(b) : "")
eval SVG_AGAIN
