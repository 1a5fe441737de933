#!/usr/bin/env bash
# cli_dist.sh LGRAPH DATA_DIR MPIEXEC NUMPROC_FLAG [MPIEXEC_FLAGS...]
#
# `lgraph ... --distributed` under mpiexec against lgraph on one process: the
# --output files of bfs and cc are the same bytes, PageRank's scores agree
# within 1e-9 in L1, for generated graphs (each rank makes its share) and a
# file (each rank reads its part), on 1 and 3 ranks; a bad file is one
# error line naming the file and line, exit status 2, on any rank count.
set -uo pipefail
lgraph="$1" data="$2" mpiexec="$3" npflag="$4"
shift 4
extra=("$@")
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() {
    echo "FAILED: $*"
    failed=1
}
run_np() { # NP ARGS...: lgraph under mpiexec with NP ranks
    local np="$1"
    shift
    "$mpiexec" "$npflag" "$np" "${extra[@]}" "$lgraph" "$@" --distributed --threads 1
}

l1() { # FILE FILE: the L1 distance of two columns of numbers
    paste "$1" "$2" | awk '{d = $1 - $2; s += d < 0 ? -d : d} END {printf "%.3g\n", s}'
}

for np in 1 3; do
    for input in kron:11 urand:10 "$data/facebook_combined.el"; do
        "$lgraph" bfs "$input" --source 3 --output "$tmp/bfs.1" >/dev/null || fail "lgraph bfs $input"
        run_np "$np" bfs "$input" --source 3 --output "$tmp/bfs.p" >/dev/null ||
            fail "bfs $input on $np ranks"
        cmp -s "$tmp/bfs.1" "$tmp/bfs.p" || fail "bfs $input on $np ranks: other distances"
        "$lgraph" cc "$input" --output "$tmp/cc.1" >/dev/null || fail "lgraph cc $input"
        run_np "$np" cc "$input" --output "$tmp/cc.p" >/dev/null || fail "cc $input on $np ranks"
        cmp -s "$tmp/cc.1" "$tmp/cc.p" || fail "cc $input on $np ranks: other labels"
        "$lgraph" pagerank "$input" --tol 1e-10 --output "$tmp/pr.1" >/dev/null ||
            fail "lgraph pagerank $input"
        run_np "$np" pagerank "$input" --tol 1e-10 --output "$tmp/pr.p" >/dev/null ||
            fail "pagerank $input on $np ranks"
        d="$(l1 "$tmp/pr.1" "$tmp/pr.p")"
        awk -v d="$d" 'BEGIN {exit !(d <= 1e-9)}' ||
            fail "pagerank $input on $np ranks: L1 distance $d"
        [ "$(wc -l < "$tmp/pr.p")" = "$(wc -l < "$tmp/pr.1")" ] ||
            fail "pagerank $input on $np ranks: other line count"
    done
    # the summary line and the JSON line
    out="$(run_np "$np" pagerank kron:10 --json 2>&1)" || fail "pagerank --json on $np ranks"
    grep -q "on $np rank" <<<"$out" || fail "no rank count in: $out"
    grep -q "\"ranks\": $np" <<<"$out" || fail "no JSON ranks in: $out"
    grep -q "bytes a rank a round" <<<"$out" || fail "no traffic line in: $out"
done

# a bad line in the last rank's part: one message, the file's line, status 2
for i in $(seq 1 400); do echo "$((i % 9)) $((i % 7))"; done > "$tmp/bad.el"
echo "2 z" >> "$tmp/bad.el"
for np in 1 3; do
    run_np "$np" cc "$tmp/bad.el" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    [ "$rc" = 2 ] || fail "bad file on $np ranks: exit status $rc"
    [ "$(grep -c 'lgraph:' "$tmp/err")" = 1 ] || fail "bad file on $np ranks: $(cat "$tmp/err")"
    grep -q "bad.el:401:" "$tmp/err" || fail "bad file on $np ranks: no line 401 in $(cat "$tmp/err")"
done
run_np 2 convert kron:5 "$tmp/x.el" > /dev/null 2> "$tmp/err"
[ $? = 2 ] && grep -q "not available with --distributed" "$tmp/err" || fail "convert --distributed"
run_np 2 pagerank kron:5 --float > /dev/null 2> "$tmp/err"
[ $? = 2 ] && grep -q "float is not available" "$tmp/err" || fail "pagerank --float --distributed"

# a size line of 2^31 - 1 vertices: 24 bytes a vertex over the node's ranks
# (51.5 GB) is refused on every rank before it is taken, where the node has
# less available (where it has more, the graph is built: nothing to check)
printf '%%%%MatrixMarket matrix coordinate pattern general\n2147483647 2147483647 1\n1 2\n' \
    > "$tmp/huge.mtx"
avail_kb="$(awk '/^MemAvailable:/ {print $2}' /proc/meminfo)"
if [ -n "$avail_kb" ] && [ "$avail_kb" -lt 50000000 ]; then
    run_np 3 info "$tmp/huge.mtx" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    [ "$rc" != 0 ] && [ "$(grep -c 'lgraph:' "$tmp/err")" = 1 ] &&
        grep -q "needs .* GB on the 3 ranks of this node, more than the .* GB it has available" \
            "$tmp/err" || fail "a size line past the node's memory: exit $rc, $(cat "$tmp/err")"
fi

[ "$failed" = 0 ] && echo "lgraph --distributed: all checks passed"
exit "$failed"
