#!/usr/bin/env bash
# dist_scaling.sh [--build DIR] [--graphs "kron:22 urand:22"] [--algorithms "bfs pagerank cc"]
#                 [--cores N] [--repeat R]
#
# libgraph_dist on the CPUs of one host: the same cores split into P ranks of
# N/P threads (P = 1, 2, 4, ... N/2), each rank bound to its cores, against
# single-process lgraph with N threads, on generated graphs (each rank makes
# its share); BFS from the vertex of highest PageRank, PageRank for 20
# iterations.  Builds the tree into DIR first (-DLIBGRAPH_GPU=OFF; only what
# changed).  Prints a Markdown table: the median of R runs
# (the slowest rank's time), PageRank's time an iteration, and the bytes a
# rank sent a round.  Needs MPI (mpiexec) and the cores: timings of ranks that
# share cores mean nothing.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build-dist-bench"
graphs="kron:22 urand:22"
cores="$(nproc)"
repeat=3
algorithms="bfs pagerank cc"
while [ $# -gt 0 ]; do
    case "$1" in
        --build) build="$2"; shift ;;
        --graphs) graphs="$2"; shift ;;
        --algorithms) algorithms="$2"; shift ;;
        --cores) cores="$2"; shift ;;
        --repeat) repeat="$2"; shift ;;
        *) echo "dist_scaling.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DLIBGRAPH_GPU=OFF \
    -DLIBGRAPH_BUILD_TESTS=OFF -DLIBGRAPH_DIST=ON >/dev/null
cmake --build "$build" -j "$cores" --target lgraph lgraph_dist >/dev/null
lgraph="$build/lgraph"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none

field() { # JSON-LINE NAME: a number field of lgraph's JSON line
    sed -n "s/.*\"$2\": \\([-0-9.e+]*\\).*/\\1/p" <<<"$1"
}

echo "host: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(mpiexec --version | head -1)"
echo
echo "| graph | algorithm | processes x threads | median ms | ms an iteration | bytes a rank a round |"
echo "|---|---|---|---|---|---|"
for g in $graphs; do
    # BFS from the vertex of highest PageRank (in the giant component)
    top="$("$lgraph" pagerank "$g" --top 1 --threads "$cores" | sed -n 's/^ *1\. vertex \([0-9]*\).*/\1/p')"
    for algo in $algorithms; do
        extra=()
        [ "$algo" = bfs ] && extra=(--source "$top")
        # PageRank: 20 iterations (NetworkX's test, L1 < |V| x tol, passes after one on large graphs)
        [ "$algo" = pagerank ] && extra=(--tol 0 --max-iter 20)
        j="$("$lgraph" "$algo" "$g" --threads "$cores" --repeat "$repeat" --json "${extra[@]}" | grep '^{' || true)"
        med="$(field "$j" median_s)"
        it=""
        [ "$algo" = pagerank ] && it="$(awk -v m="$med" -v k="$(field "$j" iterations)" 'BEGIN {printf "%.2f", 1e3 * m / k}')"
        printf '| %s | %s | 1 x %d (lgraph) | %.2f | %s | |\n' "$g" "$algo" "$cores" "$(awk -v m="$med" 'BEGIN {print 1e3 * m}')" "$it"
        for ((p = 1; p <= cores / 2; p *= 2)); do
            t=$((cores / p))
            j="$(mpiexec -n "$p" --map-by "slot:PE=$t" --bind-to core "$lgraph" "$algo" "$g" \
                --distributed --threads "$t" --repeat "$repeat" --json --top 0 "${extra[@]}" | grep '^{' || true)"
            med="$(field "$j" median_s)"
            rounds="$(field "$j" rounds)"
            bytes="$(awk -v b="$(field "$j" bytes_total)" -v p="$p" -v r="$rounds" -v k="$repeat" \
                'BEGIN {printf "%.0f", r ? b / p / r : 0}')"
            it=""
            [ "$algo" = pagerank ] && it="$(awk -v m="$med" -v k="$(field "$j" iterations)" 'BEGIN {printf "%.2f", 1e3 * m / k}')"
            printf '| %s | %s | %d x %d | %.2f | %s | %s |\n' "$g" "$algo" "$p" "$t" \
                "$(awk -v m="$med" 'BEGIN {print 1e3 * m}')" "$it" "$bytes"
        done
    done
done
