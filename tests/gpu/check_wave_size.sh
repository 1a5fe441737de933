#!/usr/bin/env bash
# check_wave_size.sh OBJECT.o ... - the AMD code objects' wavefront sizes.
#
# hipcc bundles one code object per --offload-arch into each host object
# (section .hip_fatbin, a clang offload bundle).  For every object this
# unbundles each AMD target's code object and reads its metadata notes: every
# kernel must declare .wavefront_size 64 on the wave-64 targets (gfx908,
# gfx90a, gfx94x) and 32 on gfx1030.  Exits 1 on any other value, a target
# missing, or a kernel without the field.
set -euo pipefail
bundler="$(command -v clang-offload-bundler-15 || command -v clang-offload-bundler || true)"
readelf="$(command -v llvm-readelf-15 || command -v llvm-readelf || true)"
[ -n "$bundler" ] && [ -n "$readelf" ] || { echo "check_wave_size: needs clang-offload-bundler and llvm-readelf (15)"; exit 1; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail=0 checked=0
for obj in "$@"; do
    name="$(basename "$obj" .o)"
    if ! objdump -h "$obj" | grep -q '\.hip_fatbin'; then
        echo "$name: host code only (no .hip_fatbin section)"
        continue
    fi
    objcopy --dump-section .hip_fatbin="$tmp/$name.fatbin" "$obj"
    targets="$("$bundler" --list --type=o --input="$tmp/$name.fatbin" | grep amdgcn || true)"
    [ -n "$targets" ] || { echo "$name: no AMD code objects in the bundle"; fail=1; continue; }
    for want_arch in gfx908 gfx90a gfx940 gfx1030; do
        target="$(echo "$targets" | grep -E -- "--${want_arch}(:|$)" | head -1 || true)"
        [ -n "$target" ] || { echo "$name: no $want_arch code object (targets: $(echo $targets))"; fail=1; continue; }
        case "$want_arch" in gfx1030) want=32 ;; *) want=64 ;; esac
        co="$tmp/$name-$want_arch.co"
        "$bundler" --unbundle --type=o --input="$tmp/$name.fatbin" --targets="$target" --output="$co"
        notes="$("$readelf" --notes "$co")"
        kernels="$(echo "$notes" | grep -c '\.symbol:.*\.kd' || true)"
        sizes="$(echo "$notes" | sed -n 's/.*\.wavefront_size: *\([0-9]*\).*/\1/p')"
        n_sizes="$(echo "$sizes" | grep -c . || true)"
        bad="$(echo "$sizes" | grep -v -x "$want" | grep -c . || true)"
        if [ "$kernels" -eq 0 ] || [ "$n_sizes" -ne "$kernels" ] || [ "$bad" -ne 0 ]; then
            echo "$name $want_arch: $kernels kernels, wavefront sizes: $(echo $sizes) (want all $want)"
            fail=1
        else
            echo "$name $want_arch: $kernels kernels, every .wavefront_size $want"
            checked=$((checked + kernels))
        fi
    done
done
[ "$checked" -gt 0 ] || { echo "check_wave_size: no kernels found"; fail=1; }
echo "check_wave_size: $checked kernel code objects checked, $([ $fail = 0 ] && echo ok || echo FAILED)"
exit $fail
