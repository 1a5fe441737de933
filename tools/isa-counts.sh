#!/usr/bin/env bash
# isa-counts.sh - retired instructions of the CPU kernels' vector paths and
# scalar twins on other architectures, counted under qemu-user.
#
#   tools/isa-counts.sh ARCH... [--scale S]     ARCH as tools/cross-test.sh takes it, or `all`
#
# For each architecture: builds it (tools/cross-test.sh --build-only), builds
# qemu with plugins and the counting plugin (tools/qemu-insn/build.sh), then
# runs bench_isa_count (bench/isa_count.c) on kron:S (default 16), one
# thread, with the vector path and with the scalar twin, for 1 and 2
# PageRank iterations (double and float), BFS runs and CC runs.  The
# difference of the two is one iteration or one run, without the generator.
# The streaming passes (the LG_PASS functions of src/kernels/cpu) are
# counted apart by their addresses.  Prints a Markdown table: total and
# streaming-pass instructions, scalar, vector and their ratio.
# qemu runs as `setarch -R` (no address randomisation: repeatable counts).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
scale=16
arches=()
while [ $# -gt 0 ]; do
    case "$1" in
        all) arches+=(aarch64 aarch64-sve riscv64 riscv64-rvv loongarch64) ;;
        aarch64 | aarch64-sve | riscv64 | riscv64-rvv | loongarch64) arches+=("$1") ;;
        --scale) scale="$2"; shift ;;
        -h | --help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "isa-counts.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done
[ ${#arches[@]} -gt 0 ] || { echo "isa-counts.sh: name an architecture or 'all'" >&2; exit 2; }

"$root/tools/qemu-insn/build.sh" >/dev/null
qemu_bin="$root/.cache/qemu/bin"
plugin="$root/.cache/qemu/plugin/libinsn_count.so"
# the streaming passes (LG_PASS in src/kernels/cpu)
passes="finish_block_f64 finish_block_f32 unreached front_and_todo nonempty_words first_labels"

count() { # ARCH PROGRAM ARGS...: prints "TOTAL PASSES"
    local arch="$1" prog="$2"; shift 2
    local qemu cpu="" sysroot=()
    case "$arch" in
        aarch64) qemu=qemu-aarch64 sysroot=(-L /usr/aarch64-linux-gnu) ;;
        aarch64-sve) qemu=qemu-aarch64 sysroot=(-L /usr/aarch64-linux-gnu)
            cpu="max,sve-default-vector-length=32" ;; # 256-bit vectors, as RVV's below
        riscv64) qemu=qemu-riscv64 sysroot=(-L /usr/riscv64-linux-gnu) cpu="rv64,v=false" ;;
        riscv64-rvv) qemu=qemu-riscv64 sysroot=(-L /usr/riscv64-linux-gnu)
            cpu="rv64,v=true,vlen=256,vext_spec=v1.0" ;;
        loongarch64) qemu=qemu-loongarch64 ;;
    esac
    local args="$plugin,out=/dev/null" sym lo size
    # every pass's ranges (its vector and its scalar twin), from the symbol table
    while read -r lo size _ sym; do
        case " $passes " in *" $sym "*)
            args+=",range=$sym:$lo-$(printf '%x' $((0x$lo + 0x$size)))" ;;
        esac
    done < <(nm -S --defined-only "$prog" | awk 'NF == 4')
    local out
    out="$(env OMP_NUM_THREADS=1 ${cpu:+QEMU_CPU=$cpu} setarch -R "$qemu_bin/$qemu" "${sysroot[@]}" \
        -plugin "$args" "$prog" "$@" 2>&1 >/dev/null)"
    local total pass
    total="$(printf '%s\n' "$out" | awk '/^insns: /{print $2}')"
    pass="$(printf '%s\n' "$out" | awk '/^insns [a-z_0-9]+: /{s += $3} END {print s + 0}')"
    [ -n "$total" ] || { echo "isa-counts.sh: no count from $prog $*: $out" >&2; exit 1; }
    echo "$total $pass"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "-" }'; }

echo "| ISA | work (kron:$scale, 1 thread) | scalar twin | vector path | scalar / vector | streaming passes: scalar | vector | scalar / vector |"
echo "|---|---|---|---|---|---|---|---|"
for arch in "${arches[@]}"; do
    "$root/tools/cross-test.sh" "$arch" --build-only >/dev/null
    prog="$root/build-cross/$arch/bench_isa_count"
    [ -x "$prog" ] || { echo "isa-counts.sh: $prog not built" >&2; exit 1; }
    for work in "pagerank:a PageRank iteration (double)" "pagerank_f32:a PageRank iteration (float)" \
        "bfs:a BFS (from the largest degree)" "cc:a CC run"; do
        algo="${work%%:*}"
        declare -A n=()
        for path in scalar vector; do
            read -r t1 p1 < <(count "$arch" "$prog" "$algo" "$scale" "$path" 1)
            read -r t2 p2 < <(count "$arch" "$prog" "$algo" "$scale" "$path" 2)
            n[$path.t]=$((t2 - t1)) n[$path.p]=$((p2 - p1))
        done
        printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$arch" "${work#*:}" \
            "${n[scalar.t]}" "${n[vector.t]}" "$(ratio "${n[scalar.t]}" "${n[vector.t]}")" \
            "${n[scalar.p]}" "${n[vector.p]}" "$(ratio "${n[scalar.p]}" "${n[vector.p]}")"
        unset n
    done
done
