#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Runs every fuzz target built by fuzz/build.sh for SECONDS each, seeded
# with the project's own inputs and fuzz/corpus/NAME, with its dictionary;
# then prints, per target, the runs, runs per second, the coverage
# (libFuzzer's cov: edges, ft: features) and the corpus size. A target that
# crashes leaves its input in BUILD_DIR/artifacts and fails the script.
# Usage: fuzz/run.sh BUILD_DIR SECONDS [TARGET...]
#        fuzz/run.sh BUILD_DIR smoke [TARGET...]
# smoke (CI) is deterministic: a fixed seed, a fixed number of runs per
# target and a fresh corpus, so the same tree gives the same verdict on any
# machine whatever its speed; a timed run (make fuzz) explores further and
# keeps its corpus in BUILD_DIR/corpus-NAME between runs.
set -uo pipefail
build=${1:-build-fuzz}
seconds=${2:-30}
shift 2 2>/dev/null || shift $#

# target: seed directories (the dictionary is fuzz/NAME.dict, or the one named)
declare -A seeds=(
	[machine_ini]="data/machines tests/fixtures/machines"
	[idletrace]="tests/fixtures/idletrace"
	[govtrace]="tests/fixtures/govtrace"
	[rtapp]="data/workloads"
	[profile]="tests/fixtures/profiles data/profiles"
	[plan]="fuzz/corpus/plan"
	[host_state]="tests/fixtures/hoststate"
	[procstat]="tests/fixtures/host/vm-no-cpufreq/proc"
	[ftrace]="tests/fixtures/traces"
	[tracedat]="fuzz/corpus/tracedat"
	[validate]="data/validation"
	[merge]="fuzz/corpus/merge"
	[options]="fuzz/corpus/options"
)
declare -A dicts=([plan]=profile)
order="machine_ini idletrace govtrace rtapp profile plan host_state procstat ftrace tracedat
       validate merge options"
[ $# -gt 0 ] && order="$*"

smoke_runs=3000
mode=(-max_total_time="$seconds")
if [ "$seconds" = smoke ]; then
	mode=(-seed=1 -runs="$smoke_runs")
	seconds=0
fi
mkdir -p "$build/artifacts"
export LSAN_OPTIONS="suppressions=$PWD/fuzz/lsan.supp:print_suppressions=0"
failed=0
summary=""
for t in $order; do
	corpus="$build/corpus-$t"
	[ "$seconds" = 0 ] && corpus="$build/smoke-corpus-$t" && rm -rf "$corpus"
	mkdir -p "$corpus"
	log="$build/fuzz-$t.log"
	start=$(date +%s%N)
	# shellcheck disable=SC2086
	"$build/fuzz/fuzz_$t" -dict="fuzz/${dicts[$t]:-$t}.dict" "${mode[@]}" \
		-timeout=10 -print_final_stats=1 -artifact_prefix="$build/artifacts/$t-" \
		"$corpus" ${seeds[$t]} >"$log" 2>&1
	rc=$?
	elapsed_ns=$(( $(date +%s%N) - start ))
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	# runs per second of wall time, the corpus loading included
	rate=$(( ${runs:-0} * 1000000000 / (elapsed_ns > 0 ? elapsed_ns : 1) ))
	last=$(grep -E '^#[0-9]+' "$log" | tail -1)
	cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
	ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
	corp=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$last")
	result=ok
	if [ $rc -ne 0 ]; then
		result="FAILED (exit $rc, see $log)"
		failed=1
		# CI keeps only the output: show what failed and on which input.
		echo "== fuzz_$t failed (exit $rc); the end of $log:"
		grep -v '^#[0-9]' "$log" | tail -n 40
	fi
	summary+=$(printf '%-12s %12s %9s %7s %7s %7s  %s' "$t" "${runs:-?}" \
		"${rate:-?}" "${cov:-?}" "${ft:-?}" \
		"${corp:-?}" "$result")$'\n'
done
printf '%-12s %12s %9s %7s %7s %7s  %s\n' target runs runs/s cov ft corpus result
printf '%s' "$summary"
exit $failed
