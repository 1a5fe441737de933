#!/usr/bin/env bash
# bench/build_times.sh - time graph generation and building with the installed lgraph.
#
#   bench/build_times.sh [SPEC ...]      default: kron:20 kron:22 urand:20
#
# Prints, for each spec and thread count, the edge-generation time and the
# graph-build time (COO -> validated, symmetrized, deduplicated CSR) that
# lgraph reports, the median of REPEAT runs (default 3).  Needs ./install.sh first.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
lgraph="${LGRAPH:-$root/.local/bin/lgraph}"
repeat="${REPEAT:-3}"
threads_list="${THREADS:-1 $(nproc)}"
[ $# -gt 0 ] || set -- kron:20 kron:22 urand:20

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; $("$lgraph" --version 2>/dev/null | awk 'NR > 1 {printf "; "} {printf "%s", $0}' || true)"
printf '%-10s %7s %10s %10s %12s %12s\n' graph threads vertices arcs "generate s" "build s"
for spec in "$@"; do
    for t in $threads_list; do
        gens=() builds=() line=""
        for _ in $(seq "$repeat"); do
            out="$("$lgraph" info "$spec" --threads "$t")"
            line="$(echo "$out" | head -1)"
            read -r g b < <(echo "$out" | sed -n 's/^generated edges in \([0-9.]*\) s, built the graph in \([0-9.]*\) s$/\1 \2/p')
            gens+=("$g"); builds+=("$b")
        done
        n="$(echo "$line" | sed -n 's/.*: \([0-9]*\) vertices.*/\1/p')"
        m="$(echo "$line" | sed -n 's/.* \([0-9]*\) arcs.*/\1/p')"
        printf '%-10s %7s %10s %10s %12s %12s\n' "$spec" "$t" "$n" "$m" \
            "$(printf '%s\n' "${gens[@]}" | median)" "$(printf '%s\n' "${builds[@]}" | median)"
    done
done
