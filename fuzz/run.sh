#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Runs every fuzz target built by fuzz/build.sh for SECONDS each, seeded
# with the project's own inputs and fuzz/corpus/NAME, with its dictionary;
# then prints, per target, the runs, runs per second, the coverage
# (libFuzzer's cov: edges, ft: features) and the corpus size. A target that
# crashes leaves its input in BUILD_DIR/artifacts and fails the script.
# Usage: fuzz/run.sh BUILD_DIR SECONDS [TARGET...]
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

mkdir -p "$build/artifacts"
export LSAN_OPTIONS="suppressions=$PWD/fuzz/lsan.supp:print_suppressions=0"
failed=0
summary=""
for t in $order; do
	corpus="$build/corpus-$t"
	mkdir -p "$corpus"
	log="$build/fuzz-$t.log"
	# shellcheck disable=SC2086
	"$build/fuzz/fuzz_$t" -dict="fuzz/${dicts[$t]:-$t}.dict" -max_total_time="$seconds" \
		-timeout=10 -print_final_stats=1 -artifact_prefix="$build/artifacts/$t-" \
		"$corpus" ${seeds[$t]} >"$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	last=$(grep -E '^#[0-9]+' "$log" | tail -1)
	cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
	ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
	corp=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$last")
	result=ok
	if [ $rc -ne 0 ]; then
		result="FAILED (exit $rc, see $log)"
		failed=1
	fi
	summary+=$(printf '%-12s %12s %9s %7s %7s %7s  %s' "$t" "${runs:-?}" \
		"$(( ${runs:-0} / (seconds > 0 ? seconds : 1) ))" "${cov:-?}" "${ft:-?}" \
		"${corp:-?}" "$result")$'\n'
done
printf '%-12s %12s %9s %7s %7s %7s  %s\n' target runs runs/s cov ft corpus result
printf '%s' "$summary"
exit $failed
