#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Builds the libFuzzer targets with clang, ASan and UBSan.
# usage (from the repository root): bash fuzz/build.sh [OUTDIR]   (default build-fuzz)
# then e.g.: build-fuzz/fuzz_machine_ini -dict=fuzz/machine_ini.dict -max_total_time=60 \
#            build-fuzz/corpus-machine data/machines tests/fixtures/machines
set -eu

out=${1:-build-fuzz}
cc=${CC:-clang}
mkdir -p "$out" "$out/corpus-machine"

# The parser links presets.c, which needs the generated preset table.
python3 tools/embed_presets.py "$out/machine_presets.c" data/machines/*.ini

flags="-std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
	-D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Wall -Wextra -Isrc -I."

# shellcheck disable=SC2086
$cc $flags -o "$out/fuzz_machine_ini" fuzz/fuzz_machine_ini.c \
	src/core/*.c src/machine/*.c "$out/machine_presets.c" -linih -lm

echo "built $out/fuzz_machine_ini"

# The idle-trace CSV reader, driving the idle governors with what it reads.
mkdir -p "$out/corpus-idletrace"
# shellcheck disable=SC2086
$cc $flags -Wno-unused-parameter -o "$out/fuzz_idletrace" fuzz/fuzz_idletrace.c \
	src/core/*.c src/cpuidle/*.c -lm
echo "built $out/fuzz_idletrace"

# The frequency-governor trace CSV reader, driving every cpufreq governor.
mkdir -p "$out/corpus-govtrace"
# shellcheck disable=SC2086
$cc $flags -Wno-unused-parameter -o "$out/fuzz_govtrace" fuzz/fuzz_govtrace.c \
	src/core/*.c src/cpufreq/*.c -lm
echo "built $out/fuzz_govtrace"

# The rt-app JSON loader.
mkdir -p "$out/corpus-rtapp"
# shellcheck disable=SC2086
$cc $flags -o "$out/fuzz_rtapp" fuzz/fuzz_rtapp.c src/workload/rtapp_load.c src/core/diag.c src/core/jsonpos.c \
	-ljansson
echo "built $out/fuzz_rtapp"

# The tuned profile loader, resolving against a machine and checking that
# the simulator takes what it resolves to (so it links the whole library).
mkdir -p "$out/corpus-profile"
# shellcheck disable=SC2086
$cc $flags -Wno-unused-parameter $(pkg-config --cflags libtracecmd) -o "$out/fuzz_profile" \
	fuzz/fuzz_profile.c src/core/*.c src/machine/*.c "$out/machine_presets.c" src/profile/*.c \
	src/cpufreq/*.c src/cpuidle/*.c src/sched/*.c src/workload/*.c src/engine/*.c \
	src/metrics/*.c src/trace/*.c src/export/*.c $(pkg-config --libs libtracecmd) -linih -ljansson -lm
echo "built $out/fuzz_profile"

# The host backend's state file (run/pmlab/profile) and /proc/stat with
# sysfs CPU lists: the parsers that read what a crash or the kernel left.
mkdir -p "$out/corpus-host-state" "$out/corpus-procstat"
# shellcheck disable=SC2086
$cc $flags -o "$out/fuzz_host_state" fuzz/fuzz_host_state.c src/host/state.c src/host/plan_paths.c src/host/hostfs.c \
	src/core/diag.c
echo "built $out/fuzz_host_state"
# shellcheck disable=SC2086
$cc $flags -o "$out/fuzz_procstat" fuzz/fuzz_procstat.c src/host/procstat.c \
	src/host/inventory.c src/host/hostfs.c src/core/diag.c
echo "built $out/fuzz_procstat"

# The ftrace text reader (tracefs and trace-cmd report variants) and the
# replay model built from its events; the model's trace.dat reader needs
# libtracecmd to link, though text input never calls it.
mkdir -p "$out/corpus-ftrace"
# shellcheck disable=SC2086,SC2046
$cc $flags -o "$out/fuzz_ftrace" fuzz/fuzz_ftrace.c src/trace/ftrace_text.c \
	src/trace/replay_model.c src/trace/trace_read.c src/trace/tracedat.c src/trace/tracedat_layout.c \
	src/core/diag.c \
	$(pkg-config --cflags --libs libtracecmd libtraceevent libtracefs)
echo "built $out/fuzz_ftrace"
