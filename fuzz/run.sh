#!/usr/bin/env bash
# fuzz/run.sh [SECONDS] [TARGET...] - builds the libFuzzer targets (fuzz/,
# into build-fuzz/ with clang, ASan and UBSan) and runs each for SECONDS
# (default 60) from its seed corpus (fuzz/corpus/TARGET) and dictionary
# (fuzz/dict/TARGET.dict).  TARGETs: mtx edge_list lgb build (default: all).
#
# What a run finds grows a working corpus in build-fuzz/corpus-TARGET (kept
# between runs; the repository's seeds stay as they are).  A crash is saved
# as build-fuzz/crashes/TARGET-*; copy it into fuzz/regressions/TARGET/ and
# it becomes a ctest test (fuzz_TARGET_replay) once fixed.  For hours:
#   FUZZ_JOBS=2 fuzz/run.sh 14400 edge_list
# FUZZ_CC names the compiler (default: the newest clang-N on the PATH).
# FUZZ_RUNS=N stops each target after N executions in all (shared among the
# jobs), whichever comes first; FUZZ_PREBUILT=1 runs the binaries already in
# build-fuzz/ (built here, carried to a machine without clang):
#   FUZZ_PREBUILT=1 FUZZ_JOBS=14 FUZZ_RUNS=10000000 fuzz/run.sh 560 build
# One line per target, then "fuzz: N executions, M crashes"; exit 1 on a crash.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
secs="${1:-60}"
[ $# -gt 0 ] && shift
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(mtx edge_list lgb build)
newest_clang() { compgen -c clang- | grep -E '^clang-[0-9]+$' | sort -t- -k2 -n | tail -1 || true; }
cc="${FUZZ_CC:-$(newest_clang)}"
[ -n "$cc" ] || { echo "fuzz/run.sh: no clang-N on the PATH (or name one in FUZZ_CC)" >&2; exit 1; }
out="$here/build-fuzz"

if [ -z "${FUZZ_PREBUILT:-}" ]; then
    cmake -S "$here/fuzz" -B "$out" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    cmake --build "$out" -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
fi
mkdir -p "$out/crashes"
jobs="${FUZZ_JOBS:-1}"
limit=()
[ -n "${FUZZ_RUNS:-}" ] && limit=(-runs=$(((FUZZ_RUNS + jobs - 1) / jobs)))

total=0 crashes=0
for t in "${targets[@]}"; do
    work="$out/corpus-$t"
    mkdir -p "$work"
    dict=()
    [ -f "$here/fuzz/dict/$t.dict" ] && dict=("-dict=$here/fuzz/dict/$t.dict")
    log="$out/fuzz_$t.log"
    rc=0 start=$SECONDS
    "$out/fuzz_$t" "${dict[@]}" -max_total_time="$secs" "${limit[@]}" -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 -jobs="$jobs" -workers="$jobs" \
        -artifact_prefix="$out/crashes/$t-" "$work" "$here/fuzz/corpus/$t" >"$log" 2>&1 || rc=$?
    # each job logs to fuzz-N.log in the current directory, and libFuzzer
    # copies every job's log into its own output when the job ends: the
    # executions are counted there alone
    runs="$(awk '/stat::number_of_executed_units/ {s += $2} END {print s + 0}' "$log")"
    rm -f fuzz-*.log
    total=$((total + runs))
    if [ "$rc" = 0 ]; then
        echo "fuzz_$t: $runs executions in $((SECONDS - start)) s, no crash"
    else
        crashes=$((crashes + 1))
        echo "fuzz_$t: FAILED after $runs executions (exit $rc); its report:"
        grep -E 'ERROR|fuzz check failed|SUMMARY|Test unit written' "$log" | head -20 | sed 's/^/  /'
    fi
done
echo "fuzz: $total executions, $crashes crashes"
[ "$crashes" = 0 ]
