#!/usr/bin/env bash
# quickstart.sh — install what is missing (Debian 12), build, then run the app or the tests.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: build-aux/quickstart.sh [--build-dir DIR] COMMAND [ARGUMENT…]
#
#   run  [APP-ARGUMENT…]         build and launch the app from the build folder
#   test [MESON-TEST-ARGUMENT…]  build and run the whole test suite headless
#   build                        build only
#   deps                         install the missing Debian packages only
#
#   --build-dir DIR   the build folder (default: _build in the source tree)
#
# Environment:
#   MESON_ARGS="…"    extra arguments for `meson setup`, e.g. "-Dwerror=true"; an existing build
#                     folder is reconfigured with them
#   LOOM_SKIP_DEPS=1  do not look for missing packages
#
# Works from any folder. Packages are installed with apt-get, through sudo when not root, and
# only when one is missing.

set -euo pipefail

# Every Debian 12 package that building, testing and packaging need. The one list: CI installs
# from it too.
readonly packages=(
  # Build tools and libraries
  meson
  ninja-build
  pkg-config
  gcc
  libgtk-4-dev
  libadwaita-1-dev
  libglib2.0-dev
  libglib2.0-bin
  libsqlite3-dev
  libjson-glib-dev
  libsecret-1-dev
  libgit2-dev
  libmd4c-dev
  libmd4c-html0-dev
  libsodium-dev
  # SHA-256 with the processor's SHA instructions, for packages (src/core/model/loom-sha256.c)
  nettle-dev
  # GdkPixbuf's SVG loader. GTK only recommends it, so --no-install-recommends leaves it out, and
  # then the icon theme skips every SVG: the app's own icons (SVG only, unlike Adwaita's, which
  # come with PNG renderings) are drawn as "image missing". tests/app/test-icons.c checks it.
  librsvg2-common
  # clang and its fuzzer runtime: the fuzz targets of tests/fuzz (.ci/run)
  clang
  libclang-rt-14-dev
  gettext
  git
  ca-certificates
  # The private test session (tests/harness/loom-test-session)
  xvfb
  xauth
  dbus
  dbus-x11
  gnome-keyring
  libsecret-tools
  at-spi2-core
  python3-dogtail
  imagemagick
  # A real browser for conversation.html: tests/core/test-export-browser.sh renders exported
  # pages with Chromium headless, light and dark, and fails when it is missing
  chromium
  # The en_US.UTF-8 locale that GTK's tests ask for, made by the session list's test with
  # localedef (counts grouped as "100,000")
  locales
  # Chinese and Japanese in the fixtures, drawn in the screenshots rather than as boxes
  fonts-wqy-microhei
  # Validation of the data files and the Flatpak manifest
  desktop-file-utils
  appstream
  flatpak-builder
)

readonly prog=${0##*/}

say ()
{
  printf '==> %s\n' "$*" >&2
}

die ()
{
  printf '%s: error: %s\n' "$prog" "$*" >&2
  exit 1
}

usage ()
{
  sed -n '/^# Usage:/,/^# only when/s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

# Prints the packages of the list that are not installed, one a line.
missing_packages ()
{
  local -A installed=()
  local name status package

  # One dpkg-query for the whole list; it complains on stderr about the packages it has never
  # heard of, which are missing all the same.
  while read -r name status; do
    if [[ $status == installed ]]; then
      installed[$name]=1
    fi
  done < <(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${packages[@]}" 2>/dev/null \
             || true)

  for package in "${packages[@]}"; do
    if [[ -z ${installed[$package]:-} ]]; then
      printf '%s\n' "$package"
    fi
  done
}

install_dependencies ()
{
  local missing=() sudo=()

  if [[ ${LOOM_SKIP_DEPS:-0} == 1 ]]; then
    return 0
  fi
  if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
    say "Not a Debian system: make sure these (Debian names) are installed: ${packages[*]}"
    return 0
  fi

  mapfile -t missing < <(missing_packages)
  if ((${#missing[@]} == 0)); then
    say "All ${#packages[@]} packages are installed"
    return 0
  fi

  if ((EUID != 0)); then
    command -v sudo >/dev/null 2>&1 \
      || die "missing packages and no sudo to install them: ${missing[*]}"
    sudo=(sudo)
  fi

  say "Installing ${#missing[@]} missing packages: ${missing[*]}"
  "${sudo[@]}" apt-get update -q
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -q -y --no-install-recommends "${missing[@]}"
}

build ()
{
  local meson_args=()

  # MESON_ARGS is split on white space like a command line without quotes.
  read -r -a meson_args <<<"${MESON_ARGS:-}"

  if [[ -f $build_dir/meson-private/coredata.dat ]]; then
    if ((${#meson_args[@]})); then
      say "Reconfiguring $build_dir with ${meson_args[*]}"
      meson setup --reconfigure "$build_dir" "${meson_args[@]}"
    fi
  else
    say "Configuring $build_dir ${meson_args[*]}"
    meson setup "$build_dir" "${meson_args[@]}"
  fi

  say "Building in $build_dir"
  meson compile -C "$build_dir"
}

run_app ()
{
  local app=$build_dir/src/app/intentloom-history

  [[ -x $app ]] || die "$app was not built (is the gui option off?)"
  if [[ -z ${DISPLAY:-} && -z ${WAYLAND_DISPLAY:-} ]]; then
    say "No display here: the app needs a desktop session (or tests/harness/loom-test-session)"
  fi

  say "Launching $app"
  # The settings schema is compiled into the build folder, not installed.
  GSETTINGS_SCHEMA_DIR=$build_dir/data${GSETTINGS_SCHEMA_DIR:+:$GSETTINGS_SCHEMA_DIR} \
    exec "$app" "$@"
}

run_tests ()
{
  # The whole run happens inside one private session as well, so that a test that does not use
  # the harness itself still never reaches the desktop, bus, keyring or files of the person
  # running it. Tests that need a session of their own start one (tests/harness/meson.build).
  say "Testing in $build_dir"
  tests/harness/loom-test-session meson test -C "$build_dir" --print-errorlogs "$@"
}

source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
build_dir=$source_dir/_build
command=

while (($#)); do
  case $1 in
    --build-dir)
      (($# >= 2)) || die "--build-dir needs a folder"
      build_dir=$2
      shift 2
      ;;
    --build-dir=*)
      build_dir=${1#--build-dir=}
      shift
      ;;
    -h|--help)
      usage
      exit 0
      ;;
    run|test|build|deps)
      command=$1
      shift
      break
      ;;
    *)
      usage >&2
      die "unknown command or option: $1"
      ;;
  esac
done

[[ -n $command ]] || { usage >&2; die "no command given"; }
[[ -n $build_dir ]] || die "--build-dir needs a folder"

# A relative build folder is relative to where the script was called from; everything after
# this runs from the source tree.
if [[ $build_dir != /* ]]; then
  build_dir=$PWD/$build_dir
fi
cd "$source_dir"

install_dependencies
case $command in
  deps)
    ;;
  build)
    build
    ;;
  run)
    build
    run_app "$@"
    ;;
  test)
    build
    run_tests "$@"
    ;;
  *)
    die "unknown command: $command"
    ;;
esac
