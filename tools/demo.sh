#!/bin/sh
# The main job in one screen: the seed experiment of
# shared/seeds/tuned-balanced-conservative.txt -- tuned 2.3's profiles and
# the patch that gave balanced the conservative governor, JdbcRunner's
# TPC-C on a Xeon E5-2650L v3 limited to 4 cores -- as pmlab compare
# tables: throughput, latency, power, frequency, C-states, utilisation,
# then each profile relative to powersave with 95 % intervals.
#
# 5 runs of 10 simulated seconds per profile take about 2 s on two cores.
# The idle governor is menu, the default of the seed's kernel 3.10. Four
# JdbcRunner agents load the 4 CPUs about as much as the seed's baseline
# row (powersave: ~53 % C0 here against 59 % measured); with oltp's default
# of 16 agents the CPUs saturate and the profiles cannot differ. The full
# calibration on the baseline row belongs to the validation work.
set -eu
PMLAB=${1:-build/src/cli/pmlab}
P=tuned-2.3
echo "== pmlab demo: tuned profiles on JdbcRunner TPC-C (oltp), xeon-e5-2650l-v3 limited to 4 CPUs =="
echo
"$PMLAB" compare --machine xeon-e5-2650l-v3 --cpus 4 --workload oltp \
	--profiles "$P/powersave,$P/balanced,$P/balanced:governor=conservative,$P/throughput-performance,$P/latency-performance" \
	--cpuidle menu --set agents=4 --runs 5 --duration 10
