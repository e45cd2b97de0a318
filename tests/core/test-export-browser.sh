#!/usr/bin/env bash
# test-export-browser.sh — conversation.html opened in a real browser: Debian's Chromium,
# headless. The CLI as built exports fixture sessions; Chromium renders their pages, and the
# DOM it built and the screenshots it took (light, dark, narrow) are checked and kept for a
# person to look at.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: test-export-browser.sh LOOM FIXTURES SCREENSHOTS
#
#   LOOM         the loom CLI as built
#   FIXTURES     tests/import/fixtures
#   SCREENSHOTS  where the screenshots go (made if missing)
#
# Prints TAP. Chromium missing is a failure, not a skip: CI installs it (build-aux/quickstart.sh).

set -uo pipefail

loom=$1
fixtures=$2
screenshots=$3

# Two sessions of the Claude Code fixtures: one with tool calls, a change and sub-agents, and one
# in Japanese and Spanish, for the fonts.
readonly titles=(
  'Add a CSV export to the tide report command'
  '日本語のコメントを直して'
)

n=0
failed=0

ok ()
{
  n=$((n + 1))
  printf 'ok %d - %s\n' "$n" "$1"
}

not_ok ()
{
  n=$((n + 1))
  failed=1
  printf 'not ok %d - %s\n' "$n" "$1"
  shift
  for line in "$@"; do
    printf '# %s\n' "$line"
  done
}

finish ()
{
  printf '1..%d\n' "$n"
  exit "$failed"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

chromium=$(command -v chromium || true)
if [ -z "$chromium" ]; then
  not_ok 'chromium is installed' 'Debian package chromium; build-aux/quickstart.sh deps installs it'
  finish
fi
ok "chromium is installed: $("$chromium" --version 2>/dev/null)"

# A private profile each run, and nothing Chromium does on its own (updates, sync, metrics):
# the page is a local file and must need nothing else. As root (CI) it runs without its
# sandbox; the page has no script for a sandbox to contain. Bounded: a hung browser fails the
# test instead of holding the suite.
browse ()
{
  local profile
  profile=$(mktemp -d "$tmp/profile.XXXXXX")
  timeout 120 "$chromium" --headless=new --no-sandbox --disable-gpu --user-data-dir="$profile" \
    --no-first-run --no-default-browser-check --disable-extensions --disable-sync \
    --disable-background-networking --disable-component-update --hide-scrollbars "$@" \
    2>>"$tmp/chromium.log"
}

# The colour of the page's top-left corner, as "R G B".
corner_colour ()
{
  convert "$1" -format '%[fx:int(255*p{4,4}.r)] %[fx:int(255*p{4,4}.g)] %[fx:int(255*p{4,4}.b)]' \
    info: 2>/dev/null
}

# A screenshot that Chromium wrote as a PNG of the size asked for, kept under @name.
screenshot ()
{
  local name=$1 size=$2 page=$3
  shift 3
  local out="$screenshots/$name.png"

  rm -f "$out"
  browse --screenshot="$out" --window-size="$size" "$@" "file://$page" >/dev/null
  if [ ! -s "$out" ] || [ "$(identify -format '%wx%h' "$out" 2>/dev/null)" != "${size/,/x}" ]; then
    not_ok "screenshot $name" "$(tail -n 5 "$tmp/chromium.log")"
    return 1
  fi
  ok "screenshot $name: $out"
}

mkdir -p "$screenshots"
db="$tmp/history.db"
if ! "$loom" --db "$db" import "$fixtures/claude" >"$tmp/import.log" 2>&1; then
  not_ok 'the Claude Code fixtures import' "$(tail -n 5 "$tmp/import.log")"
  finish
fi
ok 'the Claude Code fixtures import'

mkdir -p "$tmp/packages"
for i in "${!titles[@]}"; do
  title=${titles[$i]}
  id=$("$loom" --db "$db" sessions list --json | /usr/bin/python3 -c '
import json, sys
title = sys.argv[1]
data = json.load(sys.stdin)
sessions = data["sessions"] if isinstance(data, dict) else data
print(next(s["id"] for s in sessions if s["title"].startswith(title)))' "$title")
  if [ -z "$id" ]; then
    not_ok "a fixture session titled “$title”"
    continue
  fi
  package=$("$loom" --db "$db" sessions export "$id" --to "$tmp/packages" --json |
    /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["packages"][0]["path"])')
  page="$package/conversation.html"
  if [ ! -f "$page" ]; then
    not_ok "“$title” exported with conversation.html"
    continue
  fi
  ok "“$title” exported with conversation.html"

  # The DOM Chromium built from the page: the title and the conversation are there, and the
  # page added no script of its own.
  dom=$(browse --dump-dom "file://$page")
  if [[ $dom == *"<title>$title"* && $dom == *'<article class="message user">'* &&
    $dom == *'<article class="message assistant">'* && $dom != *'<script'* ]]; then
    ok "Chromium renders “$title”: its title and messages are in the DOM"
  else
    not_ok "Chromium renders “$title”" "DOM: ${dom:0:300}" "$(tail -n 5 "$tmp/chromium.log")"
  fi

  if [ "$i" -ne 0 ]; then
    screenshot "export-html-cjk-light" 1000,1400 "$page"
    continue
  fi
  # The page follows the reader's colour scheme. --force-dark-mode alone makes Chromium 156
  # report prefers-color-scheme: dark to the page; the Blink setting (0: dark) says the same
  # to versions where the switch only darkens the browser's own UI.
  if screenshot "export-html-light" 1000,1400 "$page" &&
    screenshot "export-html-dark" 1000,1400 "$page" --force-dark-mode \
      --blink-settings=preferredColorScheme=0; then
    read -r lr lg lb <<<"$(corner_colour "$screenshots/export-html-light.png")"
    read -r dr dg db_ <<<"$(corner_colour "$screenshots/export-html-dark.png")"
    if [ "${lr:-0}" -gt 200 ] && [ "${lg:-0}" -gt 200 ] && [ "${lb:-0}" -gt 200 ] &&
      [ "${dr:-255}" -lt 60 ] && [ "${dg:-255}" -lt 60 ] && [ "${db_:-255}" -lt 60 ]; then
      ok "light and dark backgrounds: $lr,$lg,$lb and $dr,$dg,$db_"
    else
      not_ok 'light and dark backgrounds' "light: ${lr:-?},${lg:-?},${lb:-?}" \
        "dark: ${dr:-?},${dg:-?},${db_:-?}"
    fi
  fi
  # A phone's width: the column narrows, nothing overflows sideways.
  screenshot "export-html-narrow" 420,1400 "$page"
done

finish
