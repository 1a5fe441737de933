#!/usr/bin/env bash
# build.sh - build qemu-user (aarch64, riscv64, loongarch64) WITH TCG plugin
# support, plus the insn_count plugin, under <repo>/.cache/qemu.
#
# Why build qemu: every packaged qemu-user that can run LSX/LASX is static
# and static qemu has plugins compiled out (bookworm-backports' qemu-user
# 1:10.0.2+ds-2+deb13u1~bpo12+1 says "unknown option 'plugin'"). Bookworm's
# dynamic qemu-user 7.2 does have -plugin but faults on LSX/LASX. So we take
# the upstream source tarball that Debian ships for the backports package
# (qemu_10.0.2+ds.orig.tar.xz, via `apt-get source`) and build only the three
# linux-user targets with --enable-plugins (~1000 ninja steps, ~10 min at -j2).
# The plugin is compiled against that tarball's include/qemu/qemu-plugin.h.
#
# Env: JOBS (default 2), QEMU_INSN_CACHE (default <repo>/.cache/qemu),
#      QEMU_INSN_TARGETS (default "aarch64 riscv64 loongarch64").
# Needs root only if host packages are missing (apt-get install).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
C=${QEMU_INSN_CACHE:-$ROOT/.cache/qemu}
JOBS=${JOBS:-2}
TARGETS=${QEMU_INSN_TARGETS:-aarch64 riscv64 loongarch64}
mkdir -p "$C"

# 1. Host build tools (Debian packages).
need=()
for p in gcc pkgconf libglib2.0-dev zlib1g-dev ninja-build python3-venv xz-utils; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
    echo "build.sh: installing ${need[*]}" >&2
    apt-get update -qq && apt-get install -y -qq --no-install-recommends "${need[@]}"
fi

# 2. qemu source from bookworm-backports, through a private apt config
#    (own sources.list and lists dir under the cache: the system's apt
#    sources are not touched). Only the .orig tarball is needed.
A="$C/apt"
mkdir -p "$A/lists/partial" "$A/cache/archives/partial" "$C/src"
echo 'deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm-backports main' > "$A/sources.list"
APT=(-o Dir::Etc::SourceList="$A/sources.list" -o Dir::Etc::SourceParts=/nonexistent
     -o Dir::State::Lists="$A/lists" -o Dir::Cache="$A/cache"
     -o Dir::Etc::Preferences=/nonexistent -o Dir::Etc::PreferencesParts=/nonexistent
     -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
if ! ls "$C"/src/qemu-*/include/qemu/qemu-plugin.h >/dev/null 2>&1; then
    apt-get "${APT[@]}" -qq update
    # line: 'URI' NAME SIZE SHA256:HASH ; keep the .orig tarball's
    read -r _ orig _ hash < <(apt-get "${APT[@]}" source --print-uris qemu | grep "orig.tar")
    # apt-get source also wants the .dsc/.debian.tar, which the mirror may
    # lack (404 seen); tolerate that and verify the tarball ourselves.
    (cd "$C/src" && apt-get "${APT[@]}" source --download-only qemu >/dev/null 2>&1 || true)
    echo "${hash#SHA256:}  $C/src/$orig" | sha256sum -c --quiet
    tar -C "$C/src" -xJf "$C/src/$orig"
fi
SRC=$(ls -d "$C"/src/qemu-*/ | head -n1)
SRC=${SRC%/}

# 3. meson >= 1.5 (bookworm has 1.0) and pycotap from PyPI, in a venv.
#    (Debian's +ds tarball drops the wheels upstream ships in python/wheels.)
if [ ! -x "$C/venv/bin/meson" ]; then
    /usr/bin/python3 -m venv "$C/venv"
    "$C/venv/bin/pip" install -q meson==1.5.0 pycotap==1.3.1
fi

# 4. configure + build the linux-user targets, plugins on, nothing else.
tl=$(for t in $TARGETS; do printf '%s-linux-user,' "$t"; done); tl=${tl%,}
B="$C/build"
if [ ! -f "$B/build.ninja" ] || [ "$(cat "$B/.targets" 2>/dev/null)" != "$tl" ]; then
    mkdir -p "$B"
    (cd "$B" && nice "$SRC/configure" --python="$C/venv/bin/python3" \
        --target-list="$tl" --without-default-features --enable-plugins \
        --disable-system --disable-tools --disable-docs --disable-werror \
        --disable-install-blobs >configure.log 2>&1) \
        || { tail -20 "$B/configure.log"; exit 1; }
    echo "$tl" > "$B/.targets"
fi
mkdir -p "$C/bin"
for t in $TARGETS; do
    nice ninja -C "$B" -j"$JOBS" "qemu-$t" >"$B/ninja-$t.log" 2>&1 \
        || { tail -30 "$B/ninja-$t.log"; exit 1; }
    ln -sf "$B/qemu-$t" "$C/bin/qemu-$t"
done

# 5. the plugin (a plain shared object; glib headers come via qemu-plugin.h).
mkdir -p "$C/plugin"
gcc -O2 -Wall -Wextra -fPIC -shared -fvisibility=hidden \
    -I"$SRC/include/qemu" $(pkg-config --cflags glib-2.0) \
    "$HERE/insn_count.c" -o "$C/plugin/libinsn_count.so"

echo "qemu source : $SRC"
for t in $TARGETS; do echo "qemu-$t : $C/bin/qemu-$t"; done
echo "plugin      : $C/plugin/libinsn_count.so"
