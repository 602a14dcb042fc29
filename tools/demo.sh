#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The main job in one screen: the tuned seed experiment (docs/sources.md
# 1.1) -- tuned 2.3's profiles and
# the patch that gave balanced the conservative governor, JdbcRunner's
# TPC-C on a Xeon E5-2650L v3 limited to 4 cores -- as pmlab compare
# tables: throughput, latency, power, frequency, C-states, utilisation,
# then each profile relative to powersave with 95 % intervals.
#
# 5 runs of 10 simulated seconds per profile take a few seconds on two
# cores. The runs use the seed's kernel rules (--set kernel=3.10: ondemand,
# conservative and menu as RHEL 7.0 had them) and the workload calibration
# that `make validate` fitted to the baseline row, read from its data file
# (all but platform_w, a machine figure that compare cannot override; so
# absolute watts here sit ~10 W below docs/validation.md's).
set -eu
PMLAB=${1:-build/src/cli/pmlab}
DATA=data/validation/tuned-balanced-conservative.ini
P=tuned-2.3
# --set KEY=VALUE for each key of the data file's [calibration] section.
SETS=$(awk '
	/^\[/ { cal = ($0 == "[calibration]"); next }
	cal && /^[a-z_]+ *= */ {
		split($0, kv, /[ \t]*=[ \t]*/)
		if (kv[1] != "platform_w") printf " --set %s=%s", kv[1], kv[2]
	}' "$DATA")
echo "== pmlab demo: tuned profiles on JdbcRunner TPC-C (oltp), xeon-e5-2650l-v3 limited to 4 CPUs =="
echo "   kernel 3.10 rules; calibration from $DATA:$SETS"
echo
# shellcheck disable=SC2086 # SETS is a list of options
"$PMLAB" compare --machine xeon-e5-2650l-v3 --cpus 4 --workload oltp \
	--profiles "$P/powersave,$P/balanced,$P/balanced:governor=conservative,$P/throughput-performance,$P/latency-performance" \
	--cpuidle menu --set kernel=3.10 $SETS --runs 5 --duration 10
