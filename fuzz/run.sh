#!/usr/bin/env bash
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
