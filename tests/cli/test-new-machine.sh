#!/usr/bin/env bash
# test-new-machine.sh — the README's three lines that bring a history back on a new machine,
# run as written.
#
# Two profiles, each a throwaway desktop session of its own (tests/harness/loom-test-session:
# its own HOME, session bus and login keyring): the old machine imports the fixture sessions
# and runs the README's first two lines (the encrypted sweep, the recovery key written to a
# file); the new machine, whose keyring has never seen the backup key, runs the third with
# nothing but the backups and that file. Then every session must be there with the same counts,
# the same state (archived, in its folder) and the same text, and restoring again must change
# nothing.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: test-new-machine.sh LOOM FIXTURES README HARNESS
#
# Prints TAP.

set -uo pipefail

loom=$1
fixtures=$2
readme=$3
harness=$4

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
backups=$work/backups
keyfile=$work/recovery-key.txt
mkdir -p "$backups"

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
  failed=$((failed + 1))
  printf 'not ok %d - %s\n' "$n" "$1"
  if [[ -n ${2:-} && -s $2 ]]; then
    sed 's/^/# /' "$2"
  fi
}

# The README's lines, between its markers, inside the sh block: commands without their comments,
# the example paths replaced by this test's.
mapfile -t lines < <(sed -n '/<!-- new-machine-restore -->/,/<!-- \/new-machine-restore -->/p' \
  "$readme" | sed -n '/^```sh$/,/^```$/p' | grep -v '^```' | sed 's/[[:space:]]*#.*$//' |
  grep -v '^[[:space:]]*$' |
  sed "s|/media/usb/loom-backups|$backups|g; s|recovery-key\\.txt|$keyfile|g; s|^loom |\"\$LOOM\" |")
if ((${#lines[@]} == 3)); then
  ok "the README has the three lines"
else
  not_ok "the README has the three lines (found ${#lines[@]})"
  printf '1..%d\n' "$n"
  exit 1
fi

# snapshot DIR — what a person would compare: each session's counts and state, and its text.
snapshot_script='
snapshot () {
  local dir=$1
  mkdir -p "$dir/text"
  "$LOOM" sessions list --all --json --sort created > "$dir/list.json" || return 1
  python3 - "$dir/list.json" > "$dir/sessions.txt" <<"PY" || return 1
import json, sys
for s in sorted(json.load(open(sys.argv[1])), key=lambda s: s["id"]):
    print(s["id"], s["message_count"], s.get("event_count"), s["archived"], s.get("folder"),
          s["title"], sep="\t")
PY
  cut -f1 "$dir/sessions.txt" | while read -r id; do
    mkdir -p "$dir/export/$id"
    "$LOOM" sessions export "$id" --to "$dir/export/$id" --json > /dev/null || return 1
    cp "$dir/export/$id"/*/conversation.md "$dir/text/$id.md" || return 1
  done
}
'

old_machine ()
{
  cat <<SCRIPT
set -euo pipefail
export LOOM="$loom"
$snapshot_script
"\$LOOM" import --quiet "$fixtures/claude" "$fixtures/codex" > /dev/null
${lines[0]} > "$work/sweep.out" 2> "$work/sweep.err"
${lines[1]}
"\$LOOM" backup-key status --json > "$work/old-key.json"
snapshot "$work/old"
SCRIPT
}

new_machine ()
{
  cat <<SCRIPT
set -euo pipefail
export LOOM="$loom"
$snapshot_script
test -z "\$("\$LOOM" sessions list --all --json | python3 -c 'import json,sys; print(json.load(sys.stdin) or "")')"
${lines[2]} > "$work/restore.out"
"\$LOOM" backup-key status --json > "$work/new-key.json"
snapshot "$work/new"
"\$LOOM" restore "$backups" --recovery-key-file "$keyfile" --json > "$work/again.json"
SCRIPT
}

if old_machine > "$work/old.sh" &&
  LOOM_HARNESS_NO_X=1 "$harness" bash "$work/old.sh" > "$work/old.log" 2>&1; then
  ok "the old machine swept its sessions into encrypted backups"
else
  not_ok "the old machine swept its sessions into encrypted backups" "$work/old.log"
  cat "$work/sweep.err" 2> /dev/null | sed 's/^/# /'
fi

n_sessions=$(wc -l < "$work/old/sessions.txt" 2> /dev/null || echo 0)
n_backups=$(find "$backups" -maxdepth 1 -name '*.loombackup' | wc -l)
if ((n_sessions > 0 && n_backups > 0)) && ! find "$backups" -maxdepth 1 -mindepth 1 \
  ! -name '*.loombackup' | grep -q .; then
  ok "the backup folder holds $n_backups .loombackup files and nothing else"
else
  not_ok "the backup folder holds .loombackup files only ($n_backups for $n_sessions sessions)"
fi
if LC_ALL=C grep -a -q -i -E 'conversation|session\.jsonl|manifest' "$backups"/*.loombackup; then
  not_ok "the backups show no text in the clear"
else
  ok "the backups show no text in the clear"
fi

if new_machine > "$work/new.sh" &&
  LOOM_HARNESS_NO_X=1 "$harness" bash "$work/new.sh" > "$work/new.log" 2>&1; then
  ok "the new machine restored with the recovery key alone"
else
  not_ok "the new machine restored with the recovery key alone" "$work/new.log"
fi

if diff -u "$work/old/sessions.txt" "$work/new/sessions.txt" > "$work/sessions.diff"; then
  ok "every session is back with the same counts, state and folder ($n_sessions sessions)"
else
  not_ok "every session is back with the same counts, state and folder" "$work/sessions.diff"
fi
if diff -r "$work/old/text" "$work/new/text" > "$work/text.diff" &&
  (($(find "$work/new/text" -name '*.md' | wc -l) == n_sessions)); then
  ok "every session's text is the same"
else
  not_ok "every session's text is the same" "$work/text.diff"
fi
if python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(0 if not r["restored"] and not r["failed"] and r["unchanged"] else 1)' "$work/again.json"; then
  ok "restoring again changes nothing"
else
  not_ok "restoring again changes nothing" "$work/again.json"
fi

if python3 -c '
import json, sys
old, new = (json.load(open(p)) for p in sys.argv[1:3])
sys.exit(0 if old["exists"] and new["exists"] and old["key_id"] == new["key_id"] else 1)' \
  "$work/old-key.json" "$work/new-key.json"; then
  ok "the new machine keeps the same backup key for the backups to come"
else
  not_ok "the new machine keeps the same backup key for the backups to come" "$work/new-key.json"
fi

printf '1..%d\n' "$n"
((failed == 0))
