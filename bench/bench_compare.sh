#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Wall time of pmlab's batch commands: the demo comparison (tools/demo.sh,
# 5 profiles x 5 runs of 10 s) and a 100-point sweep run serially and with
# --jobs 2, whose outputs must be identical. Best of three of each; prints
# figures, asserts only that parallel and serial agree.
# usage: sh bench/bench_compare.sh [PMLAB]   (make bench passes the release build)
set -eu
PMLAB=${1:-build/src/cli/pmlab}
TMP=${TMPDIR:-/tmp}/pmlab-bench-compare.$$
mkdir -p "$TMP"
trap 'rm -rf "$TMP"' EXIT INT TERM

now() { date +%s.%N; }

# best_of3 NAME OUTFILE CMD...: the shortest of three wall times, in s.
best_of3() {
	name=$1 out=$2
	shift 2
	best=
	for i in 1 2 3; do
		t0=$(now)
		"$@" >"$out"
		t=$(awk -v a="$(now)" -v b="$t0" 'BEGIN { print a - b }')
		if [ -z "$best" ] || awk -v t="$t" -v b="$best" 'BEGIN { exit !(t < b) }'; then best=$t; fi
	done
	printf '  %-44s %7.3f s\n' "$name" "$best"
	echo "$best" >"$TMP/$name.t"
}

P=tuned-2.3
seeds=$(seq -s, 1 20)
SWEEP="sweep --machine xeon-e5-2650l-v3 --cpus 4 --workload oltp --duration 1 \
--vary cpufreq=performance,powersave,ondemand,conservative,schedutil --vary seed=$seeds"

echo "pmlab compare/sweep wall time ($(nproc) processors online)"
best_of3 demo-compare "$TMP/demo.txt" "$PMLAB" compare --machine xeon-e5-2650l-v3 --cpus 4 \
	--workload oltp --cpuidle menu --runs 5 --duration 10 \
	--profiles "$P/powersave,$P/balanced,$P/balanced:governor=conservative,$P/throughput-performance,$P/latency-performance"
# shellcheck disable=SC2086
best_of3 sweep-100-jobs1 "$TMP/j1.csv" "$PMLAB" $SWEEP --jobs 1
# shellcheck disable=SC2086
best_of3 sweep-100-jobs2 "$TMP/j2.csv" "$PMLAB" $SWEEP --jobs 2
cmp -s "$TMP/j1.csv" "$TMP/j2.csv" || { echo "bench: --jobs 2 output differs from --jobs 1" >&2; exit 1; }
rows=$(($(wc -l <"$TMP/j1.csv") - 1))
printf '  %-44s %7.2fx (%d points, outputs identical)\n' "sweep speed-up, --jobs 2 over --jobs 1" \
	"$(awk -v a="$(cat "$TMP/sweep-100-jobs1.t")" -v b="$(cat "$TMP/sweep-100-jobs2.t")" \
		'BEGIN { print a / b }')" "$rows"
