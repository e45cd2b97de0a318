#!/usr/bin/env bash
# run-fuzzers.sh — runs each libFuzzer target of a -Dfuzz=true build for a while, from a fresh
# copy of its seed corpus, and fails on any crash, leak, hang, out-of-memory or sanitizer report.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: tests/fuzz/run-fuzzers.sh [--seconds N] [--only NAME]… [BUILD-DIR]
#
#   --seconds N   how long each target runs (default 60)
#   --only NAME   run only this target (json, import-claude, …); may be repeated
#   BUILD-DIR     the build folder configured with -Dfuzz=true (default: _build-fuzz)
#
# Each target's corpus, log and any input that failed it are kept in BUILD-DIR/fuzz-runs/NAME/;
# the input is named crash-…, leak-…, timeout-… or oom-…, and replays with
#   BUILD-DIR/tests/fuzz/fuzz-NAME BUILD-DIR/fuzz-runs/NAME/crash-…
# A line per target goes to BUILD-DIR/meson-logs/fuzzlog.json, in the shape of meson's
# testlog.json, for .ci/run to count.

set -euo pipefail

readonly prog=${0##*/}
readonly source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)

die ()
{
  printf '%s: error: %s\n' "$prog" "$*" >&2
  exit 2
}

seconds=60
only=()
build_dir=

while (($#)); do
  case $1 in
    --seconds) (($# >= 2)) || die "--seconds needs a number"; seconds=$2; shift 2 ;;
    --seconds=*) seconds=${1#--seconds=}; shift ;;
    --only) (($# >= 2)) || die "--only needs a target"; only+=("$2"); shift 2 ;;
    --only=*) only+=("${1#--only=}"); shift ;;
    -h|--help) sed -n '/^# Usage:/,/^# testlog/s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
    -*) die "unknown option: $1" ;;
    *) [[ -z $build_dir ]] || die "one build folder only"; build_dir=$1; shift ;;
  esac
done
[[ $seconds =~ ^[1-9][0-9]*$ ]] || die "--seconds needs a whole number of seconds"
build_dir=$(cd "${build_dir:-$source_dir/_build-fuzz}" && pwd -P) \
  || die "no build folder: configure one with -Dfuzz=true"

targets=()
for exe in "$build_dir"/tests/fuzz/fuzz-*; do
  [[ -x $exe && -f $exe ]] && targets+=("${exe##*/fuzz-}")
done
((${#targets[@]})) || die "no fuzz targets in $build_dir: configure it with -Dfuzz=true"
if ((${#only[@]})); then
  for name in "${only[@]}"; do
    [[ -x $build_dir/tests/fuzz/fuzz-$name ]] || die "no target fuzz-$name in $build_dir"
  done
  targets=("${only[@]}")
fi

# Leaks are findings here: the targets touch no GTK, whose caches LeakSanitizer cannot follow.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=0:${ASAN_OPTIONS:-}
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1:${UBSAN_OPTIONS:-}
export G_DEBUG=gc-friendly
export GIO_USE_VFS=local
export GSETTINGS_BACKEND=memory

mkdir -p "$build_dir/meson-logs"
readonly results=$build_dir/meson-logs/fuzzlog.json
: >"$results"
failed=0
tmp_parent=${TMPDIR:-/tmp}
if [[ -d /dev/shm && -w /dev/shm ]]; then
  tmp_parent=/dev/shm
fi

for name in "${targets[@]}"; do
  work=$build_dir/fuzz-runs/$name
  exe=$build_dir/tests/fuzz/fuzz-$name
  status=0

  # A fresh copy of the seeds each time: what one run found is not the next run's start, so a
  # run in CI depends on nothing but the tree. Inputs that failed earlier runs stay.
  rm -rf "$work/corpus" "$work/seeds"
  mkdir -p "$work/corpus"
  "$source_dir/tests/fuzz/seed-corpus.sh" "$name" "$work/seeds" "$work/dict"
  dict_args=()
  [[ -s $work/dict ]] && dict_args=(-dict="$work/dict")

  # The targets write a file and a store per input: in memory where there is a /dev/shm. A
  # target that crashed leaves its files behind, removed here.
  tmp=$(mktemp -d "$tmp_parent/loom-fuzz-$name.XXXXXX")

  printf '==> fuzz-%s for %d s (%d seeds)\n' "$name" "$seconds" "$(ls "$work/seeds" | wc -l)"
  # -timeout: one input that takes this long is a hang; -rss_limit_mb: a leak or a blow-up.
  # The seeds are read from their own folder and new inputs go to corpus/ only.
  TMPDIR=$tmp nice "$exe" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2560 \
    -malloc_limit_mb=2048 -print_final_stats=1 -detect_leaks=1 -artifact_prefix="$work/" \
    "${dict_args[@]}" "$work/corpus" "$work/seeds" >"$work/log" 2>&1 || status=$?
  rm -rf "$tmp"

  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -n 1)
  executions=${executions:-0}
  findings=$(grep -c -E '^(SUMMARY: |==[0-9]+==ERROR: )' "$work/log" || true)
  if ((status == 0 && findings == 0)); then
    result=OK
    printf '    passed: %s executions\n' "$executions"
  else
    result=FAIL
    failed=$((failed + 1))
    printf '    FAILED (exit status %d) after %s executions; the end of %s:\n' "$status" \
      "$executions" "$work/log"
    grep -E -m 12 'ERROR|SUMMARY|runtime error|Test unit written|assertion' "$work/log" \
      | sed 's/^/      /' || true
  fi
  printf '{"name": "fuzz-%s", "result": "%s", "executions": %s, "seconds": %s}\n' \
    "$name" "$result" "$executions" "$seconds" >>"$results"
done

printf '==> %d of %d fuzz targets failed\n' "$failed" "${#targets[@]}"
((failed == 0))
