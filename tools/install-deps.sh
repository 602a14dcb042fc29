#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Installs the Debian packages pmlab needs, if missing: to build and test,
# and with a group name, those one extra target needs:
#   browser   chromium, for the HTML checks in a real browser (CI installs it;
#             without it those checks are skipped and counted as skipped)
#   coverage  gcovr, for make coverage
#   fuzz      clang's libFuzzer runtime, for make fuzz and make fuzz-smoke
# Runs `apt-get update` once, only when something is missing. As root on
# Debian 12; elsewhere it says what to install and fails. Tests never
# install anything: this script is the only place that does.
# usage: sh tools/install-deps.sh [browser] [coverage] [fuzz]
set -eu
PKGS="gcc clang meson ninja-build pkg-config python3 libinih-dev libjansson-dev libcmocka-dev
	libtracefs-dev libtracecmd-dev libtraceevent-dev trace-cmd
	python3-pandas python3-setuptools python3-wheel python3-pip
	zsh"
for group in "$@"; do
	case $group in
	browser) PKGS="$PKGS chromium" ;;
	coverage) PKGS="$PKGS gcovr" ;;
	fuzz) PKGS="$PKGS libclang-rt-14-dev" ;;
	*) echo "pmlab: install-deps: unknown group '$group' (expected browser, coverage or fuzz)" >&2; exit 2 ;;
	esac
done
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
	echo "pmlab: missing packages:$missing (install them as root with apt-get)" >&2
	exit 2
fi
echo "pmlab: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
