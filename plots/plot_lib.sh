# SPDX-License-Identifier: Apache-2.0
# plots/plot_lib.sh: the drawing steps of plots/plot, which sources it after reading its options
# (so not a command of its own). Each CSV is read by plots/csvsel.py; each figure is one gnuplot
# script, plots/<figure>.gp, run as gnuplot -c SCRIPT DATA OUT TITLE ARGS... into the staging
# directory; the figures to move into place at the end are listed in staged and targets.
# It uses what plots/plot sets: HERE (the scripts' directory), GNUPLOT, PYTHON, gnuplot_ctype
# (the UTF-8 LC_CTYPE for gnuplot), stage (the staging directory), die, and the options outdir,
# latency_ns, unroll, vec, and for --compare files, xkind, ykind, kernel, lever, out_prefix.

# The figures drawn in $stage (without .png/.svg) and the paths they are moved to at the end. The
# staged names are plain, so gnuplot never sees the CSV's name.
staged=()
targets=()
n_fig=0
tables=0 # 1: the staged compare figure has its table (.md, .csv) too

# dir_of PATH: the directory part of PATH, as dirname has it, for any PATH (also "-x").
dir_of() {
    case "$1" in
    */*) local d=${1%/*}; printf '%s' "${d:-/}" ;;
    *) printf . ;;
    esac
}

csv_readable() {
    [ -f "$1" ] && [ -r "$1" ] || die "$1: cannot read the file"
    [ -s "$1" ] || die "$1: empty file"
}

# Reads CSV $1 once: its metadata and figure list go to the file named by $2, the data of its
# figure k to $2-k.tsv, and (unless --latency-ns) its load levels to $2-levels-T.dat for each
# traffic T: read (read-only background), copy (read + write) and gather (random lines), empty
# where the run has no such level (csvsel.py check --levels).
check_csv() {
    local levels=()
    csv_readable "$1"
    [ -n "$latency_ns" ] || levels=(--levels "$2-levels")
    "$PYTHON" "$HERE/csvsel.py" check --data "$2-" "${levels[@]}" ${unroll:+--unroll "$unroll"} \
        ${vec:+--vec "$vec"} -- "$1" >"$2" || exit 2
}

meta_get() {
    awk -F '\t' -v key="$2" '$1 == "meta" && $2 == key { v = $3 } END { print v }' <"$1"
}

# title_for INFO WHAT [CONTEXT]: two lines (three where the second is long), what the figure
# draws, then the GPU, CONTEXT (block size, buffer) and the run's date; fixture data says so, so that it is never taken for a run.
title_for() {
    local info=$1 what=$2 ctx=${3:-} gpu date line head first
    [ "$ctx" != - ] || ctx=""
    gpu=$(meta_get "$info" gpu_name)
    date=$(meta_get "$info" date_utc)
    line=${gpu:-unknown GPU}
    [ -z "$ctx" ] || line="$line · $ctx"
    [ -z "$date" ] || line="$line · ${date%%T*}"
    case "$(meta_get "$info" synthetic)" in 1*) line="$line [synthetic test data]" ;; esac
    # A second line wider than the figure (about 95 characters of the title's font fit; counted
    # in bytes here, the locale being C) is broken at its last ' · ' within its first 100 bytes.
    head=${line:0:100}
    first=${head% · *}
    if [ ${#line} -gt 100 ] && [ "$first" != "$head" ]; then
        line="$first"$'\n'"${line#"$first · "}"
    fi
    printf '%s\n%s' "$what" "$line"
}

# run_gnuplot SCRIPT CSV FIGURE DATA OUT ARGS...: OUT.png and OUT.svg, or exit 1.
run_gnuplot() {
    local script=$1 csv=$2 figure=$3
    shift 3
    if ! env -u LC_ALL ${gnuplot_ctype:+LC_CTYPE=$gnuplot_ctype} \
        "$GNUPLOT" -c "$HERE/$script" "$@" \
        2>"$stage/gnuplot.err" ||
        ! [ -s "$2.png" ] || ! [ -s "$2.svg" ]; then
        printf 'plots: %s: %s: gnuplot failed: %s\n' "$csv" "$figure" \
            "$(head -n 3 "$stage/gnuplot.err" | tr '\n' ' ')" >&2
        exit 1
    fi
    [ ! -s "$stage/gnuplot.err" ] || sed "s|^|plots: $figure: |" "$stage/gnuplot.err" >&2
}

# plot_csv CSV N: draws the figures of CSV, which check_csv has read into $stage/info<N>: each
# "fig" line's gnuplot script with the figure's data and the metadata it marks, then the levers
# figure after a bounds occupancy figure, the ncu figure of a --ncu run and the load levels'
# figure (unless --latency-ns).
plot_csv() {
    local csv=$1 n=$2 info="$stage/info$n" dir="$stage/out$n" base dest lat k=0
    local type kernel mode lever where suffix factor desc ctx data out by title
    mkdir -p "$dir"
    base=${csv##*/}
    base=${base%.csv}
    dest=${outdir:-$(dir_of "$csv")}
    local loaded="" loaded_rw="" loaded_gather="" levels="$info-levels"
    if [ -z "$latency_ns" ]; then
        [ ! -s "$levels-read.dat" ] || loaded="$levels-read.dat"
        [ ! -s "$levels-copy.dat" ] || loaded_rw="$levels-copy.dat"
        [ ! -s "$levels-gather.dat" ] || loaded_gather="$levels-gather.dat"
    fi
    while IFS=$'\t' read -r type kernel mode lever where suffix factor desc ctx; do
        n_fig=$((n_fig + 1))
        k=$((k + 1))
        out="$dir/fig$n_fig"
        data="$info-$k.tsv"
        title=$(title_for "$info" "$desc" "$ctx")
        case "$type" in
        occupancy)
            run_gnuplot occupancy.gp "$csv" "$suffix" "$data" "$out" \
                "$title" "$(meta_get "$info" roof_memcpy_gbps)" \
                "$(meta_get "$info" roof_dram_peak_gbps)"
            ;;
        block)
            run_gnuplot block.gp "$csv" "$suffix" "$data" "$out" \
                "$title" "$(meta_get "$info" roof_memcpy_gbps)" \
                "$(meta_get "$info" roof_dram_peak_gbps)"
            ;;
        inflight)
            # The model line uses --latency-ns, else the DRAM latency the run measured, and the
            # rows' own traffic factor ("-" where they state none: no line).
            lat=${latency_ns:-$(meta_get "$info" dram_latency_ns)}
            [ "$factor" != - ] || factor=""
            # The predictions the run's model made for the rows (gbps_predicted), named after
            # the model: none with --latency-ns, which replaces the run's latency.
            local predicted=""
            if [ -z "$latency_ns" ]; then
                predicted="predicted: unloaded latency"
                [ -z "$loaded$loaded_rw$loaded_gather" ] || predicted="predicted: loaded latency L(X)"
            fi
            # Read-only rows (factor <= 1) are predicted up to the run's cub::DeviceReduce roof,
            # as their CSV prediction is (harness/model/model.h: roof_read_gbps): "memcpy:model".
            local roof cub
            roof=$(meta_get "$info" roof_memcpy_gbps)
            cub=$(meta_get "$info" roof_cub_reduce_gbps)
            if [ -n "$roof" ] && [ -n "$cub" ] && [ -n "$factor" ] &&
                awk -v f="$factor" -v c="$cub" 'BEGIN { exit !(f <= 1 && c > 0) }'; then
                roof="$roof:$cub"
            fi
            run_gnuplot inflight.gp "$csv" "$suffix" "$data" "$out" \
                "$title" "$roof" \
                "$(meta_get "$info" roof_dram_peak_gbps)" "$(meta_get "$info" sm_count)" \
                "$lat" "$factor" "$predicted"
            ;;
        ladder)
            # L1 is what the carveout left (l1_kib, "224 (the rest of ...)"), else the combined
            # L1/shared SRAM (l1_bytes), marked as such.
            local l1 l1_kib
            l1_kib=$(meta_get "$info" l1_kib | awk '$1 ~ /^[0-9]+$/ && $1 > 0 { print $1 * 1024 }')
            l1=${l1_kib:-$(meta_get "$info" l1_bytes)}
            [ -z "$l1" ] || [ -n "$l1_kib" ] || l1="$l1:sram"
            run_gnuplot ladder.gp "$csv" "$suffix" "$data" "$out" \
                "$title" "$l1" \
                "$(meta_get "$info" l2_bytes)" "$(meta_get "$info" sm_clock_mhz)"
            ;;
        flops | flops-fmas)
            by=unroll
            [ "$type" = flops ] || by=fma_per_element
            run_gnuplot flops.gp "$csv" "$suffix" "$data" "$out" \
                "$title" "$by"
            ;;
        intensity)
            run_gnuplot intensity.gp "$csv" "$suffix" "$data" "$out" \
                "$title" "$(meta_get "$info" roof_memcpy_gbps)"
            ;;
        stages)
            # The register path's best: of this CSV's read-only stream rows, else of another
            # CSV of the same GPU given beside it (find_ref).
            local ref
            ref=$(find_ref read "$n")
            run_gnuplot stages.gp "$csv" "$suffix" "$data" "$out" \
                "$title" "$(meta_get "$info" roof_cub_reduce_gbps)" "${ref%%$'\t'*}" \
                "${ref#*$'\t'}"
            ;;
        warpgroups)
            # The mma.sync plateau: the best of an arithmetic group of the same headline rate.
            local rate ref
            rate=$(awk -F '\t' -v k="$kernel" -v m="$mode" \
                '$1 == "ref" && $2 == "arith" && $3 == k && $4 == m { print $6 }' <"$info")
            ref=$(find_ref arith "$n" "$rate")
            run_gnuplot warpgroups.gp "$csv" "$suffix" "$data" "$out" \
                "$title" "${ref%%$'\t'*}" "${ref#*$'\t'}"
            ;;
        chase | hoptime)
            run_gnuplot "$type.gp" "$csv" "$suffix" "$data" "$out" \
                "$title" "$mode"
            ;;
        esac
        staged+=("$out")
        targets+=("$dest/$base-$suffix")
        [ "$type" != occupancy ] || [ "$lever" != bounds ] ||
            plot_levers "$csv" "$info" "$data" "$kernel" "$mode" "$suffix" "$dir" "$dest/$base"
    done < <(awk -F '\t' '$1 == "fig" { print substr($0, 5) }' <"$info")
    [ -z "$(meta_get "$info" ncu_version)" ] || plot_ncu "$csv" "$info" "$dir" "$dest/$base-ncu"
    if [ -n "$loaded" ]; then
        n_fig=$((n_fig + 1))
        run_gnuplot loaded.gp "$csv" loaded-latency "$loaded" "$dir/fig$n_fig" \
            "$(title_for "$info" "load levels: latency of a dependent load against the bandwidth delivered")" \
            "$(meta_get "$info" dram_latency_ns)" "$(meta_get "$info" roof_memcpy_gbps)" \
            "$loaded_rw" "$loaded_gather"
        staged+=("$dir/fig$n_fig")
        targets+=("$dest/$base-loaded-latency")
    fi
}

# refs_in KIND INFO RATE NAME: "BEST<tab>WHO" of the best "ref KIND" line of INFO (csvsel.py
# check: refs()), or nothing: of kind read any; of kind arith one not panelled whose RATE (peak per
# MHz) is within 0.5% of the given one. WHO is "KERNEL (MODE)", plus " of NAME" when NAME is given.
refs_in() {
    awk -F '\t' -v kind="$1" -v rate="$3" -v name="$4" '
        $1 == "ref" && $2 == kind && (kind == "read" ||
            ($7 == 0 && rate > 0 && ($6 / rate - 1) ^ 2 < 2.5e-5)) &&
            (best == "" || $5 + 0 > best + 0) { best = $5; who = $3 " (" $4 ")" }
        END { if (best != "") print best "\t" who (name != "" ? " of " name : "") }' <"$2"
}

# find_ref KIND N [RATE]: "BEST<tab>WHO" of the reference line of a figure of CSV N (refs_in):
# the best of CSV N's own rows, else the best of the other CSVs of this call whose gpu_name is
# CSV N's; nothing where none has such rows.
find_ref() {
    local kind=$1 n=$2 rate=${3:-} gpu i ref best=""
    ref=$(refs_in "$kind" "$stage/info$n" "$rate" "")
    if [ -n "$ref" ]; then
        printf '%s\n' "$ref"
        return
    fi
    gpu=$(meta_get "$stage/info$n" gpu_name)
    [ -n "$gpu" ] || return 0
    for i in "${!files[@]}"; do
        [ $((i + 1)) != "$n" ] || continue
        [ "$(meta_get "$stage/info$((i + 1))" gpu_name)" = "$gpu" ] || continue
        ref=$(refs_in "$kind" "$stage/info$((i + 1))" "$rate" "${files[i]##*/}")
        [ -n "$ref" ] || continue
        if [ -z "$best" ] || awk -v a="${ref%%$'\t'*}" -v b="${best%%$'\t'*}" \
            'BEGIN { exit !(a + 0 > b + 0) }'; then
            best=$ref
        fi
    done
    [ -z "$best" ] || printf '%s\n' "$best"
}

# plot_levers CSV INFO BOUNDS_DATA KERNEL MODE SUFFIX DIR TARGET_BASE: the levers figure
# (plots/levers.gp) of the (U, V) with the most bytes per thread among the curves of the bounds
# occupancy figure's data BOUNDS_DATA (so --unroll/--vec, which filtered it, pick it), from the
# CSV's ok rows of KERNEL and MODE under every lever; named after SUFFIX
# (occupancy-K[-M]-bounds).
plot_levers() {
    local uv u v data="$stage/levers.tsv" out name=${6#occupancy-}
    uv=$(awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $1 != "set_idx" && $c["unroll"] * $c["vec_bytes"] > best {
            best = $c["unroll"] * $c["vec_bytes"]; uv = $c["unroll"] " " $c["vec_bytes"] }
        END { print uv }' <"$3")
    [ -n "$uv" ] || return 0
    read -r u v <<<"$uv"
    PLOT_WHERE="kernel=$4"$'\037'"mode=$5"$'\037'"unroll=$u"$'\037'"vec_bytes=$v" PLOT_BY=lever \
        PLOT_X=occ_achieved_pct PLOT_Y=gbps_median \
        PLOT_KEEP=reg_cap_per_thread,local_bytes_per_thread \
        "$PYTHON" "$HERE/csvsel.py" select "$1" >"$data" || exit 2
    n_fig=$((n_fig + 1))
    out="$7/fig$n_fig"
    name="levers-${name%-bounds}-u$u-v$v"
    run_gnuplot levers.gp "$1" "$name" "$data" "$out" \
        "$(title_for "$2" "$4 ($5) u$u v$v: bandwidth against occupancy through each lever")" \
        "$(meta_get "$2" roof_memcpy_gbps)"
    staged+=("$out")
    targets+=("$8-$name")
}

# plot_ncu CSV INFO DIR TARGET: a --ncu run's stall reasons and ncu's achieved occupancy
# (plots/ncu.gp), for the variant --unroll/--vec pick (else the first by name).
plot_ncu() {
    local where="" data="$stage/ncu.tsv" out
    [ -z "$unroll" ] || where="unroll=$unroll"
    [ -z "$vec" ] || where="${where:+$where$'\037'}vec_bytes=$vec"
    PLOT_WHERE="$where" PLOT_BY=variant PLOT_X=occ_achieved_pct PLOT_Y=ncu_stall_long_scoreboard \
        PLOT_KEEP=ncu_stall_not_selected,ncu_stall_wait,ncu_stall_math_throttle,ncu_occ_achieved_pct,occ_measured_pct \
        "$PYTHON" "$HERE/csvsel.py" select "$1" >"$data" || exit 2
    n_fig=$((n_fig + 1))
    out="$3/fig$n_fig"
    run_gnuplot ncu.gp "$1" ncu "$data" "$out" \
        "$(title_for "$2" "Nsight Compute: stalls per issued instruction and achieved occupancy against the set occupancy")" \
        "${where:+${unroll:+unroll $unroll }${vec:+vec $vec}}${where:-every variant}"
    staged+=("$out")
    targets+=("$4")
}

# One pass over every CSV (plots/csvsel.py compare): the kernel they share (or --kernel), in one
# mode and lever, as % of each file's roof.
plot_compare() {
    local csv title out picked kernel_drawn synthetic only=""
    local data="$stage/compare.tsv"
    for csv in "${files[@]}"; do
        csv_readable "$csv"
    done
    picked=$("$PYTHON" "$HERE/csvsel.py" compare --data "$data" --table "$stage/compare" \
        --x "$xkind" \
        ${kernel:+--kernel "$kernel"} ${lever:+--lever "$lever"} ${unroll:+--unroll "$unroll"} \
        ${vec:+--vec "$vec"} -- "${files[@]}") || exit 2
    kernel_drawn=${picked%%$'\t'*}
    synthetic=${picked#*$'\t'}
    title="$kernel_drawn: bandwidth as % of each GPU's memcpy roof"
    [ "$ykind" = pct ] || title="$kernel_drawn: median bandwidth of each GPU"
    [ -z "$lever" ] || only="lever $lever"
    [ -z "$unroll" ] || only="${only:+$only, }unroll $unroll"
    [ -z "$vec" ] || only="${only:+$only, }$vec B loads"
    [ -z "$only" ] || title="$title ($only)"
    [ "$synthetic" != 1 ] || title="$title [synthetic]"
    out="$stage/compare"
    run_gnuplot compare.gp "$out_prefix" compare "$data" "$out" "$title" "$xkind" "$ykind"
    staged+=("$out")
    tables=1
    case "$out_prefix" in
    */) targets+=("${out_prefix}compare") ;;
    *)
        if [ -d "$out_prefix" ]; then
            targets+=("$out_prefix/compare")
        else
            targets+=("$out_prefix")
        fi
        ;;
    esac
}
