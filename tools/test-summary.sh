#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Prints one closing line for a meson test run: the cmocka test cases that
# passed, failed and were skipped across every test program (from meson's
# log), naming the skipped ones -- a skipped test is never silent.
# usage: tools/test-summary.sh BUILD_DIR
log="${1:-build}/meson-logs/testlog.txt"
[ -f "$log" ] || { echo "pmlab: $log: no test log" >&2; exit 2; }
awk '
/^\[  PASSED  \] [0-9]+ test/ { passed += $4 }
/^\[  FAILED  \] [0-9]+ test/ { failed += $4 }
/^\[  SKIPPED \] [0-9]+ test/ { skipped += $4; listing = 1; next }
/^\[  SKIPPED \] [A-Za-z_][A-Za-z0-9_]*$/ {
	# each skipped test is printed when it runs and again in the listing
	if (listing && !seen[$4]++) names = names (names ? ", " : "") $4
	next
}
{ listing = 0 }
END {
	printf "tests: %d passed, %d failed, %d skipped", passed, failed, skipped
	if (skipped) printf " (%s)", names
	printf "\n"
}
' "$log"
