#!/bin/sh
# The main job in one screen: the same workload under two frequency
# governors on a built-in machine, then a video-like periodic load.
set -eu
PMLAB=${1:-build/src/cli/pmlab}
echo "== pmlab demo: pipe ping-pong on a Haswell desktop (i7-4790), performance vs powersave =="
for gov in performance powersave; do
	echo
	echo "-- cpufreq governor: $gov"
	"$PMLAB" sim --machine i7-4790 --workload pingpong --cpufreq "$gov" --duration 2
done
echo
echo "== periodic (video-like) load: 4 tasks, 16.7 ms period, 4 ms of work, on xeon-e5-2650l-v3 limited to 4 CPUs =="
"$PMLAB" sim --machine xeon-e5-2650l-v3 --cpus 4 --workload periodic --set tasks=4 --cpufreq powersave --duration 5
