#!/usr/bin/env bash
# cli_alloc_sweep.sh LGRAPH TMPDIR - lgraph (built with LGRAPH_FAILURE_INJECTION)
# with the library's k-th allocation failing, k = 0, 1, ... until a run
# passes, for each command on each input format: every failed run must exit
# 1 with one "lgraph: ...: ... (LG_ERR_OUT_OF_MEMORY)" line, and leave no
# partial output file.  Prints the runs made; fails on anything else.
# LG_TEST_EMULATOR, when set (a cross build's qemu), runs lgraph.
set -uo pipefail
lgraph="$1"
dir="$(mktemp -d "$2/cli_alloc.XXXXXX")"
trap 'rm -rf "$dir"' EXIT
printf '%s\n' '0 1 0.5' '1 2 2' '2 0 1' '2 3 4' > "$dir/g.wel"
${LG_TEST_EMULATOR:-} "$lgraph" convert "$dir/g.wel" "$dir/g.mtx" --directed >/dev/null &&
${LG_TEST_EMULATOR:-} "$lgraph" convert "$dir/g.wel" "$dir/g.lgb" >/dev/null &&
${LG_TEST_EMULATOR:-} "$lgraph" convert "$dir/g.wel" "$dir/g.el" >/dev/null || { echo "cannot make the inputs"; exit 1; }
runs=0 bad=0
sweep() { # ARGS...: one command swept
    local k out err rc
    rm -f "$dir"/out.*
    for ((k = 0; k < 500; k++)); do
        rc=0
        err="$(LGRAPH_FAIL_AFTER=$k ${LG_TEST_EMULATOR:-} "$lgraph" "$@" 2>&1 >/dev/null)" || rc=$?
        runs=$((runs + 1))
        [ "$rc" = 0 ] && return 0
        if [ "$rc" != 1 ] || [ "$(printf '%s\n' "$err" | wc -l)" != 1 ] ||
            [[ "$err" != lgraph:*"(LG_ERR_OUT_OF_MEMORY)" ]]; then
            echo "lgraph $* with allocation $k failing: exit $rc: $err"
            bad=$((bad + 1))
            return 0
        fi
        for out in "$dir"/out.*; do
            [ -e "$out" ] && { echo "lgraph $*: allocation $k failing left $out"; bad=$((bad + 1)); rm -f "$out"; }
        done
    done
    echo "lgraph $*: never went through"; bad=$((bad + 1))
}
for f in g.wel g.el g.mtx g.lgb; do
    sweep info "$dir/$f"
    sweep bfs "$dir/$f" --parents --output "$dir/out.bfs"
    sweep pagerank "$dir/$f" --output "$dir/out.pr"
    sweep pagerank "$dir/$f" --float
    sweep cc "$dir/$f" --output "$dir/out.cc"
    sweep sssp "$dir/$f" --predecessors --output "$dir/out.sssp"
    sweep scc "$dir/$f" --output "$dir/out.scc"
done
sweep path "$dir/g.wel" --target 3 --json
sweep convert "$dir/g.wel" "$dir/out.lgb"
sweep generate kron:6 "$dir/out.mtx"
sweep bfs kron:8 --source 1,2,3 --json
echo "cli_alloc_sweep: $runs runs, $bad wrong"
[ "$bad" = 0 ]
