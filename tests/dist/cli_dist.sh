#!/usr/bin/env bash
# cli_dist.sh [--ranks "P..."] LGRAPH DATA_DIR MPIEXEC NUMPROC_FLAG [MPIEXEC_FLAGS...]
#
# `lgraph ... --distributed` under mpiexec against lgraph on one process: the
# --output files of bfs and cc are the same bytes, PageRank's scores agree
# within 1e-9 in L1, for generated graphs (each rank makes its share) and a
# file (each rank reads its part), on 1 and 3 ranks (--ranks: those rank
# counts); PageRank's top list with --top's default and past |V|; info and
# the JSON lines; a bad file is one error line naming the file and line,
# exit status 2, on any rank count, and so is a bad argument.
#
# Every command path runs on every rank, but ranks other than 0 print
# nothing, so a sanitizer's report there would go unseen: each process logs
# ASan's and UBSan's reports to a file of its own, and any report fails the
# run -- a leak only when one of its stacks is in libgraph's code (Open MPI's
# own leaks at exit, "<unknown module>", are let through, as own_leaks.sh
# does).  Without the sanitizers there are no logs.  LeakSanitizer's scan at
# exit costs ~20 s a 3-rank run on 2 cores (against ~2 s without it), so the
# leak check runs for one invocation of each command path (LEAKS=1 run_np),
# the memory errors for all.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
ranks="1 3"
if [ "${1:-}" = --ranks ]; then
    ranks="$2"
    shift 2
fi
lgraph="$1" data="$2" mpiexec="$3" npflag="$4"
shift 4
extra=("$@")
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/san"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=$tmp/san/asan"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}log_path=$tmp/san/ubsan"
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}exitcode=0"
most="${ranks##* }" # the error paths run on the most ranks asked for
failed=0
fail() {
    echo "FAILED: $*"
    failed=1
}
run_np() { # NP ARGS...: lgraph under mpiexec with NP ranks (mpiexec can hang when
    # a rank dies: 5 minutes, then the run is a failure)
    local np="$1"
    shift
    ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=${LEAKS:-0}" \
        timeout -k 10 300 "$mpiexec" "$npflag" "$np" "${extra[@]}" "$lgraph" "$@" --distributed \
        --threads 1
}
json_ok() { # TEXT: its last line is one JSON object
    python3 -c 'import json, sys; assert isinstance(json.loads(sys.stdin.read().splitlines()[-1]), dict)' \
        <<<"$1" 2>/dev/null
}

l1() { # FILE FILE: the L1 distance of two columns of numbers
    paste "$1" "$2" | awk '{d = $1 - $2; s += d < 0 ? -d : d} END {printf "%.3g\n", s}'
}

for np in $ranks; do
    for input in kron:11 urand:10 "$data/facebook_combined.el"; do
        # leaks looked for on the file (read in parts) on the most ranks
        LEAKS=0
        [ "$input" != "${input#"$data"}" ] && [ "$np" = "$most" ] && LEAKS=1
        export LEAKS
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
    LEAKS=0 # the top list's, below: pagerank's leaks were looked for on the file
    # the summary line and the JSON line
    out="$(run_np "$np" pagerank kron:10 --json 2>&1)" || fail "pagerank --json on $np ranks"
    grep -q "on $np rank" <<<"$out" || fail "no rank count in: $out"
    grep -q "\"ranks\": $np" <<<"$out" || fail "no JSON ranks in: $out"
    grep -q "bytes a rank a round" <<<"$out" || fail "no traffic line in: $out"
    json_ok "$out" || fail "pagerank --json on $np ranks: not JSON: $out"
    # the top list: --top's default, and past |V| (every vertex once)
    out="$(run_np "$np" pagerank kron:10 2>&1)" || fail "pagerank on $np ranks: $out"
    [ "$(grep -c '^ *[0-9]*\. vertex' <<<"$out")" = 10 ] || fail "top 10 on $np ranks: $out"
    [ "$np" = "$most" ] && LEAKS=1 # the longest top list, then info
    out="$(run_np "$np" pagerank kron:10 --top 300000 2>&1)" ||
        fail "pagerank --top 300000 on $np ranks"
    [ "$(grep '^ *[0-9]*\. vertex' <<<"$out" | awk '{print $3}' | sort -un | wc -l)" = 1024 ] ||
        fail "pagerank --top 300000 on $np ranks: not every vertex once"
    for command in info bfs cc; do
        out="$(run_np "$np" "$command" urand:8 --json 2>&1)" || fail "$command --json on $np ranks"
        json_ok "$out" || fail "$command --json on $np ranks: not JSON: $out"
        LEAKS=0 # info's alone
    done
done
LEAKS=1 # the error paths: the first of each kind

# a bad line in the last rank's part: one message, the file's line, status 2
for i in $(seq 1 400); do echo "$((i % 9)) $((i % 7))"; done > "$tmp/bad.el"
echo "2 z" >> "$tmp/bad.el"
for np in $ranks; do
    run_np "$np" cc "$tmp/bad.el" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    [ "$rc" = 2 ] || fail "bad file on $np ranks: exit status $rc"
    [ "$(grep -c 'lgraph:' "$tmp/err")" = 1 ] || fail "bad file on $np ranks: $(cat "$tmp/err")"
    grep -q "bad.el:401:" "$tmp/err" || fail "bad file on $np ranks: no line 401 in $(cat "$tmp/err")"
done
LEAKS=0
# refusals and bad arguments: one line from rank 0, exit status 2 (mpiexec
# reports a rank's nonzero status, so any rank's but 2 shows)
refused() { # WANT ARGS...: run_np on the most ranks refuses with one line holding WANT
    local want="$1"
    shift
    run_np "$most" "$@" > /dev/null 2> "$tmp/err"
    local rc=$?
    [ "$rc" = 2 ] || fail "$*: exit status $rc"
    [ "$(grep -c '^lgraph' "$tmp/err")" = 1 ] && grep -q -- "$want" "$tmp/err" ||
        fail "$*: wanted one line with '$want': $(cat "$tmp/err")"
}
refused "not available with --distributed" convert kron:5 "$tmp/x.el"
refused "float is not available" pagerank kron:5 --float
refused "unknown option '--no-such'" bfs kron:5 --no-such x
refused "bad value 'x' for --top" pagerank kron:5 --top x
refused "bad --source" bfs kron:5 --source 1,x
refused "missing INPUT" cc
refused "bad generator spec" info kron:99
refused "missing.el: cannot open" cc "$tmp/missing.el"

# the sanitizers' reports, from every rank
for log in "$tmp"/san/*; do
    [ -e "$log" ] || continue
    if grep -q -E "ERROR: AddressSanitizer|runtime error" "$log" ||
        awk -v root="$root/" 'BEGIN {RS = ""} /leak of/ && (index($0, root "src/") ||
            index($0, root "tests/") || index($0, root "tools/")) {found = 1} END {exit !found}' "$log"
    then
        fail "a sanitizer's report, $(basename "$log"):"
        head -40 "$log"
    fi
done

# a FIFO no one writes: refused at once (parts are byte ranges of a regular
# file), not waited on
mkfifo "$tmp/fifo.el"
run_np 2 info "$tmp/fifo.el" > "$tmp/out" 2> "$tmp/err"
rc=$?
[ "$rc" = 2 ] && [ "$(grep -c 'lgraph:' "$tmp/err")" = 1 ] && grep -q "not a regular file" "$tmp/err" ||
    fail "a FIFO under --distributed: exit $rc, $(cat "$tmp/err")"

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
