#!/usr/bin/env bash
# tests/gpu/run_on_device.sh - build, test and time the GPU backend on an
# NVIDIA machine, in one command (the device tool's lease is short).
#
#   tests/gpu/run_on_device.sh [OUTDIR]      (default: $OUT, else build/gpu-run, ignored by git)
#
# 1. the CUDA build (native 32-lane waves): every ctest suite, the CPU ones
#    and the GPU ones (test_*_gpu on GPU contexts against the oracles,
#    test_wave for wave.h's examples);
# 2. the emulated wave-64 build (LIBGRAPH_EMULATE_WAVE64, grids capped at 4096
#    threads so the grid-stride loops make several passes, every upload through
#    the staged path in 4104-byte chunks): the GPU suites again;
# 3. bench_gpu_pagerank on Kronecker scales (default 22 24; SCALES=...),
#    bench_gpu_traversal (BFS, CC) on kron:21:48 kron:22 urand:22 (TRAVERSAL=...),
#    and on each scale PageRank, BFS and CC on the GPU against the CPU;
#    bench_sssp (SSSP on the GPU against the CPU, and a delta sweep) on
#    kron:20 urand:20 kron:22 (SSSP=..., SSSP_DELTAS=...), and its --scc
#    (strongly connected components, directed Kronecker graphs: SCC=...);
#    betweenness and edge betweenness on the GPU against the CPU, and GAPBS's bc beside the CPU
#    when GAPBS_DIR names a built GAPBS (BC=..., BC_SOURCES=...);
#    closeness and harmonic centrality on the GPU against the CPU (CLOSENESS=...);
#    an iteration of eigenvector, Katz and HITS beside PageRank's, double and
#    float, on the GPU and the CPU, and the GPU's results against the CPU's
#    (POWER=..., POWER_ITERS=...); triangles and clustering on the GPU
#    against the CPU (TRIANGLES=...);
# 4. the Python package built there (pip, no build isolation: the machine has
#    no registry) and its tests: tests/python/test_gpu.py on the GPU (CuPy and
#    PyTorch arrays in and out too), and the module's CPU tests (PYTEST_ARGS=...
#    to choose others); Ctrl-C's latency (bench/python_api.py --groups
#    interrupt) on the GPU and the host's CPU; the same GPU calls timed from
#    C and from Python (--groups gpu_calls, gpu_calls.log); then the NetworkX
#    backend's tests with its calls on the GPU;
# 5. bench/nx_backend.py on kron:18 with the backend's device "gpu":
#    NetworkX on this host's CPU against the backend (NX_SCALE=...).
# STEPS="1 2 3 4 5" (the default) chooses the steps; step 3 needs step 1's build.
# CTEST_REGEX=... runs only the matching suites in steps 1 and 2; BENCHES=...
# (pagerank traversal sssp bc closeness power triangles large, the default) step 3's parts.
# Logs go to OUTDIR: build.log, ctest.log, ctest-wave64.log, bench.log,
# traversal.log, python.log, and summary.txt (also printed last).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${1:-${OUT:-$root/build/gpu-run}}"
mkdir -p "$out"
jobs="$(nproc)"
scales="${SCALES:-22 24}"
summary="$out/summary.txt"
: > "$summary"
say() { echo "$*" | tee -a "$summary"; }
steps=" ${STEPS:-1 2 3 4 5} "
step() { [[ "$steps" == *" $1 "* ]]; }
benches=" ${BENCHES:-pagerank traversal sssp bc closeness power triangles large} "
bench() { step 3 && [[ "$benches" == *" $1 "* ]]; }

# same_values CPU_FILE GPU_FILE NAME: the largest relative difference of
# two files of a value a line (the CPU's and the GPU's), ok below 1e-9
same_values() {
    python3 - "$@" <<'PY' | tee -a "$summary"
import sys
import numpy as np
a, b = np.loadtxt(sys.argv[1]), np.loadtxt(sys.argv[2])
d = float((np.abs(a - b) / np.maximum(np.abs(a), 1e-300)).max())
print(f"{sys.argv[3]}: GPU vs CPU max relative diff {d:.3g} ({'ok' if d < 1e-9 else 'FAILED'})")
PY
}

say "== $(date -u +%FT%TZ) on $(hostname)"
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv,noheader 2>&1 | tee -a "$summary"
say "nvcc: $(nvcc --version | tail -2 | head -1); cmake: $(cmake --version | head -1)"

build() { # build DIR [cmake args...]
    local dir="$1"; shift
    cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DLIBGRAPH_GPU=CUDA \
        -DLIBGRAPH_WERROR=ON "$@" >>"$out/build.log" 2>&1 &&
        cmake --build "$dir" -j "$jobs" >>"$out/build.log" 2>&1
}

t0=$SECONDS
if ! step 1; then
    :
elif build "$root/build-gpu"; then
    say "build (native waves): ok in $((SECONDS - t0)) s"
    (cd "$root/build-gpu" && ctest --output-on-failure -j 4 ${CTEST_REGEX:+-R "$CTEST_REGEX"} \
        >"$out/ctest.log" 2>&1)
    say "ctest (native waves): $(grep -E 'tests passed|tests failed' "$out/ctest.log")"
    grep -E '^test_wave|GPU tests on|skipped' "$out"/ctest.log | head -5 | tee -a "$summary"
    grep -E 'Failed|\*\*\*' "$out/ctest.log" | tee -a "$summary"
else
    say "build (native waves): FAILED (tail of build.log follows)"
    tail -30 "$out/build.log" | tee -a "$summary"
fi

t0=$SECONDS
if ! step 2; then
    :
elif build "$root/build-gpu64" -DLIBGRAPH_EMULATE_WAVE64=ON; then
    say "build (emulated wave64): ok in $((SECONDS - t0)) s"
    (cd "$root/build-gpu64" && ctest --output-on-failure -R "${CTEST_REGEX:-gpu|wave}" \
        >"$out/ctest-wave64.log" 2>&1)
    say "ctest (emulated wave64, GPU suites): $(grep -E 'tests passed|tests failed' "$out/ctest-wave64.log")"
    grep -E '^test_wave' "$out/ctest-wave64.log" | head -2 | tee -a "$summary"
    grep -E 'Failed|\*\*\*' "$out/ctest-wave64.log" | tee -a "$summary"
else
    say "build (emulated wave64): FAILED (tail of build.log follows)"
    tail -30 "$out/build.log" | tee -a "$summary"
fi

if bench pagerank && [ -x "$root/build-gpu/bench_gpu_pagerank" ]; then
    LIBGRAPH_PLUGIN_PATH="$root/build-gpu" "$root/build-gpu/bench_gpu_pagerank" --repeat 7 $scales \
        >"$out/bench.log" 2>&1
    say "bench_gpu_pagerank (exit $?):"
    grep -E '^(device|row|kron)' "$out/bench.log" | tee -a "$summary"
    # the anchor in the same run: CuPy's cuSPARSE SpMV iteration on the same graphs
    for scale in $scales; do
        "$root/build-gpu/lgraph" generate "kron:$scale" "/tmp/kron$scale.lgb" >/dev/null 2>&1 &&
            python3 "$root/bench/cupy_pagerank.py" "/tmp/kron$scale.lgb" 20 2>&1 | tee -a "$out/bench.log" |
            grep -E '^(row|cupy_pagerank)' | tee -a "$summary"
        rm -f "/tmp/kron$scale.lgb"
    done
fi

# 3a. BFS and CC: bench_gpu_traversal on the issue's graphs (TRAVERSAL=...)
if bench traversal && [ -x "$root/build-gpu/bench_gpu_traversal" ]; then
    LIBGRAPH_PLUGIN_PATH="$root/build-gpu" "$root/build-gpu/bench_gpu_traversal" \
        ${TRAVERSAL:-kron:21:48 kron:22 urand:22} >"$out/traversal.log" 2>&1
    say "bench_gpu_traversal (exit $?):"
    grep -E '^(device|row|kron|urand)' "$out/traversal.log" | tee -a "$summary"
fi

# 3c. SSSP: bench_sssp on weighted Kronecker and uniform graphs (SSSP=...),
# the GPU's distances checked equal to the CPU's from every source, and the
# GPU at a sweep of bucket widths (SSSP_DELTAS=...)
if bench sssp && [ -x "$root/build-gpu/bench_sssp" ]; then
    LIBGRAPH_PLUGIN_PATH="$root/build-gpu" "$root/build-gpu/bench_sssp" --gpu --sources 16 \
        --deltas "${SSSP_DELTAS:-4,16,64,256,1024}" ${SSSP:-kron:20 urand:20 kron:22} \
        >"$out/sssp.log" 2>&1
    say "bench_sssp (exit $?):"
    grep -E '^(row|kron|urand)' "$out/sssp.log" | tee -a "$summary"
    LIBGRAPH_PLUGIN_PATH="$root/build-gpu" "$root/build-gpu/bench_sssp" --scc --gpu \
        ${SCC:-kron:20 kron:22} >"$out/scc.log" 2>&1
    say "bench_sssp --scc (exit $?):"
    grep -E '^(row|kron|urand)' "$out/scc.log" | tee -a "$summary"
fi

# 3d. betweenness (BC=... graphs): from BC_SOURCES sources of positive degree
# on the GPU, and on the host's CPU at 16 threads and 2, the values checked
# equal (relative 1e-9); GAPBS's bc -i 16 beside lgraph's from 16 sources at
# both thread counts when GAPBS_DIR holds a built GAPBS (the same .el file)
if bench bc && [ -x "$root/build-gpu/lgraph" ]; then
    for spec in ${BC:-kron:20 urand:20}; do
        el="/tmp/bc-${spec//:/-}.el"
        "$root/build-gpu/lgraph" generate "$spec" "$el" >/dev/null 2>&1 || continue
        pick() { awk -v k="$1" 'NR % 104729 == 1 && !($1 in s) {s[$1]; print $1; if (++c == k) exit}' "$el" | paste -sd,; }
        s64="$(pick "${BC_SOURCES:-64}")" s16="$(pick 16)"
        bc() { LIBGRAPH_PLUGIN_PATH="$root/build-gpu" "$root/build-gpu/lgraph" bc "$el" "$@" 2>&1 | grep -E '^betweenness'; }
        say "bc $spec GPU, ${BC_SOURCES:-64} sources: $(bc --sources "$s64" --device gpu --repeat 3 --output /tmp/bc-gpu.txt)"
        say "bc $spec CPU 16 threads, ${BC_SOURCES:-64} sources: $(bc --sources "$s64" --device cpu --threads 16 --output /tmp/bc-cpu.txt)"
        same_values /tmp/bc-cpu.txt /tmp/bc-gpu.txt "bc $spec"
        say "bc $spec CPU 2 threads, ${BC_SOURCES:-64} sources: $(bc --sources "$s64" --device cpu --threads 2)"
        # edge betweenness: the same sources, a value an arc (--output: tail head value)
        ebc() { LIBGRAPH_PLUGIN_PATH="$root/build-gpu" "$root/build-gpu/lgraph" ebc "$el" "$@" 2>&1 | grep -E '^edge betweenness'; }
        say "ebc $spec GPU, ${BC_SOURCES:-64} sources: $(ebc --sources "$s64" --device gpu --repeat 3 --output /tmp/ebc-gpu.txt)"
        say "ebc $spec CPU 16 threads, ${BC_SOURCES:-64} sources: $(ebc --sources "$s64" --device cpu --threads 16 --output /tmp/ebc-cpu.txt)"
        python3 - /tmp/ebc-cpu.txt /tmp/ebc-gpu.txt "$spec" <<'PY' | tee -a "$summary"
import sys
import numpy as np
a, b = np.loadtxt(sys.argv[1]), np.loadtxt(sys.argv[2])
same = bool((a[:, :2] == b[:, :2]).all())
d = float((np.abs(a[:, 2] - b[:, 2]) / np.maximum(np.abs(a[:, 2]), 1e-300)).max())
print(f"ebc {sys.argv[3]}: GPU vs CPU max relative diff {d:.3g} ({'ok' if same and d < 1e-9 else 'FAILED'})")
PY
        rm -f /tmp/ebc-gpu.txt /tmp/ebc-cpu.txt
        for t in 16 2; do
            say "bc $spec CPU $t threads, 16 sources: $(bc --sources "$s16" --device cpu --threads $t --repeat 2)"
            if [ -x "${GAPBS_DIR:-/nonexistent}/bc" ]; then
                say "gapbs bc $spec $t threads -i 16: $(OMP_NUM_THREADS=$t "$GAPBS_DIR/bc" -f "$el" -s -i 16 -n 2 | grep -E 'Trial Time' | paste -sd' ')"
            fi
        done
        rm -f "$el" /tmp/bc-gpu.txt /tmp/bc-cpu.txt
    done
fi

# 3e. closeness and harmonic centrality of every vertex (CLOSENESS=... files
# or generated graphs) on the GPU against the host's CPU at 16 threads,
# unweighted and with random weights 1-8; the values checked equal (relative 1e-9)
if bench closeness && [ -x "$root/build-gpu/lgraph" ]; then
    for spec in ${CLOSENESS:-tests/data/facebook_combined.el tests/data/oregon1_010331.el kron:16}; do
        el="/tmp/closeness-$(basename "${spec//:/-}" .el).el"
        if [ -f "$root/$spec" ]; then cp "$root/$spec" "$el"; else
            "$root/build-gpu/lgraph" generate "$spec" "$el" >/dev/null 2>&1 || continue; fi
        awk 'BEGIN {srand(7)} /^#/ {next} {print $1, $2, 1 + int(rand() * 8)}' "$el" > "${el%.el}.wel"
        cl() { LIBGRAPH_PLUGIN_PATH="$root/build-gpu" "$root/build-gpu/lgraph" closeness "$@" 2>&1 | grep -E '^closeness'; }
        for input in "$el" "${el%.el}.wel"; do
            for kind in "" --harmonic; do
                name="closeness $(basename "$input") ${kind:-closeness}"
                say "$name GPU: $(cl "$input" $kind --device gpu --repeat 3 --output /tmp/cl-gpu.txt)"
                say "$name CPU 16 threads: $(cl "$input" $kind --device cpu --threads 16 --repeat 3 --output /tmp/cl-cpu.txt)"
                same_values /tmp/cl-cpu.txt /tmp/cl-gpu.txt "$name"
            done
        done
        rm -f "$el" "${el%.el}.wel" /tmp/cl-gpu.txt /tmp/cl-cpu.txt
    done
fi

# 3a. an iteration of eigenvector, Katz and HITS beside PageRank's (double
# and float, POWER_ITERS iterations, tol 0) on the GPU and on the host's CPU,
# the graph read undirected and directed (HITS's second pull then runs over
# the renamed out-edges), and the GPU's results against the CPU's (1e-9 of
# the largest entry in double, 1e-5 in float)
if bench power && [ -x "$root/build-gpu/lgraph" ]; then
    for spec in ${POWER:-kron:22 urand:22}; do
        el="/tmp/power-${spec//:/-}.el"
        "$root/build-gpu/lgraph" generate "$spec" "$el" >/dev/null 2>&1 || continue
        iters="${POWER_ITERS:-50}"
        for dir in --undirected --directed; do
            for prec in float64 float32; do
                for dev in gpu cpu; do
                    line="power $spec $dir $prec ${dev^^}, ms an iteration (median of 7 runs of $iters):"
                    [ "$dev" = cpu ] && line="power $spec $dir $prec CPU $jobs threads, ms an iteration (median of 3 runs of $iters):"
                    for alg in pagerank eigenvector katz hits; do
                        extra=""; [ "$alg" = katz ] && extra="--alpha 1e-4"
                        reps=7; [ "$dev" = cpu ] && reps=3
                        ms="$(LIBGRAPH_PLUGIN_PATH="$root/build-gpu" "$root/build-gpu/lgraph" "$alg" "$el" $dir \
                            --device "$dev" --tol 0 --max-iter "$iters" --precision "$prec" $extra --repeat $reps --json 2>/dev/null |
                            tail -1 | python3 -c "import json,sys; d=json.load(sys.stdin); print(f\"{d['median_s'] * 1e3 / $iters:.3f}\" if d['ran_on'] == '$dev' else 'not-on-$dev')")"
                        line="$line $alg ${ms:-failed}"
                    done
                    say "$line"
                done
                bound=1e-9; [ "$prec" = float32 ] && bound=1e-5
                for alg in eigenvector katz hits; do
                    extra=""; [ "$alg" = katz ] && extra="--alpha 1e-4"
                    [ "$alg" = hits ] && [ "$prec" = float32 ] && extra="--tol 1e-5"
                    LIBGRAPH_PLUGIN_PATH="$root/build-gpu" "$root/build-gpu/lgraph" "$alg" "$el" $dir \
                        $extra --precision "$prec" --device gpu --output /tmp/power-gpu.txt >/dev/null 2>&1
                    "$root/build-gpu/lgraph" "$alg" "$el" $dir $extra --precision "$prec" --device cpu \
                        --output /tmp/power-cpu.txt >/dev/null 2>&1
                    python3 - /tmp/power-cpu.txt /tmp/power-gpu.txt "$alg $spec $dir $prec" "$bound" <<'PY' | tee -a "$summary"
import sys
import numpy as np
a, b = np.loadtxt(sys.argv[1]), np.loadtxt(sys.argv[2])
d = float(np.abs(a - b).max() / max(np.abs(a).max(), 1e-300)) if a.shape == b.shape else float("inf")
print(f"power {sys.argv[3]}: GPU vs CPU max |diff| / max {d:.3g} ({'ok' if d < float(sys.argv[4]) else 'FAILED'})")
PY
                done
            done
        done
        rm -f "$el" /tmp/power-gpu.txt /tmp/power-cpu.txt
    done
fi

# 3a'. triangles and clustering on the GPU against the host's CPU (all its
# threads, and 2): the calls' medians, and the counts and coefficients
# compared (equal: integers, and the same arithmetic for the coefficients)
if bench triangles && [ -x "$root/build-gpu/lgraph" ]; then
    for spec in ${TRIANGLES:-kron:20 urand:20}; do
        el="/tmp/tri-${spec//:/-}.el"
        "$root/build-gpu/lgraph" generate "$spec" "$el" >/dev/null 2>&1 || continue
        line="triangles $spec, ms a call (median of 5):"
        for dev in gpu "cpu $jobs" "cpu 2"; do
            set -- $dev
            ms="$(OMP_NUM_THREADS="${2:-$jobs}" LIBGRAPH_PLUGIN_PATH="$root/build-gpu" "$root/build-gpu/lgraph" \
                triangles "$el" --undirected --device "$1" --repeat 5 --json 2>/dev/null | tail -1 |
                python3 -c "import json,sys; d=json.load(sys.stdin); print(f\"{d['median_s'] * 1e3:.2f} ({d['total']} triangles, {d['ran_on']})\")")"
            line="$line $dev ${ms:-failed};"
        done
        say "$line"
        for alg in triangles clustering; do
            LIBGRAPH_PLUGIN_PATH="$root/build-gpu" "$root/build-gpu/lgraph" "$alg" "$el" --undirected \
                --device gpu --output /tmp/tri-gpu.txt >/dev/null 2>&1
            "$root/build-gpu/lgraph" "$alg" "$el" --undirected --device cpu --output /tmp/tri-cpu.txt >/dev/null 2>&1
            if cmp -s /tmp/tri-cpu.txt /tmp/tri-gpu.txt && [ -s /tmp/tri-cpu.txt ]; then
                say "$alg $spec: GPU output equals the CPU's (ok)"
            else
                say "$alg $spec: GPU output differs from the CPU's (FAILED)"
            fi
        done
        rm -f "$el" /tmp/tri-gpu.txt /tmp/tri-cpu.txt
    done
fi

# 3b. large graphs through the whole GPU path (staged upload in 32 MB chunks,
# pull structure, PageRank) against the CPU: the tests' graphs are small
if bench large && [ -x "$root/build-gpu/lgraph" ]; then
    for scale in $scales; do
        "$root/build-gpu/lgraph" pagerank "kron:$scale" --device cpu --top 1 \
            --output "/tmp/pr-cpu$scale.txt" >/dev/null 2>&1 &&
        LIBGRAPH_PLUGIN_PATH="$root/build-gpu" "$root/build-gpu/lgraph" pagerank "kron:$scale" \
            --device gpu --top 1 --output "/tmp/pr-gpu$scale.txt" >/dev/null 2>&1 &&
        python3 - "/tmp/pr-cpu$scale.txt" "/tmp/pr-gpu$scale.txt" "$scale" <<'PY' | tee -a "$summary" ||
import sys
import numpy as np
a, b = np.loadtxt(sys.argv[1]), np.loadtxt(sys.argv[2])
d = float(np.abs(a - b).max())
print(f"large-graph check kron:{sys.argv[3]}: PageRank GPU vs CPU max |diff| {d:.3g} "
      f"({'ok' if d < 1e-12 else 'FAILED'})")
PY
            say "large-graph check kron:$scale: FAILED (a run or the comparison failed)"
        rm -f "/tmp/pr-cpu$scale.txt" "/tmp/pr-gpu$scale.txt"
        for cmd in "bfs --source 1 --parents" cc; do
            "$root/build-gpu/lgraph" $cmd "kron:$scale" --device cpu --output /tmp/cpu.txt \
                >/dev/null 2>&1 &&
            LIBGRAPH_PLUGIN_PATH="$root/build-gpu" "$root/build-gpu/lgraph" $cmd "kron:$scale" \
                --device gpu --output /tmp/gpu.txt >/dev/null 2>&1 &&
            if [ "${cmd%% *}" = bfs ]; then # distances equal; parents may differ
                cmp -s <(cut -d' ' -f1 /tmp/cpu.txt) <(cut -d' ' -f1 /tmp/gpu.txt)
            else
                cmp -s /tmp/cpu.txt /tmp/gpu.txt
            fi && say "large-graph check kron:$scale: ${cmd%% *} GPU equals CPU (ok)" ||
                say "large-graph check kron:$scale: ${cmd%% *}: FAILED"
            rm -f /tmp/cpu.txt /tmp/gpu.txt
        done
    done
fi

# 4. the Python module
t0=$SECONDS
pysite=/tmp/libgraph-py
rm -rf "$pysite"
if ! step 4 && ! step 5; then
    :
elif python3 -m pip install -q --no-build-isolation --no-deps --no-cache-dir --target "$pysite" \
        "$root/python" >"$out/python.log" 2>&1; then
    say "python package: built in $((SECONDS - t0)) s ($(python3 --version))"
    step 4 && (cd "$root" && PYTHONPATH="$pysite" python3 -m pytest -q -p no:cacheprovider \
        ${PYTEST_ARGS:-tests/python/test_gpu.py tests/python/test_module_algorithms.py \
            tests/python/test_module_graph.py tests/python/test_module_arrays.py \
            tests/python/test_module_convert.py tests/python/test_module_io.py \
            tests/python/test_module_context.py tests/python/test_module_progress.py} \
        >>"$out/python.log" 2>&1)
    step 4 && say "pytest (python module): $(grep -E '(passed|failed|error)' "$out/python.log" | tail -1)"
    # Ctrl-C's latency in the long calls on the GPU (and on this host's CPU)
    if step 4; then
        for dev in gpu cpu; do
            (cd /tmp && PYTHONPATH="$pysite" python3 "$root/bench/python_api.py" --groups interrupt \
                --device "$dev" --scale "${INTERRUPT_SCALE:-22}" --runs 5 --threads "$jobs" \
                >>"$out/interrupt.log" 2>&1)
        done
        grep -E '^row' "$out/interrupt.log" | tee -a "$summary"
        # the same GPU calls from C and from Python (CuPy arrays for device results)
        (cd /tmp && PYTHONPATH="$pysite" LIBGRAPH_PLUGIN_PATH="$root/build-gpu" python3 \
            "$root/bench/python_api.py" --groups gpu_calls \
            --gpu-calls "$root/build-gpu/bench_gpu_calls" >"$out/gpu_calls.log" 2>&1)
        grep -E '^(row|gpu_calls)' "$out/gpu_calls.log" | tee -a "$summary"
    fi
    # the NetworkX backend's tests with its calls on the GPU
    (cd "$root" && PYTHONPATH="$pysite" LIBGRAPH_TEST_DEVICE=gpu python3 -m pytest -q \
        -p no:cacheprovider tests/python/test_nx_backend.py >>"$out/python.log" 2>&1)
    say "pytest (NetworkX backend on the GPU): $(grep -E '(passed|failed|error)' "$out/python.log" | tail -1)"
    grep -E '^(FAILED|ERROR)' "$out/python.log" | head -20 | tee -a "$summary"
    if step 5; then
        (cd /tmp && PYTHONPATH="$pysite" python3 "$root/bench/nx_backend.py" "${NX_SCALE:-18}" \
            --device gpu >"$out/nx_backend.log" 2>&1)
        say "bench/nx_backend.py --device gpu (exit $?):"
        grep -E '^(graph|row)' "$out/nx_backend.log" | tee -a "$summary"
    fi
else
    say "python package: build FAILED (tail of python.log follows)"
    tail -20 "$out/python.log" | tee -a "$summary"
fi
