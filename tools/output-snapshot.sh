#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Writes what a refactoring must leave byte-identical, one file per case:
# every machine file of the tree printed, read back and as its Energy
# Model; machines detect on every fake tree of tests/fixtures/host; sim
# runs (model workloads, every data/workloads rt-app description, oltp)
# as JSON; the timeline and the trace.dat of runs with observers attached
# (their SHA-256, beside the run's JSON: the files run to megabytes); a
# compare and a sweep as HTML.
# usage: tools/output-snapshot.sh PMLAB DIR   (run from the source tree)
# Compare two builds: snapshot each into its own DIR, then diff -r.
set -u
B=$1
O=$2
rm -rf "$O"
mkdir -p "$O"
tmp=$(mktemp "${TMPDIR:-/tmp}/pmlab-snapshot-XXXXXX.ini")
trap 'rm -f "$tmp"' EXIT
for f in data/machines/*.ini data/traces/*.ini tests/fixtures/machines/*.ini \
	tests/fixtures/idletrace/*.ini; do
	n=$(echo "$f" | tr / _)
	"$B" machines show "$f" >"$O/show_$n" 2>&1
	echo "rc $?" >>"$O/show_$n"
	head -n -1 "$O/show_$n" >"$tmp"
	"$B" machines show "$tmp" 2>&1 | sed "s|$tmp|ROUNDTRIP|" >"$O/roundtrip_$n"
	"$B" machines show --energy-model "$f" >"$O/em_$n" 2>&1
	echo "rc $?" >>"$O/em_$n"
done
for t in tests/fixtures/host/*/; do
	n=$(basename "$t")
	"$B" machines detect --root "$t" >"$O/detect_$n" 2>&1
	echo "rc $?" >>"$O/detect_$n"
done
run() {
	n=$1
	shift
	"$B" "$@" >"$O/$n" 2>&1
	echo "rc $?" >>"$O/$n"
}
for m in i7-4790 hikey960 i7-1260p xeon-e5-2650l-v3 xeon-2s-harpertown ryzen-7840u; do
	for w in pingpong video batch; do
		for g in schedutil ondemand; do
			run "sim_${m}_${w}_$g" sim --machine $m --workload $w --cpufreq $g -d 2 \
				--format json
		done
	done
done
for j in data/workloads/*.json; do
	for m in i7-4790 hikey960; do
		run "rtapp_${m}_$(basename "$j" .json)" sim --machine $m --workload "rtapp:$j" \
			--cpufreq schedutil -d 2 --format json
	done
done
for sets in "" "--set variant=3.10" "--set server=1" "--set think_ms=5" \
	"--set page_miss_pct=50 --set thp_stall_cut_pct=30"; do
	# shellcheck disable=SC2086 # the settings are words
	run "oltp_$(echo "$sets" | tr -c 'a-z0-9\n' _)" sim --machine xeon-e5-2650l-v3 --cpus 4 \
		--workload oltp --cpufreq ondemand $sets -d 2 --format json
done
# The observers' paths (timeline, trace): each run's JSON and its two files' digests.
tl=$(mktemp "${TMPDIR:-/tmp}/pmlab-snapshot-XXXXXX.json")
tr=$(mktemp "${TMPDIR:-/tmp}/pmlab-snapshot-XXXXXX.dat")
trap 'rm -f "$tmp" "$tl" "$tr"' EXIT
for mg in "i7-4790 schedutil menu" "hikey960 schedutil teo" "xeon-e5-2650l-v3 ondemand ladder" \
	"xeon-8480-2s intel_pstate menu" "power9-2n128 conservative menu"; do
	# shellcheck disable=SC2086 # machine, cpufreq and cpuidle governors
	set -- $mg
	for w in pingpong oltp periodic; do
		n="observed_$1_${w}_$2_$3"
		run "$n" sim --machine "$1" --workload $w --cpufreq "$2" --cpuidle "$3" -d 0.2 \
			--format json --timeline "$tl" --trace "$tr"
		sha256sum "$tl" "$tr" | sed "s|$tl|TIMELINE|; s|$tr|TRACE|" >>"$O/$n"
	done
done
run compare_html compare --machine i7-4790 --workload pingpong \
	--profiles none,none:pm_qos_latency_us=20 --runs 2 -d 1 --format html
run sweep_html sweep --machine i7-4790 --workload pingpong \
	--vary cpufreq=performance,schedutil -d 1 --format html
echo "$(ls "$O" | wc -l) cases in $O"
