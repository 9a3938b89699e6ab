#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/cli/test_cli_calc.sh: the occupancy calculator (occsweep --calc) as printed: the worked
# example of docs/domain.md, worked examples (sm_80 at block 256), the carveout, both inverses fed
# back into the calculator, and every bad input.
# Usage: test_cli_calc.sh PATH/TO/occsweep
# Every case but the last gives --arch, so no GPU is needed; without --arch the device's limits
# are used, and without a GPU that is exit 3 naming --arch.
# Prints one line per failed check and "N checks, M failed"; exits 0 (all passed) or 1.
set -u

. "$(dirname "$0")/../lib/cli_lib.sh"

run() { run_bin --calc "$@"; }

# calc_problem ARGS... : runs --calc ARGS; empty when it exited 0 with a table and no stderr.
calc_problem() {
    run "$@"
    if [ "$rc" -ne 0 ]; then echo "exit $rc: $(head -n 1 "$err")"
    elif [ -s "$err" ]; then echo "stderr: $(head -n 1 "$err")"
    elif ! grep -q '^resident: ' "$out"; then echo "no resident line: $(head -n 1 "$out")"
    fi
}

# shows WANT... -- ARGS...: --calc ARGS succeeds and each WANT is an extended regex matching a
# line of its output.
shows() {
    local wants=() why
    while [ "$1" != "--" ]; do wants+=("$1"); shift; done
    shift
    why=$(calc_problem "$@")
    for w in "${wants[@]}"; do
        [ -z "$why" ] && ! grep -qE -- "$w" "$out" && why="no line matches '$w'"
    done
    check "$(cmdline --calc "$@")" "$why"
}

# refused WANT ARGS...: --calc ARGS is exit 2, nothing on stdout, one stderr line holding WANT.
refused() {
    local want=$1
    shift
    run "$@"
    check "$(cmdline --calc "$@")" "$(refusal_problem "$want")"
}

# A limiter row: name, then blocks/SM as the last number (and the limiter mark when given).
rowre() { echo "^  $1 .* $2${3:+  <- $3}\$"; }

# ---- docs/domain.md's example: sm_90, 256 threads, 40 registers, 16 KiB ----
shows "^occupancy on sm_90: block 256 threads, 40 registers/thread, 16384 B shared memory/block$" \
    "^carveout: 228 KiB shared memory/SM \(max, as the occupancy API assumes; L1 keeps 28 KiB\)$" \
    "$(rowre threads 8)" "$(rowre registers 6 limiter)" "$(rowre 'shared memory' 13)" \
    "$(rowre 'block limit' 32)" \
    "8 warps x 1280 \(40 x 32, unit 256\)" "17408 B \(16384 \+ 1024 reserved, unit 128\)" \
    "^resident: 6 blocks/SM x 8 warps = 48 of 64 warps/SM: occupancy 75.0% \(limiter: registers\)$" \
    "^smallest carveout holding these 6 blocks/SM: 132 KiB \(--carveout min; L1 keeps 124 KiB\)$" \
    -- --arch sm_90 --block 256 --regs 40 --smem 16K
# The same in the smallest carveout that holds them: shared memory now allows 7.
shows "^carveout: 132 KiB shared memory/SM \(min: the smallest step holding the 6 blocks/SM of the largest, 228 KiB; L1 keeps 124 KiB\)$" \
    "$(rowre 'shared memory' 7)" "occupancy 75.0%" \
    -- --arch sm_90 --block 256 --regs 40 --smem 16K --carveout min

# ---- worked examples: sm_80, block 256 ----
# 32 regs, 16 KB: min(8, 8, 9, 32) = 8 blocks = 64 warps = 100% (the hand count 164 / 16 = 10 for
# shared memory leaves out the 1 KB reserve per block: 164 KB / 17 KB = 9).
shows "$(rowre threads 8 limiter)" "$(rowre registers 8 ties)" "$(rowre 'shared memory' 9)" \
    "$(rowre 'block limit' 32)" "^resident: 8 blocks/SM x 8 warps = 64 of 64 warps/SM: occupancy 100.0%" \
    -- --arch sm_80 --block 256 --regs 32 --smem 16K
shows "$(rowre registers 6 limiter)" "= 48 of 64 warps/SM: occupancy 75.0%" \
    -- --arch sm_80 --block 256 --regs 40 --smem 16K
shows "$(rowre registers 4 limiter)" "occupancy 50.0% \(limiter: registers\)" \
    -- --arch sm_80 --block 256 --regs 64
# 48 KB a block on a ~96 KB SM (sm_86: 100 KB): 2 blocks, shared memory the limiter.
shows "$(rowre 'shared memory' 2 limiter)" "$(rowre threads 6)" "^resident: 2 blocks/SM" \
    -- --arch sm_86 --block 256 --regs 32 --smem 48K

# ---- the register budget for a target occupancy, fed back ----
for t in "100 32 100.0" "75 40 75.0" "50 64 50.0" "70 40 75.0"; do
    read -r pct regs got <<<"$t"
    shows "^most registers/thread for >= ${pct}% occupancy: $regs \([0-9]+ blocks/SM, $got%\)$" \
        -- --arch sm_90 --block 256 --regs 32 --target-occ "$pct"
    shows "occupancy $got%" -- --arch sm_90 --block 256 --regs "$regs"
    run --arch sm_90 --block 256 --regs $((regs + 1))
    check "--regs $((regs + 1)) is below $got%" \
        "$(grep -q "occupancy $got%" "$out" && echo "still $got%: $(grep '^resident' "$out")")"
done
shows "^most registers/thread for >= 100% occupancy: none \(with the fewest registers 32 blocks/SM, 50.0%; limiter: block limit\)$" \
    -- --arch sm_90 --block 32 --regs 32 --target-occ 100

# ---- the padding for exactly K blocks, fed back as the block's shared memory ----
for k in 1 2 4 5; do
    run --arch sm_90 --block 256 --regs 40 --smem 16K --target-blocks "$k"
    pad=$(sed -nE "s/^dynamic shared memory for exactly $k blocks\/SM: ([0-9]+) B .*/\1/p" "$out")
    if [ -z "$pad" ]; then
        check "--target-blocks $k" "no padding line: $(tail -n 1 "$out")"
        continue
    fi
    shows "^resident: $k blocks/SM" -- --arch sm_90 --block 256 --regs 40 --smem $((16384 + pad))
    # One allocation unit more: a block fewer, or (for 1) more than a block may have.
    if [ "$k" -gt 1 ]; then
        shows "^resident: $((k - 1)) blocks/SM" \
            -- --arch sm_90 --block 256 --regs 40 --smem $((16384 + pad + 128))
    else
        refused "exceeds per-block shared memory limit" \
            --arch sm_90 --block 256 --regs 40 --smem $((16384 + pad + 128))
    fi
done
shows "^dynamic shared memory for exactly 6 blocks/SM: 0 B " \
    -- --arch sm_90 --block 256 --regs 40 --smem 16K --target-blocks 6
shows "^dynamic shared memory for exactly 7 blocks/SM: none \(registers allow only 6 blocks/SM\)$" \
    -- --arch sm_90 --block 256 --regs 40 --smem 16K --target-blocks 7
shows "none \(target exceeds the SM's block limit\)$" \
    -- --arch sm_75 --block 64 --regs 32 --target-blocks 17

# ---- bad input: one line, exit 2 ----
refused "--calc needs --regs N" --arch sm_90 --block 256
refused "--arch 'sm_91' is not known (accepted: sm_75, sm_80" --arch sm_91 --regs 32
refused "--arch: 'sm_9' is not an architecture name" --arch sm_9 --regs 32
refused "--block: '48' is not a multiple of 32" --arch sm_90 --block 48 --regs 32
refused "--block: '2048' is out of range" --arch sm_90 --block 2048 --regs 32
refused "--calc takes one --block size (2 given)" --arch sm_90 --block 128,256 --regs 32
refused "--regs: '256' is out of range (accepted: 1..255)" --arch sm_90 --regs 256
refused "--regs: '0' is out of range" --arch sm_90 --regs 0
refused "--smem: '16Q' has an unknown unit" --arch sm_90 --regs 32 --smem 16Q
refused "--calc: sm_90 cannot launch this block: exceeds per-block shared memory limit" \
    --arch sm_90 --regs 32 --smem 228K
refused "--calc: sm_75 cannot launch this block: exceeds per-block shared memory limit" \
    --arch sm_75 --regs 32 --smem 1024G
refused "--target-occ: '0' is out of range" --arch sm_90 --regs 32 --target-occ 0
refused "--target-blocks: '33' is out of range (accepted: 1..32)" --arch sm_90 --regs 32 \
    --target-blocks 33
# The calculator's options without --calc.
for o in "--regs 32" "--smem 1K" "--target-occ 50" "--target-blocks 2"; do
    read -r -a a <<<"$o"
    run_bin --dry-run --arch sm_90 "${a[@]}"
    check "$(cmdline --dry-run --arch sm_90 "${a[@]}")" \
        "$(refusal_problem "${a[0]} applies only with --calc")"
done

# ---- no --arch: the device's limits, or exit 3 naming --arch without a GPU ----
run --block 256 --regs 40
if [ "$rc" -eq 0 ]; then
    check "--calc on the device" "$(calc_problem --block 256 --regs 40)"
else
    why=""
    [ "$rc" -ne 3 ] && why="exit $rc, expected 3 (no GPU) or 0"
    [ -z "$why" ] && [ -s "$out" ] && why="wrote to stdout"
    [ -z "$why" ] && [ "$(lines "$err")" -ne 1 ] && why="$(lines "$err") stderr lines"
    [ -z "$why" ] && ! grep -q '^occsweep: --calc: give --arch sm_NN or run on a GPU: ' "$err" &&
        why="message lacks --arch: $(head -n 1 "$err")"
    check "--calc without --arch or GPU" "$why"
fi

echo "$n_checks checks, $n_failed failed"
[ "$n_failed" -eq 0 ]
