#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Builds the libFuzzer targets (fuzz/meson.build) with clang, ASan and
# UBSan, the library instrumented for coverage.
# usage (from the repository root): sh fuzz/build.sh [BUILD_DIR]   (default build-fuzz)
# then: bash fuzz/run.sh BUILD_DIR SECONDS   (every target, a summary per target)
set -eu

out=${1:-build-fuzz}
if [ ! -f "$out/build.ninja" ]; then
	CC=${CC:-clang} meson setup "$out" -Dfuzz=true -Dbuildtype=debugoptimized \
		-Db_sanitize=address,undefined -Db_lundef=false \
		-Dc_args="-fsanitize=fuzzer-no-link -fno-sanitize-recover=all"
fi
targets=$(sed -n "s/^  '\([a-z_]*\)' : .*/fuzz_\1/p" fuzz/meson.build)
# shellcheck disable=SC2086
meson compile -C "$out" $targets
