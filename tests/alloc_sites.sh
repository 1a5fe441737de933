#!/usr/bin/env bash
# alloc_sites.sh BUILD_DIR - the allocation sites in src/ at which the
# failure-injection sweeps (test_errors_alloc, test_io_failures,
# test_plugin_dispatch; tests/alloc_sites.h) made an allocation fail, against
# every call of lg__malloc / lg__calloc / lg__alloc_array in the library.
# Prints "failure injected at N of M allocation sites"; fails if a sweep
# fails or a site is not reached (a new allocation wants a sweep that makes
# it fail).
# LG_TEST_EMULATOR, when set (a cross build's qemu), runs the test programs.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$1"
seen="$(mktemp)"
trap 'rm -f "$seen" "$seen.all"' EXIT
for t in test_errors_alloc test_io_failures test_plugin_dispatch; do
    (cd "$build/tests" && LG_ALLOC_SITES_FILE="$seen" ${LG_TEST_EMULATOR:-} "./$t" >/dev/null)
done
# the call sites: file:line of each allocation call in the library's C sources
(cd "$root" && grep -rnE '\blg__(malloc|calloc|alloc_array)\(' src --include=*.c |
    grep -v '^src/graph/alloc.c:' | cut -d: -f1,2 | sort -u) > "$seen.all"
reached="$(sort -u "$seen" | grep -c '^src/' || true)"
total="$(wc -l < "$seen.all")"
echo "failure injected at $reached of $total allocation sites in src/"
missing="$(sort -u "$seen" | comm -13 - "$seen.all")"
[ -z "$missing" ] || { echo "not reached by the sweeps:"; echo "$missing" | sed 's/^/  /'; exit 1; }
