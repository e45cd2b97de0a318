#!/usr/bin/env bash
# seed-corpus.sh — fills a fuzz target's starting corpus from the tests' fixtures, and writes its
# dictionary: JSON's tokens and the member names the seeds use.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: tests/fuzz/seed-corpus.sh TARGET CORPUS-DIR DICT-FILE
#
#   TARGET      a target's name without "fuzz-": json, import-claude, …
#   CORPUS-DIR  created if need be; each seed is copied in under a name of its own
#   DICT-FILE   written for libFuzzer's -dict=, or emptied when the target has none

set -euo pipefail

readonly prog=${0##*/}
die ()
{
  printf '%s: error: %s\n' "$prog" "$*" >&2
  exit 1
}

(($# == 3)) || die "usage: $prog TARGET CORPUS-DIR DICT-FILE"
readonly target=$1 corpus=$2 dict=$3
readonly source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
readonly fixtures=$source_dir/tests/import/fixtures

# The seeds of each target, as find(1) arguments below the import fixtures; and for any target,
# the files of tests/fuzz/seeds/TARGET/ and the lines of tests/fuzz/seeds/TARGET.txt, one seed
# each. A target with none of them starts from nothing.
json_fixtures=(-type f '(' -name '*.json' -o -name '*.jsonl' -o -name '*.before' ')')
case $target in
  json|salvage|jsonl)
    find_args=("${json_fixtures[@]}") ;;
  import-claude)
    find_args=(-path '*/claude*/*' -type f -name '*.jsonl') ;;
  import-codex)
    find_args=(-path '*/codex*/*' -type f '(' -name '*.jsonl' -o -name '*.json' ')') ;;
  import-gemini)
    find_args=(-path '*/gemini*/*' -type f '(' -name 'session-*' -o -path '*/chats/*/*' ')') ;;
  markdown)
    # The fixtures' prompts and replies are inside JSON: the seeds are the fixtures' own
    # Markdown notes, and tests/fuzz/seeds/markdown/.
    find_args=(-type f -name '*.md') ;;
  backup-archive)
    # Containers, not fixtures: tests/fuzz/seeds/backup-archive/ holds the container of a real
    # package (the Codex fixture "List the largest files in this repo", exported at detail
    # "messages" and written by loom_backup_archive_write ()) and small hand-made ones that
    # verify; seeds/backup-archive.dict names the format's tokens.
    find_args=() ;;
  *)
    find_args=() ;;
esac
readonly seed_dir=$source_dir/tests/fuzz/seeds/$target
readonly seed_lines=$source_dir/tests/fuzz/seeds/$target.txt

mkdir -p "$corpus"

if ((${#find_args[@]})); then
  n=0
  while IFS= read -r -d '' file; do
    # Flattened: the fixture's path is its name, so two fixtures never share one.
    name=${file#"$fixtures"/}
    cp -- "$file" "$corpus/${name//\//_}"
    n=$((n + 1))
  done < <(find "$fixtures" "${find_args[@]}" -print0)
  # A JSON Lines target starts from single records too: mutations of a short input are
  # quicker, and each record kind is a seed of its own.
  if [[ $target == json || $target == jsonl ]]; then
    while IFS= read -r -d '' file; do
      name=${file#"$fixtures"/}
      split -l 1 -a 4 -d -- "$file" "$corpus/${name//\//_}.line-"
    done < <(find "$fixtures" -type f -name '*.jsonl' -print0)
  fi
fi

# Large seeds (a fixture's megabyte-long line) make libFuzzer try inputs as long, a hundred
# times slower than the short ones that find the bugs; the hostile-input tests cover the sizes.
find "$corpus" -type f -size +64k -delete

if [[ -d $seed_dir ]]; then
  find "$seed_dir" -maxdepth 1 -type f -exec cp -t "$corpus" -- {} +
fi
if [[ -f $seed_lines ]]; then
  i=0
  while IFS= read -r line; do
    printf '%s' "$line" >"$corpus/seed-$i"
    i=$((i + 1))
  done <"$seed_lines"
fi

# JSON's tokens, then every member name of the seeds: what turns a record of one kind into
# another is mostly its "type". Other targets bring a dictionary of their own in seeds/, or none.
{
  case $target in
    search-query)
      printf '%s\n' '"OR"' '"-"' '"\""' '"*"' '":"' \
        '"agent:"' '"project:"' '"folder:"' '"tool:"' '"role:"' '"model:"' '"after:"' \
        '"before:"' '"in:"' '"has:"' '"claude-code"' '"codex"' '"gemini"' '"2026-10-01"' \
        '"user"' '"assistant"' '"prompt"' '"reply"' '"error"' '"errors"' '"trash"' '"pinned"' \
        '"archived"' '"tool_call"' '"tool_result"' '"file_change"' '"reasoning"' ;;
    json|salvage|jsonl|import-*)
      printf '%s\n' '"{"' '"}"' '"["' '"]"' '":"' '","' '"\""' '"\\"' '"\\u"' '"\\ud800"' \
        '"\\udc00"' '"true"' '"false"' '"null"' '"-0.0e+1"' '"\\n"'
      if [[ $target != json && $target != salvage ]]; then
        cat "$corpus"/* 2>/dev/null | grep -ao '"[A-Za-z_][A-Za-z0-9_]\{1,40\}"' | sort -u \
          | sed 's/"/\\"/g; s/.*/"&"/' | head -n 2000
      fi ;;
    *)
      if [[ -f $source_dir/tests/fuzz/seeds/$target.dict ]]; then
        cat "$source_dir/tests/fuzz/seeds/$target.dict"
      fi ;;
  esac
} >"$dict"
