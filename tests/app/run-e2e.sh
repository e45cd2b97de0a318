#!/usr/bin/env bash
# run-e2e.sh — runs test-e2e.py with an accessibility bus, inside the test harness's session.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage (from meson, through loom-test-session): run-e2e.sh PYTHON TEST.PY ARGUMENT…
#
# The harness gives a session bus and an X server; the AT-SPI bus that dogtail and GTK talk
# through is started here, on that session bus. Debian's python3 is named by meson: a python
# that comes first on PATH (pyenv, say) has no dogtail. Without dogtail or AT-SPI the test is
# skipped (TAP "1..0 # SKIP"): a developer machine may lack them, CI installs them
# (build-aux/quickstart.sh).

set -euo pipefail

python=$1
shift

skip ()
{
  printf '1..0 # SKIP %s\n' "$*"
  exit 0
}

launcher=/usr/libexec/at-spi-bus-launcher
[[ -x $launcher ]] || skip "at-spi-bus-launcher is not installed (Debian package at-spi2-core)"
"$python" -c 'import dogtail' 2>/dev/null \
  || skip "dogtail is not installed for $python (Debian package python3-dogtail)"

# The bus launcher and the registry it starts are services, not code under test: they must
# not abort on the test's G_DEBUG=fatal-warnings. They carry the harness's session folder in
# their environment, so the harness stops them too, should this script be killed.
env -u G_DEBUG -u G_ENABLE_DIAGNOSTIC -u LD_PRELOAD -u ASAN_OPTIONS -u UBSAN_OPTIONS \
  "$launcher" --launch-immediately </dev/null >"$TMPDIR/at-spi-bus-launcher.log" 2>&1 &
launcher_pid=$!
trap 'kill "$launcher_pid" 2>/dev/null || true; wait "$launcher_pid" 2>/dev/null || true' EXIT

deadline=$((SECONDS + 10))
until gdbus call --session --timeout 2 --dest org.freedesktop.DBus \
        --object-path /org/freedesktop/DBus --method org.freedesktop.DBus.NameHasOwner \
        org.a11y.Bus 2>/dev/null | grep -q true; do
  if ! kill -0 "$launcher_pid" 2>/dev/null || ((SECONDS >= deadline)); then
    printf 'Bail out! the accessibility bus did not start\n'
    cat "$TMPDIR/at-spi-bus-launcher.log" >&2 || true
    exit 1
  fi
  sleep 0.05
done

# The checker is no code under test either: libatspi warns when the accessibility cache is
# asked for before the app has published it (seen under load), which fatal-warnings turned
# into an abort of the checker. The app gets its own G_DEBUG from test-e2e.py.
env -u G_DEBUG "$python" "$@"
