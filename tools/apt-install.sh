#!/usr/bin/env bash
# apt-install.sh - install Debian packages, never removing one the machine has.
#
#   tools/apt-install.sh [--no-install-recommends] [--why TEXT] PACKAGE...
#
# Packages already installed are left out; with none left it does nothing.
# Otherwise it first asks apt what the install would do (apt-get -s, after
# `apt-get update` when apt does not know a package yet).  When that would
# remove any installed package (two versions of a library that conflict,
# such as LLVM's libomp-14-dev and libomp-15-dev), it installs nothing and
# says which package would go and which asked-for package takes it away;
# exit status 3.  Else it installs them with apt-get's --no-remove, which
# holds to the same rule if anything changed meanwhile.  Needs root or sudo.
# With LIBGRAPH_APT_RECORD set (install.sh sets it), the packages it installed
# are added to that file, one a line, for ./install.sh uninstall to name.
# install.sh, tools/cross-test.sh and tools/build-wheel.sh install through it.
set -euo pipefail

opts=() why="" pkgs=()
while [ $# -gt 0 ]; do
    case "$1" in
        --no-install-recommends) opts+=("$1") ;;
        --why) why="$2"; shift ;;
        -h | --help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "apt-install.sh: unknown option '$1'" >&2; exit 2 ;;
        *) pkgs+=("$1") ;;
    esac
    shift
done
[ ${#pkgs[@]} -gt 0 ] || { echo "apt-install.sh: name the packages to install" >&2; exit 2; }

# what `apt-get install` of $@ would do, as apt-get -s prints it
simulate() { apt-get -s -q install -y "${opts[@]}" "$@" 2>&1; }
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
need_root() {
    [ -z "$sudo" ] || command -v sudo >/dev/null 2>&1 || {
        echo "apt-install.sh: need root or sudo to install ${pkgs[*]}" >&2; exit 1; }
}
export DEBIAN_FRONTEND=noninteractive

# apt knows every package, or its lists are refreshed once
if ! plan="$(simulate "${pkgs[@]}")"; then
    need_root
    $sudo apt-get update -q >/dev/null
    if ! plan="$(simulate "${pkgs[@]}")"; then
        echo "apt-install.sh: apt-get cannot install ${pkgs[*]}:" >&2
        echo "$plan" | grep -E '^(E|W):' >&2 || echo "$plan" | tail -5 >&2
        exit 1
    fi
fi
new=()
for p in "${pkgs[@]}"; do
    grep -q "^Inst ${p}[ :]" <<<"$plan" && new+=("$p")
done
grep -q '^Inst ' <<<"$plan" || exit 0 # all there already

# the packages a plan removes, as "a, b, c"
removals() { sed -n 's/^Remv \([^ ]*\) .*/\1/p' | paste -sd, - | sed 's/,/, /g'; }
removed="$(removals <<<"$plan")"
if [ -n "$removed" ]; then
    {
        echo "apt-install.sh: not installing ${new[*]}${why:+ ($why)}:"
        echo "  apt-get would remove $removed, which this machine has."
        for p in "${new[@]}"; do
            r="$(simulate "$p" | removals)"
            [ -z "$r" ] || echo "  $p would remove: $r"
        done
        echo "  Nothing was installed (apt-get -s install ${pkgs[*]} shows the plan)."
    } >&2
    exit 3
fi
need_root
echo "installing${why:+ $why:} ${new[*]}"
$sudo apt-get install -y -q --no-remove "${opts[@]}" "${pkgs[@]}"
if [ -n "${LIBGRAPH_APT_RECORD:-}" ]; then
    mkdir -p "$(dirname "$LIBGRAPH_APT_RECORD")"
    printf '%s\n' "${new[@]}" >> "$LIBGRAPH_APT_RECORD"
fi
