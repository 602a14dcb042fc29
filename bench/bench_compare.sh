#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Time of pmlab's batch commands: the real demo (tools/demo.sh: 5 profiles x
# 5 runs of 10 s, kernel 3.10 rules, the calibration make validate fitted)
# and a 100-point sweep run serially and with --jobs 2, whose outputs must be
# identical. Best wall time of three, and the CPU time (user + system of
# pmlab's processes) per run; prints figures, asserts only that parallel and
# serial agree. Run from the top of the tree (demo.sh reads data/).
# usage: sh bench/bench_compare.sh [PMLAB]   (make bench passes the release build)
set -eu
PMLAB=${1:-build/src/cli/pmlab}
TMP=${TMPDIR:-/tmp}/pmlab-bench-compare.$$
mkdir -p "$TMP"
trap 'rm -rf "$TMP"' EXIT INT TERM

now() { date +%s.%N; }

# children_cpu FILE: the CPU seconds (user + system) of this shell's
# finished children into FILE, from the `times` builtin's second line (e.g.
# "0m1.230000s 0m0.040000s"); not in $(...), whose subshell has none.
children_cpu() {
	times >"$TMP/times"
	awk 'NR == 2 {
		s = 0
		for (i = 1; i <= 2; i++) { split($i, p, "m"); sub("s", "", p[2]); s += p[1] * 60 + p[2] }
		print s
	}' "$TMP/times" >"$1"
}

# best_of3 NAME OUTFILE CMD...: the shortest of three wall times, in s, and
# the mean CPU time of a run.
best_of3() {
	name=$1 out=$2
	shift 2
	best=
	children_cpu "$TMP/cpu0"
	for i in 1 2 3; do
		t0=$(now)
		"$@" >"$out"
		t=$(awk -v a="$(now)" -v b="$t0" 'BEGIN { print a - b }')
		if [ -z "$best" ] || awk -v t="$t" -v b="$best" 'BEGIN { exit !(t < b) }'; then best=$t; fi
	done
	children_cpu "$TMP/cpu1"
	cpu=$(awk -v a="$(cat "$TMP/cpu1")" -v b="$(cat "$TMP/cpu0")" 'BEGIN { print (a - b) / 3 }')
	printf '  %-44s %7.3f s wall (best of 3) %7.3f s CPU\n' "$name" "$best" "$cpu"
	echo "$best" >"$TMP/$name.t"
}

seeds=$(seq -s, 1 20)
SWEEP="sweep --machine xeon-e5-2650l-v3 --cpus 4 --workload oltp --duration 1 \
--vary cpufreq=performance,powersave,ondemand,conservative,schedutil --vary seed=$seeds"

echo "pmlab demo/sweep time ($(nproc) processors online)"
best_of3 demo-compare "$TMP/demo.txt" sh tools/demo.sh "$PMLAB"
# shellcheck disable=SC2086
best_of3 sweep-100-jobs1 "$TMP/j1.csv" "$PMLAB" $SWEEP --jobs 1
# shellcheck disable=SC2086
best_of3 sweep-100-jobs2 "$TMP/j2.csv" "$PMLAB" $SWEEP --jobs 2
cmp -s "$TMP/j1.csv" "$TMP/j2.csv" || { echo "bench: --jobs 2 output differs from --jobs 1" >&2; exit 1; }
rows=$(($(wc -l <"$TMP/j1.csv") - 1))
printf '  %-44s %7.2fx (%d points, outputs identical)\n' "sweep speed-up, --jobs 2 over --jobs 1" \
	"$(awk -v a="$(cat "$TMP/sweep-100-jobs1.t")" -v b="$(cat "$TMP/sweep-100-jobs2.t")" \
		'BEGIN { print a / b }')" "$rows"

# Peak RSS of pmlab's own process in a long JSON sweep: rows go out as
# points complete, so it must not grow with the number of points
# (417 MB at 5000 points when every row was held to the end).
# peak_rss CMD...: VmHWM (kB) of the command's process, polled until it exits.
peak_rss() {
	"$@" >"$TMP/rss.out" &
	pid=$!
	hwm=0
	while kill -0 "$pid" 2>/dev/null; do
		h=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
		[ -n "$h" ] && hwm=$h
		sleep 0.1
	done
	wait "$pid"
	echo "$hwm"
}
for n in 500 2000; do
	rss=$(peak_rss "$PMLAB" sweep --machine i7-4790 --workload pingpong --duration 0.002 \
		--vary seed="$(seq -s, 1 "$n")" --format json --jobs 2)
	printf '  %-44s %7d kB peak RSS (%d MB of JSON out)\n' "sweep-$n-points-json" "$rss" \
		"$(($(wc -c <"$TMP/rss.out") / 1000000))"
done
