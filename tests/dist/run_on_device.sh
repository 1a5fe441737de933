#!/usr/bin/env bash
# tests/dist/run_on_device.sh - libgraph_dist's GPU ranks on a host of several
# NVIDIA GPUs (the device tool's nvidia-h200-x2), in one command.
#
#   tests/dist/run_on_device.sh [OUTDIR]   (default: $OUT, else build/dist-gpu-run)
#
# STEPS="1 2 3 4" (the default) chooses:
# 1. the build (CUDA plugin, libgraph_dist and its GPU module), into
#    build-dist-gpu; without step 1, an earlier build's binaries
#    (BIN_TAR, default build/dist-bin.tar: OUTDIR/bin.tar of that run) are
#    unpacked instead, so a second call needs no build;
# 2. test_dist on GPU ranks (LG_TEST_DIST_BACKEND=gpu) on 1 rank and on one
#    rank a GPU (TEST_RANKS="1 G"): every check of the CPU suite (results against single-process
#    libgraph, errors agreed) with the algorithms on the GPUs;
# 3. lgraph --distributed --device gpu on every GPU against lgraph on the
#    CPU on kron:CHECK_SCALE (default 20): BFS distances and CC labels equal,
#    PageRank within 1e-12;
# 4. timings (RUNS, below): lgraph on one GPU (the plugin) against lgraph
#    --distributed on GPU ranks, PageRank (20 iterations), BFS from the
#    vertex of highest PageRank, CC; medians of REPEAT (default 5) runs, the
#    output in timing.log and a table in summary.txt.
# Needs mpiexec, nvcc and NCCL (libnccl.so.2) on the host; keeps
# NCCL_NVLS_ENABLE=0.  The build's binaries go to OUTDIR/bin.tar.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${1:-${OUT:-$root/build/dist-gpu-run}}"
mkdir -p "$out"
build="$root/build-dist-gpu"
summary="$out/summary.txt"
: > "$summary"
say() { echo "$*" | tee -a "$summary"; }
steps=" ${STEPS:-1 2 3 4} "
step() { [[ "$steps" == *" $1 "* ]]; }
gpus="$(nvidia-smi -L 2>/dev/null | wc -l)"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
export OMPI_MCA_btl_vader_single_copy_mechanism=none
export LIBGRAPH_PLUGIN_PATH="$build" LD_LIBRARY_PATH="$build${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
mpi() { mpiexec --oversubscribe --bind-to none -np "$@"; }

say "== $(date -u +%FT%TZ) on $(hostname): $gpus GPUs, $(nproc) CPUs"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>&1 | tee -a "$summary"
say "$(mpiexec --version | head -1); NCCL: $(ls /usr/lib/x86_64-linux-gnu/libnccl.so.2* /usr/local/lib/libnccl.so.2* 2>/dev/null | head -1)"

if step 1; then
    t0=$SECONDS
    if cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DLIBGRAPH_GPU=CUDA \
        -DLIBGRAPH_DIST=ON -DLIBGRAPH_WERROR=ON >"$out/build.log" 2>&1 &&
        cmake --build "$build" -j "$(nproc)" --target lgraph lgraph_dist graph_cuda \
            graph_dist_cuda test_dist >>"$out/build.log" 2>&1; then
        say "build: ok in $((SECONDS - t0)) s"
        (cd "$build" && tar cf "$out/bin.tar" lgraph lgraph-dist libgraph.so* libgraph_cuda.so \
            libgraph_dist.so* libgraph_dist_cuda.so tests/test_dist)
    else
        say "build: FAILED"
        tail -30 "$out/build.log" | tee -a "$summary"
        exit 1
    fi
elif [ -f "${BIN_TAR:-$root/build/dist-bin.tar}" ]; then
    mkdir -p "$build" && tar xf "${BIN_TAR:-$root/build/dist-bin.tar}" -C "$build"
    say "binaries: unpacked ${BIN_TAR:-$root/build/dist-bin.tar}"
fi

if step 2; then
    for p in ${TEST_RANKS:-1 $gpus}; do
        LG_TEST_DIST_BACKEND=gpu mpi "$p" "$build/tests/test_dist" >"$out/test-np$p.log" 2>&1
        say "test_dist on $p GPU rank(s) (exit $?): $(grep -E 'GPU ranks|passed' "$out/test-np$p.log" | tr '\n' ' ')"
        grep -m 10 -E 'CHECK|returned|rank [0-9]+, line' "$out/test-np$p.log" | tee -a "$summary"
    done
fi

if step 3; then
    g="kron:${CHECK_SCALE:-20}"
    for cmd in "bfs --source 1" "cc" "pagerank"; do
        name="${cmd%% *}"
        "$build/lgraph" $cmd "$g" --device cpu --output "/tmp/$name-cpu.txt" >/dev/null 2>&1
        mpi "$gpus" "$build/lgraph" $cmd "$g" --distributed --device gpu \
            --output "/tmp/$name-gpu.txt" >"$out/check-$name.log" 2>&1
        python3 - "/tmp/$name-cpu.txt" "/tmp/$name-gpu.txt" "$name" "$g" <<'PY' | tee -a "$summary"
import sys
import numpy as np
cpu, gpu, name, g = sys.argv[1:]
try:
    a, b = np.loadtxt(cpu), np.loadtxt(gpu)
except Exception as e:
    print(f"check {g} {name}: FAILED ({e})")
    sys.exit()
if name == "pagerank":
    d = float(np.abs(a - b).max()) if a.shape == b.shape else float("inf")
    print(f"check {g} {name}: GPU ranks vs CPU max |diff| {d:.3g} ({'ok' if d < 1e-12 else 'FAILED'})")
else:
    ok = a.shape == b.shape and bool((a == b).all())
    print(f"check {g} {name}: GPU ranks {'equal' if ok else 'differ from'} the CPU ({'ok' if ok else 'FAILED'})")
PY
        rm -f "/tmp/$name-cpu.txt" "/tmp/$name-gpu.txt"
    done
fi

# 4. timings: RUNS lists SCALE:ALGORITHM:GPUS items (GPUS 0: one GPU through
# the plugin); BFS starts from the vertex of highest PageRank, so each
# scale's first PageRank run (with --top 1) goes before its BFS runs (or SOURCE=V)
if step 4; then
    repeat="${REPEAT:-5}"
    runs="${RUNS:-24:pagerank:0 24:pagerank:$gpus 24:bfs:0 24:bfs:$gpus 24:cc:0 24:cc:$gpus}"
    field() { sed -n "s/.*\"$2\": \([-0-9.e+]*\).*/\1/p" <<<"$1"; }
    say "| graph | algorithm | GPUs | median ms | ms an iteration | GTEPS a GPU (m/2 / t) | bytes a rank a round |"
    say "|---|---|---|---|---|---|---|"
    declare -A top
    for item in $runs; do
        IFS=: read -r scale algo p <<<"$item"
        g="kron:$scale"
        extra=()
        [ "$algo" = bfs ] && extra=(--source "${SOURCE:-${top[$scale]:-0}}")
        [ "$algo" = pagerank ] && extra=(--tol 0 --max-iter 20 --top 1)
        if [ "$p" = 0 ]; then
            log="$("$build/lgraph" "$algo" "$g" --device gpu --repeat "$repeat" --json "${extra[@]}" 2>>"$out/timing.err")"
            label="1 (plugin)"
        else
            # the host's cores split between the ranks (no rank's threads share a core)
            log="$(mpi "$p" "$build/lgraph" "$algo" "$g" --distributed --device gpu --threads $(( $(nproc) / p )) --repeat "$repeat" --json "${extra[@]}" 2>>"$out/timing.err")"
            label="$p (ranks)"
        fi
        echo "$log" >>"$out/timing.log"
        [ "$algo" = pagerank ] && [ -z "${top[$scale]:-}" ] &&
            top[$scale]="$(sed -n 's/^ *1\. vertex \([0-9]*\).*/\1/p' <<<"$log" | head -1)"
        j="$(grep '^{' <<<"$log")"
        med="$(field "$j" median_s)"
        [ -z "$med" ] && { say "| $g | $algo | $label | FAILED | | | |"; continue; }
        arcs="$(field "$j" arcs)"
        it=""; teps=""; bytes=""
        [ "$algo" = pagerank ] && it="$(awk -v m="$med" 'BEGIN {printf "%.2f", 1e3 * m / 20}')"
        q=$(( p == 0 ? 1 : p ))
        [ "$algo" = bfs ] && teps="$(awk -v a="$arcs" -v m="$med" -v q="$q" 'BEGIN {printf "%.1f", a / 2 / m / q / 1e9}')"
        tot="$(field "$j" bytes_total)"; rounds="$(field "$j" rounds)"
        [ -n "$tot" ] && [ "${rounds:-0}" -gt 0 ] && bytes="$(awk -v t="$tot" -v r="$rounds" -v q="$q" 'BEGIN {printf "%.0f", t / q / r}')"
        say "| $g | $algo | $label | $(awk -v m="$med" 'BEGIN {printf "%.2f", 1e3 * m}') | $it | $teps | $bytes |"
    done
fi
say "== done $(date -u +%FT%TZ)"
