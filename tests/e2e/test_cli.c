// SPDX-License-Identifier: GPL-2.0-only
/* End-to-end: run the pmlab binary as a user would and check its output
 * and exit codes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "pmlab_run.h"
#include <jansson.h>

static void test_version_and_help(void **state)
{
	struct out o = run("--version");
	assert_int_equal(o.status, 0);
	assert_true(strncmp(o.text, "pmlab ", 6) == 0);
	out_free(&o);
	const char *cmds[] = { "help", "sim --help", "machines --help", "governors --help",
			       "workloads --help", "help sim" };
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		o = run(cmds[i]);
		assert_int_equal(o.status, 0);
		assert_non_null(strstr(o.text, "usage: pmlab"));
		out_free(&o);
	}
}

static void test_lists(void **state)
{
	struct out o = run("machines");
	assert_int_equal(o.status, 0);
	const char *presets[] = { "xeon-e5-2650l-v3", "xeon-2s-quad", "i7-4790", "power9-2n128" };
	for (size_t i = 0; i < 4; i++)
		assert_non_null(strstr(o.text, presets[i]));
	out_free(&o);
	o = run("governors");
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.text, "performance"));
	assert_non_null(strstr(o.text, "scaling_setspeed"));
	out_free(&o);
	o = run("workloads");
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.text, "pingpong"));
	out_free(&o);
}

/* `machines show` prints INI that loads back and prints the same. */
static void test_machine_show_round_trips(void **state)
{
	struct out o = run("machines show i7-4790");
	assert_int_equal(o.status, 0);
	char path[] = "/tmp/pmlab-e2e-machine-XXXXXX.ini";
	int fd = mkstemps(path, 4);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs(o.text, f);
	fclose(f);
	char args[256];
	snprintf(args, sizeof(args), "machines show %s", path);
	struct out again = run(args);
	assert_int_equal(again.status, 0);
	assert_string_equal(o.text, again.text);
	unlink(path);
	out_free(&o);
	out_free(&again);
}

/* `machines show --energy-model` prints each type's table (issue 16). */
static void test_machine_energy_model(void **state)
{
	struct out o = run("machines show --energy-model "
			   PMLAB_SOURCE_ROOT "/tests/fixtures/machines/good-hybrid.ini");
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.text, "cpu_type little: capacity 512"));
	assert_non_null(strstr(o.text, "perf domains (CPUs): 2-5; 8-11"));
	assert_non_null(strstr(o.text, "2000000          512      1000000      19531"));
	out_free(&o);
	o = run("machines show --energy-model no-such-box");
	assert_usage_error(&o, "unknown machine 'no-such-box'");
	out_free(&o);
}

static void test_bad_input(void **state)
{
	struct out o = run("sim --machine no-such-box --workload batch");
	assert_usage_error(&o, "unknown machine 'no-such-box'");
	out_free(&o);
	o = run("sim --machine i7-4790 --workload nope");
	assert_usage_error(&o, "unknown workload 'nope'");
	out_free(&o);
	o = run("sim --machine i7-4790 --workload batch --duration -3");
	assert_usage_error(&o, "--duration");
	out_free(&o);
	o = run("sim --machine i7-4790 --workload batch --set tasks=-1");
	assert_usage_error(&o, "tasks=-1");
	out_free(&o);
	o = run("sim --machine i7-4790 --workload batch --cpus 99");
	assert_usage_error(&o, "--cpus");
	out_free(&o);
	o = run("frobnicate");
	assert_usage_error(&o, "unknown command");
	out_free(&o);
	o = run("sim --machine " PMLAB_SOURCE_ROOT "/tests/fixtures/machines/does-not-exist.ini "
		"--workload batch");
	assert_usage_error(&o, "does-not-exist.ini");
	out_free(&o);
}

/* A malformed machine file is reported at its line. */
static void test_bad_machine_file_names_line(void **state)
{
	char path[] = "/tmp/pmlab-e2e-bad-XXXXXX.ini";
	int fd = mkstemps(path, 4);
	FILE *f = fdopen(fd, "w");
	fputs("[machine]\nname = bad\n[topology]\npackages = two\n", f);
	fclose(f);
	char args[256];
	snprintf(args, sizeof(args), "sim --machine %s --workload batch", path);
	struct out o = run(args);
	char where[300];
	snprintf(where, sizeof(where), "%s:4:", path);
	assert_usage_error(&o, where);
	unlink(path);
	out_free(&o);
}

static double num(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	if (!v)
		fail_msg("missing key %s", key);
	return json_number_value(v);
}

/* JSON output: documented keys, residency sums to 100, energy adds up. */
static void test_sim_json(void **state)
{
	struct out o = run("sim --machine xeon-e5-2650l-v3 --cpus 4 --workload periodic "
			   "--set tasks=4 --duration 1 --format json --check");
	assert_int_equal(o.status, 0);
	json_error_t err;
	json_t *root = json_loads(o.text, 0, &err);
	if (!root)
		fail_msg("bad JSON: %s", err.text);
	assert_float_equal(num(root, "duration_s"), 1.0, 1e-9);
	assert_true(num(root, "throughput") > 0);
	/* Busy% and every C-state's residency sum to 100 */
	double sum = num(root, "busy_pct");
	const char *key;
	json_t *v;
	json_object_foreach(root, key, v)
		if (strncmp(key, "residency_", 10) == 0)
			sum += json_number_value(v);
	assert_float_equal(sum, 100.0, 1e-6);
	static const char *const parts[] = { "energy_core_dynamic_j", "energy_core_static_j",
					     "energy_uncore_j", "energy_platform_j" };
	double e = 0;
	for (size_t i = 0; i < 4; i++)
		e += num(root, parts[i]);
	assert_float_equal(e, num(root, "energy_j"), (1e-6 * e));
	assert_float_equal((num(root, "power_w") * num(root, "duration_s")), num(root, "energy_j"),
			   (1e-6 * e));
	assert_int_equal(json_array_size(json_object_get(root, "per_cpu")), 4);
	json_decref(root);
	out_free(&o);
}

/* Same seed: byte-identical output; another seed: different. */
static void test_determinism(void **state)
{
	const char *base = "sim --machine i7-4790 --workload periodic --set tasks=6 --duration 1 "
			   "--format csv --seed ";
	char a1[256], a2[256];
	snprintf(a1, sizeof(a1), "%s5", base);
	snprintf(a2, sizeof(a2), "%s6", base);
	struct out x = run(a1), y = run(a1), z = run(a2);
	assert_int_equal(x.status, 0);
	assert_string_equal(x.text, y.text);
	assert_true(strcmp(x.text, z.text) != 0);
	out_free(&x);
	out_free(&y);
	out_free(&z);
}

/* --set kernel=X.Y stands for the governor and tick rules of that kernel:
 * the same run as naming them one by one, different from today's rules,
 * and keys given with it still win. */
static void test_kernel_version_rules(void **state)
{
	const char *base = "sim --machine i7-4790 --cpus 2 --workload oltp --set agents=3 "
			   "--cpufreq ondemand --cpuidle menu --duration 0.5 --format csv ";
	char a[512], b[512], c[512], e[512], f[512];
	snprintf(a, sizeof(a), "%s--set kernel=3.10", base);
	/* 3.10: ondemand's and menu's rules, the legacy idle loop, no
	 * frequency invariance (x86 got it in 5.7), and an IPI for every
	 * remote wakeup of an idle CPU (polling kept in MWAIT from 3.13). */
	snprintf(b, sizeof(b), "%s--set variant=3.10 --set menu_variant=3.10 --set tick_policy=legacy "
		 "--set freq_invariant=0 --set idle_polling_wakeup=0", base);
	snprintf(c, sizeof(c), "%s", base);
	snprintf(e, sizeof(e), "%s--set kernel=3.10.0-123.el7 --set variant=current", base);
	/* ...and the cpufreq core's default transition delay of 3.10 (1000 x
	 * the 10 us latency), today's ondemand's default sampling rate. */
	snprintf(f, sizeof(f), "%s--set menu_variant=3.10 --set tick_policy=legacy "
		 "--set freq_invariant=0 --set sampling_rate=10000 --set idle_polling_wakeup=0", base);
	struct out x = run(a), y = run(b), z = run(c), u = run(e), v = run(f);
	/* The figures, not the inputs (each run names its own --set). */
	char *xd = csv_data(x.text), *yd = csv_data(y.text), *zd = csv_data(z.text);
	char *ud = csv_data(u.text), *vd = csv_data(v.text);
	assert_int_equal(x.status, 0);
	assert_string_equal(xd, yd);
	assert_true(strcmp(xd, zd) != 0);
	assert_int_equal(u.status, 0);
	assert_string_equal(ud, vd);
	assert_true(strcmp(ud, xd) != 0);
	free(xd);
	free(yd);
	free(zd);
	free(ud);
	free(vd);
	out_free(&x);
	out_free(&y);
	out_free(&z);
	out_free(&u);
	out_free(&v);
	expect_usage_error("sim --machine i7-4790 --workload batch --set kernel=three",
			   "--set kernel=three: expected a kernel version MAJOR.MINOR");
	expect_usage_error("sim --machine i7-4790 --workload batch --set kernel=3.10x",
			   "expected a kernel version");
	/* Governors the kernel did not have yet. */
	expect_usage_error("sim --machine i7-4790 --workload batch --cpufreq schedutil "
			   "--set kernel=3.10", "the cpufreq governor schedutil arrived in Linux 4.7");
	expect_usage_error("sim --machine i7-4790 --workload batch --cpuidle teo --set kernel=4.19",
			   "the cpuidle governor teo arrived in Linux 5.1");
}

/* Every workload runs on every preset with the invariant checks on. */
static void test_all_workloads_all_machines(void **state)
{
	const char *machines[] = { "xeon-e5-2650l-v3", "xeon-2s-quad", "i7-4790", "power9-2n128" };
	const char *workloads[] = { "batch --set work_ms=20", "periodic --set tasks=9",
				    "pingpong --set pairs=3" };
	const char *govs[] = { "performance", "powersave" };
	for (size_t m = 0; m < 4; m++)
		for (size_t w = 0; w < 3; w++)
			for (size_t g = 0; g < 2; g++) {
				char args[512];
				snprintf(args, sizeof(args),
					 "sim --machine %s --workload %s --cpufreq %s --duration 0.2 "
					 "--check --format table",
					 machines[m], workloads[w], govs[g]);
				struct out o = run(args);
				if (o.status != 0)
					fail_msg("%s: exit %d: %s", args, o.status, o.err);
				assert_non_null(strstr(o.text, machines[m]));
				out_free(&o);
			}
}

/* The invariant checks hold with observers attached (a timeline and a
 * trace), which take the power paths' out-of-line branches: the uncore's
 * power told between a busy change's clock move and its re-evaluation,
 * the power and clock of every change. */
static void test_checks_with_observers(void **state)
{
	const char *machines[] = { "xeon-e5-2650l-v3", "i7-4790" };
	for (size_t m = 0; m < 2; m++) {
		char tl[] = "/tmp/pmlab-e2e-timeline-XXXXXX.json";
		char tr[] = "/tmp/pmlab-e2e-trace-XXXXXX.dat";
		int fd1 = mkstemps(tl, 5), fd2 = mkstemps(tr, 4);
		assert_true(fd1 >= 0 && fd2 >= 0);
		close(fd1);
		close(fd2);
		char args[512];
		snprintf(args, sizeof(args),
			 "sim --machine %s --workload oltp --duration 0.1 --check --timeline %s "
			 "--trace %s --format table", machines[m], tl, tr);
		struct out o = run(args);
		if (o.status != 0)
			fail_msg("%s: exit %d: %s", args, o.status, o.err);
		unlink(tl);
		unlink(tr);
		out_free(&o);
	}
}

/* Every command `pmlab help` lists has --help and is in the man page's
 * command list, so the page cannot fall behind the binary. */
static void test_man_page_covers_commands(void **state)
{
	FILE *f = fopen(PMLAB_SOURCE_ROOT "/docs/pmlab.1", "r");
	assert_non_null(f);
	static char man[1 << 18];
	size_t n = fread(man, 1, sizeof(man) - 1, f);
	man[n] = '\0';
	fclose(f);
	struct out o = run("help");
	assert_int_equal(o.status, 0);
	const char *list = strstr(o.text, "commands:\n");
	assert_non_null(list);
	int commands = 0;
	for (const char *line = strchr(list, '\n') + 1; *line == ' '; line = strchr(line, '\n') + 1) {
		char name[64];
		if (sscanf(line, " %63s", name) != 1)
			break;
		char entry[80], help[96];
		snprintf(entry, sizeof(entry), ".B %s\n", name);
		if (!strstr(man, entry))
			fail_msg("docs/pmlab.1 does not list command '%s'", name);
		snprintf(help, sizeof(help), "%s --help", name);
		struct out h = run(help);
		assert_int_equal(h.status, 0);
		out_free(&h);
		commands++;
	}
	assert_true(commands >= 6);
	out_free(&o);
}

/* The header of `sim` with the given arguments (its first lines, joined). */
static char *sim_header(const char *args)
{
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "sim --workload pingpong --duration 0.05 %s", args);
	struct out o = run(cmd);
	if (o.status != 0)
		fail_msg("%s: exit %d: %s", cmd, o.status, o.err);
	char *head = out_header(o.text);
	out_free(&o);
	return head;
}

static void expect_header_has(const char *args, const char *want)
{
	char *h = sim_header(args);
	if (!strstr(h, want))
		fail_msg("sim %s: header '%s' lacks '%s'", args, h, want);
	free(h);
}

/* With no governor named, a machine runs what a stock kernel runs on it:
 * its cpufreq driver's default and menu, and the header says why. */
static void test_default_governors(void **state)
{
	expect_header_has("--machine i7-4790",
			  "cpufreq intel_pstate (the default of intel_pstate: powersave), "
			  "cpuidle menu (the kernel's default)");
	expect_header_has("--machine xeon-2s-harpertown",
			  "cpufreq schedutil (the default of acpi-cpufreq), cpuidle menu");
	expect_header_has("--machine power9-2n128", "cpufreq schedutil (the default of powernv-cpufreq)");
	/* amd-pstate-epp: powersave, or performance where the FADT's PM
	 * profile is a server's (amd_pstate_epp_cpu_init()). */
	expect_header_has("--machine ryzen-7840u",
			  "cpufreq amd_pstate (the default of amd-pstate-epp: powersave)");
	expect_header_has("--machine epyc-9555-2s",
			  "cpufreq amd_pstate (the default of amd-pstate-epp on a server: performance)");
	expect_header_has("--machine epyc-vm-2c",
			  "cpufreq performance (no cpufreq driver), cpuidle deepest (no cpuidle driver)");
	/* A kernel older than schedutil ran the Kconfig default of its time. */
	expect_header_has("--machine xeon-2s-harpertown --set kernel=3.10",
			  "cpufreq performance (the default of that kernel)");
	/* Named governors are not defaults; deepest stays available by name. */
	expect_header_has("--machine i7-4790 --cpufreq powersave --cpuidle deepest",
			  "cpufreq powersave, cpuidle deepest, seed");
	/* No drivers: performance, and the idle loop's one state (deepest). */
	char *ini = write_temp("[machine]\nname = bare\ncpufreq_driver = none\ncpuidle_driver = none\n"
			       "[topology]\npackages = 1\ncores_per_package = 2\nthreads_per_core = 1\n"
			       "freq_domain = core\n[frequency]\nbase_khz = 2000000\n[pstates]\n"
			       "2000000 = 1000\n[cstate C1]\nexit_latency_us = 1\n"
			       "target_residency_us = 2\npower_mw = 500\n[power]\nceff_nf = 1\n"
			       "leak_w = 1\nuncore_w = 1\nplatform_w = 0\n", ".ini");
	char args[512];
	snprintf(args, sizeof(args), "--machine %s", ini);
	expect_header_has(args, "cpufreq performance (no cpufreq driver), "
			  "cpuidle deepest (no cpuidle driver)");
	/* An old file without the keys: acpi-cpufreq and acpi_idle. */
	char *old = write_temp("[machine]\nname = old\n[topology]\npackages = 1\n"
			       "cores_per_package = 2\nthreads_per_core = 1\nfreq_domain = core\n"
			       "[frequency]\nbase_khz = 2000000\n[pstates]\n1000000 = 900\n"
			       "2000000 = 1000\n[cstate C1]\nexit_latency_us = 1\n"
			       "target_residency_us = 2\npower_mw = 500\n[power]\nceff_nf = 1\n"
			       "leak_w = 1\nuncore_w = 1\nplatform_w = 0\n", ".ini");
	snprintf(args, sizeof(args), "--machine %s", old);
	expect_header_has(args, "cpufreq schedutil (the default of acpi-cpufreq), cpuidle menu");
	/* A driver pmlab does not know is named, with the ones it does. */
	char *bad = write_temp("[machine]\nname = x\ncpufreq_driver = speedstep\n", ".ini");
	snprintf(args, sizeof(args), "sim --machine %s --workload pingpong", bad);
	expect_usage_error(args, "cpufreq_driver: 'speedstep' is not a driver pmlab knows (expected "
			   "acpi-cpufreq, intel_pstate, intel_cpufreq, powernv-cpufreq, cpufreq-dt, "
			   "amd-pstate, amd-pstate-epp or none)");
	unlink(ini);
	unlink(old);
	unlink(bad);
	free(ini);
	free(old);
	free(bad);
}


/* Every integer option: a value past 2^64, or not plain decimal, is a
 * usage error naming the option -- never wrapped, saturated or read as
 * hex or octal (--shard 0/99999999999999999999 ran before). */
static void test_integer_options_overflow(void **state)
{
	(void)state;
	static const char *const big = "99999999999999999999";
	static const struct {
		const char *args, *needle;
	} cases[] = {
		{ "sweep --machine i7-4790 --workload pingpong --vary seed=1 --shard 0/%s", "--shard" },
		{ "sweep --machine i7-4790 --workload pingpong --vary seed=1 --shard %s/2", "--shard" },
		{ "sweep --machine i7-4790 --workload pingpong --vary seed=1 --shard 0/%s0", "--shard" },
		{ "sweep --machine i7-4790 --workload pingpong --vary seed=1,%s", "seed" },
		{ "sim --machine i7-4790 --workload pingpong --seed %s", "--seed" },
		{ "sim --machine i7-4790 --workload pingpong --cpus %s", "--cpus" },
		{ "sim --machine i7-4790 --workload pingpong --jobs %s", "--jobs" },
		{ "compare --machine i7-4790 --workload pingpong --profiles none,powersave --runs %s",
		  "--runs" },
		{ "replay data/traces/hackbench.dat --capture-khz %s", "--capture-khz" },
		{ "monitor --count %s", "--count" },
		{ "govd --governor ondemand --interval-ms %s", "--interval-ms" },
		{ "govd --governor ondemand --hz %s", "--hz" },
		{ "record --buffer-kb %s -- true", "--buffer-kb" },
		{ "bench --profiles a,b --runs %s -- true", "--runs" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char args[512];
		const char *at = strstr(cases[i].args, "%s");
		snprintf(args, sizeof(args), "%.*s%s%s", (int)(at - cases[i].args), cases[i].args,
			 big, at + 2);
		expect_usage_error(args, cases[i].needle);
	}
	/* decimal only: no sign, space, hex or octal */
	static const char *const odd[] = { "0x10", "010x", "+5", " 5", "5 ", "-0", "1e3", "" };
	for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++) {
		char args[256];
		snprintf(args, sizeof(args), "sim --machine i7-4790 --workload pingpong --seed '%s'",
			 odd[i]);
		expect_usage_error(args, "--seed");
	}
	expect_usage_error("sim --machine i7-4790 --workload pingpong --cpus 010", "--cpus");
	/* --set values and seconds too (the campaign found " 5", "+5" and, for
	 * seconds, "0x10" as 16 s taken) */
	static const char *const odd_set[] = { "+250", " 250", "250 ", "0x10", "" };
	for (size_t i = 0; i < sizeof(odd_set) / sizeof(odd_set[0]); i++) {
		char args[256];
		snprintf(args, sizeof(args), "sim --machine i7-4790 --workload pingpong --set 'hz=%s'",
			 odd_set[i]);
		expect_usage_error(args, "--set hz=");
	}
	expect_usage_error("sim --machine i7-4790 --workload pingpong --set pm_qos_latency_us=+5",
			   "--set pm_qos_latency_us=+5");
	static const char *const odd_s[] = { "0x10", "+5", " 5", "5 ", "-1", "inf", "nan", "e3" };
	for (size_t i = 0; i < sizeof(odd_s) / sizeof(odd_s[0]); i++) {
		char args[256];
		snprintf(args, sizeof(args), "sim --machine i7-4790 --workload pingpong -d '%s'", odd_s[i]);
		expect_usage_error(args, "--duration");
		snprintf(args, sizeof(args), "monitor --count 1 --interval '%s'", odd_s[i]);
		expect_usage_error(args, "--interval");
	}
}

/* An empty --profiles list (found by the malformed-input campaign: replay
 * read past an empty table, a heap overflow under ASan). */
static void test_empty_profile_list(void **state)
{
	(void)state;
	expect_usage_error("replay " PMLAB_SOURCE_ROOT "/data/traces/hackbench.dat -d 0.1 --profiles ''",
			   "--profiles");
	expect_usage_error("replay " PMLAB_SOURCE_ROOT "/data/traces/hackbench.dat -d 0.1 --profiles ,",
			   "--profiles");
}

/* An option given an empty value (an unset shell variable) is refused
 * naming it: --cpufreq, --cpuidle, --profile, --timeline and --trace ''
 * ran the defaults, or wrote nothing, without a word. */
static void test_empty_option_values(void **state)
{
	(void)state;
	static const char *const opts[] = { "--cpufreq", "--cpuidle", "--profile", "--timeline",
					    "--trace", "--machine", "--cpus", "--set", "--seed" };
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		char args[256], want[64];
		snprintf(args, sizeof(args), "sim --machine i7-4790 --workload pingpong -d 0.01 %s ''",
			 opts[i]);
		snprintf(want, sizeof(want), "sim: %s '': an empty value", opts[i]);
		expect_usage_error(args, want);
	}
	expect_usage_error("compare --machine i7-4790 --workload pingpong --profiles none,powersave "
			   "--runs=", "compare: --runs '': an empty value");
}

/* The placement the kernel would run, named in the header: EAS on a
 * big.LITTLE machine with cpufreq-dt and schedutil; the default CFS path
 * (no "placement") with sched_energy_aware=0 or another governor. The
 * uclamp sysctls are checked as the kernel checks them. */
static void test_placement_in_header(void **state)
{
	const char *bl = "--machine " PMLAB_SOURCE_ROOT "/tests/fixtures/machines/big-little.ini";
	char args[512];
	expect_header_has(bl, "cpufreq schedutil (the default of cpufreq-dt), cpuidle deepest "
			      "(no cpuidle driver), placement eas, seed");
	const char *off[] = { "--set sched_energy_aware=0", "--cpufreq performance" };
	for (int i = 0; i < 2; i++) {
		snprintf(args, sizeof(args), "%s %s", bl, off[i]);
		char *h = sim_header(args);
		if (strstr(h, "placement"))
			fail_msg("sim %s: header '%s' names a placement", args, h);
		free(h);
	}
	expect_usage_error("sim --workload pingpong --machine i7-4790 --set sched_util_clamp_max=100",
			   "--set sched_util_clamp_min=1024: above sched_util_clamp_max=100 (the kernel "
			   "refuses it with EINVAL");
	expect_usage_error("sim --workload pingpong --machine i7-4790 --set sched_energy_aware=2",
			   "sched_energy_aware");
}

/* A misspelt name gets the nearest known one; a name near nothing gets no
 * guess. */
static void test_did_you_mean(void **state)
{
	expect_usage_error("sim -m i7-4970 -w pingpong", "unknown machine 'i7-4970'; did you mean "
			   "'i7-4790'?");
	expect_usage_error("simm", "unknown command 'simm'; did you mean 'sim'?");
	expect_usage_error("sim -m i7-4790 -w pingpog", "did you mean 'pingpong'?");
	expect_usage_error("sim -m i7-4790 -w pingpong --cpuidle tao", "did you mean 'teo'?");
	expect_usage_error("sim -m i7-4790 -w pingpong --cpufreq schedutl",
			   "did you mean 'schedutil'?");
	expect_usage_error("sim -m i7-4790 -w pingpong --set pm_qos_latency=20",
			   "did you mean 'pm_qos_latency_us'?");
	expect_usage_error("sim -m i7-4790 -w video --set decode=5",
			   "did you mean 'decode_us'?");
	struct out o = run("sim -m i7-4790 -w pingpong --cpufreq xyzzy");
	assert_usage_error(&o, "unknown cpufreq governor 'xyzzy'");
	assert_null(strstr(o.err, "did you mean"));
	out_free(&o);
}

/* --quiet before the command or among sim's options; errors still show. */
static void test_quiet_option(void **state)
{
	struct out o = run("--quiet sim -m i7-4790 -w pingpong -d 0.01 --format csv");
	assert_int_equal(o.status, 0);
	assert_string_equal(o.err, "");
	out_free(&o);
	o = run("sim --quiet -m i7-4790 -w pingpong -d 0.01 --format csv");
	assert_int_equal(o.status, 0);
	out_free(&o);
	expect_usage_error("-q sim -m nosuch -w pingpong", "unknown machine 'nosuch'");
}

/* pmlab complete: the names the shell completions offer. */
static void test_complete(void **state)
{
	struct out o = run("complete commands");
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.text, "sim\n"));
	assert_non_null(strstr(o.text, "info\n"));
	out_free(&o);
	o = run("complete keys video schedutil menu");
	assert_non_null(strstr(o.text, "decode_us=\n"));
	assert_non_null(strstr(o.text, "rate_limit_us=\n"));
	assert_non_null(strstr(o.text, "pm_qos_latency_us=\n"));
	out_free(&o);
	expect_usage_error("complete nothing", "expected commands, machines");
}

/* The widest line of a text, in terminal columns. */
static int widest(const char *text)
{
	int w = 0, n = 0;

	for (const char *c = text; *c; c++) {
		if (*c == '\n') {
			w = n > w ? n : w;
			n = 0;
		} else {
			n += ((unsigned char)*c & 0xc0) != 0x80;
		}
	}
	return n > w ? n : w;
}

/* Issue 17: every table fits 100 columns in a pipe (sim's per-CPU table of
 * 24 CPUs with 7 C-states, the governors' descriptions); --wide and
 * $COLUMNS change the width. */
static void test_outputs_fit_100_columns(void **state)
{
	static const char *const cmds[] = {
		"sim --machine xeon-e5-2650l-v3 --workload oltp --duration 0.05",
		"sim --machine i7-4790 --workload pingpong --duration 0.05 --set pm_qos_latency_us=20 "
		"--set cpufreq_updates=consolidated --cpuidle teo --cpufreq schedutil",
		"governors", "workloads", "machines",
	};

	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		struct out o = run(cmds[i]);

		assert_int_equal(o.status, 0);
		if (widest(o.text) > 100)
			fail_msg("pmlab %s: a line of %d columns", cmds[i], widest(o.text));
		out_free(&o);
	}
	struct out o = run("sim --machine xeon-e5-2650l-v3 --workload oltp --duration 0.05 --wide");
	assert_true(widest(o.text) > 100); /* the per-CPU table whole */
	out_free(&o);
	o = run("--wide governors");
	assert_true(widest(o.text) > 100);
	out_free(&o);
	/* a narrower terminal: $COLUMNS, as ls reads it */
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "sh -c 'COLUMNS=60 %s sim --machine i7-4790 --workload pingpong "
		 "--duration 0.05'", PMLAB_BIN);
	FILE *p = popen(cmd, "r");
	char buf[1 << 16];
	size_t n = fread(buf, 1, sizeof(buf) - 1, p);
	buf[n] = '\0';
	assert_int_equal(pclose(p), 0);
	if (widest(buf) > 60)
		fail_msg("COLUMNS=60: a line of %d columns", widest(buf));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version_and_help),
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_machine_show_round_trips),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_integer_options_overflow),
		cmocka_unit_test(test_empty_profile_list),
		cmocka_unit_test(test_empty_option_values),
		cmocka_unit_test(test_bad_machine_file_names_line),
		cmocka_unit_test(test_sim_json),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_kernel_version_rules),
		cmocka_unit_test(test_default_governors),
		cmocka_unit_test(test_all_workloads_all_machines),
		cmocka_unit_test(test_checks_with_observers),
		cmocka_unit_test(test_machine_energy_model),
		cmocka_unit_test(test_placement_in_header),
		cmocka_unit_test(test_man_page_covers_commands),
		cmocka_unit_test(test_did_you_mean),
		cmocka_unit_test(test_quiet_option),
		cmocka_unit_test(test_complete),
		cmocka_unit_test(test_outputs_fit_100_columns),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
