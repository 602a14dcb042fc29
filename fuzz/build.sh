#!/bin/sh
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
$cc $flags -o "$out/fuzz_rtapp" fuzz/fuzz_rtapp.c src/workload/rtapp_load.c src/core/diag.c \
	-ljansson
echo "built $out/fuzz_rtapp"
