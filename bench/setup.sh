# SPDX-License-Identifier: Apache-2.0
# bench/setup.sh: sourced by run_sweep and run_tests. Finds or installs the build tools, then
# configures and builds occsweep in build/ (first use; again when build/ was configured for another
# source tree) or brings it up to date (quietly, one invocation at a time, each with its own log).
# A build/ this user cannot write is used as it is.
# Exit status 2 with the exact command to run when a tool is missing and cannot be installed.

OCC_ROOT=${OCC_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
# OCC_SANITIZE=1 (run_tests' sanitized pass, .ci/run): a build directory of its own, build-asan,
# with AddressSanitizer (leaks included) and UBSan, every finding fatal; sm_90 alone, without PTX
# or the example plugins: the smallest build the unit and cli suites run on.
if [ "${OCC_SANITIZE:-0}" = 1 ]; then
    OCC_BUILD=${OCC_BUILD:-$OCC_ROOT/build-asan}
    OCC_MESON_ARGS="-Db_sanitize=address,undefined -Db_lundef=false -Dgpu_archs=90 -Dgpu_ptx= -Dplugin_examples=false ${OCC_MESON_ARGS:-}"
    # protect_shadow_gap=0: the CUDA runtime maps memory where ASan would reserve its shadow gap.
    export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1:protect_shadow_gap=0}
    export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
fi
OCC_BUILD=${OCC_BUILD:-$OCC_ROOT/build}
OCC_MESON_MIN=1.4.0

occ_say() { printf '%s\n' "$*" >&2; }
occ_die() { occ_say "$1"; exit "${2:-2}"; }
occ_is_root() { [ "$(id -u)" = 0 ]; }

occ_version_ge() { [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]; }

occ_apt_install() {
    occ_is_root && command -v apt-get >/dev/null 2>&1 || return 1
    if [ -z "${OCC_APT_UPDATED:-}" ]; then
        apt-get update -qq >/dev/null 2>&1 || return 1
        OCC_APT_UPDATED=1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null 2>&1
}

occ_pip_install() {
    python3 -m pip install -q --disable-pip-version-check "$@" >/dev/null 2>&1 ||
        python3 -m pip install -q --disable-pip-version-check --break-system-packages "$@" \
            >/dev/null 2>&1
}

occ_user_bin() { python3 -c 'import site, os; print(os.path.join(site.USER_BASE, "bin"))' 2>/dev/null; }

# A CUDA binary utility missing from the toolkit: from its PyPI wheel (nvidia-cuda-<tool>, which
# installs nvidia/cu1*/bin/<tool> under site-packages), pip-installed when run as root.
occ_ensure_cuda_tool() {
    local tool=$1 why=$2 package="nvidia-cuda-$1>=13.2"
    command -v "$tool" >/dev/null 2>&1 && return 0
    local site; site=$(python3 -c 'import site; print(site.getsitepackages()[0])' 2>/dev/null)
    local found; found=$(ls "$site"/nvidia/cu1*/bin/"$tool" 2>/dev/null | head -n1)
    if [ -z "$found" ] && occ_is_root; then
        occ_say "occsweep: installing $tool ($why)"
        occ_pip_install "$package" || true
        found=$(ls "$site"/nvidia/cu1*/bin/"$tool" 2>/dev/null | head -n1)
    fi
    [ -n "$found" ] && PATH=$PATH:$(dirname "$found")
    command -v "$tool" >/dev/null 2>&1 ||
        occ_die "occsweep: $tool not found; run: python3 -m pip install '$package'"
}

occ_meson_ok() { occ_version_ge "$("$@" --version 2>/dev/null || echo 0)" "$OCC_MESON_MIN"; }

# Meson >= OCC_MESON_MIN on PATH; else pip's scripts directories (the interpreter's and the user
# scheme's: pip installs meson there, and neither need be on PATH, e.g. pyenv before a rehash) go
# first on PATH; else its module, run as `python3 -m mesonbuild.mesonmain` by a shell function.
occ_find_meson() {
    hash -r
    occ_meson_ok meson && return 0
    local d
    for d in $(python3 -c 'import os, sysconfig
print(sysconfig.get_path("scripts"))
print(sysconfig.get_path("scripts", os.name + "_user"))' 2>/dev/null); do
        if occ_meson_ok "$d/meson"; then PATH=$d:$PATH; hash -r; return 0; fi
    done
    occ_meson_ok python3 -m mesonbuild.mesonmain || return 1
    meson() { python3 -m mesonbuild.mesonmain "$@"; }
}

occ_ensure_tools() {
    local want_gnuplot=${1:-0}
    command -v nvcc >/dev/null 2>&1 || PATH=$PATH:/usr/local/cuda/bin
    command -v nvcc >/dev/null 2>&1 ||
        occ_die "occsweep: nvcc not found: install the CUDA Toolkit (12.8 or newer) and put its bin/ on PATH"
    local ub; ub=$(occ_user_bin); [ -n "$ub" ] && PATH=$PATH:$ub
    if ! occ_find_meson; then
        occ_say "occsweep: installing meson >= $OCC_MESON_MIN (found $(meson --version 2>/dev/null || echo none))"
        occ_pip_install "meson>=$OCC_MESON_MIN" || true
        occ_find_meson ||
            occ_die "occsweep: meson >= $OCC_MESON_MIN needed; run: python3 -m pip install 'meson>=$OCC_MESON_MIN'"
    fi
    if ! command -v ninja >/dev/null 2>&1; then
        occ_say "occsweep: installing ninja"
        occ_apt_install ninja-build || occ_pip_install ninja || true
        hash -r
        command -v ninja >/dev/null 2>&1 ||
            occ_die "occsweep: ninja not found; run: apt-get install ninja-build (or pip install ninja)"
    fi
    occ_ensure_cuda_tool cuobjdump "kernel resource table"
    occ_ensure_cuda_tool nvdisasm "SASS audit of the kernels; cuobjdump -sass runs it"
    if [ "$want_gnuplot" = 1 ] && ! command -v gnuplot >/dev/null 2>&1; then
        occ_say "occsweep: installing gnuplot (for plots)"
        occ_apt_install gnuplot-nox ||
            occ_say "occsweep: gnuplot not installed (plots will be skipped); run: apt-get install gnuplot-nox"
    fi
    export PATH
}

# The Slurm daemons and clients the Slurm job-array test starts (tests/fleet/test_slurm.sh),
# Debian's packages, installed when run as root with apt-get; the test skips without them.
occ_ensure_slurm() {
    local t missing=0
    for t in munged slurmctld slurmd sbatch; do
        command -v "$t" >/dev/null 2>&1 || [ -x "/usr/sbin/$t" ] || missing=1
    done
    [ "$missing" = 1 ] || return 0
    occ_say "occsweep: installing slurmctld, slurmd, slurm-client and munge (for the Slurm test)"
    occ_apt_install --no-install-recommends slurmctld slurmd slurm-client munge ||
        occ_say "occsweep: Slurm not installed (its test will skip); run: apt-get install slurmctld slurmd slurm-client munge"
}

# One configure+build at a time per build directory: concurrent ninjas in one tree clobber each
# other's archives and binaries. flock on .occ-lock inside the build directory (a wipe keeps it: a
# new file would let a newcomer lock another inode than the waiters); without flock, a directory
# made by mkdir, taken over when the process named in it has died.
occ_lock() {
    local lock=$OCC_BUILD/.occ-lock pid
    if command -v flock >/dev/null 2>&1; then
        exec 9>>"$lock" && flock 9 && OCC_LOCKED=flock
        return
    fi
    until mkdir "$lock.d" 2>/dev/null; do
        pid=$(cat "$lock.d/pid" 2>/dev/null) || pid=
        if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then rm -rf "$lock.d"; continue; fi
        sleep 0.2
    done
    echo $$ >"$lock.d/pid"
    OCC_LOCKED=mkdir
    occ_trap_cleanup
}

occ_unlock() {
    case ${OCC_LOCKED:-} in
    flock) flock -u 9; exec 9>&- ;;
    mkdir) rm -rf "$OCC_BUILD/.occ-lock.d" ;;
    esac
    OCC_LOCKED=
    trap - EXIT HUP INT TERM
}

# What a build holds while it runs, removed however the script ends: its temp log
# (OCC_BUILD_LOG) and the mkdir lock. HUP, INT and TERM end the script through its EXIT trap (a
# signal during a foreground meson or ninja acts once that command has ended; a signal to the
# process group, as a terminal or Slurm sends it, ends them too). occ_unlock resets the traps.
occ_cleanup() {
    [ -z "${OCC_BUILD_LOG:-}" ] || rm -f "$OCC_BUILD_LOG"
    [ "${OCC_LOCKED:-}" != mkdir ] || rm -rf "$OCC_BUILD/.occ-lock.d"
}
occ_trap_cleanup() {
    trap occ_cleanup EXIT
    trap 'exit 129' HUP
    trap 'exit 130' INT
    trap 'exit 143' TERM
}

# The marker of a build directory this tool made: written into a directory that held nothing but
# the lock when the tool set it up. Only such a directory is ever emptied (occ_wipe_build); one
# the user made or filled (OCC_BUILD=$PWD/v) is never touched.
OCC_BUILD_MARKER=.occ-build
occ_build_is_ours() { [ -f "$OCC_BUILD/$OCC_BUILD_MARKER" ] && [ ! -L "$OCC_BUILD/$OCC_BUILD_MARKER" ]; }
# 0 when the build directory holds nothing but the lock (and the marker).
occ_build_is_empty() {
    [ -z "$(find "$OCC_BUILD" -mindepth 1 -maxdepth 1 ! -name .occ-lock ! -name .occ-lock.d \
        ! -name "$OCC_BUILD_MARKER" -print -quit 2>/dev/null)" ]
}

# Empties the build directory but for its lock and marker; a directory without the marker is
# left as it is (returns 1).
occ_wipe_build() {
    occ_build_is_ours || return 1
    find "$OCC_BUILD" -mindepth 1 -maxdepth 1 ! -name .occ-lock ! -name .occ-lock.d \
        ! -name "$OCC_BUILD_MARKER" -exec rm -rf {} +
}

occ_fail_build() {
    cat "$2" >&2; rm -f "$2"
    [ "$1" = setup ] && occ_wipe_build
    occ_unlock
    occ_die "occsweep: $1 failed (log above)" 1
}

# The source tree the build directory was configured for (empty when not configured).
occ_build_source() {
    python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["directories"]["source"])' \
        "$OCC_BUILD/meson-info/meson-info.json" 2>/dev/null
}

occ_same_dir() { [ "$(cd "$1" 2>/dev/null && pwd -P)" = "$(cd "$2" 2>/dev/null && pwd -P)" ]; }

# A build directory this user cannot write (a read-only checkout): ninja cannot run there, so the
# binary built last runs, with a line saying so when ninja finds sources newer than their outputs
# (build_info.h always counts as stale in a dry run, and is left out).
occ_use_readonly_build() {
    [ -x "$OCC_BUILD/bench/occsweep" ] ||
        occ_die "occsweep: $OCC_BUILD is not writable and holds no build; set OCC_BUILD to a writable directory" 1
    if ninja -C "$OCC_BUILD" -n -d explain 2>&1 | grep -v PHONY |
        grep -q "older than most recent input\|command line changed\|doesn't exist"; then
        occ_say "occsweep: $OCC_BUILD is read-only and older than the sources; running the binary built last"
    fi
}

# Ninja's output into the log $1; on stderr, while it runs, "occsweep: building: N/T steps" (its
# status line, NINJA_STATUS) once every OCC_PROGRESS_S seconds (15), nothing when it ends sooner.
# The total comes from ninja's dry run first, so that a line before the first step ends says 0/T.
# Further arguments: the targets to build (default: all).
occ_ninja() {
    local log=$1 total; shift
    total=$(ninja -C "$OCC_BUILD" -n "$@" 2>/dev/null | grep -c '^\[') || total='?'
    NINJA_STATUS='[occ %f/%t] ' ninja -C "$OCC_BUILD" "$@" 2>&1 |
        occ_progress "${OCC_PROGRESS_S:-15}" "0/$total" >"$log"
    return "${PIPESTATUS[0]}"
}

occ_progress() {
    local every=$1 line steps=$2 next=$((SECONDS + $1)) wait rc
    while :; do
        wait=$((next - SECONDS)); [ "$wait" -ge 1 ] || wait=1
        IFS= read -r -t "$wait" line; rc=$?
        if [ "$rc" -eq 0 ]; then
            printf '%s\n' "$line"
            case $line in "[occ "*/*"] "*) steps=${line#"[occ "}; steps=${steps%%"] "*} ;; esac
        else
            printf '%s' "$line" # a partial line (timeout) or the last one, without its newline
            [ "$rc" -gt 128 ] || break
        fi
        if [ "$SECONDS" -ge "$next" ]; then
            occ_say "occsweep: building: $steps steps"
            next=$((SECONDS + every))
        fi
    done
}

# occ_ensure_build [TARGET...]: set up the build directory on first use, then build the targets
# (default: everything; run_sweep asks for "sweep", meson.build's program without the tests).
occ_ensure_build() {
    mkdir -p "$OCC_BUILD" 2>/dev/null || true
    if [ ! -w "$OCC_BUILD" ]; then occ_use_readonly_build; return; fi
    occ_lock || occ_die "occsweep: cannot lock $OCC_BUILD/.occ-lock" 1
    # Each invocation its own log, outside the checkout (which may be read-only), removed on
    # every exit (occ_cleanup).
    occ_trap_cleanup
    local log; log=$(mktemp "${TMPDIR:-/tmp}/occsweep-build.XXXXXX" 2>/dev/null ||
        mktemp "$OCC_BUILD/.build-log.XXXXXX")
    OCC_BUILD_LOG=$log
    local src; src=$(occ_build_source) || src=
    local why= where=${OCC_BUILD#"$OCC_ROOT"/}
    if [ -n "$src" ] && ! occ_same_dir "$src" "$OCC_ROOT"; then
        # A copied checkout: its build/ still compiles the original's sources.
        why="occsweep: $where was configured for $src; setting it up again for $OCC_ROOT:"
        if ! occ_wipe_build; then
            rm -f "$log"; occ_unlock
            occ_die "occsweep: $OCC_BUILD was configured for $src and was not made by occsweep here ($OCC_BUILD_MARKER missing): remove it or set OCC_BUILD to another directory" 2
        fi
    elif [ ! -f "$OCC_BUILD/build.ninja" ]; then
        why="occsweep: first use:"
    fi
    if [ ! -f "$OCC_BUILD/build.ninja" ]; then
        if occ_build_is_empty; then
            : >"$OCC_BUILD/$OCC_BUILD_MARKER" ||
                occ_die "occsweep: cannot write $OCC_BUILD/$OCC_BUILD_MARKER" 1
        fi
        meson setup "$OCC_BUILD" "$OCC_ROOT" ${OCC_MESON_ARGS:-} >"$log" 2>&1 ||
            occ_fail_build setup "$log"
        # The archs meson.build chose ("building for sm_90 (the GPU here)"), from its message.
        local archs; archs=$(sed -n 's/^Message: occsweep: \(building for .*\)$/\1/p' "$log" | head -n 1)
        occ_say "$why ${archs:-building} in $where (log on failure only)"
    fi
    occ_ninja "$log" "$@" || occ_fail_build build "$log"
    rm -f "$log"
    OCC_BUILD_LOG=
    occ_unlock
}

# The tests plan dry runs for sm_90 (tests/cli/test_cli.sh, test_resume.py, test_install.py, ...): a
# build for another GPU alone (gpu_archs=auto on that GPU) gets sm_90 added, with a line saying so.
occ_ensure_test_archs() {
    local csv=$OCC_BUILD/kernels/kernel_resources.csv have
    [ -f "$csv" ] && [ -w "$OCC_BUILD" ] || return 0
    have=$(tail -n +2 "$csv" | cut -d, -f2 | sort -u | sed 's/^sm_//' | paste -sd, -)
    case ",$have," in *,90,*) return 0 ;; esac
    occ_say "occsweep: the tests plan for sm_90: adding it to ${OCC_BUILD#"$OCC_ROOT"/} (-Dgpu_archs=$have,90)"
    meson configure "$OCC_BUILD" "-Dgpu_archs=$have,90" >/dev/null 2>&1 ||
        occ_die "occsweep: meson configure $OCC_BUILD -Dgpu_archs=$have,90 failed" 1
    occ_ensure_build
}
