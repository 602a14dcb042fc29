#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Installs the Debian packages pmlab needs to build and test, if missing.
# Runs `apt-get update` once, only when something is missing. As root on
# Debian 12; elsewhere it says what to install and fails.
set -eu
PKGS="gcc clang libclang-rt-14-dev meson ninja-build pkg-config python3 libinih-dev
	libjansson-dev libcmocka-dev libtracefs-dev libtracecmd-dev libtraceevent-dev trace-cmd"
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
