#!/usr/bin/env bash
# build-aux/format.sh — formats the C sources with the project's .clang-format.
#
#   build-aux/format.sh [--check] [FILE…]
#
# Without files, every C file of src/, tests/ and bench/ that git knows. --check changes nothing
# and fails when a file is not formatted.
#
# The house style puts every parameter of a function on a line of its own, which clang-format
# can say only from version 21 on (BinPackParameters: AlwaysOnePerLine); Debian 12 has 14. A
# clang-format that new is used when it is on PATH, or else a pinned build of it from the npm
# registry, compiled to WebAssembly and run by Node.js (apt-get install nodejs npm).
#
# SPDX-License-Identifier: GPL-3.0-or-later

set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

readonly pinned='@wasm-fmt/clang-format@23.1.0'

formatter=(npx --yes --package "$pinned" clang-format)
if command -v clang-format >/dev/null 2>&1; then
  version=$(clang-format --version | grep -oE '[0-9]+\.[0-9]+' | head -n 1)
  if ((${version%%.*} >= 21)); then
    formatter=(clang-format)
  fi
fi

mode=(-i)
if [[ ${1:-} == --check ]]; then
  mode=(--dry-run -Werror)
  shift
fi

files=("$@")
if ((${#files[@]} == 0)); then
  mapfile -t files < <(git ls-files 'src/*.[ch]' 'tests/*.[ch]' 'bench/*.[ch]')
fi

"${formatter[@]}" "${mode[@]}" "${files[@]}"
