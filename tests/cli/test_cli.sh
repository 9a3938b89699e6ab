#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/cli/test_cli.sh: command-line tests of occsweep (run_sweep's program).
# Usage: test_cli.sh PATH/TO/occsweep   (OCC_SOURCE_ROOT, when set, is the source tree)
# Prints one line per failed check and "N checks, M failed"; exits 0 (all passed) or 1.
# Needs no GPU: plans use --dry-run --arch; the GPU-only checks run only where nvidia-smi
# lists a GPU, and checks for an arch this build has no code for are skipped with a note.
# Commas inside arguments (--unroll 1,2,4) are meant literally:
# shellcheck disable=SC2054
set -u

. "$(dirname "$0")/../lib/cli_lib.sh"
SRC=${OCC_SOURCE_ROOT:-}

have_gpu=0
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
    have_gpu=1
fi

# The braces take bash's own "Segmentation fault" report away; the exit status still says it.
run() { run_bin "$@"; }

skip() { echo "skip: $*"; }

cwd_is_empty() { [ -z "$(ls -A "$cwd")" ]; }

# One usage error: exit 2, one stderr line that names the value, nothing else anywhere.
expect_usage() {
    local want=$1 why=""
    shift
    run "$@"
    local first
    first=$(head -n 1 "$err")
    if [ "$rc" -ne 2 ]; then why="exit $rc, expected 2"
    elif [ -s "$out" ]; then why="wrote to stdout: $(head -c 120 "$out")"
    elif [ "$(lines "$err")" -ne 1 ]; then why="$(lines "$err") stderr lines, expected 1"
    elif [[ $first != "occsweep: "* ]]; then why="message lacks the 'occsweep: ' prefix: $first"
    elif [[ $first != *"$want"* ]]; then why="message lacks '$want': $first"
    elif [ "$(grep -o 'see --help' "$err" | wc -l)" -gt 1 ]; then
        why="'see --help' repeated: $first"
    elif ! cwd_is_empty; then why="created $(find "$cwd" -mindepth 1 | head -n 1)"
    fi
    check "$(cmdline "$@")" "$why"
    rm -rf "${cwd:?}"/* "$cwd"/.[!.]* 2>/dev/null
}

# ---- every bad-input class: exit 2 and a message naming the value ----

expect_usage "'--bogus'" --bogus
expect_usage "'-x'" -x
expect_usage "--block: missing value" --block
expect_usage "--dry-run takes no value" --dry-run=1
expect_usage "--kernel: 'foo' is not a kernel" --kernel foo
expect_usage "--kernel: 'copy,' has an empty element" --kernel copy,
expect_usage "--mode: 'latency' does not apply to copy (its modes: stream)" --kernel all --mode latency
expect_usage "--unroll: '' is empty" --unroll ''
expect_usage "--unroll: '1,,2' has an empty element" --unroll 1,,2
expect_usage "--unroll: '1,' has an empty element" --unroll 1,
expect_usage "--unroll: ',1' has an empty element" --unroll ,1
expect_usage "--unroll: 'a' has a non-integer element" --unroll a
expect_usage "--unroll: '1..' has an incomplete range" --unroll 1..
expect_usage "--unroll: '..4' has an incomplete range" --unroll ..4
expect_usage "--unroll: '4..1' has a reversed range" --unroll 4..1
expect_usage "--unroll: '1.5' has a non-integer element" --unroll 1.5
expect_usage "--block: '0' is out of range" --block 0
expect_usage "--block: '-32' is out of range" --block -32
expect_usage "--block: '100' is not a multiple of 32" --block 100
expect_usage "--min-samples: '0' is out of range" --min-samples 0
expect_usage "--max-noise: '0' is out of range" --max-noise 0
expect_usage "--max-time: '-1' is out of range" --max-time -1
expect_usage "--size: '0' is not positive" --size 0
expect_usage "--size: '-5'" --size -5
expect_usage "--occ: '100..25' is a reversed range" --occ 100..25
expect_usage "--occ: '0' is not in (0, 100]" --occ 0..50
expect_usage "--occ: '150' is not in (0, 100]" --occ 50..150
expect_usage "--occ: '0' is not in (0, 100]" --occ 0
expect_usage "--occ: 'abc' is not a number" --occ abc
expect_usage "--occ: '25:5' has a step but no range" --occ 25:5
expect_usage "--block: 'x' has a non-integer element" --block x
expect_usage "--size: '12Q' has an unknown unit" --size 12Q
expect_usage "--unroll: '16' is not compiled (accepted: 1, 2, 4, 8)" --unroll 16
expect_usage "--unroll: '3' is not compiled" --unroll 3
expect_usage "--vec: '2' is not compiled (accepted: 4, 8, 16, 128, 256, 512, 1024)" --vec 2
expect_usage "--vec: '32' is not compiled" --vec 32
expect_usage "--lever: 'most' is not a lever" --lever most
expect_usage "--block: '2048' is out of range (accepted: 32..1024, a multiple of 32; a list like 128,256 or a range of powers of two like 128..1024)" --block 2048
expect_usage "--block: '200' is not a multiple of 32" --block 128,200
expect_usage "--arch 'sm_91' is not known" --dry-run --arch sm_91
expect_usage "--arch: 'sm_9' is not an architecture name" --dry-run --arch sm_9
expect_usage "--arch: 'sm_90' needs --dry-run" --arch sm_90
expect_usage "--mode: 'warp' does not apply to copy (its modes: stream)" --kernel copy --mode warp
expect_usage "--footprint does not apply to copy, reduce, chase warp, fma, mixed" --footprint 4K..1G
expect_usage "--cold does not apply to chase warp" --kernel chase --cold
expect_usage "--index-bytes: '6' is not a power of two (accepted: 4 or 8)" --kernel chase --mode latency --index-bytes 6
expect_usage "--stride: '96' is not a power of two" --kernel chase --mode latency --stride 96
expect_usage "--stride: '16' is out of range" --kernel chase --mode latency --stride 16
expect_usage "unexpected argument 'foo'" foo
expect_usage "unexpected argument 'foo'" --dry-run --arch sm_90 foo
expect_usage "unexpected argument '--x'" --dry-run --arch sm_90 -- --x
expect_usage "'--bogus'" --bogus --help
expect_usage "--kernel: 'foo' is not a kernel" --out "$work/bad.csv" --kernel foo
check "a usage error with --out created the file" "$([ -e "$work/bad.csv" ] && echo "$work/bad.csv exists")"

# Parsing stops at --help, and --arch/--dry-run may come in either order.
run --help --bogus
check "$(cmdline --help --bogus)" "$([ "$rc" -eq 0 ] || echo "exit $rc, expected 0")"
run --arch sm_90 --dry-run --kernel copy --unroll 1 --vec 4 --occ 100
check "$(cmdline --arch sm_90 --dry-run)" "$([ "$rc" -eq 0 ] || echo "exit $rc: $(head -n 1 "$err")")"

# Every arch a message offers as accepted must be accepted, or refused only for lack of code.
accepted() { sed -n 's/.*(accepted: \([^)]*\)).*/\1/p' "$err" | grep -o 'sm_[0-9]\+[af]\?'; }
run --dry-run --arch foo
offered=$(accepted)
run --dry-run --arch sm_91
offered="$offered $(accepted)"
for a in $(tr -s ' \n' '\n' <<<"$offered" | sort -u); do
    run --dry-run --arch "$a" --kernel copy --unroll 1 --vec 4 --occ 100
    why=""
    if [ "$rc" -ne 0 ] && ! grep -q "this build has no code for it" "$err"; then
        why="offered as accepted, but exit $rc: $(head -n 1 "$err")"
    fi
    check "$(cmdline --dry-run --arch "$a")" "$why"
done

# ---- --out that cannot be written: checked only after the GPU is opened ----

if [ "$have_gpu" -eq 1 ]; then
    small=(--kernel copy --unroll 1 --vec 4 --occ 100 --size 1M --max-time 0.01 --quiet)
    expect_usage "/proc/forbidden" "${small[@]}" --out /proc/forbidden/x.csv
    echo keep >"$work/exists.csv"
    expect_usage "exists.csv" "${small[@]}" --out "$work/exists.csv"
    check "--out over an existing file without --force changed it" \
        "$([ "$(cat "$work/exists.csv")" = keep ] || echo "content replaced")"
fi

# ---- no GPU: exit 3 with the CUDA error name and the way out ----

if [ "$have_gpu" -eq 1 ]; then
    skip "no-GPU exit 3: nvidia-smi lists a GPU"
else
    # The limits keep this short should a GPU answer after all.
    args=(--kernel reduce --unroll 1 --vec 4 --occ 100 --size 1M --max-time 0.01 --quiet
          --out "$work/nogpu.csv")
    run "${args[@]}"
    why=""
    if [ "$rc" -ne 3 ]; then why="exit $rc, expected 3"
    elif [ "$(lines "$err")" -ne 1 ]; then why="$(lines "$err") stderr lines, expected 1"
    elif ! grep -q 'cudaError[A-Za-z]' "$err"; then why="no cudaError name: $(cat "$err")"
    elif ! grep -q -- '--dry-run --arch' "$err"; then why="no --dry-run --arch hint: $(cat "$err")"
    elif [ -s "$out" ] || [ -e "$work/nogpu.csv" ] || ! cwd_is_empty; then why="wrote output"
    fi
    check "$(cmdline "${args[@]}")" "$why"
fi

# ---- dry runs: the plan ----

reachable='^[a-z0-9_]+ +block +[0-9]+ +target +[0-9.]+% +achieved +[0-9.]+% +[0-9]+ blocks/SM +pad +[0-9]+ B +regs +[0-9]+ +limiter +[a-z_]+$'
skipped='^[a-z0-9_]+ +block +[0-9]+ +target +[0-9.]+% +skip: .+$'

args=(--dry-run --arch sm_90 --kernel reduce --unroll 1,2,4 --occ 25..100)
run "${args[@]}"
plan=$(cmdline "${args[@]}")
check "$plan: exit" "$([ "$rc" -eq 0 ] || echo "exit $rc: $(head -n 1 "$err")")"
check "$plan: stderr" "$([ -s "$err" ] && echo "not empty: $(head -n 1 "$err")")"
# 117 reduce points, after the 44 load levels whose rows the model's curves come from.
check "$plan: count line" "$([ "$(grep -E '^[0-9]+ points$' "$out")" = "161 points" ] || echo "'$(grep -E '^[0-9]+ points$' "$out")'")"
# The header counts both kinds, a line heads each, and no footprint note (the plan has none).
check "$plan: header counts sweep points and load levels" \
    "$(head -n 1 "$out" | grep -qx 'plan for sm_90: 161 points (117 sweep points + 44 load levels)' || head -n 1 "$out")"
check "$plan: a line heads each kind" \
    "$(grep -q '^load levels (44): the loaded-latency probes' "$out" && grep -qx 'sweep points (117):' "$out" ||
       echo "no section lines")"
check "$plan: no footprint note without footprints" "$(grep '^footprints:' "$out")"
check "$plan: the load levels first" "$([ "$(grep -cE '^loaded_(read|copy|gather)_w[0-9]{2}_u(1|2|4|8|16) +load level' "$out")" -eq 33 ] &&
    grep -m 1 -E '^(loaded|reduce)_' "$out" | grep -q '^loaded_read_w00_u1 ' || echo "not 44 levels first")"
n=$(grep -cE '^reduce_u[124]_v(4|8|16)(_r[0-9]+)? ' "$out")
check "$plan: point lines" "$([ "$n" -eq 117 ] || echo "$n lines name a variant, expected 117")"
n=$(grep -E '^(copy|reduce)_' "$out" | grep -cvE "$reachable|$skipped")
check "$plan: line format" "$([ "$n" -eq 0 ] || echo "$n point lines in neither format")"
n=$(grep -cE "$reachable" "$out")
check "$plan: reachable" "$([ "$n" -eq 117 ] || echo "$n reachable lines, expected 117")"
n=$(grep -cE '^(copy_|reduce_u8)' "$out")
check "$plan: selection" "$([ "$n" -eq 0 ] || echo "$n lines of an unselected variant")"
# A range visits every achievable level: on sm_90 with 128 threads, 25% to 100% in 1/16 steps.
n=$(awk '/^reduce_/ { if ($5 != $7) bad++ } END { print bad + 0 }' "$out")
check "$plan: target = achieved" "$([ "$n" -eq 0 ] || echo "$n lines differ")"
n=$(awk '/^reduce_/ { print $5 }' "$out" | sort -u | tr '\n' ' ')
want="100.00% 25.00% 31.25% 37.50% 43.75% 50.00% 56.25% 62.50% 68.75% 75.00% 81.25% 87.50% 93.75% "
check "$plan: levels" "$([ "$n" = "$want" ] || echo "got '$n'")"
# --lever auto: the natural variant wherever its registers allow the level, a twin of the
# register ladder (_r<cap>) only above that (reduce_u8_v16 has more registers than 100% allows
# on sm_90, under any build).
args=(--dry-run --arch sm_90 --kernel reduce --unroll 8 --vec 16 --occ 25..100)
run "${args[@]}"
plan=$(cmdline "${args[@]}")
n=$(grep -cE '^reduce_u8_v16_r[0-9]+ ' "$out")
check "$plan: capped levels" "$([ "$n" -gt 0 ] || echo "no _r<cap> line")"
top=$(awk '$1 == "reduce_u8_v16" { if ($5 + 0 > m) m = $5 + 0 } END { print m + 0 }' "$out")
n=$(awk -v top="$top" '$1 ~ /^reduce_u8_v16_r/ && $5 + 0 <= top' "$out")
check "$plan: lever switch above the natural's top level ($top%)" "$([ -z "$n" ] || echo "unexpected: $n")"
n=$(grep -cE '^reduce_u8_v16(_r[0-9]+)? ' "$out")
check "$plan: one line per level" "$([ "$n" -eq 13 ] || echo "$n lines, expected 13")"
line=$(grep -E '^reduce_u8_v16_r32 +block +128 +target +100\.00%' "$out")
check "$plan: _r32 at 100%" "$(echo "$line" | grep -qE \
    'achieved +100\.00% +16 blocks/SM +pad +0 B +regs +32 +limiter warps' || echo "'$line'")"
# --lever bounds: registers alone set each rung's level (no padding), the levels between are
# padded; both: a pad and a bounds line per level.
args=(--dry-run --arch sm_90 --kernel reduce --unroll 8 --vec 16 --lever bounds --occ 62.5..100)
run "${args[@]}"
plan=$(cmdline "${args[@]}")
n=$(awk '/^reduce_u8_v16_r/ { printf "%s:%s:%s ", $1, $8, ($11 == 0 ? "regs" : "pad") }' "$out")
check "$plan: rungs" "$([ "$n" = "reduce_u8_v16_r48:10:regs reduce_u8_v16_r40:11:pad \
reduce_u8_v16_r40:12:regs reduce_u8_v16_r32:13:pad reduce_u8_v16_r32:14:pad \
reduce_u8_v16_r32:15:pad reduce_u8_v16_r32:16:regs " ] || echo "got '$n'")"
args=(--dry-run --arch sm_90 --kernel reduce --unroll 8 --vec 16 --lever both --occ 62.5..100)
run "${args[@]}"
plan=$(cmdline "${args[@]}")
check "$plan: two lines per level" "$([ "$(grep -E '^[0-9]+ points$' "$out")" = "58 points" ] &&
    [ "$(grep -cE '^reduce_u8_v16 +block .* skip: registers' "$out")" -eq 7 ] ||
    echo "'$(grep -E '^[0-9]+ points$' "$out")'")"
# The GPU check's judge of the ladder (tests/cli/ladder_check.py) on a fake device's CSV of the same
# plan: it passes, fails when a bounds level is a skip row, and refuses a CSV without bounds rows.
ladder_check() { python3 "$(dirname "$0")/ladder_check.py" "$@" >"$cwd/lc.out" 2>&1; rc=$?; }
OCC_FAKE_DEVICES=sm_90:1.0 run --dry-run --device 0 --kernel reduce --unroll 8 --vec 16 \
    --lever both --occ 25..100 --out "$cwd/ladder.csv"
ladder_check "$cwd/ladder.csv"
check "ladder_check: a fake --lever both run passes" "$([ "$rc" -eq 0 ] &&
    [ "$(grep -c '^PASS: reduce_u8_v16 ' "$cwd/lc.out")" -eq 3 ] || echo "exit $rc: $(grep -m1 FAIL "$cwd/lc.out")")"
sed '/reduce_u8_v16_r32,.*,ok$/s/,ok$/,skip:test/' "$cwd/ladder.csv" >"$cwd/ladder-bad.csv"
ladder_check "$cwd/ladder-bad.csv"
check "ladder_check: a bounds level not measured fails" "$([ "$rc" -eq 1 ] &&
    grep -q '^FAIL: reduce_u8_v16 reach: .*missing' "$cwd/lc.out" || echo "exit $rc")"
grep -v ',bounds,' "$cwd/ladder.csv" >"$cwd/ladder-pad.csv"
ladder_check "$cwd/ladder-pad.csv"
check "ladder_check: no bounds row is exit 2" "$([ "$rc" -eq 2 ] || echo "exit $rc")"
rm -f "$cwd"/ladder*.csv "$cwd/lc.out"

# --block LIST: each block size its own levels, the plan says which and what mapped where.
args=(--dry-run --arch sm_90 --kernel reduce --unroll 4 --vec 16 --block 128,1024 --occ 25,75)
run "${args[@]}"
check "$(cmdline "${args[@]}"): block levels" "$(grep -q '^levels block 1024: reaches 2 levels, 50%..100% in steps of 50%; visits 50%; asked 25% -> 50%; asked 75% -> 50%$' "$out" || echo "no 1024 line: $(grep '^levels' "$out")")"
n=$(grep -cE '^reduce_u4_v16 +block +1024 +target +(25|75)\.00% +achieved +50\.00% +1 blocks/SM' "$out")
check "$(cmdline "${args[@]}"): 1024-thread points" "$([ "$n" -eq 1 ] || echo "$n points at 1 block/SM")"
n=$(grep -cE '^reduce_u4_v16 +block +128 +target +(25|75)\.00% +achieved +(25|75)\.00%' "$out")
check "$(cmdline "${args[@]}"): 128-thread points" "$([ "$n" -eq 2 ] || echo "$n points")"

args=(--dry-run --arch sm_90 --kernel copy --unroll 1 --vec 4 --occ 30)
run "${args[@]}"
check "$(cmdline "${args[@]}"): levels note" \
    "$(grep -q '^levels block 128: reaches 16 levels, 6.25%..100% in steps of 6.25%; visits 31.25%; asked 30% -> 31.25%$' "$out" || echo "no note: $(head -n 2 "$out" | tail -n 1)")"
check "$(cmdline "${args[@]}"): point" "$(grep -qE \
    '^copy_u1_v4 +block +128 +target +30\.00% +achieved +31\.25% +5 blocks/SM' "$out" ||
    echo "no 30% -> 31.25% line")"

args=(--dry-run --arch sm_90 --kernel copy --unroll 1 --vec 4 --occ 10..100:10 --no-loaded)
run "${args[@]}"
check "$(cmdline "${args[@]}")" "$([ "$rc" -eq 0 ] && [ "$(grep -E '^[0-9]+ points$' "$out")" = "10 points" ] &&
    grep -qE 'achieved +100\.00%' "$out" || echo "exit $rc, '$(grep -E '^[0-9]+ points$' "$out")'")"

# A step too fine for the level table must not silently drop the top of the range.
args=(--dry-run --arch sm_90 --kernel copy --unroll 1 --vec 4 --occ 1..100:0.5)
run "${args[@]}"
why=""
if [ "$rc" -eq 0 ]; then
    grep -qE 'achieved +100\.00%' "$out" || why="exit 0, but the plan stops below 100%"
elif [ "$rc" -ne 2 ] || [ "$(lines "$err")" -ne 1 ] || ! grep -q -- '--occ' "$err"; then
    why="exit $rc, expected 0 or 2 with one line about --occ: $(head -n 1 "$err")"
fi
check "$(cmdline "${args[@]}")" "$why"

# Other archs; a build without their code (-Dgpu_archs) says so and the check is skipped.
args=(--dry-run --arch sm_80 --kernel copy --occ 50 --no-loaded)
run "${args[@]}"
if [ "$rc" -eq 2 ] && grep -q "this build has no code for it" "$err"; then
    skip "$(cmdline "${args[@]}"): $(cat "$err")"
else
    check "$(cmdline "${args[@]}")" "$([ "$rc" -eq 0 ] && [ "$(grep -E '^[0-9]+ points$' "$out")" = "12 points" ] ||
        echo "exit $rc, '$(grep -E '^[0-9]+ points$' "$out")'")"
    n=$(grep -cE '^copy_u[1248]_v(4|8|16)(_r[0-9]+)? +block +128 +target +50\.00% +achieved +50\.00% +8 blocks/SM' "$out")
    check "$(cmdline "${args[@]}"): 50% = 8 blocks/SM" "$([ "$n" -eq 12 ] || echo "$n of 12 lines")"
fi

# sm_86 holds 1536 threads (48 warps): levels are twelfths, 100% is 12 blocks of 128.
args=(--dry-run --arch sm_86 --kernel copy --unroll 1 --vec 4 --occ 25..100 --no-loaded)
run "${args[@]}"
if [ "$rc" -eq 2 ] && grep -q "this build has no code for it" "$err"; then
    skip "$(cmdline "${args[@]}"): $(cat "$err")"
else
    check "$(cmdline "${args[@]}")" "$([ "$rc" -eq 0 ] && [ "$(grep -E '^[0-9]+ points$' "$out")" = "10 points" ] ||
        echo "exit $rc, '$(grep -E '^[0-9]+ points$' "$out")'")"
    check "$(cmdline "${args[@]}"): 100%" "$(grep -qE \
        '^copy_u1_v4 +block +128 +target +100\.00% +achieved +100\.00% +12 blocks/SM' "$out" ||
        echo "no 100% line with 12 blocks/SM")"
    check "$(cmdline "${args[@]}"): 33.33%" "$(grep -qE 'achieved +33\.33% +4 blocks/SM' "$out" ||
        echo "no 33.33% level")"
fi

# ---- --help, --version, --list ----

run --help
opts="kernel unroll vec occ block lever size mode footprint max-noise max-time min-samples
      device out force plot quiet dry-run arch list help version"
if [ -n "$SRC" ] && [ -f "$SRC/harness/cli/options_table.c" ]; then
    opts="$opts $(grep -oE '\{\.name = "[a-z-]+"' "$SRC/harness/cli/options_table.c" | cut -d'"' -f2)"
fi
missing=""
for o in $(tr -s ' \n' '\n' <<<"$opts" | sort -u); do
    grep -q -- "--$o\b" "$out" || missing="$missing --$o"
done
grep -q -- '-h, --help' "$out" || missing="$missing -h"
grep -q -- '-V, --version' "$out" || missing="$missing -V"
for code in 0 1 2 3; do grep -qE "^ +$code +[a-z]" "$out" || missing="$missing exit-code-$code"; done
check "occsweep --help" "$([ "$rc" -eq 0 ] && [ ! -s "$err" ] && [ -z "$missing" ] ||
    echo "exit $rc, stderr $(lines "$err") lines, undocumented:$missing")"
cp "$out" "$work/help"
run -h
check "occsweep -h" "$(cmp -s "$out" "$work/help" || echo "differs from --help")"

version=""
if [ -n "$SRC" ] && [ -f "$SRC/meson.build" ]; then
    version=$(sed -n "s/^ *version: *'\([^']*\)'.*/\1/p" "$SRC/meson.build" | head -n 1)
fi
for v in --version -V; do
    run $v
    why=""
    # "occsweep VERSION (git REV)", then where the plot scripts are (the source's plots/ for a
    # binary in this build tree).
    if [ "$rc" -ne 0 ] || [ -s "$err" ] || [ "$(lines "$out")" -ne 2 ]; then
        why="exit $rc, $(lines "$out") stdout lines, $(lines "$err") stderr lines"
    elif ! head -n 1 "$out" | grep -qE '^occsweep [0-9]+\.[0-9]+\.[0-9]+ \(git [^ )]+\)$'; then
        why="'$(head -n 1 "$out")'"
    elif [ -n "$version" ] && [ "$(head -n 1 "$out" | cut -d' ' -f2)" != "$version" ]; then
        why="'$(head -n 1 "$out")', meson.build says $version"
    elif [ -n "$SRC" ] && ! [ "$(cd "$(sed -n 's/^plots: //p' "$out")" 2>/dev/null && pwd -P)" = \
        "$(cd "$SRC/plots" && pwd -P)" ]; then
        why="plot scripts at '$(tail -n 1 "$out")', not $SRC/plots"
    fi
    check "occsweep $v" "$why"
done

run --list
caps_of() { # the register caps of U V's twins (kernels/variants.h)
    case $1-$2 in 2-* | 4-4 | 4-8) echo 32 ;; 4-16) echo 48 40 32 ;; 8-4) echo 40 32 ;;
    8-*) echo 56 48 40 32 ;; esac
}
expected=$( (for k in copy reduce; do for u in 1 2 4 8; do for w in 4 8 16; do
    printf '%s_u%s_v%s\n' $k $u $w
    for c in $(caps_of $u $w); do printf '%s_u%s_v%s_r%s\n' $k $u $w $c; done; done; done; done
    for m in warp thread; do for k in 1 2 4 8; do echo "chase_${m}_k$k"; done; done
    for t in fp32 fp64; do for u in 1 2 4 8; do echo "fma_${t}_u$u"; done; done
    for a in 0 1 2 4 8 12 16 24 32 48 64 96 128 256; do echo "mixed_u2_v16_a$a"; done
    for k in 1 2 4 8; do echo "smem_chase_k$k"; done
    for m in read rw; do for u in 1 2 4 8; do for w in 4 8 16; do
        echo "smem_${m}_u${u}_v$w"; done; done; done
    for t in f16 bf16 tf32 f64; do for u in 1 2 4 8; do echo "mma_${t}_u$u"; done; done
    for w in 1 5; do for c in 4 8 16 32; do for s in 1 2 3 4 6 8; do
        [ $((s * c)) -le 192 ] && echo "async_bulk_s${s}_c${c}k_w$w"; done; done; done
    for w in 1 4; do for s in 1 2 4 8; do for u in 1 2 4 8; do
        echo "async_cp_s${s}_u${u}_w$w"; done; done; done
    for t in f16 bf16; do for f in ss rs; do for n in 64 128 256; do for g in 1 2 4; do
        echo "wgmma_${t}_n${n}_${f}_g$g"; done; done; done; done
    for n in 64 128 256; do echo "wgmma_f16_n${n}_ss_g2_noswz"; done) | sort)
check "occsweep --list" "$([ "$rc" -eq 0 ] && [ ! -s "$err" ] && [ "$(lines "$out")" -eq 251 ] &&
    [ "$(sort "$out")" = "$expected" ] ||
    echo "exit $rc, $(lines "$out") lines; diff: $(diff <(sort "$out") <(echo "$expected") | head -n 3 | tr '\n' ' ')")"

# ---- odd input never crashes: random argument vectors from a fixed seed ----

long=$(printf 'x%.0s' $(seq 5000))
# Half the draws are an option with a value from its own list (mostly valid, so the planner runs
# on odd but accepted input); the rest are raw tokens, garbage included.
declare -A values=(
    [--kernel]="copy reduce all copy,reduce reduce,copy chase copy,"
    [--unroll]="1 2 4 8 1..8 0..8 2..2 8,1,8 3 16 -1"
    [--vec]="4 8 16 4..16 16,4 0..16 2"
    [--occ]="25..100 10..100:10 30 25,50,100 0.001 1e2 1e-320 100. 1..100:0.5 99.99 6.25..6.25 7..8"
    [--block]="32 64 96 128 160 224 256 512 1024"
    [--lever]="auto pad bounds both"
    [--size]="1 1G 512M 8589934591G 4KiB"
    [--max-noise]="0.001 100 1e-300"
    [--max-time]="3600 0.001"
    [--min-samples]="1 100000"
    [--device]="0 2147483647"
    [--arch]="sm_80 sm_86 sm_90 sm_90a sm_120 sm_75"
    [--mode]="warp thread latency"
    [--footprint]="4K..1G 1..1 1G..4K"
)
keys=("${!values[@]}")
pool=(--out --force --plot --quiet --dry-run --list --help --version '' "$long"
      99999999999999999999999 -1 -0 0x10 ' 1' nan inf -- - '=' '%s%n%x' $'\xff\xfe' $'caf\xe9'
      --occ= --unroll=1.. --kernel=copy, --block=96 --dry --d -h -V -Z ..,, ',' 1,,2 sm_90)
RANDOM=42
for ((i = 0; i < 300; i++)); do
    vec=()
    for ((j = RANDOM % 5 + 1; j > 0; j--)); do
        if ((RANDOM % 2)); then
            k=${keys[RANDOM % ${#keys[@]}]}
            read -r -a vs <<<"${values[$k]}"
            vec+=("$k" "${vs[RANDOM % ${#vs[@]}]}")
        else
            vec+=("${pool[RANDOM % ${#pool[@]}]}")
        fi
    done
    # Without --arch the device is asked (exit 3 is then legitimate); --dry-run always stays, so
    # nothing is ever measured even where a GPU answers.
    if ((RANDOM % 8 == 0)); then vec=(--dry-run "${vec[@]}"); no_arch=1
    else vec=(--dry-run --arch sm_90 "${vec[@]}"); no_arch=0; fi
    run "${vec[@]}"
    why=""
    if [ "$rc" -ge 128 ]; then why="killed by signal $((rc - 128))"
    elif [ "$rc" -eq 3 ] && [ "$no_arch" -eq 0 ]; then why="exit 3 though no device was needed"
    elif [ "$rc" -ne 0 ] && [ "$rc" -ne 2 ] && [ "$rc" -ne 3 ]; then why="exit $rc"
    elif [ "$rc" -ne 0 ] && { [ -s "$out" ] || [ "$(lines "$err")" -ne 1 ]; }; then
        why="exit $rc with $(lines "$out") stdout and $(lines "$err") stderr lines"
    elif [ "$rc" -eq 0 ] && [ -s "$err" ]; then why="exit 0 with stderr: $(head -n 1 "$err")"
    fi
    check "$(cmdline "${vec[@]}" | head -c 300)" "$why"
done
check "random dry runs left files in the working directory" \
    "$(cwd_is_empty || find "$cwd" -mindepth 1 | head -n 3 | tr '\n' ' ')"

echo "$n_checks checks, $n_failed failed"
[ "$n_failed" -eq 0 ]
