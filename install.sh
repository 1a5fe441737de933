#!/usr/bin/env bash
# install.sh - set up libgraph on a fresh Debian/Ubuntu machine, and its two jobs.
#
#   ./install.sh [options]        set up: system packages, Python venv, build, install
#   ./install.sh run [options]    set up, then run lgraph on the bundled real graph
#   ./install.sh test [options]   set up, then run every test suite, ending in a summary
#   ./install.sh clean            remove what setting up and testing made in this checkout
#   ./install.sh uninstall        remove what was installed under a prefix, then clean
#
# Options:
#   --prefix DIR       install prefix (default ./.local)
#   --no-system-deps   do not install system packages; list the missing ones
#   --jobs N           parallel build jobs (default: the number of cores)
#
# Idempotent: each step checks what is already there and does only what is missing.
# Debian packages are never installed where that would remove one the machine has.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"

job=setup
prefix="$here/.local"
system_deps=1
jobs="$(nproc 2>/dev/null || echo 2)"
build_dir="$here/build"
venv="$here/.venv"

while [ $# -gt 0 ]; do
    case "$1" in
        run|test|setup|clean|uninstall) job="$1" ;;
        --prefix) prefix="$(mkdir -p "$2" && cd "$2" && pwd)"; shift ;;
        --prefix=*) prefix="$(mkdir -p "${1#*=}" && cd "${1#*=}" && pwd)" ;;
        --no-system-deps) system_deps=0 ;;
        --jobs) jobs="$2"; shift ;;
        -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done

say() { printf '\n== %s\n' "$*"; }

# What was installed outside the build folders, for ./install.sh uninstall:
# files, every file `cmake --install` wrote (any prefix); debian-packages,
# the packages tools/apt-install.sh installed for this checkout.
install_record="$here/.install-record"
export LIBGRAPH_APT_RECORD="$install_record/debian-packages"

# ---- system packages --------------------------------------------------------
# Debian package -> a file or command that shows it is there.
declare -A probe=(
    [gcc]="cmd:gcc"
    [g++]="cmd:g++"
    [make]="cmd:make"
    [cmake]="cmd:cmake"
    [pkg-config]="cmd:pkg-config"
    [python3]="cmd:python3"
    [python3-venv]="pyvenv"
    [python3-dev]="pyheader"
)

have() {
    case "$1" in
        cmd:*) command -v "${1#cmd:}" >/dev/null 2>&1 ;;
        pyvenv) python3 -c 'import venv, ensurepip' >/dev/null 2>&1 ;;
        pyheader) [ -f "$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])' 2>/dev/null)/Python.h" ] ;;
    esac
}

install_system_deps() {
    local missing=()
    for pkg in "${!probe[@]}"; do
        have "${probe[$pkg]}" || missing+=("$pkg")
    done
    # cmake must be >= 3.20
    if command -v cmake >/dev/null 2>&1; then
        local v; v="$(cmake --version | head -1 | awk '{print $3}')"
        if [ "$(printf '%s\n3.20\n' "$v" | sort -V | head -1)" != "3.20" ]; then
            echo "install.sh: cmake $v is older than 3.20" >&2
            missing+=(cmake)
        fi
    fi
    [ ${#missing[@]} -eq 0 ] && { echo "system packages: all present"; return 0; }
    if [ "$system_deps" = 0 ]; then
        echo "system packages missing (install them, e.g. apt-get install ${missing[*]}):"
        printf '  %s\n' "${missing[@]}"
        return 0
    fi
    if [ "$(id -u)" != 0 ] && ! command -v sudo >/dev/null 2>&1; then
        echo "install.sh: need root or sudo to apt-get install ${missing[*]} (or use --no-system-deps)" >&2
        exit 1
    fi
    say "installing system packages: ${missing[*]}"
    "$here/tools/apt-install.sh" --no-install-recommends --why "to build libgraph" "${missing[@]}" ||
        { echo "install.sh: the system packages were not installed (above); install them, or use --no-system-deps" >&2; exit 1; }
}

# ---- Python environment --------------------------------------------------------
setup_venv() {
    local req="$here/python/requirements-test.txt" stamp="$venv/.libgraph-requirements"
    if [ ! -x "$venv/bin/python" ]; then
        say "creating the Python virtual environment in .venv"
        python3 -m venv "$venv"
    fi
    if [ -f "$stamp" ] && cmp -s "$req" "$stamp"; then
        echo "python packages: up to date"
        return 0
    fi
    say "installing Python packages ($(tr '\n' ' ' < "$req"))"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check --upgrade pip
    "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$req"
    cp "$req" "$stamp"
}

# ---- build and install ------------------------------------------------------------
build_and_install() {
    say "building libgraph (build/) and installing into $prefix"
    cmake -S "$here" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DLIBGRAPH_WERROR=ON \
        -DCMAKE_INSTALL_PREFIX="$prefix" >/dev/null
    cmake --build "$build_dir" -j "$jobs"
    cmake --install "$build_dir" >/dev/null
    mkdir -p "$install_record"
    touch "$install_record/files"
    sort -u "$install_record/files" "$build_dir/install_manifest.txt" -o "$install_record/files"
    echo "installed: $prefix/bin/lgraph, $prefix/lib/libgraph.so, $prefix/include/libgraph.h"
}

# The Python package (python/): a wheel built by pip (scikit-build-core runs
# this CMake project with LIBGRAPH_PYTHON=ON: the static library inside the
# extension, the GPU plugin beside it) into python/build/wheels, installed
# into .venv (and by the test with the older NetworkX into its own venv).
# pip builds it without build isolation, with python/pyproject.toml's build
# requirements installed in .venv: scikit-build-core clears its build
# directory (python/build/TAG) whenever it runs from another place, and an
# isolated build runs it from a new temporary environment each time, which
# would recompile every object on every run.  Built from .venv, a rerun
# rebuilds only what changed.
wheels="$here/python/build/wheels"
install_build_requirements() {
    local stamp="$venv/.libgraph-build-requirements" want=()
    mapfile -t want < <("$venv/bin/python" -c 'import sys, tomllib
print("\n".join(tomllib.load(open(sys.argv[1], "rb"))["build-system"]["requires"]))' \
        "$here/python/pyproject.toml")
    [ ${#want[@]} -gt 0 ] || { echo "no build requirements read from python/pyproject.toml"; return 1; }
    [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(printf '%s\n' "${want[@]}")" ] && return 0
    "$venv/bin/python" -m pip install -q --disable-pip-version-check "${want[@]}" &&
    printf '%s\n' "${want[@]}" > "$stamp"
}
install_python_package() {
    say "building the Python package (pip wheel ./python) and installing it into .venv"
    # the GPU plugin that build_and_install installed (its manifest names
    # it), put into the package as it is (CMakeLists.txt, LIBGRAPH_GPU_PLUGIN):
    # the GPU code is not compiled twice
    local plugin
    plugin="$(grep -E '/libgraph_(cuda|hip)\.so$' "$build_dir/install_manifest.txt" | head -1 || true)"
    install_build_requirements &&
    rm -rf "$wheels" &&
    "$venv/bin/python" -m pip wheel -q --disable-pip-version-check --no-deps --no-build-isolation \
        ${plugin:+--config-settings=cmake.define.LIBGRAPH_GPU_PLUGIN="$plugin"} \
        "$here/python" -w "$wheels" &&
    "$venv/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall \
        --no-deps "$wheels"/libgraph-*.whl || return 1
    "$venv/bin/python" -c 'import libgraph, sys; print("python: libgraph", libgraph.__version__, "in", libgraph.__path__[0])'
}

# The line that puts lgraph on PATH, unless it is there already.
path_hint() {
    case ":$PATH:" in *":$prefix/bin:"*) return 0 ;; esac
    echo
    echo "lgraph is in $prefix/bin, which is not on PATH. To call it as lgraph (as README.md does),"
    echo "run this line, and add it to ~/.bashrc (or your shell's startup file) to keep it:"
    echo "  export PATH=\"$prefix/bin:\$PATH\""
}

setup() {
    say "system packages"
    install_system_deps
    setup_venv
    build_and_install
    install_python_package
    path_hint
}

# ---- run: the main job on a bundled real graph ------------------------------------------
run_demo() {
    local lgraph="$prefix/bin/lgraph" graph="$here/tests/data/facebook_combined.el"
    say "lgraph on ego-Facebook (SNAP; tests/data/facebook_combined.el), undirected"
    "$lgraph" info "$graph" --undirected
    echo
    "$lgraph" bfs "$graph" --undirected --source 0
    echo
    "$lgraph" pagerank "$graph" --undirected --top 10
    echo
    "$lgraph" cc "$graph" --undirected
}

# ---- test: every suite, then one summary -------------------------------------------------
results=()
record() { results+=("$1|$2"); }

run_suite() {
    local name="$1" start=$SECONDS; shift
    say "$name"
    if "$@"; then record "$name" pass; else record "$name" FAIL; fi
    echo "($name: $((SECONDS - start)) s)"
}

# (the MPI tests run in their own suite, dist_tests)
ctest_release() { ctest --test-dir "$build_dir" --output-on-failure -j "$jobs" -E "$DIST_TESTS"; }

# libgraph_dist (src/dist) on 1, 2, 3, 4 and 8 MPI ranks against single-
# process libgraph, and lgraph --distributed against lgraph: needs the
# library built, which needs MPI when the build was configured.
DIST_TESTS='^(test_dist_np[0-9]+|cli_distributed)$'
dist_tests() {
    [ -x "$build_dir/lgraph-dist" ] ||
        { echo "libgraph_dist was not built: MPI not found (apt-get install openmpi-bin libopenmpi-dev)"; return 1; }
    ctest --test-dir "$build_dir" --output-on-failure -R "$DIST_TESTS"
}

# The library, CLI and tests without OpenMP (LIBGRAPH_OPENMP=OFF): serial,
# as on toolchains without an OpenMP runtime (musl, zig's cross compilers).
ctest_serial() {
    local dir="$here/build-serial"
    cmake -S "$here" -B "$dir" -DLIBGRAPH_WERROR=ON -DLIBGRAPH_GPU=OFF -DLIBGRAPH_OPENMP=OFF >/dev/null &&
    cmake --build "$dir" -j "$jobs" &&
    "$dir/lgraph" --version | grep -q 'threads: none' &&
    ctest --test-dir "$dir" --output-on-failure -j "$jobs"
}

# The C suite cross-compiled and run under qemu-user (tools/cross-test.sh):
# aarch64 (NEON, OpenMP) and riscv64 with RVV 1.0 on every run, bounded
# (--quick: fewer random graphs a test); the other targets (aarch64-sve,
# riscv64, loongarch64) and the full rounds on demand.
cross_aarch64() { "$here/tools/cross-test.sh" aarch64 --quick --jobs "$jobs"; }
cross_riscv64_rvv() { "$here/tools/cross-test.sh" riscv64-rvv --quick --jobs "$jobs"; }

# The wheels (tools/build-wheel.sh, docs/WHEELS.md): x86-64 tagged
# manylinux2014 and run through tests/python in a fresh environment; aarch64
# cross-compiled and its smoke test run under qemu.
wheel_check() { "$here/tools/build-wheel.sh" --jobs "$jobs" check x86_64 aarch64; }

# The C suite under AddressSanitizer + UBSan.  Where MPI is found the build
# has lgraph-dist too, and the suite runs the MPI tests: test_dist on 1-4
# ranks, test_dist_alloc on 1 and 3, and lgraph --distributed (cli_dist.sh)
# on 3, every rank's reports counted (ranks other than 0 print nothing).
ctest_sanitized() {
    local dir="$here/build-sanitize"
    cmake -S "$here" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLIBGRAPH_WERROR=ON \
        -DLIBGRAPH_GPU=OFF -DLIBGRAPH_SANITIZE=ON >/dev/null &&
    cmake --build "$dir" -j "$jobs" &&
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
        ctest --test-dir "$dir" --output-on-failure -j "$jobs"
}

# The Python module built with the sanitized library (the sanitize build with
# LIBGRAPH_PYTHON=ON), put beside a copy of the package, and the module's
# tests run against it; the interpreter is not instrumented, so the ASan
# runtime is preloaded and leak checking (CPython's own allocations) is off.
python_sanitized() {
    local dir="$here/build-sanitize" pkg="$here/build-sanitize/python-asan"
    cmake -S "$here" -B "$dir" -DLIBGRAPH_PYTHON=ON -DPython_EXECUTABLE="$venv/bin/python" >/dev/null &&
    cmake --build "$dir" -j "$jobs" --target _libgraph || return 1
    rm -rf "$pkg" && mkdir -p "$pkg" && cp -r "$here/python/libgraph" "$pkg/" &&
    cp "$dir"/_libgraph*.so "$pkg/libgraph/" || return 1
    local preload
    preload="$(gcc -print-file-name=libasan.so):$(gcc -print-file-name=libubsan.so)"
    # a 16 MB quarantine (ASan's default is 256 MB): freed blocks wait there
    # before reuse, so with the default the RSS bounds of the leak tests
    # (test_module_leaks.py) passed or failed by how much earlier tests had
    # churned; use-after-free of recently freed memory is still caught
    (cd "$pkg" && PYTHONPATH="$pkg" LD_PRELOAD="$preload" ASAN_OPTIONS=detect_leaks=0:quarantine_size_mb=16 \
        UBSAN_OPTIONS=print_stacktrace=1 "$venv/bin/python" -m pytest -q -n "$jobs" -p no:cacheprovider \
        "$here/tests/python/test_module_algorithms.py" "$here/tests/python/test_module_graph.py" \
        "$here/tests/python/test_module_arrays.py" "$here/tests/python/test_module_convert.py" \
        "$here/tests/python/test_module_io.py" "$here/tests/python/test_module_context.py" \
        "$here/tests/python/test_module_errors.py" "$here/tests/python/test_module_leaks.py" \
        "$here/tests/python/test_module_threads.py" "$here/tests/python/test_out.py" \
        "$here/tests/python/test_module_alloc_failures.py" \
        "$here/tests/python/test_module_properties.py")
}

# The LLVM version of the ThreadSanitizer and libFuzzer suites (clang-N,
# libomp-N-dev): one whose OpenMP runtime with Archer the machine has (the
# newest), else the one Debian's libomp-dev depends on (14 on Debian 12).
# LLVM's libomp-N-dev of different versions conflict, so installing any
# other would remove the machine's own.
llvm_version() {
    local f n v=""
    for f in /usr/lib/llvm-*/lib/libarcher.so; do
        n="${f#/usr/lib/llvm-}" n="${n%%/*}"
        if [ -e "$f" ] && [[ "$n" =~ ^[0-9]+$ ]] && { [ -z "$v" ] || [ "$n" -gt "$v" ]; }; then
            v="$n"
        fi
    done
    [ -n "$v" ] ||
        v="$(apt-cache show libomp-dev 2>/dev/null | sed -n 's/^Depends:.*libomp-\([0-9][0-9]*\)-dev.*/\1/p' | head -1)"
    echo "${v:-14}"
}
llvm="$(llvm_version)"

# ThreadSanitizer over every C test: clang with libomp, OpenMP's
# synchronisation made visible to TSan by LLVM's Archer tool (libarcher,
# named by OMP_TOOL_LIBRARIES; gcc's libgomp is not instrumented, and its
# barriers would read as races).  Any report fails the test (exit 66).
ctest_thread_sanitizer() {
    local dir="$here/build-tsan" tool="/usr/lib/llvm-$llvm/lib/libarcher.so"
    [ -f "$tool" ] || { echo "missing $tool (apt-get install libomp-$llvm-dev)"; return 1; }
    echo "clang-$llvm, $tool"
    cmake -S "$here" -B "$dir" -DCMAKE_C_COMPILER="clang-$llvm" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DLIBGRAPH_TSAN=ON -DLIBGRAPH_GPU=OFF -DLIBGRAPH_WERROR=ON >/dev/null &&
    cmake --build "$dir" -j "$jobs" &&
    OMP_TOOL_LIBRARIES="$tool" TSAN_OPTIONS="ignore_noninstrumented_modules=1 halt_on_error=0" \
        ctest --test-dir "$dir" --output-on-failure -j "$jobs"
}

# valgrind's memcheck over a representative subset of the C tests (building,
# files, hostile inputs, every algorithm, the fake GPU plugin), built with
# debug lines: no error, no definite or indirect leak.  OpenMP's thread
# stacks stay allocated by design ("possibly lost") and are not counted.
# valgrind runs a program's threads one at a time, so the programs run
# $jobs at once, each reporting into its own log.
VALGRIND_TESTS=(test_build test_build_csr test_io_text test_io_roundtrip test_io_failures
    test_hostile_inputs test_bfs test_components test_pagerank test_plugin)
valgrind_one() { # DIR TEST: TEST under memcheck; DIR/valgrind-TEST.log, and .ok when clean
    rm -f "$1/valgrind-$2.ok"
    (cd "$1/tests" && OMP_WAIT_POLICY=passive OMP_NUM_THREADS=2 valgrind -q \
        --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=99 \
        "./$2" > "$1/valgrind-$2.log" 2>&1) && touch "$1/valgrind-$2.ok"
}
valgrind_subset() {
    local dir="$here/build-valgrind" t failed=0
    command -v valgrind >/dev/null || { echo "valgrind is missing (apt-get install valgrind)"; return 1; }
    cmake -S "$here" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLIBGRAPH_GPU=OFF \
        -DLIBGRAPH_WERROR=ON >/dev/null &&
    cmake --build "$dir" -j "$jobs" --target "${VALGRIND_TESTS[@]}" lg_fake_plugin lg_fake_plugin_noentry || return 1
    for t in "${VALGRIND_TESTS[@]}"; do
        while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
        valgrind_one "$dir" "$t" &
    done
    wait
    for t in "${VALGRIND_TESTS[@]}"; do
        if [ -f "$dir/valgrind-$t.ok" ]; then
            echo "valgrind $t: clean"
        else
            echo "valgrind $t: FAILED"; grep -v '^==[0-9]*== *$' "$dir/valgrind-$t.log" | tail -30
            failed=1
        fi
    done
    return $failed
}

# libFuzzer on each target (fuzz/: the readers, and building plus the
# algorithms) for LIBGRAPH_FUZZ_SECONDS (60) of fuzzing each, under ASan and
# UBSan, built by the clang of the ThreadSanitizer suite: one job a core,
# each for its share of the seconds.
fuzz_bounded() {
    FUZZ_CC="clang-$llvm" FUZZ_JOBS="$jobs" "$here/fuzz/run.sh" "$(( ${LIBGRAPH_FUZZ_SECONDS:-60} / jobs ))"
}

installed_example() {
    local dir="$build_dir/readme-example"
    mkdir -p "$dir"
    # the C block that follows the readme-example marker in README.md
    awk '/<!-- readme-example/{f=1; next} f && /^```c/{g=1; next} g && /^```/{exit} g' \
        "$here/README.md" > "$dir/example.c"
    [ -s "$dir/example.c" ] || { echo "no example found in README.md"; return 1; }
    local flags
    flags="$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs libgraph)"
    echo "cc example.c $flags"
    # shellcheck disable=SC2086
    cc -std=c11 -Wall -Wextra -Werror "$dir/example.c" -o "$dir/example" $flags &&
    "$dir/example" > "$dir/example.out" &&
    diff -u "$here/tests/data/readme_example.expected" "$dir/example.out" &&
    echo "README example: output matches tests/data/readme_example.expected"
}

installed_cmake_package() {
    local dir="$build_dir/find-package"
    rm -rf "$dir" && mkdir -p "$dir/src"
    cat > "$dir/src/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(consumer C)
find_package(libgraph 0.1 REQUIRED)
add_executable(consumer main.c)
target_link_libraries(consumer PRIVATE libgraph::graph)
CMAKE
    cat > "$dir/src/main.c" <<'C'
#include <libgraph.h>
#include <stdio.h>
#include <string.h>
int main(void)
{
    lg_vertex_t s[] = {0, 1}, d[] = {1, 2};
    lg_graph_t *g = NULL;
    int32_t dist[3];
    if (lg_graph_from_edges(NULL, 3, 2, s, d, NULL, NULL, &g) != LG_OK ||
        lg_bfs(NULL, g, 0, NULL, dist, NULL) != LG_OK)
        return 1;
    printf("find_package(libgraph) %s: distances %d %d %d\n", lg_version_string(), dist[0], dist[1], dist[2]);
    lg_graph_free(&g);
    return dist[2] == 2 ? 0 : 1;
}
C
    cmake -S "$dir/src" -B "$dir/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null &&
    cmake --build "$dir/build" >/dev/null &&
    "$dir/build/consumer"
}

no_gpu_runtime_linked() {
    local so="$prefix/lib/libgraph.so"
    ldd "$so"
    if ldd "$so" | grep -Eq 'amdhip|cudart|libcuda|hsa-runtime'; then
        echo "libgraph.so links a GPU runtime"; return 1
    fi
    echo "libgraph.so links no GPU runtime"
}

# The GPU plugin as this machine has it: built (AUTO finds nvcc), loaded by the
# installed CLI, and without a GPU refused with the reason under --device gpu
# while --device auto runs on the CPU.
gpu_plugin_without_gpu() {
    local lgraph="$prefix/bin/lgraph" plugin
    plugin="$(ls "$prefix"/lib/libgraph_cuda.so "$prefix"/lib/libgraph_hip.so 2>/dev/null | head -1)"
    if [ -z "$plugin" ]; then
        echo "no GPU plugin was built here (neither nvcc nor hipcc): nothing to check"
        return 0
    fi
    echo "plugin: $plugin"; ldd "$plugin" | sed 's/^/  /'
    "$lgraph" --version
    local out rc=0
    out="$("$lgraph" info kron:8 --device gpu 2>&1)" || rc=$?
    echo "lgraph info kron:8 --device gpu -> exit $rc: $out"
    if [ "$rc" = 0 ]; then
        if command -v nvidia-smi >/dev/null 2>&1 || [ -e /dev/kfd ]; then
            echo "a GPU answered"; return 0
        fi
        echo "--device gpu succeeded on a machine without a GPU"; return 1
    fi
    echo "$out" | grep -Eq 'no usable GPU or GPU driver was found|no GPU was found' ||
        { echo "the error does not say plainly that no usable GPU was found"; return 1; }
    echo "$out" | grep -q 'to run on the CPU, ask for device "cpu"' ||
        { echo "the error does not say what to do instead"; return 1; }
    "$lgraph" pagerank kron:8 --device auto --top 1 || return 1
}

# The AMD build, proven by compiling: Debian's hipcc for gfx908, gfx90a and
# gfx940 (64-lane waves) and gfx1030 (32), then every kernel's code object
# read back for its .wavefront_size (tests/gpu/check_wave_size.sh), libgraph_dist's GPU
# module's too where MPI is found; wave.h's
# examples (tests/gpu/test_wave.hip) built for the same targets (run where an
# AMD GPU answers, skipped here).
hip_build() {
    if ! command -v hipcc >/dev/null 2>&1; then
        echo "hipcc is missing (apt-get install hipcc libamdhip64-dev librocprim-dev rocm-device-libs)"
        return 1
    fi
    local dir="$here/build-hip"
    cmake -S "$here" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DLIBGRAPH_WERROR=ON \
        -DLIBGRAPH_GPU=HIP >/dev/null &&
    cmake --build "$dir" -j "$jobs" --target graph_hip test_wave_hip &&
    ctest --test-dir "$dir" --output-on-failure -R 'hip_wavefront_size|test_wave' 
}

# The emulated wave-64 CUDA build (two warps a wave) compiles; it runs on the
# GPU machine (tests/gpu/run_on_device.sh).
cuda_wave64_build() {
    if ! command -v nvcc >/dev/null 2>&1; then
        echo "nvcc is missing: skipped"; return 0
    fi
    local dir="$here/build-cuda-wave64"
    cmake -S "$here" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DLIBGRAPH_WERROR=ON \
        -DLIBGRAPH_GPU=CUDA -DLIBGRAPH_EMULATE_WAVE64=ON >/dev/null &&
    cmake --build "$dir" -j "$jobs" --target graph_cuda test_wave test_algorithms_gpu
}

python_tests() {
    local rc=0
    LIBGRAPH_PREFIX="$prefix" "$venv/bin/python" -m pytest -q -n "$jobs" "$here/tests/python" || rc=$?
    # pytest's 5 means it collected nothing: that is a failure here, not a pass
    return $rc
}

# NetworkX's own tests of the functions the backend (python/nx_libgraph)
# implements, in NetworkX's backend test mode: every graph a test makes is
# converted to libgraph's and every call it makes goes to the backend
# (falling back to NetworkX for functions it lacks).  They run from the
# installed networkx, whose conftest.py sets the mode up.
NX_BACKEND_TESTS=(networkx/algorithms/link_analysis networkx/algorithms/components
    networkx/algorithms/centrality
    networkx/algorithms/traversal networkx/algorithms/shortest_paths/tests/test_unweighted.py
    networkx/algorithms/shortest_paths/tests/test_weighted.py
    networkx/algorithms/shortest_paths/tests/test_generic.py networkx/algorithms/tests/test_dag.py
    networkx/algorithms/tests/test_cluster.py)
networkx_tests_with_backend() { # PYTHON
    local site
    site="$("$1" -c 'import networkx, os; print(os.path.dirname(os.path.dirname(networkx.__file__)))')" &&
    (cd "$site" && NETWORKX_TEST_BACKEND=libgraph NETWORKX_FALLBACK_TO_NX=True \
        "$1" -m pytest -q -p no:cacheprovider "${NX_BACKEND_TESTS[@]}")
}
networkx_backend_newest() { networkx_tests_with_backend "$venv/bin/python"; }

# The backend with an older NetworkX (NX_OLD, 3.4.2: the 3.x most installed
# beside the newest) in a venv of its own, the package installed from the
# wheel .venv has: its own tests and NetworkX's, in backend mode.
NX_OLD="${NX_OLD:-3.4.2}"
networkx_backend_older() {
    local old="$here/.venv-networkx-$NX_OLD"
    if [ ! -x "$old/bin/python" ]; then
        python3 -m venv "$old" &&
        "$old/bin/python" -m pip install -q --disable-pip-version-check \
            "networkx==$NX_OLD" numpy scipy pytest || return 1
    fi
    "$old/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps \
        "$wheels"/libgraph-*.whl &&
    "$old/bin/python" -c 'import networkx; print("networkx", networkx.__version__)' &&
    "$old/bin/python" -m pytest -q -p no:cacheprovider "$here/tests/python/test_nx_backend.py" &&
    networkx_tests_with_backend "$old/bin/python"
}

run_tests() {
    run_suite "C tests (ctest, Release)" ctest_release
    run_suite "distributed: libgraph_dist on 1-8 MPI ranks, lgraph --distributed" dist_tests
    run_suite "C tests without OpenMP (serial build)" ctest_serial
    run_suite "C tests under AddressSanitizer + UBSan" ctest_sanitized
    run_suite "Python module under AddressSanitizer + UBSan (pytest)" python_sanitized
    run_suite "C tests under ThreadSanitizer (clang, libomp + Archer)" ctest_thread_sanitizer
    run_suite "C tests under valgrind memcheck (a representative subset)" valgrind_subset
    run_suite "libFuzzer targets, bounded, under ASan + UBSan (fuzz/run.sh)" fuzz_bounded
    run_suite "README example against the installed library (pkg-config)" installed_example
    run_suite "CMake package of the installed library (find_package)" installed_cmake_package
    run_suite "libgraph.so has no GPU runtime (ldd)" no_gpu_runtime_linked
    run_suite "GPU plugin on a machine without a GPU (lgraph --device)" gpu_plugin_without_gpu
    run_suite "aarch64 (NEON) C tests under qemu (tools/cross-test.sh)" cross_aarch64
    run_suite "riscv64 with RVV 1.0 C tests under qemu (tools/cross-test.sh)" cross_riscv64_rvv
    run_suite "wheels: x86-64 manylinux2014 + tests, aarch64 under qemu" wheel_check
    run_suite "AMD HIP plugin build, wave64/wave32 code objects checked" hip_build
    run_suite "CUDA plugin with emulated 64-lane waves compiles" cuda_wave64_build
    run_suite "Python module, notebook and CLI against NetworkX and SciPy (pytest)" python_tests
    run_suite "NetworkX's own tests with the libgraph backend (newest NetworkX)" networkx_backend_newest
    run_suite "NetworkX backend with NetworkX $NX_OLD (its tests and NetworkX's)" networkx_backend_older

    say "summary"
    local passed=0 failed=0
    for r in "${results[@]}"; do
        printf '  %-62s %s\n' "${r%%|*}" "${r##*|}"
        if [ "${r##*|}" = pass ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
    done
    echo
    echo "suites: $passed passed, $failed failed"
    [ "$failed" = 0 ]
}

# Packages only the test job needs, installed when missing: WHAT (for the
# messages), then the Debian packages.  tools/apt-install.sh installs
# nothing that would remove a package the machine has: it says which and
# stops, and the suites that needed them fail.
install_test_packages() {
    local what="$1"; shift
    local pkgs=("$@")
    if [ "$system_deps" = 0 ]; then
        echo "$what missing (apt-get install ${pkgs[*]}): the suites that need them will fail"
        return 0
    fi
    say "installing $what: ${pkgs[*]}"
    "$here/tools/apt-install.sh" --why "$what" "${pkgs[@]}"
}

# MPI (Open MPI): libgraph_dist is built when the build finds it, so the test
# job installs it before the build.
install_mpi() {
    command -v mpiexec >/dev/null 2>&1 && command -v mpicc >/dev/null 2>&1 && return 0
    install_test_packages "MPI" openmpi-bin libopenmpi-dev
}

# The AMD toolchain is needed only to prove the HIP build.  Debian's ROCm 5.2
# hipcc brings its own clang 15 and LLVM 15 (not their OpenMP runtime).
install_hip_toolchain() {
    command -v hipcc >/dev/null 2>&1 && [ -f /usr/include/rocprim/rocprim.hpp ] && return 0
    install_test_packages "the HIP toolchain" hipcc libamdhip64-dev librocprim-dev rocm-device-libs
}

# The reliability suites' tools: clang with its sanitizer and libFuzzer
# runtimes and LLVM's OpenMP runtime of the same version (Archer, for
# ThreadSanitizer), and valgrind.
install_reliability_tools() {
    [ -f "/usr/lib/llvm-$llvm/lib/libarcher.so" ] && command -v "clang-$llvm" >/dev/null 2>&1 &&
        command -v valgrind >/dev/null 2>&1 &&
        ls /usr/lib/llvm-"$llvm"/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 &&
        return 0
    # shellcheck disable=SC2046
    install_test_packages "the reliability tools" $(reliability_packages)
}
reliability_packages() {
    echo "clang-$llvm" "libomp-$llvm-dev" valgrind
    # the sanitizer and libFuzzer runtimes: in Debian 12 a package of their
    # own for LLVM 14, which clang-14 only recommends (LLVM 15's are part of
    # libclang-common-15-dev, which clang-15 depends on)
    local candidate
    candidate="$(apt-cache policy "libclang-rt-$llvm-dev" 2>/dev/null | sed -n 's/^ *Candidate: //p')"
    if [ -n "$candidate" ] && [ "$candidate" != "(none)" ]; then echo "libclang-rt-$llvm-dev"; fi
}

# ---- clean and uninstall ------------------------------------------------------------------
# What setting up and testing make inside the checkout, all of it ignored by
# git: the build folders, the Python environments, the downloaded tools and
# the wheels, test caches, and ./.local (the default prefix).
CLEAN_PATHS=(build build-* python/build .venv .venv-networkx-* .cache dist .pytest_cache
    .hypothesis bench/.cache .local)
clean() {
    say "removing the build products and environments in $here"
    local p size freed=0
    for p in "${CLEAN_PATHS[@]}"; do
        [ -e "$here/$p" ] || continue
        # never a folder that holds a file git tracks
        if [ -n "$(git -C "$here" ls-files -- "$p" 2>/dev/null | head -1)" ]; then
            echo "  kept $p: it holds files git tracks"
            continue
        fi
        size="$(du -sk "$here/$p" | cut -f1)"
        rm -rf "${here:?}/$p"
        freed=$((freed + size))
        printf '  removed %-26s %6d MiB\n' "$p" $((size / 1024))
    done
    find "$here/python" "$here/tests" "$here/bench" "$here/tools" "$here/examples" \
        -name __pycache__ -type d -prune -exec rm -rf {} + 2>/dev/null || true
    echo "freed $((freed / 1024)) MiB; sources untouched. ./install.sh sets everything up again."
}

# Every file an install put under a prefix (.install-record/files, or the
# build's own manifest), the prefix's folders of libgraph's own when empty,
# then clean; and the Debian packages install.sh installed, named with the
# command that removes them (they stay: other software may use them).
uninstall() {
    say "removing the files installed under the prefix"
    local files=() f d n=0
    [ -f "$install_record/files" ] && mapfile -t files < "$install_record/files"
    [ -f "$build_dir/install_manifest.txt" ] && mapfile -t -O "${#files[@]}" files < "$build_dir/install_manifest.txt"
    for f in "${files[@]}"; do
        if [ -e "$f" ] || [ -L "$f" ]; then rm -f "$f" && n=$((n + 1)); fi
    done
    printf '%s\n' "${files[@]}" | xargs -r -d '\n' -n1 dirname | sort -ru | while read -r d; do
        case "$(basename "$d")" in *libgraph*) rmdir --ignore-fail-on-non-empty "$d" 2>/dev/null || true ;; esac
    done
    rm -f "$install_record/files"
    rmdir "$install_record" 2>/dev/null || true # unless it still names Debian packages
    echo "removed $n installed files"
    clean
    if [ -s "$install_record/debian-packages" ]; then
        local pkgs
        pkgs="$(sort -u "$install_record/debian-packages" | paste -sd ' ' -)"
        say "Debian packages install.sh installed on this machine (.install-record/debian-packages)"
        echo "  $pkgs"
        echo "They stay installed: other software may use them. To remove them:"
        echo "  sudo apt-get remove $pkgs"
        echo "then 'sudo apt-get autoremove' removes what they pulled in (check its list first)."
    else
        echo "install.sh installed no Debian packages from this checkout."
    fi
}

case "$job" in
    clean) clean; exit 0 ;;
    uninstall) uninstall; exit 0 ;;
esac

if [ "$job" = test ]; then
    say "the test job: what it installs where missing (README.md, \"What ./install.sh test installs\")"
    echo "Debian packages: openmpi-bin libopenmpi-dev; hipcc libamdhip64-dev librocprim-dev"
    echo "rocm-device-libs (with clang-15 and LLVM 15); $(reliability_packages | tr '\n' ' ' | sed 's/ $//');"
    echo "gcc-aarch64-linux-gnu libc6-dev-arm64-cross gcc-riscv64-linux-gnu qemu-user-static;"
    echo "ninja-build. None is installed where that would remove a package this machine has."
    echo "Into this checkout: .venv-networkx-$NX_OLD, zig (.cache/cross), the wheel tools and"
    echo "Debian's arm64 Python (.cache/wheels), and the build-* folders: ./install.sh clean removes them."
    install_mpi || true
fi
setup
if [ "$job" = test ]; then # a failed install shows as the failing suites that needed it
    install_hip_toolchain || true
    install_reliability_tools || true
fi
case "$job" in
    run) run_demo ;;
    test) run_tests ;;
    setup) echo; echo "set up. Next: ./install.sh run, or ./install.sh test" ;;
esac
