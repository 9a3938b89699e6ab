#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/cli/test_cli_async.sh: the plans of the async and wgmma families (kernels/families/async.h,
# wgmma.h) without a GPU: --dry-run --arch sm_90 shows each point's stages (tile) beside its
# padding and skips the levels the shared memory or the registers cannot reach, with the reason;
# on sm_80 (--arch and a fake device) the bulk copies and wgmma plan as one skip point each with
# a one-line reason, and cp.async plans; --list names both families.
# Usage: test_cli_async.sh PATH/TO/occsweep. Checks for an arch this build has no code for are
# skipped with a note. Prints one line per failed check and "N checks, M failed".
# shellcheck disable=SC2054
set -u

. "$(dirname "$0")/../lib/cli_lib.sh"

run() { run_bin "$@"; }

# no_code: 0 when the last run refused an arch this build has no code for (then say so).
no_code() {
    if [ "$rc" -eq 2 ] && grep -q "this build has no code for it" "$err"; then
        echo "skip: $1: this build has no code for the arch"
        return 0
    fi
    return 1
}

run --list
check "--list names the async and wgmma variants" "$(grep -q '^async_bulk_s4_c16k_w5$' "$out" &&
    grep -q '^async_cp_s2_u4_w4$' "$out" && grep -q '^wgmma_bf16_n256_rs_g4$' "$out" ||
    echo "missing: $(grep -cE '^(async|wgmma)_' "$out") async/wgmma lines")"

# sm_90: the bulk stages are the kernel's own shared memory (tile = S x C), the padding on top.
args=(--dry-run --arch sm_90 --kernel async --mode bulk --vec 512 --occ 6.25..12.5)
run "${args[@]}"
if ! no_code "$(cmdline "${args[@]}")"; then
    line=$(grep -E '^async_bulk_s1_c16k_w1 +block +32 ' "$out" | head -n 1)
    check "$(cmdline "${args[@]}"): one warp a block, 16 KiB tile" "$([[ $line == *"tile 16384 B"* ]] &&
        [[ $line == *"pad "* ]] || echo "got '$line'")"
    check "$(cmdline "${args[@]}"): only C = 16 KiB (--vec 512)" "$(grep -E '^async_bulk_' "$out" |
        grep -v '_c16k_' | head -n 1)"
    check "$(cmdline "${args[@]}"): S x C beyond the SM skips" "$(grep -qE \
        '^async_bulk_s8_c16k_w1 +block +32 .* skip: its own shared memory allows only 1 blocks/SM$' \
        "$out" || echo "no skip line: $(grep -m1 '^async_bulk_s8_c16k_w1' "$out")")"
    check "$(cmdline "${args[@]}"): producer + consumer warp group, block 160" "$(grep -qE \
        '^async_bulk_s2_c16k_w5 +block +160 ' "$out" || echo "no w5 line")"
fi

# sm_90 wgmma: one warp group a block; at N = 256 the accumulators' registers limit the level.
args=(--dry-run --arch sm_90 --kernel wgmma --unroll 2 --occ 25)
run "${args[@]}"
if ! no_code "$(cmdline "${args[@]}")"; then
    check "$(cmdline "${args[@]}"): N = 256 is register-limited" "$(grep -qE \
        '^wgmma_f16_n256_ss_g2 +block +128 .* skip: registers allow only [0-9] blocks/SM$' "$out" ||
        echo "got '$(grep -m1 '^wgmma_f16_n256_ss_g2' "$out")'")"
    check "$(cmdline "${args[@]}"): N = 64 reaches 25%" "$(grep -qE \
        '^wgmma_f16_n64_ss_g2 +block +128 +target +25\.00% +achieved +25\.00% +4 blocks/SM' "$out" ||
        echo "got '$(grep -m1 '^wgmma_f16_n64_ss_g2 ' "$out")'")"
fi

# sm_80: --kernel all (each kernel's default mode: bulk, f16) plans the bulk copies and wgmma
# as one skip point each, with the reason; --mode cp plans cp.async.
args=(--dry-run --arch sm_80 --kernel all --occ 25)
run "${args[@]}"
if ! no_code "$(cmdline "${args[@]}")"; then
    check "$(cmdline "${args[@]}"): bulk skipped in one line" "$([ "$(grep -c '^async_bulk_' "$out")" -eq 1 ] &&
        grep -q 'skip: mode bulk (every variant): cp.async.bulk needs sm_90 or newer; the arch is sm_80$' "$out" ||
        echo "$(grep -c '^async_bulk_' "$out") bulk lines: $(grep -m1 '^async_bulk_' "$out")")"
    check "$(cmdline "${args[@]}"): wgmma skipped in one line" "$([ "$(grep -c '^wgmma_' "$out")" -eq 1 ] &&
        grep -q 'skip: mode f16 (every variant): wgmma.mma_async runs on sm_90 only; the arch is sm_80$' "$out" ||
        echo "$(grep -c '^wgmma_' "$out") wgmma lines: $(grep -m1 '^wgmma_' "$out")")"
    args=(--dry-run --arch sm_80 --kernel async --mode cp --occ 25)
    run "${args[@]}"
    check "$(cmdline "${args[@]}"): cp.async plans" "$(grep -qE \
        '^async_cp_s2_u4_w4 +block +128 +target +25\.00% +achieved' "$out" || echo "no cp point")"

    # The fake sm_80 device writes the same plans as rows: the skips carry their reason.
    OCC_FAKE_DEVICES=sm_80 run --dry-run --device 0 --kernel async,wgmma --occ 25 \
        --out "$cwd/fake.csv"
    check "fake sm_80: the run's rows" "$([ "$rc" -eq 0 ] && [ -s "$cwd/fake.csv" ] ||
        echo "exit $rc: $(head -n 1 "$err")")"
    check "fake sm_80: bulk and wgmma rows skip with the reason" "$([ "$(grep -cE \
        ',skip:mode (bulk|f16) \(every variant\): (cp\.async\.bulk needs sm_90 or newer|wgmma\.mma_async runs on sm_90 only); the arch is sm_80' \
        "$cwd/fake.csv")" -eq 2 ] && [ "$(grep -cE ',(async|wgmma),' "$cwd/fake.csv")" -eq 2 ] ||
        echo "$(grep -cE 'every variant' "$cwd/fake.csv") such rows of $(grep -cE ',(async|wgmma),' "$cwd/fake.csv")")"
    OCC_FAKE_DEVICES=sm_80 run --dry-run --device 0 --kernel async --mode cp --occ 25 \
        --out "$cwd/fake-cp.csv"
    check "fake sm_80: cp.async rows" "$([ "$rc" -eq 0 ] &&
        grep -q ',async_cp_s2_u4_w4,.*,ok$' "$cwd/fake-cp.csv" ||
        echo "exit $rc: $(grep -m1 async_cp_s2_u4_w4 "$cwd/fake-cp.csv")")"
    rm -f "$cwd"/fake*.csv
fi

echo "$n_checks checks, $n_failed failed"
[ "$n_failed" -eq 0 ]
