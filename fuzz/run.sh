#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Runs every fuzz target built by fuzz/build.sh for a while, seeded with the
# project's own sample inputs. Usage: fuzz/run.sh BUILD_DIR SECONDS
set -euo pipefail
build=${1:-build-fuzz}
seconds=${2:-30}
mkdir -p "$build/corpus-machine"
"$build/fuzz_machine_ini" -dict=fuzz/machine_ini.dict -max_total_time="$seconds" \
	-print_final_stats=1 "$build/corpus-machine" data/machines tests/fixtures/machines
mkdir -p "$build/corpus-idletrace"
"$build/fuzz_idletrace" -dict=fuzz/idletrace.dict -max_total_time="$seconds" \
	-print_final_stats=1 "$build/corpus-idletrace" tests/fixtures/idletrace
mkdir -p "$build/corpus-govtrace"
"$build/fuzz_govtrace" -dict=fuzz/govtrace.dict -max_total_time="$seconds" \
	-print_final_stats=1 "$build/corpus-govtrace" tests/fixtures/govtrace
mkdir -p "$build/corpus-rtapp"
"$build/fuzz_rtapp" -dict=fuzz/rtapp.dict -max_total_time="$seconds" \
	-print_final_stats=1 "$build/corpus-rtapp" data/workloads
mkdir -p "$build/corpus-profile"
"$build/fuzz_profile" -dict=fuzz/profile.dict -max_total_time="$seconds" \
	-print_final_stats=1 "$build/corpus-profile" tests/fixtures/profiles data/profiles
mkdir -p "$build/corpus-host-state" "$build/corpus-procstat"
"$build/fuzz_host_state" -dict=fuzz/host_state.dict -max_total_time="$seconds" \
	-print_final_stats=1 "$build/corpus-host-state" tests/fixtures/hoststate
"$build/fuzz_procstat" -dict=fuzz/procstat.dict -max_total_time="$seconds" \
	-print_final_stats=1 "$build/corpus-procstat" tests/fixtures/host/vm-no-cpufreq/proc
mkdir -p "$build/corpus-ftrace"
"$build/fuzz_ftrace" -dict=fuzz/ftrace.dict -max_total_time="$seconds" \
	-print_final_stats=1 "$build/corpus-ftrace" tests/fixtures/traces
