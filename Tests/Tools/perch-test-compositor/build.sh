#!/bin/sh
# Build perch-test-compositor, the scripted Wayland compositor for Perch's
# tests (C11, libwayland-server, libxkbcommon; no wlroots).
#
#   Tests/Tools/perch-test-compositor/build.sh [OUTDIR]
#
# OUTDIR defaults to .build/test-tools/ in the repository. Server-side
# protocol code is generated into OUTDIR/perch-test-compositor-gen/ with
# wayland-scanner from protocols/wlr-layer-shell-unstable-v1.xml and the
# system's xdg-shell (layer-shell refers to it; xdg.c serves it) and
# viewporter XML.
# Needs (Debian 12): gcc, pkg-config, libwayland-dev, wayland-protocols,
# libxkbcommon-dev (xkb-data for the keymap at run time).
# Rebuilds only when a source is newer than the binary (FORCE=1 to force).
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
OUT=${1:-"$REPO/.build/test-tools"}
CC=${CC:-}
if [ -z "$CC" ]; then
    for c in cc gcc clang /opt/swift/usr/bin/clang; do
        if command -v "$c" >/dev/null 2>&1; then CC=$c; break; fi
    done
fi
BIN="$OUT/perch-test-compositor"
GEN="$OUT/perch-test-compositor-gen"

die() { echo "perch-test-compositor/build.sh: $*" >&2; exit 1; }

[ -n "$CC" ] || die "no C compiler (apt-get install gcc)"
command -v pkg-config >/dev/null || die "pkg-config is missing (apt-get install pkg-config)"
command -v wayland-scanner >/dev/null || die "wayland-scanner is missing (apt-get install libwayland-bin)"
pkg-config --exists wayland-server || die "wayland-server is missing (apt-get install libwayland-dev)"
pkg-config --exists xkbcommon || die "xkbcommon is missing (apt-get install libxkbcommon-dev)"
pkg-config --exists wayland-protocols || die "wayland-protocols is missing (apt-get install wayland-protocols)"

WP=$(pkg-config --variable=pkgdatadir wayland-protocols)
LAYER_XML="$REPO/protocols/wlr-layer-shell-unstable-v1.xml"
XDG_XML="$WP/stable/xdg-shell/xdg-shell.xml"
VP_XML="$WP/stable/viewporter/viewporter.xml"
for f in "$LAYER_XML" "$XDG_XML" "$VP_XML"; do [ -f "$f" ] || die "missing $f"; done

SRCS="main.c surface.c xdg.c output.c seat.c control.c"
if [ -x "$BIN" ] && [ "${FORCE:-0}" != 1 ]; then
    stale=0
    for f in $SRCS testcomp.h build.sh; do
        [ "$HERE/$f" -nt "$BIN" ] && stale=1
    done
    for f in "$LAYER_XML" "$XDG_XML" "$VP_XML"; do [ "$f" -nt "$BIN" ] && stale=1; done
    [ "$stale" = 0 ] && { echo "$BIN is up to date"; exit 0; }
fi

mkdir -p "$OUT" "$GEN"
gen() { # XML BASENAME
    wayland-scanner server-header "$1" "$GEN/$2-server-protocol.h"
    wayland-scanner private-code "$1" "$GEN/$2-protocol.c"
}
gen "$LAYER_XML" wlr-layer-shell-unstable-v1
gen "$XDG_XML" xdg-shell
gen "$VP_XML" viewporter

CFLAGS_ALL="-std=c11 -O2 -g -Wall -Wextra -Werror ${CFLAGS:-}"
# shellcheck disable=SC2046
$CC $CFLAGS_ALL -I"$GEN" -I"$HERE" $(pkg-config --cflags wayland-server xkbcommon) \
    -o "$BIN.tmp" \
    $(for f in $SRCS; do echo "$HERE/$f"; done) \
    "$GEN/wlr-layer-shell-unstable-v1-protocol.c" "$GEN/xdg-shell-protocol.c" "$GEN/viewporter-protocol.c" \
    $(pkg-config --libs wayland-server xkbcommon) -lm ${LDFLAGS:-}
mv "$BIN.tmp" "$BIN"
echo "built $BIN"
