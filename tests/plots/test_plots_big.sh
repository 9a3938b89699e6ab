#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# tests/plots/test_plots_big.sh: plots/plot on large CSVs made by tests/plots/make_big_csv.py (the
# fixtures' rows repeated in rounds, each round's measurements within 1% of the template's): a 10 MB
# and a 100 MB file (BIG_MB to choose another size for the large one) give every figure of the
# templates, with the same points (curves and x) as one round gives and y within 1% of it; the
# large file's peak memory (of plots/plot and every process it starts) is within 10 MB of the
# small one's and its CPU time at most 15 times the small one's plus 2 s (linear in the size,
# 10 times the rows). Prints the seconds and peak memory of both. Exit 0 passed, 1 failed, 77 no
# gnuplot.
set -u

TEST_NAME=test_plots_big
. "$(dirname "$0")/plots_lib.sh"
MAKE="$ROOT/tests/plots/make_big_csv.py"
BIG_MB=${BIG_MB:-100}

cost() { # cost ARGS...: "CPU_SECONDS MAX_RSS_KB" of plots/plot ARGS and the processes it starts
    python3 - "$PLOT" "$@" <<'EOF'
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.2f %d" % (r.ru_utime + r.ru_stime, r.ru_maxrss))
EOF
}

python3 "$MAKE" 0.001 "$T/one.csv" >/dev/null # one round
python3 "$MAKE" 10 "$T/small.csv" >"$T/small.made"
python3 "$MAKE" "$BIG_MB" "$T/big.csv" >"$T/big.made"
check "generator wrote the files" [ -s "$T/one.csv" -a -s "$T/small.csv" -a -s "$T/big.csv" ]
read -r c_small rss_small <<<"$(cost --outdir "$T/small" "$T/small.csv")"
read -r c_big rss_big <<<"$(cost --outdir "$T/big" "$T/big.csv")"
echo "note: $(cat "$T/small.made"): plots/plot ${c_small} s CPU, peak ${rss_small} KB"
echo "note: $(cat "$T/big.made"): plots/plot ${c_big} s CPU, peak ${rss_big} KB"
check "memory does not grow with the file (${rss_small} KB, ${rss_big} KB)" \
    [ "$rss_big" -lt $((rss_small + 10000)) ]
check "time is linear in the size (${c_small} s, ${c_big} s)" \
    awk -v a="$c_small" -v b="$c_big" -v k="$BIG_MB" 'BEGIN { exit !(b < 1.5 * k / 10 * a + 2) }'
"$PLOT" --outdir "$T/one" "$T/one.csv" >/dev/null
check "the big file gives the figures of one round" \
    [ "$(ls "$T/one" | sed 's/^one-//')" = "$(ls "$T/big" | sed 's/^big-//')" ]
check "there are 12 figures (reduce, copy x 2 levers and its levers figure, 2 chase modes and \
their hop times, ladder)" [ "$(ls "$T/big" | grep -c 'svg$')" -eq 12 ]

# The figures' data: the same points as one round, y within 1% of it.
python3 "$ROOT/plots/csvsel.py" check --data "$T/one-" "$T/one.csv" >"$T/one.info"
python3 "$ROOT/plots/csvsel.py" check --data "$T/big-" "$T/big.csv" >"$T/big.info"
check "the same figure list" cmp -s <(grep -v '^ref' "$T/one.info") <(grep -v '^ref' "$T/big.info")
# The reference lines' values (refs() of plots/csvsel.py: a group's best point) within 1%.
check "the same reference lines, values within 1%" awk -F '\t' '
    FNR == NR && $1 == "ref" { one[++n] = $0; next }
    $1 == "ref" { split(one[++m], a, "\t"); if (a[2] a[3] a[4] != $2 $3 $4 ||
                  ($5 / a[5] - 1) ^ 2 > 1.0201e-4) bad = 1 }
    END { exit bad || m != n }' "$T/one.info" "$T/big.info"
for k in $(seq 1 "$(grep -c '^fig' "$T/one.info")"); do
    check "figure $k: same points, y within 1%" python3 - "$T/one-$k.tsv" "$T/big-$k.tsv" <<'EOF'
import sys
def rows(p):
    out = []
    for line in open(p):
        f = line.rstrip("\n").split("\t")
        if len(f) > 1:
            out.append(f)
    return out
a, b = rows(sys.argv[1]), rows(sys.argv[2])
head = a[0]
iy = next(i for i, name in enumerate(head) if name in ("gbps_median", "cycles_per_hop_median",
                                                       "hops_per_s_median", "ns_per_hop_median"))
ok = len(a) == len(b) > 1
for ra, rb in zip(a, b):
    if ra[0] == "set_idx":
        ok &= ra == rb
        continue
    ok &= ra[:iy] == rb[:iy] and abs(float(rb[iy]) / float(ra[iy]) - 1) <= 0.0101
sys.exit(0 if ok else 1)
EOF
done

echo "$checks checks, $failed failed"
[ "$failed" -eq 0 ]
