#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/cli/test_cli_options.sh: occsweep refuses options that do not apply to the selected kernels.
# Usage: test_cli_options.sh PATH/TO/occsweep
# Every refusal is exit 2 with one stderr line naming the option and the selection; every plan
# uses --dry-run --arch sm_90, so no GPU is needed. The accepted combinations next to them show
# that the rules refuse no more than they should.
# Prints one line per failed check and "N checks, M failed"; exits 0 (all passed) or 1.
# Commas inside arguments (--kernel copy,reduce) are meant literally:
# shellcheck disable=SC2054
set -u

. "$(dirname "$0")/../lib/cli_lib.sh"

run() { run_bin --dry-run --arch sm_90 "$@"; }

# refused WANT ARGS...: exit 2, nothing on stdout, one stderr line holding WANT, no file made.
refused() {
    local want=$1
    shift
    run "$@"
    check "$(cmdline --dry-run --arch sm_90 "$@")" "$(refusal_problem "$want")"
}

# planned ARGS...: exit 0 with a plan ("N points") and nothing on stderr.
planned() {
    local why=""
    run "$@"
    if [ "$rc" -ne 0 ]; then why="exit $rc: $(head -n 1 "$err")"
    elif [ -s "$err" ]; then why="stderr: $(head -n 1 "$err")"
    elif ! grep -qE '^[0-9]+ points$' "$out"; then why="no plan: $(tail -n 1 "$out")"
    fi
    check "$(cmdline --dry-run --arch sm_90 "$@")" "$why"
}

warp_takes="(it takes: unroll, occ, block, lever, carveout, size)"
ladder_takes="(it takes: footprint, stride, cold, chain, index-bytes)"
stream_takes="(they take: unroll, vec, occ, block, lever, carveout, schedule, size, waves)"
# What the default selection (every kernel in its default mode) takes together.
default_takes="(they take: unroll, vec, fmas, occ, block, lever, carveout, schedule, size, waves)"

# ---- options of the stream kernels, given for the pointer chase ----
refused "--vec does not apply to chase warp $warp_takes" --kernel chase --vec 8
refused "--vec does not apply to chase warp $warp_takes" --vec 8 --kernel chase
refused "--vec does not apply to chase thread $warp_takes" --kernel chase --mode thread --vec 4
refused "--waves does not apply to chase warp $warp_takes" --kernel chase --waves 4
refused "--waves does not apply to chase thread" --kernel chase --mode thread --waves 1

# ---- sweep options, given for the latency ladder (before or after --mode) ----
for opt in "--occ 50" "--lever pad" "--block 64" "--unroll 2" "--vec 4" "--size 1G" "--waves 2"; do
    read -r -a o <<<"$opt"
    want="${o[0]} does not apply to chase latency $ladder_takes"
    refused "$want" --kernel chase --mode latency "${o[@]}"
    refused "$want" "${o[@]}" --mode latency --kernel chase
done

# ---- ladder options without --mode latency ----
refused "--footprint does not apply to copy, reduce, chase warp, fma, mixed, smem chase, mma f16, async bulk, wgmma f16 $default_takes" --footprint 4K..1G
refused "--stride does not apply to chase warp $warp_takes" --kernel chase --stride 256
refused "--cold does not apply to chase thread $warp_takes" --kernel chase --mode thread --cold
refused "--index-bytes does not apply to copy (it takes: ${stream_takes#(they take: }" \
    --kernel copy --index-bytes 8
refused "--footprint does not apply to copy, reduce" --kernel copy,reduce --footprint 4K..1M
refused "--chain does not apply to chase warp $warp_takes" --kernel chase --chain index

# ---- --index-bytes only with --chain index (the default chain stores addresses) ----
index_rule="--index-bytes applies only with --chain index (this run has --chain address)"
refused "$index_rule" --kernel chase --mode latency --index-bytes 8
refused "$index_rule" --index-bytes 4 --kernel chase --mode latency
refused "$index_rule" --kernel chase --mode latency --chain address --index-bytes 8
refused "$index_rule" --kernel chase --mode latency --chain index --index-bytes 8 --chain address
refused "--chain: 'pointer' is not a chain (accepted: address, index)" \
    --kernel chase --mode latency --chain pointer

# ---- --mode must be a mode of every selected kernel ----
refused "--mode: 'latency' does not apply to copy (its modes: stream)" --kernel copy --mode latency
refused "--mode: 'latency' does not apply to copy (its modes: stream)" --mode latency
refused "--mode: 'warp' does not apply to reduce (its modes: stream)" \
    --kernel reduce,chase --mode warp
refused "--mode: 'stream' does not apply to chase (its modes: warp, thread, latency, loaded)" \
    --kernel copy,chase --mode stream
refused "--mode: 'fast' is not a mode (accepted: copy stream, reduce stream, chase warp|thread|latency|loaded, fma chain, mixed stream, smem chase|stream|rw, mma f16|bf16|tf32|f64, async bulk|cp, wgmma f16|bf16)" \
    --mode fast

# ---- the arithmetic families' axes: fma's type is --vec, mixed's A is --fmas ----
refused "--fmas does not apply to fma (it takes: unroll, vec, occ, block, lever, carveout)" \
    --kernel fma --fmas 4
refused "--fmas: '3' is not compiled (accepted: 0, 1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 256)" \
    --kernel mixed --fmas 3
refused "--vec: '16' is not compiled (accepted: 4, 8)" --kernel fma --vec 16
refused "--unroll does not apply to mixed" --kernel mixed --unroll 2
refused "--lever bounds: fma has no register-capped variants (use auto, pad or both)" \
    --kernel fma --lever bounds
planned --kernel fma --vec 8 --unroll 1,8 --occ 50
planned --kernel mixed --fmas 0,32..64 --occ 25,100

# ---- --lever bounds needs register-capped variants ----
refused "--lever bounds: chase warp has no register-capped variants (use auto, pad or both)" \
    --kernel chase --lever bounds
refused "--lever bounds: chase warp has no register-capped variants (use auto, pad or both)" \
    --kernel all --lever bounds
refused "--lever bounds: chase thread has no register-capped variants" \
    --lever bounds --kernel chase --mode thread

# ---- compiled values, from the catalog ----
refused "--unroll: '16' is not compiled (accepted: 1, 2, 4, 8)" --kernel chase --unroll 16
refused "--vec: '32' is not compiled (accepted: 4, 8, 16)" --kernel copy --vec 4,32
refused "--block: '1056' is out of range (accepted: 32..1024, a multiple of 32; a list like 128,256 or a range of powers of two like 128..1024)" --block 1056

# ---- what the rules still accept ----
planned --kernel chase --mode latency --footprint 4K..1M --stride 256 --cold --chain index --index-bytes 8
planned --index-bytes 8 --footprint 4K..1M --kernel chase --mode latency --chain index
planned --kernel chase --mode latency --chain address --footprint 4K..1M
planned --kernel chase --mode latency --chain index --footprint 4K..1M
planned --kernel copy --vec 16 --waves 2 --occ 50
planned --kernel chase --unroll 8 --lever pad --size 64M --occ 50
planned --kernel chase,copy --vec 8 --waves 2 --occ 50
planned --kernel copy,reduce --lever bounds --occ 100
planned --kernel all --lever both --occ 100
planned --kernel chase --mode thread --unroll 1,8 --occ 25,100

# ---- a decimal comma: N,D (1-3 digits, one digit) is refused with the hint; other lists stay ----
refused "--occ: '12,5' looks like a decimal comma (for 12.5% write 12.5)" --kernel copy --occ 12,5
refused "--occ: '50,0' looks like a decimal comma (for 50.0% write 50.0)" --kernel copy --occ 50,0
planned --kernel copy --occ 5,12
planned --kernel copy --occ 12,5.0
# Under a decimal-comma locale, 12.5 is still 12.5 (the program reads numbers in the C locale).
LC_ALL=de_DE.UTF-8 planned --kernel copy --occ 12.5,50

# ---- --help says which kernels take each scoped option ----
run_bin --help
flat=$(tr -s ' \n' ' ' <"$out")
missing=""
wants=("--vec LIST bytes per load (arithmetic kernels: per element, 4 fp32, 8 fp64) (copy, reduce, fma, smem stream, smem rw, async bulk)"
       "--fmas LIST dependent FMAs per loaded float (2A/4 FLOP per byte) (mixed)"
       "--waves N" "(copy, reduce, mixed) accepted: 1..64; default: 1"
       "--footprint LO..HI footprints to sweep, smallest to largest (whole lines of --stride, at least 2, at most 1 TiB) (chase latency)"
       "--cold flush L2" "instead of a warm chain (chase latency)"
       "--chain C what each line stores" "(chase latency) accepted: address, index; default: address"
       "--index-bytes N width of the stored next-line indices, only with --chain index (chase latency)"
       "--block LIST threads per block; a list is a sweep axis, each block size with its own levels (copy, reduce, chase warp, chase thread, fma, mixed, smem, mma)"
       "accepted: 32..1024, a multiple of 32; a list like 128,256 or a range of powers of two like 128..1024; default: 128")
for want in "${wants[@]}"; do
    [[ $flat == *"$want"* ]] || missing="$missing '$want'"
done
check "occsweep --help: scopes" "$([ "$rc" -eq 0 ] && [ -z "$missing" ] || echo "exit $rc, lacks:$missing")"

echo "$n_checks checks, $n_failed failed"
[ "$n_failed" -eq 0 ]
