#!/usr/bin/env bash
# bench/paths_anchors.sh - libgraph's SSSP beside GAPBS's sssp, and its SCC
# beside igraph's, on the same graphs, in one run (docs/PERFORMANCE.md).
#
#   GAPBS_DIR=/path/to/gapbs bench/paths_anchors.sh [THREADS] [GRAPH ...]
#
# For each graph (default kron:20 urand:20): bench_sssp (build/, median of 16
# random sources) writes the weighted graph as .wel (GAPBS's weights: uniform
# integers in [1, 255]), then GAPBS's sssp reads that file (symmetrized, 16
# trials from its own random sources) with -d1 (its default) and -d2 (its
# benchmark's setting).  Then the directed Kronecker graph of the first
# graph's scale: bench_sssp --scc, and igraph's strongly connected components
# (bench/scc_igraph.py, .venv's igraph) on the same edge list.  GAPBS is not
# part of this repository: build it from its own checkout (make sssp).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
threads="${1:-2}"
shift || true
graphs=("${@:-kron:20 urand:20}")
# shellcheck disable=SC2206
graphs=(${graphs[*]})
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for g in "${graphs[@]}"; do
    "$root/build/bench_sssp" --threads "$threads" --sources 16 --write "$tmp/g.wel" "$g" | grep row
    if [ -n "${GAPBS_DIR:-}" ]; then
        for d in 1 2; do
            echo "row: $g gapbs sssp -d$d threads=$threads average_s=$(OMP_NUM_THREADS="$threads" \
                "$GAPBS_DIR/sssp" -f "$tmp/g.wel" -s -n 16 -d "$d" | awk '/Average Time/ {print $3}')"
        done
    fi
done
scale="${graphs[0]#*:}"
scale="${scale%%:*}"
"$root/build/bench_sssp" --scc --threads "$threads" --write "$tmp/d.el" "kron:$scale" | grep row
OMP_NUM_THREADS="$threads" "$root/.venv/bin/python" "$root/bench/scc_igraph.py" "$tmp/d.el"
