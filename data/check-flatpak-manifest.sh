#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Checks that a Flatpak manifest parses cleanly.
#
# Usage: check-flatpak-manifest.sh FLATPAK-BUILDER MANIFEST
#
# `flatpak-builder --show-manifest` exits 0 even when the manifest has unknown keys or values of
# the wrong type, and only warns on stderr; so any output on stderr counts as a failure here.
# It runs in a throwaway folder because flatpak-builder may leave a .flatpak-builder/ cache
# behind in its working directory.

set -u

if [ $# -ne 2 ]; then
  echo "usage: $0 FLATPAK-BUILDER MANIFEST" >&2
  exit 2
fi

flatpak_builder=$1
manifest=$(realpath -- "$2") || exit 1

workdir=$(mktemp -d "${TMPDIR:-/tmp}/check-flatpak-manifest.XXXXXX") || exit 1
trap 'rm -rf -- "$workdir"' EXIT

cd -- "$workdir" || exit 1
"$flatpak_builder" --show-manifest "$manifest" >"$workdir/stdout" 2>"$workdir/stderr"
status=$?

if [ "$status" -ne 0 ]; then
  echo "not ok: flatpak-builder exited with status $status on $manifest" >&2
  cat "$workdir/stderr" >&2
  exit 1
fi

if [ -s "$workdir/stderr" ]; then
  echo "not ok: flatpak-builder warned about $manifest:" >&2
  cat "$workdir/stderr" >&2
  exit 1
fi

if [ ! -s "$workdir/stdout" ]; then
  echo "not ok: flatpak-builder printed no manifest for $manifest" >&2
  exit 1
fi

echo "ok: $manifest parses without warnings"
exit 0
