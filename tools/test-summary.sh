#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Prints one closing line for a meson test run: the cmocka test cases that
# passed and failed across every test program, from meson's log.
# usage: tools/test-summary.sh BUILD_DIR
log="${1:-build}/meson-logs/testlog.txt"
[ -f "$log" ] || { echo "pmlab: $log: no test log" >&2; exit 2; }
awk '
/^\[  PASSED  \] [0-9]+ test/ { passed += $4 }
/^\[  FAILED  \] [0-9]+ test/ { failed += $4 }
END { printf "tests: %d passed, %d failed\n", passed, failed }
' "$log"
