# SPDX-License-Identifier: Apache-2.0
# plots/loaded.gp: the loaded-latency curve of a run: mean dependent-load latency (line and
# points) and its p5..p95 band, p99 as open circles, against the delivered bandwidth of each load
# level, with the unloaded DRAM latency (the ladder's) and the memcpy roof marked.
#
#   gnuplot -c plots/loaded.gp DATA OUT TITLE [LATENCY_NS [ROOF_GBPS [DATA_RW [DATA_GATHER]]]]
#
# DATA  tab-separated columns, one line per ok level in load order: gbps mean_ns p5_ns p50_ns p95_ns
#       p99_ns, under read-only background traffic (plots/plot writes it from the run's load-level
#       rows, chase/loaded)
# OUT   output path without extension: writes OUT.png and OUT.svg
# LATENCY_NS  the run's unloaded DRAM latency (dram_latency_ns); empty: no line
# ROOF_GBPS   the run's memcpy roof; empty: no line
# DATA_RW     the same columns under read + write (copy) background traffic; empty: none
# DATA_GATHER the same columns under random-line (gather) background traffic; empty: none

load ARG0[1 : strlen(ARG0) - strlen("loaded.gp")] . "style.gp"
DATA = ARG1
OUT = ARG2
LAT = ARGC >= 4 && ARG4 ne "" ? ARG4 + 0.0 : 0.0
ROOF = ARGC >= 5 && ARG5 ne "" ? ARG5 + 0.0 : 0.0
RW = ARGC >= 6 ? ARG6 : ""
GATHER = ARGC >= 7 ? ARG7 : ""

stats DATA using 1 nooutput
XMAX = STATS_max > ROOF ? STATS_max : ROOF
stats DATA using 6 nooutput
YMAX = STATS_max > LAT ? STATS_max : LAT
if (RW ne "") {
    stats RW using 1 nooutput
    XMAX = STATS_max > XMAX ? STATS_max : XMAX
    stats RW using 6 nooutput
    YMAX = STATS_max > YMAX ? STATS_max : YMAX
}
if (GATHER ne "") {
    stats GATHER using 1 nooutput
    XMAX = STATS_max > XMAX ? STATS_max : XMAX
    stats GATHER using 6 nooutput
    YMAX = STATS_max > YMAX ? STATS_max : YMAX
}
set xrange [0 : 1.05 * XMAX]
set yrange [0 : 1.1 * YMAX]
set xlabel "delivered bandwidth, background + probes (GB/s)"
set ylabel "dependent-load latency (ns)"
set title ARG3 noenhanced
if (ROOF > 0) {
    set arrow 1 from ROOF, graph 0 to ROOF, graph 1 nohead dashtype 2 linewidth 2 \
        linecolor rgb ROOF_RGB back
    # Along the line, on its right, half-way up: clear of the curves, which bend up before it.
    set label 1 sprintf("memcpy roof %.0f GB/s", ROOF) at ROOF, graph 0.5 rotate by 90 \
        center offset 1.4, 0 front
}

eval PNG_BEGIN
plot DATA using 1:3:5 with filledcurves fillcolor rgb "#cfd8e8" fillstyle solid 0.6 \
         title "p5 .. p95, read traffic", \
     DATA using 1:2 with linespoints linewidth 3 pointtype 7 linecolor rgb "#1f4e9a" \
         title "mean, read traffic", \
     DATA using 1:6 with points pointtype 6 linecolor rgb "#1f4e9a" title "p99, read traffic", \
     for [k = 1 : (RW ne "")] RW using 1:2 with linespoints linewidth 3 pointtype 5 \
         linecolor rgb "#b5651d" title "mean, read + write (copy) traffic", \
     for [k = 1 : (RW ne "")] RW using 1:6 with points pointtype 4 linecolor rgb "#b5651d" \
         title "p99, read + write", \
     for [k = 1 : (GATHER ne "")] GATHER using 1:2 with linespoints linewidth 3 pointtype 9 \
         linecolor rgb "#2e8b57" title "mean, random lines (gather) traffic", \
     for [k = 1 : (GATHER ne "")] GATHER using 1:6 with points pointtype 8 linecolor rgb "#2e8b57" \
         title "p99, random lines", \
     for [k = 1 : (LAT > 0)] LAT with lines dashtype 3 linewidth 2 linecolor rgb "#999999" \
         title (LAT > 0 ? sprintf("unloaded (ladder) %.0f ns", LAT) : "")
eval SVG_AGAIN
