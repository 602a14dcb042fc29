#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Plugins end to end: the examples built with the README's one-line cc
# command and used by sim, compare, sweep, governors, idletrace and govtrace
# like built-in governors (PMLAB_PLUGIN_PATH too); copies of built-in
# governors as plugins give byte-identical results; broken plugins are
# refused, or reported as the plugin's when they break at run time.
# usage: tests/plugins/plugin_cli.sh PMLAB SOURCE_DIR
set -eu
pmlab=$1
src=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pmlab-plugin-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "plugin test: $*" >&2; exit 1; }
n=0
ok() { n=$((n + 1)); }
build() { # NAME SOURCE [CFLAGS...]: what the README shows, from the source tree
	name=$1 file=$2
	shift 2
	(cd "$src" && cc -shared -fPIC -O2 -Iinclude "$file" -o "$tmp/$name.so" "$@") ||
		fail "cannot build $file"
}
sim() { "$pmlab" sim --machine i7-4790 --duration 0.3 "$@"; }
# The JSON of a run without the lines naming the governor (the only difference allowed:
# the governor itself, and the command line and plugin files in the run's inputs).
json_without() {
	key=$1
	shift
	sim --format json "$@" | grep -v -e "^ *\"$key\": " -e '^ *"command": ' \
		-e '^ *"plugins": \[' -e '^ *"[^"]*\.so"$' -e '^    \],$'
}

build lastidle examples/plugins/lastidle.c -Wall -Wextra -Werror
build stepfreq examples/plugins/stepfreq.c -Wall -Wextra -Werror
build ladder_copy tests/plugins/ladder_copy.c -Wall -Wextra -Werror
build performance_copy tests/plugins/performance_copy.c -Wall -Wextra -Werror
build bursts examples/plugins/bursts.c -Wall -Wextra -Werror -lm
build shallowidle examples/plugins/shallowidle.c -Wall -Wextra -Werror
build spread_copy tests/plugins/spread_copy.c -Wall -Wextra -Werror
build abi1 tests/plugins/abi1.c -Wall -Wextra -Werror
for b in BAD_PL_NOSELECT BAD_PL_CPU BAD_PL_CRASH BAD_PL_WORDS BAD_PL_ABI1; do
	build "$b" tests/plugins/bad_placement.c "-D$b"
done
build BAD_WL_NONEXT tests/plugins/bad_workload.c -DBAD_WL_NONEXT
build BAD_WL_ACTION tests/plugins/bad_workload.c -DBAD_WL_ACTION
for b in BAD_ABI BAD_NOSELECT BAD_CRASH BAD_STATE BAD_BUILTIN BAD_NONE NOT_PLUGIN; do
	build "$b" tests/plugins/bad.c "-D$b"
done
for f in examples/plugins/lastidle.c examples/plugins/stepfreq.c examples/plugins/bursts.c \
	examples/plugins/shallowidle.c; do
	[ "$(wc -l <"$src/$f")" -lt 100 ] || fail "$f has 100 lines or more"
done
ok
cd "$tmp"

# Listed like a built-in one, with its tunables and its file.
"$pmlab" governors --plugin ./lastidle.so --plugin ./stepfreq.so >gov.txt
tr -s ' \n' '  ' <gov.txt >gov1.txt # the summary may wrap
grep -q "^  lastidle " gov.txt && grep -q "(plugin ./lastidle.so)" gov1.txt ||
	fail "governors does not list lastidle"
grep -q "^      lastidle_weight  *default 2 " gov.txt || fail "governors does not list lastidle_weight"
grep -q "^  stepfreq " gov.txt && grep -q "(plugin ./stepfreq.so)" gov1.txt ||
	fail "governors does not list stepfreq"
ok

# A run under it says so, and its tunable changes the run; a bad value is refused.
sim --workload video --plugin ./lastidle.so --cpuidle lastidle >run.txt
grep -q "cpuidle lastidle," run.txt || fail "sim did not run lastidle: $(head -1 run.txt)"
json_without cpuidle --workload video --plugin ./lastidle.so --cpuidle lastidle \
	--set lastidle_weight=1 >w1.json
json_without cpuidle --workload video --plugin ./lastidle.so --cpuidle lastidle \
	--set lastidle_weight=8 >w8.json
cmp -s w1.json w8.json && fail "lastidle_weight changes nothing"
sim --workload video --plugin ./lastidle.so --cpuidle lastidle --set lastidle_weight=9 \
	>/dev/null 2>err.txt && fail "lastidle_weight=9 was accepted"
grep -q "lastidle_weight=9" err.txt || fail "bad tunable: $(cat err.txt)"
json_without cpufreq --workload tbench --plugin ./stepfreq.so --cpufreq stepfreq >step.json
json_without cpufreq --workload tbench --cpufreq performance >perf.json
cmp -s step.json perf.json && fail "stepfreq runs as performance does"
ok

# Found through PMLAB_PLUGIN_PATH (a directory), in compare beside menu and teo, in sweep.
mkdir dir && cp lastidle.so dir/
PMLAB_PLUGIN_PATH=$tmp/dir sim --workload pingpong --cpuidle lastidle --format json >path.json ||
	fail "PMLAB_PLUGIN_PATH did not load lastidle"
PMLAB_PLUGIN_PATH=$tmp/nowhere "$pmlab" governors >/dev/null 2>err.txt &&
	fail "a missing PMLAB_PLUGIN_PATH entry was ignored"
grep -q "PMLAB_PLUGIN_PATH: $tmp/nowhere" err.txt || fail "missing path: $(cat err.txt)"
"$pmlab" compare --plugin ./lastidle.so --machine i7-4790 --workload pingpong --duration 0.3 \
	--runs 2 --jobs 2 --format csv \
	--profiles none:cpuidle=lastidle,none:cpuidle=menu,none:cpuidle=teo >cmp.csv
for g in lastidle menu teo; do
	grep -q "none:cpuidle=$g,intel_pstate,$g," cmp.csv || fail "compare has no $g row"
done
"$pmlab" sweep --plugin ./lastidle.so --machine i7-4790 --workload pingpong --duration 0.1 \
	--vary cpuidle=lastidle,menu --vary seed=1,2 >sweep.csv
[ "$(grep -c ',lastidle,' sweep.csv)" -ge 2 ] || fail "sweep has no lastidle rows"
# A plugin's tunable varied beside governors that lack it: applied where the point's governor
# has it, left out elsewhere (the menu points run as menu does); a key no one has is refused.
"$pmlab" sweep --plugin ./lastidle.so --machine i7-4790 --workload pingpong --duration 0.1 \
	--vary cpuidle=lastidle,menu --vary lastidle_weight=1,8 >sweepw.csv ||
	fail "sweep of lastidle_weight beside menu failed"
[ "$(grep -c '^[0-9]*,menu,[18],' sweepw.csv)" = 2 ] || fail "sweep: $(cat sweepw.csv)"
menu1=$(grep '^2,menu,1,' sweepw.csv | cut -d, -f4-)
menu8=$(grep '^3,menu,8,' sweepw.csv | cut -d, -f4-)
[ -n "$menu1" ] && [ "$menu1" = "$menu8" ] || fail "menu's points differ by lastidle_weight"
[ "$(grep '^0,lastidle,1,' sweepw.csv | cut -d, -f4-)" != \
	"$(grep '^1,lastidle,8,' sweepw.csv | cut -d, -f4-)" ] ||
	fail "lastidle_weight changes nothing in the sweep"
"$pmlab" sweep --plugin ./lastidle.so --machine i7-4790 --workload pingpong --duration 0.1 \
	--vary cpuidle=lastidle,menu --vary lastidle_wieght=1,8 >/dev/null 2>err.txt &&
	fail "a misspelt varied key was accepted"
grep -q "unknown key 'lastidle_wieght'; did you mean 'lastidle_weight'" err.txt ||
	fail "misspelt varied key: $(cat err.txt)"
ok

# The inputs name every plugin, and the command they print runs the same thing again:
# --plugin as given, PMLAB_PLUGIN_PATH as an assignment before it (its files listed).
rerun() { # OUT: runs the "# command:" of the CSV OUT with this pmlab, into again.csv
	cmd=$(sed -n 's/^# command: //p' "$1")
	case $cmd in
	PMLAB_PLUGIN_PATH=*)
		env "${cmd%% pmlab *}" sh -c "\"\$0\" ${cmd#* pmlab } --format csv" "$pmlab" ;;
	*) sh -c "\"\$0\" ${cmd#pmlab } --format csv" "$pmlab" ;;
	esac >again.csv
}
sim --plugin ./lastidle.so --workload pingpong --cpuidle lastidle --format csv >p1.csv
grep -q '^# plugin: \./lastidle\.so$' p1.csv || fail "no plugin in the inputs: $(head p1.csv)"
grep -q '^# command: .* --plugin \./lastidle\.so ' p1.csv || fail "re-run without --plugin"
rerun p1.csv
cmp -s p1.csv again.csv || fail "the printed command does not run the same thing again"
PMLAB_PLUGIN_PATH=$tmp/dir sim --plugin ./stepfreq.so --workload pingpong --cpuidle lastidle \
	--cpufreq stepfreq --format csv >p2.csv
grep -q "^# command: PMLAB_PLUGIN_PATH=$tmp/dir pmlab sim " p2.csv || fail "no path: $(head p2.csv)"
grep -q "^# plugin_path_file: $tmp/dir/lastidle.so$" p2.csv || fail "path files: $(head p2.csv)"
(unset PMLAB_PLUGIN_PATH; rerun p2.csv) || fail "the printed command failed"
cmp -s p2.csv again.csv || { diff p2.csv again.csv >&2; fail "PMLAB_PLUGIN_PATH re-run differs"; }
PMLAB_PLUGIN_PATH=$tmp/dir "$pmlab" sweep --plugin ./stepfreq.so --machine i7-4790 \
	--workload pingpong --duration 0.1 --cpufreq stepfreq --vary cpuidle=lastidle,menu >p3.csv
grep -q '^# command: PMLAB_PLUGIN_PATH=.* pmlab sweep .* --plugin \./stepfreq\.so ' p3.csv ||
	fail "sweep: $(head p3.csv)"
(unset PMLAB_PLUGIN_PATH; rerun p3.csv) && cmp -s p3.csv again.csv || fail "sweep re-run differs"
"$pmlab" compare --plugin ./lastidle.so --machine i7-4790 --workload pingpong --duration 0.2 \
	--runs 1 --format csv --profiles none:cpuidle=lastidle,none >p4.csv
rerun p4.csv && cmp -s p4.csv again.csv || fail "compare re-run differs"
ok

# idletrace and govtrace drive them from CSV traces.
"$pmlab" idletrace --plugin ./lastidle.so --governor lastidle --machine i7-4790 \
	--input "$src/data/samples/idletrace-video.csv" >idle.txt
grep -q "^# states:" idle.txt || fail "idletrace printed no summary"
"$pmlab" govtrace --plugin ./stepfreq.so --governor stepfreq --freqs 1200000,1800000,2400000 \
	--input "$src/data/samples/govtrace-load-steps.csv" >freq.csv
[ "$(grep -c '^[0-9]*,1800000$' freq.csv)" -ge 1 ] || fail "stepfreq never stepped: $(cat freq.csv)"
ok

# A built-in governor rewritten as a plugin gives the same bytes.
for sets in "" "--set ladder_promotion_count=2 --set ladder_demotion_count=3"; do
	# shellcheck disable=SC2086
	json_without cpuidle --workload tbench --cpuidle ladder $sets >a.json
	# shellcheck disable=SC2086
	json_without cpuidle --workload tbench --plugin ./ladder_copy.so --cpuidle ladder_copy \
		$sets >b.json
	cmp -s a.json b.json || fail "ladder_copy differs from ladder ($sets)"
done
# (the settings as given are in the inputs: the word and the number differ there only)
json_without cpuidle --workload oltp --cpuidle ladder --set ladder_variant=signed |
	grep -v '^ *"ladder_variant=signed"$' >a.json
json_without cpuidle --workload oltp --plugin ./ladder_copy.so --cpuidle ladder_copy \
	--set ladder_variant=1 | grep -v '^ *"ladder_variant=1"$' >b.json
cmp -s a.json b.json || fail "ladder_copy differs from ladder (signed)"
json_without cpufreq --workload oltp --cpufreq performance >a.json
json_without cpufreq --workload oltp --plugin ./performance_copy.so --cpufreq performance_copy \
	>b.json
cmp -s a.json b.json || fail "performance_copy differs from performance"
"$pmlab" idletrace --governor ladder --machine i7-4790 \
	--input "$src/data/samples/idletrace-video.csv" >a.txt
"$pmlab" idletrace --plugin ./ladder_copy.so --governor ladder_copy --machine i7-4790 \
	--input "$src/data/samples/idletrace-video.csv" >b.txt
cmp -s a.txt b.txt || fail "idletrace: ladder_copy differs from ladder"
ok

# Broken plugins: refused before any run, exit 2, with the reason.
expect_refused() { # PLUGIN GOVERNOR WHAT
	if sim --workload pingpong --plugin "$1" --cpuidle "$2" >/dev/null 2>err.txt; then
		fail "$1 was accepted"
	else
		rc=$?
	fi
	[ "$rc" = 2 ] || fail "$1: exit $rc, expected 2"
	grep -q "^pmlab: sim: plugin $1: .*$3" err.txt || fail "$1: $(cat err.txt)"
	[ "$(wc -l <err.txt)" = 1 ] || fail "$1: more than one line: $(cat err.txt)"
}
expect_refused ./BAD_ABI.so broken "built for plugin ABI [0-9]*, this pmlab loads ABI 1\.\.[0-9]*"
expect_refused ./BAD_NOSELECT.so broken "has no select()"
expect_refused ./BAD_BUILTIN.so menu "'menu' is already defined by pmlab (built in)"
expect_refused ./BAD_NONE.so broken "provides no governor"
expect_refused ./NOT_PLUGIN.so broken "not a pmlab plugin"
expect_refused ./no-such.so broken "no such file"
echo "not an ELF file" >text.so
expect_refused ./text.so broken "cannot load"
ok

# Broken at run time: the run fails (exit 1) naming the plugin; pmlab survives.
expect_failed() { # CMD... ; the message in err.txt
	if "$@" >/dev/null 2>err.txt; then fail "$* succeeded"; else rc=$?; fi
	[ "$rc" = 1 ] || fail "$*: exit $rc, expected 1: $(cat err.txt)"
}
expect_failed sim --workload pingpong --plugin ./BAD_CRASH.so --cpuidle crashy
grep -q "^pmlab: sim: pingpong: plugin ./BAD_CRASH.so: idle governor 'crashy' crashed in select (SIGSEGV); pmlab itself is unharmed$" err.txt ||
	fail "crash: $(cat err.txt)"
expect_failed "$pmlab" compare --plugin ./BAD_CRASH.so --machine i7-4790 --workload pingpong \
	--duration 0.1 --runs 1 --jobs 1 --profiles none,none:cpuidle=crashy
grep -q "plugin ./BAD_CRASH.so: idle governor 'crashy' crashed in select (SIGSEGV)" err.txt ||
	fail "crash in compare: $(cat err.txt)"
expect_failed sim --workload pingpong --plugin ./BAD_STATE.so --cpuidle broken
grep -q "^pmlab: sim: plugin ./BAD_STATE.so: idle governor 'broken': select returned state 9 on CPU [0-9]* (expected an enabled state of 0..5)$" err.txt ||
	fail "bad state: $(cat err.txt)"
# idletrace runs a plugin's governor in a worker too (libpmlab's pmlab_idletrace_exec)
expect_failed "$pmlab" idletrace --plugin ./BAD_CRASH.so --governor crashy --machine i7-4790 \
	--input "$src/data/samples/idletrace-video.csv"
grep -q "^pmlab: idletrace: plugin ./BAD_CRASH.so: idle governor 'crashy' crashed in select (SIGSEGV); pmlab itself is unharmed$" err.txt ||
	fail "crash in idletrace: $(cat err.txt)"
ok
# A placement policy from a plugin: listed with its word tunable, chosen with --set
# placement=, its tunable changing the run; in compare and sweep beside the kernel's.
"$pmlab" governors --plugin ./shallowidle.so >gov.txt
sed -n '/^placement policies/,/^engine tunables/p' gov.txt >pl.txt
grep -q "^  shallowidle " pl.txt || fail "governors does not list shallowidle: $(cat pl.txt)"
grep -q "^  spread " pl.txt && grep -q "^  pack " pl.txt || fail "built-in placements not listed"
grep -q "^      shallowidle_scope  *default llc " pl.txt || fail "no shallowidle_scope: $(cat pl.txt)"
hs() { sim --plugin ./shallowidle.so --set placement=shallowidle "$@"; }
hs --workload video >run.txt
grep -q "placement shallowidle," run.txt || fail "sim did not run shallowidle: $(head -3 run.txt)"
# Two packages of two caches each: how far it looks changes where work runs.
for scope in llc machine; do
	"$pmlab" sim --machine xeon-2s-harpertown --duration 0.5 --workload oltp --format json \
		--plugin ./shallowidle.so --set placement=shallowidle --set shallowidle_scope=$scope |
		grep -v -e '^ *"command": ' -e '^ *"shallowidle_scope=' >scope-$scope.json
done
cmp -s scope-llc.json scope-machine.json && fail "shallowidle_scope=machine changes nothing"
hs --workload video --set shallowidle_scope=everywhere >/dev/null 2>err.txt &&
	fail "shallowidle_scope=everywhere was accepted"
grep -q "shallowidle_scope=everywhere: not a valid choice (expected llc|package|machine)" err.txt ||
	fail "bad word: $(cat err.txt)"
hs --workload video --set shallowidle_scope=1 >/dev/null 2>&1 &&
	fail "a word tunable took a number"
if sim --workload video --set placement=pack >/dev/null 2>err.txt; then
	fail "placement=pack accepted where the kernel's settings select spread"
else
	rc=$?
fi
[ "$rc" = 2 ] && [ "$(wc -l <err.txt)" = 1 ] &&
	grep -q "placement=pack: the kernel's settings select spread here" err.txt ||
	fail "placement=pack: exit $rc: $(cat err.txt)"
sim --workload video --set placement=shallow >/dev/null 2>err.txt && fail "unknown placement ran"
grep -q "unknown placement policy 'shallow'" err.txt || fail "unknown placement: $(cat err.txt)"
sim --workload video --set placement=spread >/dev/null || fail "placement=spread (the kernel's) refused"
"$pmlab" compare --plugin ./shallowidle.so --machine xeon-2s-harpertown --workload oltp \
	--duration 0.3 --runs 1 --format csv \
	--profiles none:placement=spread,none:placement=shallowidle >plcmp.csv ||
	fail "compare with a placement plugin failed"
grep -q "^run,none:placement=shallowidle," plcmp.csv || fail "compare: $(cat plcmp.csv)"
"$pmlab" sweep --plugin ./shallowidle.so --machine xeon-2s-harpertown --workload oltp \
	--duration 0.1 --vary placement=spread,shallowidle >plsweep.csv || fail "sweep placement"
[ "$(grep -c ',shallowidle,' plsweep.csv)" = 1 ] || fail "sweep: $(cat plsweep.csv)"
# Its word tunable varied too: left out of the spread points.
"$pmlab" sweep --plugin ./shallowidle.so --machine xeon-2s-harpertown --workload oltp \
	--duration 0.3 --vary placement=spread,shallowidle --vary shallowidle_scope=llc,machine \
	>plsweep2.csv || fail "sweep of a word tunable failed"
[ "$(grep '^0,spread,llc,' plsweep2.csv | cut -d, -f4-)" = \
	"$(grep '^1,spread,machine,' plsweep2.csv | cut -d, -f4-)" ] ||
	fail "spread's points differ by shallowidle_scope: $(cat plsweep2.csv)"
[ "$(grep '^2,shallowidle,llc,' plsweep2.csv | cut -d, -f4-)" != \
	"$(grep '^3,shallowidle,machine,' plsweep2.csv | cut -d, -f4-)" ] ||
	fail "shallowidle_scope changes nothing in the sweep"
ok

# The kernel's policies as a plugin that hands every decision back through the seam: the
# same bytes as each built-in one (spread; pack, itmt and eas where the settings select them).
# The JSON without what names the policy: its key, the --set placement=, the plugin's file
# and the command.
without_placement() {
	python3 -c 'import json, sys
r = json.load(sys.stdin)
r.pop("placement", None)
r["inputs"].pop("command")
r["inputs"].pop("plugins", None)
r["inputs"]["sets"] = [x for x in r["inputs"]["sets"] if not x.startswith("placement=")]
json.dump(r, sys.stdout, indent=1)'
}
for run in "i7-4790 tbench" "xeon-2s-harpertown kernbench --set sched_mc_power_savings=2" \
	"i7-1260p tbench" "hikey960 rtapp:$src/data/workloads/video.json"; do
	# shellcheck disable=SC2086
	set -- $run
	m=$1 w=$2
	shift 2
	"$pmlab" sim --machine "$m" --workload "$w" --duration 0.3 --format json "$@" >a.json
	kernel=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1])).get("placement", "spread"))' a.json)
	"$pmlab" sim --machine "$m" --workload "$w" --duration 0.3 --format json "$@" \
		--set placement="$kernel" | without_placement >a.json
	"$pmlab" sim --machine "$m" --workload "$w" --duration 0.3 --format json "$@" \
		--plugin ./spread_copy.so --set placement=spread_copy | without_placement >b.json
	cmp -s a.json b.json || fail "spread_copy differs from $kernel on $m $w"
	echo "$kernel" >>kernels.txt
done
[ "$(sort -u kernels.txt | tr '\n' ' ')" = "eas itmt pack spread " ] ||
	fail "the copies did not meet every built-in policy: $(sort -u kernels.txt | tr '\n' ' ')"
ok

# A plugin built for ABI 1 (no words, no placement) still loads; broken placements are refused
# or fail naming the plugin.
"$pmlab" governors --plugin ./abi1.so | grep -q "^      abi1_max_exit_us  *default 1000 " ||
	fail "the ABI 1 plugin's tunables are not listed"
json_without cpuidle --workload video --plugin ./abi1.so --cpuidle abi1 --set abi1_max_exit_us=1 \
	| grep -v abi1_max_exit_us >x1.json
json_without cpuidle --workload video --plugin ./abi1.so --cpuidle abi1 \
	--set abi1_max_exit_us=100000 | grep -v abi1_max_exit_us >x2.json
cmp -s x1.json x2.json && fail "the ABI 1 plugin's tunable changes nothing"
sim --workload video --plugin ./abi1.so --cpuidle abi1 --set abi1_keep_tick=2 >/dev/null \
	2>err.txt && fail "abi1_keep_tick=2 accepted"
grep -q "abi1_keep_tick=2: out of range (expected 0..1)" err.txt || fail "abi1: $(cat err.txt)"
expect_refused_pl() { # PLUGIN WHAT
	if sim --workload pingpong --plugin "$1" --set placement=badpl >/dev/null 2>err.txt; then
		fail "$1 was accepted"
	else
		rc=$?
	fi
	[ "$rc" = 2 ] && [ "$(wc -l <err.txt)" = 1 ] || fail "$1: exit $rc: $(cat err.txt)"
	grep -q "^pmlab: sim: plugin $1: .*$2" err.txt || fail "$1: $(cat err.txt)"
}
expect_refused_pl ./BAD_PL_NOSELECT.so "placement policy 'badpl' has no select_cpu()"
expect_refused_pl ./BAD_PL_WORDS.so "tunable badpl_mode: 2 words, so min 0 and max 1 (not 0..2)"
expect_refused_pl ./BAD_PL_ABI1.so "ABI 1 has no placement seam"
expect_failed sim --workload pingpong --plugin ./BAD_PL_CPU.so --set placement=badpl
grep -q "^pmlab: sim: plugin ./BAD_PL_CPU.so: placement policy 'badpl': select_cpu returned CPU 13 for task [0-9]* (expected one of 0..7 it may run on)$" err.txt ||
	fail "bad CPU: $(cat err.txt)"
expect_failed sim --workload pingpong --plugin ./BAD_PL_CRASH.so --set placement=badpl
grep -q "plugin ./BAD_PL_CRASH.so: placement policy 'badpl' crashed in select_cpu (SIGSEGV)" err.txt ||
	fail "placement crash: $(cat err.txt)"
ok

# A workload from a plugin: listed, run, its parameters set, compared, refused when broken.
"$pmlab" workloads --plugin ./bursts.so >wl.txt
grep -q "^  bursts " wl.txt || fail "workloads does not list bursts"
grep -q "^      think_us  *default 5000 " wl.txt || fail "workloads does not list think_us"
sim --plugin ./bursts.so --workload bursts --set bursts_tasks=8 --format json >b8.json
sim --plugin ./bursts.so --workload bursts --set bursts_tasks=2 --format json >b2.json
grep -q '"throughput_unit": "bursts/s"' b8.json || fail "bursts: $(head -c 300 b8.json)"
python3 -c 'import json, sys; a, b = (json.load(open(f)) for f in sys.argv[1:])
sys.exit(0 if a["throughput"] > 2 * b["throughput"] > 0 else 1)' b8.json b2.json ||
	fail "8 bursts tasks do not do more than twice the work of 2"
"$pmlab" compare --plugin ./bursts.so --machine i7-4790 --workload bursts --duration 0.2 \
	--runs 1 --profiles none:cpuidle=menu,none:cpuidle=teo --format csv >wlcmp.csv ||
	fail "compare with a plugin's workload failed"
if sim --plugin ./BAD_WL_NONEXT.so --workload badwl >/dev/null 2>err.txt; then
	fail "a workload without next() was accepted"
fi
grep -q "^pmlab: sim: plugin ./BAD_WL_NONEXT.so: workload 'badwl' has no next()$" err.txt ||
	fail "no next: $(cat err.txt)"
expect_failed sim --plugin ./BAD_WL_ACTION.so --workload badwl
grep -q "workload 'badwl': next: action kind 9 (expected 0..4)" err.txt ||
	fail "bad action: $(cat err.txt)"
ok
echo "plugin test: $n groups passed"
