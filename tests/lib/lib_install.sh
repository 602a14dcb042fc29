#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# libpmlab as installed: the headers, pmlab.pc, the shared and the static
# library from a DESTDIR; a program built with pkg-config against each gives
# the figures pmlab sim prints; only the public functions are exported.
# usage: tests/lib/lib_install.sh BUILD_DIR SOURCE_DIR [CFLAGS]
# CFLAGS: what a client of this build needs besides pkg-config's (the
# sanitizers of an ASan build).
set -eu
build=$1
src=$2
extra=${3:-}
dest=$(mktemp -d "${TMPDIR:-/tmp}/pmlab-lib-XXXXXX")
trap 'rm -rf "$dest"' EXIT
fail() { echo "lib install test: $*" >&2; exit 1; }

meson install -C "$build" --destdir "$dest" --no-rebuild --quiet >/dev/null ||
	fail "meson install --destdir failed"
header=$(find "$dest" -path '*/include/pmlab/pmlab.h' -type f)
[ -f "$header" ] || fail "include/pmlab/pmlab.h is not installed"
pc=$(find "$dest" -name pmlab.pc -type f)
[ -f "$pc" ] || fail "pmlab.pc is not installed"
libdir=$(dirname "$(dirname "$pc")")
so=$(find "$libdir" -name 'libpmlab.so.*.*.*' -type f)
[ -f "$so" ] && [ -f "$libdir/libpmlab.a" ] || fail "libpmlab.so and libpmlab.a are not both in $libdir"

# Exported: exactly the functions the header declares.
nm -D --defined-only "$so" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' | sort >"$dest/exported"
sed -n 's/^PMLAB_API [^(]*[ *]\(pmlab_[a-z_]*\)(.*/\1/p' "$header" | sort >"$dest/declared"
[ -s "$dest/declared" ] || fail "no PMLAB_API function found in the header"
diff "$dest/declared" "$dest/exported" >"$dest/diff" ||
	fail "exported functions differ from the header's: $(tr '\n' ' ' <"$dest/diff")"
other=$(nm -D --defined-only "$so" | awk '$2 != "A" && $3 !~ /^pmlab_/ { print $3 }' | head -3)
[ -z "$other" ] || fail "libpmlab.so exports non-public symbols: $other"
other=$(nm -g --defined-only "$libdir/libpmlab.a" | awk 'NF == 3 && $3 !~ /^pmlab_/ { print $3 }' |
	head -3)
[ -z "$other" ] || fail "libpmlab.a has non-public global symbols: $other"

export PKG_CONFIG_PATH="$libdir/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$dest"
cflags=$(pkg-config --cflags pmlab) || fail "pkg-config --cflags pmlab failed"
libs=$(pkg-config --libs pmlab) || fail "pkg-config --libs pmlab failed"
static_libs=$(pkg-config --static --libs pmlab | sed "s|-lpmlab|$libdir/libpmlab.a|")
cd "$dest" # nothing of the tree is reachable from here
# shellcheck disable=SC2086
cc -std=c11 -Wall -Werror $extra "$src/examples/c/sim.c" $cflags $libs -o sim-shared ||
	fail "examples/c/sim.c does not build against the installed shared library"
# shellcheck disable=SC2086
cc -std=c11 -Wall -Werror $extra "$src/examples/c/sim.c" $cflags $static_libs -o sim-static ||
	fail "examples/c/sim.c does not build against the installed static library"
ldd sim-static | grep -q libpmlab && fail "sim-static still needs libpmlab.so"
LD_LIBRARY_PATH="$libdir" ./sim-shared i7-4790 pingpong schedutil >shared.txt ||
	fail "the shared-library program failed"
./sim-static i7-4790 pingpong schedutil >static.txt || fail "the static program failed"
"$build/src/cli/pmlab" sim --machine i7-4790 --workload pingpong --cpufreq schedutil \
	--duration 0.5 --format json >cli.json || fail "pmlab sim failed"
python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))
print("pingpong on i7-4790: %.1f per s at %.2f W" % (r["throughput"], r["power_w"]))' cli.json \
	>cli.txt
cmp -s cli.txt shared.txt || fail "shared: '$(cat shared.txt)', pmlab sim: '$(cat cli.txt)'"
cmp -s cli.txt static.txt || fail "static: '$(cat static.txt)', pmlab sim: '$(cat cli.txt)'"
LD_LIBRARY_PATH="$libdir" ./sim-shared i7-4790 no-such-workload 2>err.txt &&
	fail "an unknown workload did not fail"
grep -q "no-such-workload.*(input)" err.txt || fail "the error was: $(cat err.txt)"
echo "lib install test: $(wc -l <"$dest/declared") public functions; shared and static clients agree with pmlab sim"
