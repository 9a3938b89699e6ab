# bench/setup.sh: sourced by run_sweep and run_tests. Finds or installs the build tools, then
# configures and builds occsweep in build/ (first use) or brings it up to date (quietly).
# Exit status 2 with the exact command to run when a tool is missing and cannot be installed.

OCC_ROOT=${OCC_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
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

occ_ensure_tools() {
    local want_gnuplot=${1:-0}
    command -v nvcc >/dev/null 2>&1 || PATH=$PATH:/usr/local/cuda/bin
    command -v nvcc >/dev/null 2>&1 ||
        occ_die "occsweep: nvcc not found: install the CUDA Toolkit (12.8 or newer) and put its bin/ on PATH"
    local ub; ub=$(occ_user_bin); [ -n "$ub" ] && PATH=$PATH:$ub
    local mv; mv=$(meson --version 2>/dev/null || echo 0)
    if ! occ_version_ge "$mv" "$OCC_MESON_MIN"; then
        occ_say "occsweep: installing meson >= $OCC_MESON_MIN (found ${mv/#0/none})"
        occ_pip_install "meson>=$OCC_MESON_MIN" || true
        hash -r
        mv=$(meson --version 2>/dev/null || echo 0)
        occ_version_ge "$mv" "$OCC_MESON_MIN" ||
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

occ_ensure_build() {
    local log=$OCC_ROOT/build-log.txt
    if [ ! -f "$OCC_BUILD/build.ninja" ]; then
        occ_say "occsweep: first use: building in ${OCC_BUILD#$OCC_ROOT/} (a few minutes; log on failure only)"
        if ! meson setup "$OCC_BUILD" "$OCC_ROOT" ${OCC_MESON_ARGS:-} >"$log" 2>&1; then
            cat "$log" >&2; rm -rf "$OCC_BUILD"; occ_die "occsweep: meson setup failed (log above)" 1
        fi
    fi
    if ! ninja -C "$OCC_BUILD" >"$log" 2>&1; then
        cat "$log" >&2; occ_die "occsweep: build failed (log above)" 1
    fi
    rm -f "$log"
}
