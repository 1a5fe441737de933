#!/usr/bin/env bash
# cross-test.sh - build libgraph for another CPU architecture and run the C
# test suite under qemu-user.
#
#   tools/cross-test.sh ARCH... [--jobs N] [--build-only] [--quick]   ARCH, or `all` for every one:
#     aarch64       gcc-aarch64-linux-gnu, OpenMP, NEON
#     aarch64-sve   the same with -march=armv8-a+sve, qemu's `max` CPU
#     riscv64       gcc-riscv64-linux-gnu, OpenMP, scalar (rv64gc)
#     riscv64-rvv   zig's clang for rv64gcv (RVV 1.0), serial (no OpenMP runtime)
#     loongarch64   zig's clang for loongarch64-linux-musl, LSX + LASX, static, serial
#
# Each architecture builds into build-cross/ARCH (library, CLI, C tests; no
# GPU plugin, no Python), shows the vector instructions in the kernels'
# objects, runs ctest through qemu and ends with one line
# `ARCH: N passed, N failed`.  --quick (CI's runs) sets LG_TEST_QUICK: the
# tests' loops over random graphs run fewer rounds (tests/harness.h), every
# test still run.  What it needs comes from Debian's packages
# (cross compilers, qemu-user-static), PyPI (zig) and Debian's
# bookworm-backports archive (qemu 10 for LoongArch: qemu 7.2 faults on
# LSX/LASX), cached in .cache/cross.  docs/PORTABILITY.md says more.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="$root/.cache/cross"
all_arches=(aarch64 aarch64-sve riscv64 riscv64-rvv loongarch64)
jobs="$(nproc 2>/dev/null || echo 2)"
arches=()
build_only=0
quick=0
while [ $# -gt 0 ]; do
    case "$1" in
        all) arches+=("${all_arches[@]}") ;;
        aarch64 | aarch64-sve | riscv64 | riscv64-rvv | loongarch64) arches+=("$1") ;;
        --jobs) jobs="$2"; shift ;;
        --build-only) build_only=1 ;;
        --quick) quick=1 ;;
        -h | --help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "cross-test.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done
[ ${#arches[@]} -gt 0 ] || { echo "cross-test.sh: name an architecture or 'all' (see --help)" >&2; exit 2; }
mkdir -p "$cache"

# ---- tools ------------------------------------------------------------------------------
apt_install() { # PACKAGE PROBE ...: the packages whose probe (a command, or a /path) is missing
    local missing=()
    while [ $# -gt 0 ]; do
        case "$2" in
            /*) [ -e "$2" ] || missing+=("$1") ;;
            *) command -v "$2" >/dev/null 2>&1 || missing+=("$1") ;;
        esac
        shift 2
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    # nothing that would remove a package the machine has (tools/apt-install.sh)
    "$root/tools/apt-install.sh" --no-install-recommends --why "cross-test.sh" "${missing[@]}" >/dev/null
}

zig_python() { # a private venv with PyPI's ziglang; prints its python
    local venv="$cache/zig-venv"
    if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -m ziglang version >/dev/null 2>&1; then
        python3 -m venv "$venv" >&2
        "$venv/bin/python" -m pip install -q ziglang==0.17.1 >&2
    fi
    echo "$venv/bin/python"
}

qemu10() { # bookworm-backports' qemu-user, unpacked (not installed); prints its bin dir
    local dir="$cache/qemu10" apt="$cache/apt"
    if [ ! -x "$dir/usr/bin/qemu-loongarch64" ]; then
        # a private apt state (its own sources list and lists): the system's is left alone
        mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/parts"
        echo 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm-backports main' \
            > "$apt/sources.list"
        local opts=(-o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts="$apt/parts"
            -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache"
            -o Dir::Etc::Preferences="$apt/preferences" -o Dir::Etc::PreferencesParts="$apt/parts"
            -o Debug::NoLocking=1 -o APT::Sandbox::User="$(id -un)")
        timeout 600 apt-get "${opts[@]}" -qq update
        rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
        (cd "$dir.tmp" && timeout 600 apt-get "${opts[@]}" -qq download qemu-user >/dev/null &&
            dpkg-deb -x qemu-user_*.deb . && rm -f qemu-user_*.deb)
        rm -rf "$dir" && mv "$dir.tmp" "$dir"
    fi
    echo "$dir/usr/bin"
}

# ---- one architecture ---------------------------------------------------------------------
# Sets: cc (compiler command), cflags, openmp (ON/OFF), emulator (a command
# line), qemu_cpu, objdump, vector (a regex of the instructions to find).
configure_arch() {
    local arch="$1"
    cflags="" qemu_cpu="" openmp=ON static="" zig=""
    case "$arch" in
        aarch64 | aarch64-sve)
            # the C library's start files come with libc6-dev-arm64-cross, which the
            # compiler only recommends
            apt_install gcc-aarch64-linux-gnu aarch64-linux-gnu-gcc \
                libc6-dev-arm64-cross /usr/aarch64-linux-gnu/lib/crti.o \
                qemu-user-static qemu-aarch64-static
            cc=aarch64-linux-gnu-gcc objdump=aarch64-linux-gnu-objdump
            emulator="qemu-aarch64-static -L /usr/aarch64-linux-gnu"
            vector='\b(ldp|ldr|ld1|stp|str|st1|add|addv|cmeq|dup|fadd|fmla|fmul|fabd|fcmeq|umaxv|orr|cmlt)\s+\{?[qv][0-9]+'
            if [ "$arch" = aarch64-sve ]; then
                cflags="-march=armv8-a+sve" qemu_cpu=max
                vector='\b(ld1w|ld1d|ld1sw|whilelo|whilelt|cmplt|cmpne|brkb|cntp|fadd|fadda|faddv|fmla|compact|st1w|st1d)\s+\{?[zp][0-9]+'
            fi ;;
        riscv64)
            apt_install gcc-riscv64-linux-gnu riscv64-linux-gnu-gcc qemu-user-static qemu-riscv64-static
            cc=riscv64-linux-gnu-gcc objdump=riscv64-linux-gnu-objdump
            emulator="qemu-riscv64-static -L /usr/riscv64-linux-gnu"
            vector='' ;; # rv64gc has no vectors: the portable path
        riscv64-rvv)
            apt_install gcc-riscv64-linux-gnu riscv64-linux-gnu-gcc qemu-user-static qemu-riscv64-static
            zig="$(zig_python)"
            cc="$zig -m ziglang cc -target riscv64-linux-gnu.2.36 -mcpu=baseline_rv64+v" openmp=OFF
            objdump=riscv64-linux-gnu-objdump
            emulator="qemu-riscv64-static -L /usr/riscv64-linux-gnu"
            qemu_cpu="rv64,v=true,vlen=256,vext_spec=v1.0"
            vector='\b(vle32\.v|vle64\.v|vse32\.v|vluxei64\.v|vmslt\.vx|vmsne\.vx|vcompress\.vm|vcpop\.m|vid\.v|vfredusum\.vs|vfadd\.vv|vfmacc\.vv|vfwadd\.wv)\b' ;;
        loongarch64)
            zig="$(zig_python)"
            cc="$zig -m ziglang cc -target loongarch64-linux-musl -mcpu=la464" openmp=OFF static=1
            emulator="$(qemu10)/qemu-loongarch64"
            objdump="" # no LoongArch disassembler here: the compiler's assembly is read instead
            vector='\b(vld|xvld|vst|xvst|xvor\.v|xvsetnez\.v|xvadd\.w|xvseq\.w|xvfadd\.d|vfadd\.d|vsetnez\.v)\b' ;;
    esac
}

run_arch() {
    local arch="$1" build="$root/build-cross/$1"
    configure_arch "$arch"
    mkdir -p "$build"
    # wrappers: CMake wants one program for the compiler and the emulator
    printf '#!/bin/sh\nexec %s %s "$@"\n' "$cc" "$cflags" > "$build/cc"
    printf '#!/bin/sh\n%sexec %s "$@"\n' "${qemu_cpu:+QEMU_CPU=$qemu_cpu }" "$emulator" > "$build/emulator"
    chmod +x "$build/cc" "$build/emulator"
    local ar=() processor="${arch%%-*}"
    case "$cc" in *ziglang*) # zig's own archiver (binutils' does not know the target)
        printf '#!/bin/sh\nexec %s -m ziglang ar "$@"\n' "$zig" > "$build/ar"
        printf '#!/bin/sh\nexec %s -m ziglang ranlib "$@"\n' "$zig" > "$build/ranlib"
        chmod +x "$build/ar" "$build/ranlib"
        ar=(-DCMAKE_AR="$build/ar" -DCMAKE_RANLIB="$build/ranlib") ;;
    esac
    cmake -S "$root" -B "$build" -DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR="$processor" \
        -DCMAKE_C_COMPILER="$build/cc" "${ar[@]}" -DCMAKE_CROSSCOMPILING_EMULATOR="$build/emulator" \
        -DCMAKE_BUILD_TYPE=Release -DLIBGRAPH_GPU=OFF -DLIBGRAPH_DIST=OFF -DLIBGRAPH_OPENMP="$openmp" \
        -DLIBGRAPH_WERROR=ON ${static:+-DCMAKE_EXE_LINKER_FLAGS=-static -DLIBGRAPH_STATIC_TOOLS=ON} >"$build/configure.log" 2>&1 ||
        { tail -20 "$build/configure.log"; echo "$arch: 0 passed, 1 failed (configure)"; return 1; }
    cmake --build "$build" -j "$jobs" >"$build/build.log" 2>&1 ||
        { grep -E 'error|Error' "$build/build.log" | head -20; echo "$arch: 0 passed, 1 failed (build)"; return 1; }

    # the vector instructions, counted in the kernels' objects
    local objs="$build/CMakeFiles/lg_objects.dir/src/kernels/cpu"
    if [ -n "$vector" ]; then
        local shown listing="$build/kernels.s"
        if [ -n "$objdump" ]; then
            $objdump -d "$objs"/*.o > "$listing"
        else
            : > "$listing"
            for f in bfs pagerank components; do
                "$build/cc" -O3 -DNDEBUG -std=c11 -fopenmp-simd -I"$root/include" -I"$root/src/graph" \
                    -S "$root/src/kernels/cpu/$f.c" -o "$build/$f.s" && cat "$build/$f.s" >> "$listing"
            done
        fi
        shown="$(grep -aoE "$vector" "$listing" | awk '{print $1}' | sort | uniq -c | sort -rn | head -12 |
            awk '{printf "%s%s x%s", (NR>1?", ":""), $2, $1}')"
        echo "$arch: vector instructions in src/kernels/cpu: ${shown:-none found}"
        [ -n "$shown" ] || { echo "$arch: 0 passed, 1 failed (no vector instructions)"; return 1; }
    fi

    [ "$build_only" = 0 ] || return 0

    # test_memory_estimate measures the process's peak, and under qemu-user
    # that is the emulator's (its translation cache grows with the run)
    local skip=(test_memory_estimate)
    local why="test_memory_estimate measures the process's peak memory, which under qemu-user is the emulator's"
    if [ -n "$static" ]; then # a static musl binary has no dlopen
        skip+=(test_plugin test_plugin_dispatch test_plugin_threads alloc_site_coverage)
        why+="; static musl binaries cannot dlopen a plugin, which these load (alloc_site_coverage through test_plugin_dispatch); Debian's archive has no loongarch64 C library to link dynamically"
    fi
    local exclude="" log="$build/ctest.log" rc=0
    [ ${#skip[@]} -eq 0 ] || exclude="^($(IFS='|'; echo "${skip[*]}"))\$"
    (cd "$build" && LG_TEST_QUICK="$quick" OMP_NUM_THREADS=2 timeout 3000 ctest -j "$jobs" --timeout 900 \
        ${exclude:+-E "$exclude"} >"$log" 2>&1) || rc=$?
    grep -E "^\s*[0-9]+/[0-9]+ Test .*(Failed|Timeout|Exception|Not Run)" "$log" || true
    [ ${#skip[@]} -eq 0 ] || echo "$arch: not run: ${skip[*]}: $why"
    local passed failed
    passed="$(grep -cE '^\s*[0-9]+/[0-9]+ Test .* Passed' "$log" || true)"
    failed="$(grep -cE '^\s*[0-9]+/[0-9]+ Test .*(Failed|Timeout|Exception|Not Run)' "$log" || true)"
    [ "$rc" = 0 ] || [ "$failed" != 0 ] || failed=1 # ctest itself failed
    echo "$arch: $passed passed, $failed failed"
    [ "$failed" = 0 ]
}

status=0
for arch in "${arches[@]}"; do
    start=$SECONDS
    run_arch "$arch" || status=1
    echo "$arch: $((SECONDS - start)) s"
done
exit $status
