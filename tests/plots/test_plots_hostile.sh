#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# tests/plots/test_plots_hostile.sh: plots/plot where the environment and the input are unkind: the
# same plot data (the pre-filter's output, as gnuplot gets it), the same SVG bytes and compare
# tables under LC_ALL=C, C.UTF-8 and de_DE.UTF-8 (a decimal comma; built here with localedef,
# skipped with a note where that fails), --latency-ns 350.9 read as 350.9 there; CSV names a shell
# can pass (occ=50.csv, task=select, -x.csv after --, spaces, quotes, a newline) give figures named
# after them, and a run with load levels named run=3.csv, or with CRLF line ends, gets the figures
# and the predicted curve of its LF twin; --compare --out DIR/ writes into DIR; a row with
# gbps_median 1e308 is left out with one line naming file:line and the rest drawn (large files:
# tests/plots/test_plots_big.sh).
# Exit 0 passed, 1 failed, 77 no gnuplot.
set -u

TEST_NAME=test_plots_hostile
. "$(dirname "$0")/plots_lib.sh"

# --- every locale gives the same bytes ---------------------------------------------------------
# A gnuplot that keeps a copy of each DATA file it is given (argument 3 of gnuplot -c SCRIPT DATA).
cat >"$T/keep-gnuplot" <<'EOF'
#!/bin/sh
n=$(ls "$KEEP_DIR" | wc -l)
cp "$3" "$KEEP_DIR/data$n.tsv"
exec gnuplot "$@"
EOF
chmod +x "$T/keep-gnuplot"

locales="C C.UTF-8"
mkdir -p "$T/loc"
if command -v localedef >/dev/null 2>&1 &&
    localedef -i de_DE -f UTF-8 "$T/loc/de_DE.UTF-8" >/dev/null 2>&1; then
    locales="$locales de_DE.UTF-8"
    check "de_DE.UTF-8 has a decimal comma" \
        [ "$(LOCPATH=$T/loc LC_ALL=de_DE.UTF-8 locale decimal_point)" = "," ]
else
    echo "note: localedef could not build de_DE.UTF-8; the decimal-comma locale is not checked"
fi
plot_in() { # plots/plot ARGS under locale $loc with PATH $path, keeping the data in $d/keep
    PATH=$path LOCPATH=$T/loc LC_ALL=$loc KEEP_DIR="$d/keep" GNUPLOT="$T/keep-gnuplot" "$PLOT" "$@"
}
# in_locales TAG PATH: draws the fixtures under each locale with PATH and compares the bytes.
in_locales() {
    local loc d path=$2
    for loc in $locales; do
        d="$T/$1-$loc"
        mkdir -p "$d/keep" "$d/out" "$d/cmp"
        plot_in --outdir "$d/out" --latency-ns 350.9 "$FIX/reduce-synthetic.csv" \
            "$FIX/copy-synthetic.csv" >/dev/null 2>"$d/err"
        check "$1 LC_ALL=$loc: plot exits 0" [ $? -eq 0 ]
        check "$1 LC_ALL=$loc: plot is silent on stderr" [ ! -s "$d/err" ]
        check "$1 LC_ALL=$loc: --latency-ns 350.9 is 351 ns on the figure" grep -qF \
            "Little: 132 SMs, 351 ns" "$d/out/reduce-synthetic-inflight-reduce.svg"
        plot_in --compare --x inflight --out "$d/cmp/both" "$FIX/reduce-synthetic.csv" \
            "$FIX/reduce-gpu-b-synthetic.csv" >/dev/null 2>>"$d/err"
        check "$1 LC_ALL=$loc: --compare exits 0" [ $? -eq 0 ]
        check "$1 LC_ALL=$loc: figures were drawn" [ "$(ls "$d/keep" | wc -l)" -ge 5 ]
    done
    for loc in $locales; do
        [ "$loc" = C ] && continue
        check "$1: plot data under $loc is byte-identical to C's" \
            diff -r "$T/$1-C/keep" "$T/$1-$loc/keep"
        check "$1: SVGs under $loc are byte-identical to C's" \
            diff -r -x '*.png' "$T/$1-C/out" "$T/$1-$loc/out"
        check "$1: --compare SVG under $loc is byte-identical to C's" \
            cmp -s "$T/$1-C/cmp/both.svg" "$T/$1-$loc/cmp/both.svg"
        check "$1: --compare tables under $loc are byte-identical to C's" sh -c \
            'cmp -s "$1.md" "$2.md" && cmp -s "$1.csv" "$2.csv"' - "$T/$1-C/cmp/both" \
            "$T/$1-$loc/cmp/both"
    done
}
in_locales listed "$PATH"
# Where locale -a does not list C.UTF-8 (glibc 2.35 builds it in), gnuplot still gets UTF-8 text.
mkdir -p "$T/bin"
cat >"$T/bin/locale" <<EOF
#!/bin/sh
if [ "\$1" = -a ]; then $(command -v locale) -a | grep -vix 'c\.utf-\{0,1\}8'
else exec $(command -v locale) "\$@"; fi
EOF
chmod +x "$T/bin/locale"
in_locales unlisted "$T/bin:$PATH"

# --- file names a shell can pass ---------------------------------------------------------------
nl='
'
names=("occ=50.csv" "task=select" "-x.csv" "two words.csv" "it's \"q\".csv" "new${nl}line.csv")
mkdir -p "$T/names" "$T/beside"
for name in "${names[@]}"; do
    shown=$(printf '%q' "$name")
    cp "$FIX/reduce-synthetic.csv" "$T/beside/$name"
    base=${name%.csv}
    "$PLOT" --outdir "$T/names" -- "$T/beside/$name" >"$T/names.out" 2>"$T/names.err"
    check "$shown: plot exits 0" [ $? -eq 0 ]
    check "$shown: no stderr" [ ! -s "$T/names.err" ]
    check "$shown: figure named after the CSV" [ -s "$T/names/$base-occupancy-reduce.svg" ]
    check "$shown: PNG too" [ -s "$T/names/$base-inflight-reduce.png" ]
done
# Beside the CSV, with a relative name that starts with '-'.
(cd "$T/beside" && "$PLOT" -- -x.csv >/dev/null 2>"$T/beside.err")
check "-x.csv beside itself exits 0" [ $? -eq 0 ]
check "-x.csv beside itself: figure in its directory" [ -s "$T/beside/-x-occupancy-reduce.svg" ]
"$PLOT" -x.csv >/dev/null 2>"$T/dash.err"
check "-x.csv without -- is an unknown option (exit 2, one line)" \
    sh -c '[ $0 -eq 2 ] && [ "$(wc -l <"$1")" -eq 1 ]' $? "$T/dash.err"

# A run with load levels (tests/data: a real H200 run) under a name holding '=' (what
# occsweep --out run=3.csv --plot draws; awk took such an operand for an assignment and read
# stdin), under '=', a leading '-' and spaces after --, and with CRLF line ends (awk read the last
# field as "status\r"): each gives the figures of its LF twin, the loaded-latency figure and the
# predicted curve among them, the same SVG bytes; stdin is never read. The one after -- is drawn
# with a relative TMPDIR holding '=' too (the staged files' names, read by awk as well).
mkdir -p "$T/lv/tmp=dir"
sed 's/$/\r/' "$ROOT/tests/data/h200-reduce-mission-3aa2b51.csv" >"$T/lv/crlf.csv"
for name in lf.csv run=3.csv "-l=2 b.csv"; do
    cp "$ROOT/tests/data/h200-reduce-mission-3aa2b51.csv" "$T/lv/$name"
done
figs_of() { # figs_of DIR BASE: DIR's files, BASE- taken off each name, one a line
    for f in "$1"/*; do f=${f##*/}; printf '%s\n' "${f#"$2"-}"; done
}
for name in lf.csv run=3.csv "-l=2 b.csv" crlf.csv; do
    base=${name%.csv}
    out="$T/lv/out-$base"
    mkdir -p "$out"
    case "$name" in
    run=3.csv) # beside itself, relative, no --, as occsweep --plot runs it
        cp "$T/lv/$name" "$out/"
        (cd "$out" && timeout 60 "$PLOT" "$name" </dev/null >/dev/null 2>&1)
        rc=$?
        rm -f "$out/$name"
        ;;
    -*) # relative after --, and a relative TMPDIR holding '=' (the staged files' names)
        (cd "$T/lv" && TMPDIR=tmp=dir timeout 60 "$PLOT" --outdir "out-$base" -- "$name" \
            </dev/null >/dev/null 2>&1)
        rc=$?
        ;;
    *)
        timeout 60 "$PLOT" --outdir "$out" -- "$T/lv/$name" </dev/null >/dev/null 2>&1
        rc=$?
        ;;
    esac
    shown=$(printf '%q' "$name")
    check "$shown (load levels): plot exits 0 without reading stdin (got $rc)" [ $rc -eq 0 ]
    figs_of "$out" "$base" >"$T/lv/figs-$base"
    check "$shown: the loaded-latency figure" grep -qxF loaded-latency.svg "$T/lv/figs-$base"
    check "$shown: the predicted curve" grep -qF "predicted: loaded latency L(X)" \
        "$out/$base-inflight-reduce.svg"
    [ "$base" = lf ] && continue
    check "$shown: the figures of its LF twin" cmp -s "$T/lv/figs-lf" "$T/lv/figs-$base"
    for f in "$T/lv/out-lf"/*.svg; do
        f=${f##*/lf-}
        check "$shown: $f is the bytes of its LF twin's" \
            cmp -s "$T/lv/out-lf/lf-$f" "$out/$base-$f"
    done
done

# --compare --out DIR/ writes DIR/compare.*, and an existing DIR the same; never DIR's parent.
mkdir -p "$T/cmpdir/sub" "$T/cmpdir/there"
"$PLOT" --compare --out "$T/cmpdir/sub/" "$FIX/reduce-synthetic.csv" \
    "$FIX/reduce-gpu-b-synthetic.csv" >/dev/null 2>&1
check "--out DIR/ exits 0" [ $? -eq 0 ]
check "--out DIR/ writes DIR/compare.svg" [ -s "$T/cmpdir/sub/compare.svg" ]
check "--out DIR/ writes DIR/compare.png" [ -s "$T/cmpdir/sub/compare.png" ]
check "--out DIR/ writes nothing beside DIR" [ ! -e "$T/cmpdir/sub.svg" ]
"$PLOT" --compare --out "$T/cmpdir/there" "$FIX/reduce-synthetic.csv" \
    "$FIX/reduce-gpu-b-synthetic.csv" >/dev/null 2>&1
check "--out of an existing directory writes into it" [ -s "$T/cmpdir/there/compare.svg" ]
# A prefix with odd characters is taken as it is.
"$PLOT" --compare --out "$T/cmpdir/-a b'c" "$FIX/reduce-synthetic.csv" \
    "$FIX/reduce-gpu-b-synthetic.csv" >/dev/null 2>&1
check "--out with a dash, space and quote" [ -s "$T/cmpdir/-a b'c.svg" ]

# --- one absurd value: that row is left out, with one line; the rest is drawn -------------------
awk -F ',' -v OFS=',' '/^#/ { print; next }
    !head { for (i = 1; i <= NF; i++) if ($i == "gbps_median") c = i; head = 1; print; next }
    !done { $c = "1e308"; done = 1; line = NR } { print } END { print line >"/dev/stderr" }' \
    "$FIX/reduce-synthetic.csv" >"$T/absurd.csv" 2>"$T/absurd.line"
"$PLOT" --outdir "$T/absurd" "$T/absurd.csv" >/dev/null 2>"$T/absurd.err"
check "absurd value: exit 0" [ $? -eq 0 ]
check "absurd value: one stderr line, naming file:line and the column" sh -c \
    '[ "$(wc -l <"$1")" -eq 1 ] && grep -qF "$2:$3: gbps_median '"'1e308'"'" "$1"' - \
    "$T/absurd.err" "$T/absurd.csv" "$(cat "$T/absurd.line")"
svg="$T/absurd/absurd-occupancy-reduce.svg"
check "absurd value: figure drawn" [ -s "$svg" ]
drawn() { grep "<use xlink:href='#gpPt[0-9]*' transform=" "$1" | grep -v "rgb(255, 255, 255)" |
    grep -vc "rgb(  0,   0,   0)"; }
"$PLOT" --outdir "$T/sane" "$FIX/reduce-synthetic.csv" >/dev/null 2>&1
check "absurd value: one point fewer than the sane file" \
    [ "$(($(drawn "$T/sane/reduce-synthetic-occupancy-reduce.svg") - 1))" -eq "$(drawn "$svg")" ]

echo "$checks checks, $failed failed"
[ "$failed" -eq 0 ]
