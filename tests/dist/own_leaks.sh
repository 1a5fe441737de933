#!/usr/bin/env bash
# own_leaks.sh COMMAND... - runs an MPI test under LeakSanitizer and fails on
# the leaks of libgraph's code only.  Open MPI leaks by design at exit (its
# plugins are unloaded, so their stacks are "<unknown module>"), which no
# suppression file can name; so leaks do not fail the process
# (LSAN_OPTIONS=exitcode=0), and a leak report fails the test when one of its
# stacks passes through libgraph's sources or tests.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}exitcode=0" "$@" > >(tee "$log") 2>&1
rc=$?
wait
ours="$(awk -v root="$root/" 'BEGIN {RS = ""} /leak of/ && (index($0, root "src/") || index($0, root "tests/") || index($0, root "tools/"))' "$log")"
if [ -n "$ours" ]; then
    echo "leaks in libgraph's code:"
    echo "$ours"
    exit 1
fi
exit "$rc"
