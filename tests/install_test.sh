#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make install's promise: the installed pmlab finds everything it reads.
# Installs the build into a temporary DESTDIR and runs the installed binary
# from a directory outside the source tree.
# usage: tests/install_test.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1
src=$2
dest=$(mktemp -d "${TMPDIR:-/tmp}/pmlab-install-XXXXXX")
trap 'rm -rf "$dest"' EXIT
fail() { echo "install test: $*" >&2; exit 1; }

meson install -C "$build" --destdir "$dest" --no-rebuild --quiet >/dev/null ||
	fail "meson install --destdir failed"
bin=$(find "$dest" -path '*/bin/pmlab' -type f)
[ -x "$bin" ] || fail "no bin/pmlab under DESTDIR"
share=$(dirname "$(dirname "$bin")")/share
for f in pmlab/validation/tuned-balanced-conservative.ini pmlab/profiles/balanced/tuned.conf \
	pmlab/machines/i7-4790.ini pmlab/workloads/video.json man/man1/pmlab.1; do
	[ -f "$share/$f" ] || fail "share/$f not installed"
done
for f in bash-completion/completions/pmlab zsh/site-functions/_pmlab \
	pmlab/samples/govtrace-load-steps.csv pmlab/samples/idletrace-video.csv; do
	[ -f "$share/$f" ] || fail "share/$f not installed"
done
unit=$(dirname "$share")/lib/systemd/system/pmlab.service
[ -f "$unit" ] || fail "the systemd unit is not installed in lib/systemd/system"
grep -qx "ExecStart=${bin#"$dest"} daemon" "$unit" || fail "the unit does not run the installed pmlab"

cd "$dest" # nothing of the tree is reachable from here
"$bin" sim --machine i7-4790 --workload pingpong --duration 0.05 >sim.txt ||
	fail "installed sim failed"
grep -q "^pmlab sim: machine i7-4790" sim.txt || fail "sim printed no table"
"$bin" profile list >list.txt || fail "installed profile list failed"
grep -q "^  balanced " list.txt || fail "the installed profiles are not found"
grep -q "^  tuned-2.3/balanced " list.txt || fail "the installed tuned-2.3 profiles are not found"
# Two of the installed experiments, found without --data (every one of
# them is run from the tree by tests/e2e/test_validate_cli.c).
"$bin" validate --jobs 2 idle-pingpong-slow-2023 sched-mc-power-savings >validate.txt ||
	fail "installed validate failed (exit $?)"
grep -q "^idle-pingpong-slow-2023: max error" validate.txt ||
	fail "installed validate did not run the installed experiments"
grep -q "^sched-mc-power-savings: max error" validate.txt ||
	fail "installed validate did not run the installed experiments"
n=$(ls "$share/pmlab/validation/"*.ini | wc -l)
[ "$n" -eq "$(ls "$src"/data/validation/*.ini | wc -l)" ] ||
	fail "share/pmlab/validation holds $n experiments, data/validation more"
echo "install test: the installed pmlab ran sim, profile list and validate from $dest"
