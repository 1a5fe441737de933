#!/usr/bin/env bash
# validate.sh - check insn_count on aarch64 (SVE), riscv64 (RVV), loongarch64
# (LASX): loop.c runs N and 2N iterations of a body of known length; the two
# counts must differ by exactly N * body (3 scalar, 4 vector), and T threads
# must add T * N * 3 (plus a few thousand for thread start/join, which
# varies with timing, hence a tolerance there).
# Needs: build.sh done; gcc-aarch64-linux-gnu, gcc-riscv64-linux-gnu (Debian);
# zig from PyPI `ziglang` for loongarch64 (ZIGCC, default
# "python3 -m ziglang cc"). Work files go to $OUT (default a mktemp dir).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
C=${QEMU_INSN_CACHE:-$(cd "$HERE/../../.." && pwd)/.cache/qemu}
P=$C/plugin/libinsn_count.so
ZIGCC=${ZIGCC:-python3 -m ziglang cc}
OUT=${OUT:-$(mktemp -d)}
N=${N:-1000000}

aarch64-linux-gnu-gcc -O1 -march=armv8-a+sve -pthread "$HERE/loop.c" -o "$OUT/loop-aarch64"
riscv64-linux-gnu-gcc -O1 -march=rv64gcv -pthread "$HERE/loop.c" -o "$OUT/loop-riscv64"
$ZIGCC -target loongarch64-linux-musl -static -mlasx -O1 -pthread "$HERE/loop.c" -o "$OUT/loop-loongarch64"

# run ISA ARGS... -> instruction count. `setarch -R` turns host ASLR off,
# which makes the guest's start-up code (and so the count) repeatable.
run() {
    local isa=$1; shift
    local -a pre=()
    case $isa in
        aarch64) pre=(env QEMU_CPU=max "$C/bin/qemu-aarch64" -L /usr/aarch64-linux-gnu) ;;
        riscv64) pre=(env QEMU_CPU=rv64,v=true,vlen=256,vext_spec=v1.0 "$C/bin/qemu-riscv64" -L /usr/riscv64-linux-gnu) ;;
        loongarch64) pre=(env QEMU_CPU=max "$C/bin/qemu-loongarch64") ;;
    esac
    setarch -R "${pre[@]}" -plugin "$P,mode=${MODE:-tb}" "$OUT/loop-$isa" "$@" 2>&1 >/dev/null |
        sed -n 's/^insns: //p'
}

fail=0
check() { # name got want [tolerance]
    local ok=ok d=$(( $2 - $3 )); d=${d#-}
    [ "$d" -le "${4:-0}" ] || { ok=MISMATCH; fail=1; }
    printf '%-34s delta %10d  expected %10d  %s\n' "$1" "$2" "$3" "$ok"
}
for MODE in tb insn; do
    for isa in aarch64 riscv64 loongarch64; do
        for m in s v; do
            a=$(run $isa $m "$N"); b=$(run $isa $m $((2 * N)))
            body=3; [ $m = v ] && body=4
            echo "$isa mode=$MODE $m: N=$N -> $a, 2N -> $b"
            check "  $isa $MODE ${m}: 2N - N" $((b - a)) $((N * body))
        done
        a=$(run $isa t "$N" 1); b=$(run $isa t "$N" 4)
        echo "$isa mode=$MODE threads: 1x$N -> $a, 4x$N -> $b"
        check "  $isa $MODE 4 threads - 1 thread" $((b - a)) $((3 * N * 3)) 20000
    done
done
[ $fail = 0 ] && echo "validate: all ok" || { echo "validate: FAILED"; exit 1; }
