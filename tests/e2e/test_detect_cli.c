// SPDX-License-Identifier: GPL-2.0-only
/* pmlab machines detect on the fake trees of tests/fixtures/host: what
 * each tree's sysfs and /proc/cpuinfo say comes back in the machine file,
 * every guess is marked, the file loads, and pmlab replay runs a trace on
 * the machine recorded beside it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pmlab_run.h"
#include "../host_trees.h"

#define FIX PMLAB_SOURCE_ROOT "/tests/fixtures/host/"
#define TRACES PMLAB_SOURCE_ROOT "/tests/fixtures/traces/"

static struct out runf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static struct out runf(const char *fmt, ...)
{
	char args[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	return run(args);
}

/* The detected file of a tree: exit 0, nothing on stderr. */
static char *detect(const char *tree)
{
	struct out o = runf("machines detect --root %s%s", FIX, tree);
	if (o.status != 0 || o.err[0])
		fail_msg("machines detect --root %s: status %d, stderr '%s'", tree, o.status, o.err);
	free(o.err);
	return o.text;
}

/* The value of `key` in [section] of INI text, "" when absent. */
static const char *value(const char *ini, const char *section, const char *key)
{
	static char buf[256];
	char head[128];
	snprintf(head, sizeof(head), "\n[%s]\n", section);
	const char *s = strstr(ini, head);
	buf[0] = '\0';
	if (!s)
		return buf;
	s += strlen(head);
	size_t klen = strlen(key);
	while (*s && *s != '[') {
		const char *eol = strchr(s, '\n');
		size_t len = eol ? (size_t)(eol - s) : strlen(s);
		if (strncmp(s, key, klen) == 0 && strncmp(s + klen, " = ", 3) == 0) {
			snprintf(buf, sizeof(buf), "%.*s", (int)(len - klen - 3), s + klen + 3);
			return buf;
		}
		s += len + (eol != NULL);
	}
	return buf;
}

static void expect_key(const char *ini, const char *section, const char *key, const char *want)
{
	const char *got = value(ini, section, key);
	if (strcmp(got, want) != 0)
		fail_msg("[%s] %s = '%s', expected '%s'", section, key, got, want);
}

/* Lines of a section before the next one. */
static int section_lines(const char *ini, const char *section)
{
	char head[128];
	snprintf(head, sizeof(head), "\n[%s]\n", section);
	const char *s = strstr(ini, head);
	int n = 0;
	if (!s)
		return -1;
	for (s += strlen(head); *s && *s != '\n' && *s != '['; n++)
		s = strchr(s, '\n') ? strchr(s, '\n') + 1 : s + strlen(s);
	return n;
}

static int count(const char *text, const char *needle)
{
	int n = 0;
	for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* Every "# guessed:" line stands right before a value (or another
 * comment), never at the end of a section: it marks a figure. The file
 * loads (pmlab machines show checks it). */
static void check_file(const char *ini, const char *tree)
{
	for (const char *p = strstr(ini, "# guessed:"); p; p = strstr(p + 1, "# guessed:")) {
		const char *next = strchr(p, '\n');
		assert_non_null(next);
		next++;
		if (*next == '\n' || *next == '[' || !*next)
			fail_msg("%s: a guess marks nothing: '%.60s'", tree, p);
	}
	char *path = write_temp(ini, ".ini");
	struct out o = runf("machines show %s", path);
	if (o.status != 0)
		fail_msg("%s: the detected file does not load: %s", tree, o.err);
	out_free(&o);
	unlink(path);
	free(path);
}

/* A KVM guest: no cpufreq, no cpuidle states, no clock in cpuinfo. */
static void test_detect_vm(void **state)
{
	(void)state;
	char *ini = detect("vm-no-cpufreq");
	check_file(ini, "vm-no-cpufreq");
	expect_key(ini, "machine", "cpufreq_driver", "none");
	expect_key(ini, "machine", "cpuidle_driver", "none");
	expect_key(ini, "topology", "packages", "1");
	expect_key(ini, "topology", "cores_per_package", "2");
	expect_key(ini, "topology", "threads_per_core", "1");
	expect_key(ini, "frequency", "freq_invariance", "none");
	assert_int_equal(section_lines(ini, "pstates"), 3); /* two guesses and 2000000 */
	assert_non_null(strstr(ini, "# guessed: no cpufreq and no clock in /proc/cpuinfo"));
	assert_non_null(strstr(ini, "\n2000000 = 1000\n"));
	assert_int_equal(count(ini, "\n[cstate "), 1);
	assert_non_null(strstr(ini, "virtual machine (hypervisor)"));
	assert_null(strstr(ini, "[power_limits]"));
	free(ini);
}

/* intel_pstate with HWP: no table (100 MHz steps between the limits,
 * guessed), base_frequency, intel_idle's states, RAPL's PL1, EPB. */
static void test_detect_intel_hwp(void **state)
{
	(void)state;
	char *ini = detect("intel-hwp-laptop");
	check_file(ini, "intel-hwp-laptop");
	expect_key(ini, "machine", "cpufreq_driver", "intel_pstate");
	expect_key(ini, "machine", "cpuidle_driver", "intel_idle");
	expect_key(ini, "frequency", "base_khz", "2800000");
	expect_key(ini, "frequency", "freq_invariance", "turbo_4c");
	expect_key(ini, "topology", "freq_domain", "core");
	expect_key(ini, "pstates", "400000", "700");
	expect_key(ini, "pstates", "4700000", "1100");
	assert_int_equal(section_lines(ini, "pstates"), 2 + 44);
	assert_non_null(strstr(ini, "# guessed: the driver has no table: steps of 100 MHz"));
	expect_key(ini, "frequency", "hwp", "1");
	expect_key(ini, "cstate C6", "exit_latency_us", "170");
	expect_key(ini, "cstate C6", "target_residency_us", "600");
	expect_key(ini, "cstate POLL", "poll", "1");
	expect_key(ini, "cstate C1", "turbo_active", "1");
	expect_key(ini, "power_limits", "pl1_w", "28");
	expect_key(ini, "machine", "tdp_w", "28");
	assert_non_null(strstr(ini, "energy_perf_bias 6"));
	assert_non_null(strstr(ini, "energy_performance_preference balance_performance"));
	free(ini);
}

/* acpi-cpufreq: the table, and its turbo entry 1 MHz above base. */
static void test_detect_acpi_server(void **state)
{
	(void)state;
	char *ini = detect("acpi-cpufreq-server");
	check_file(ini, "acpi-cpufreq-server");
	expect_key(ini, "machine", "cpufreq_driver", "acpi-cpufreq");
	expect_key(ini, "machine", "cpuidle_driver", "acpi_idle");
	expect_key(ini, "frequency", "base_khz", "2300000");
	expect_key(ini, "frequency", "turbo", "hardware");
	expect_key(ini, "frequency", "transition_latency_us", "10");
	assert_int_equal(section_lines(ini, "pstates"), 1 + 13);
	expect_key(ini, "pstates", "2301000", "1100");
	expect_key(ini, "cstate C6", "exit_latency_us", "133");
	free(ini);
}

/* amd-pstate-epp: modelled by name where the simulator has the driver,
 * otherwise the stand-in is marked as a guess. */
static void test_detect_amd_pstate(void **state)
{
	(void)state;
	char *ini = detect("amd-pstate-epp-laptop");
	check_file(ini, "amd-pstate-epp-laptop");
	if (strcmp(value(ini, "machine", "cpufreq_driver"), "amd-pstate-epp") != 0)
		assert_non_null(strstr(ini, "# guessed: the driver amd-pstate-epp is not modelled"));
	assert_non_null(strstr(ini, "# guessed: sysfs shows no base frequency"));
	expect_key(ini, "frequency", "base_khz", "5132000");
	expect_key(ini, "frequency", "lowest_nonlinear_khz", "1800000");
	assert_null(strstr(ini, "\nhwp = "));
	/* The tree's flags lack aperfmperf: no invariance, as the kernel. */
	assert_non_null(strstr(ini, "# no aperfmperf CPU flag"));
	expect_key(ini, "frequency", "freq_invariance", "none");
	expect_key(ini, "cstate C3", "exit_latency_us", "350");
	/* amd-pstate's preferred-core ranking, each policy's file by core. */
	expect_key(ini, "highest_perf", "0", "186");
	expect_key(ini, "highest_perf", "1", "196");
	expect_key(ini, "highest_perf", "3", "181");
	assert_null(strstr(ini, "amd_prefcore=disable"));
	free(ini);
}

/* The preferred-core ranking on a copy of the laptop tree: booted with
 * amd_prefcore=disable (amd_pstate/prefcore says so) the file tells how to
 * run it so; a core without a ranking file leaves [highest_perf] out. */
static void test_detect_prefcore_variants(void **state)
{
	(void)state;
	char *dir = copy_tree("amd-pstate-epp-laptop");
	tree_put(dir, "sys/devices/system/cpu/amd_pstate/prefcore", "disabled\n");
	struct out o = runf("machines detect --root %s", dir);
	assert_int_equal(o.status, 0);
	expect_key(o.text, "highest_perf", "2", "191");
	assert_non_null(strstr(o.text, "run with --set amd_prefcore=0"));
	out_free(&o);
	assert_int_equal(sh("rm %s/sys/devices/system/cpu/cpufreq/policy2/"
			    "amd_pstate_prefcore_ranking", dir), 0);
	o = runf("machines detect --root %s", dir);
	assert_int_equal(o.status, 0);
	assert_null(strstr(o.text, "[highest_perf]"));
	out_free(&o);
	drop_tree(dir);
}

/* Every CPU's cpuidle states are read: the big cores' own latencies
 * become [cstate STATE big]; states the model cannot hold are a warning
 * naming the CPU (in the file and on stderr), with the first CPU's kept. */
static void test_detect_cstates_per_cpu(void **state)
{
	(void)state;
	char *ini = detect("arm-big-little");
	expect_key(ini, "cstate cpu-sleep big", "exit_latency_us", "250");
	expect_key(ini, "cstate cpu-sleep big", "target_residency_us", "1500");
	expect_key(ini, "cstate cpu-sleep", "exit_latency_us", "150");
	assert_null(strstr(ini, "[cstate cpu-sleep little]"));
	assert_null(strstr(ini, "[cstate cluster-sleep big]"));
	free(ini);

	char *dir = copy_tree("arm-big-little");
	tree_put(dir, "sys/devices/system/cpu/cpu6/cpuidle/state1/latency", "300\n");
	struct out o = runf("machines detect --root %s", dir);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.text, "# warning: cpu6's cpuidle cpu-sleep is not cpu4's"));
	assert_non_null(strstr(o.err, "warning: cpu6's cpuidle cpu-sleep is not cpu4's"));
	expect_key(o.text, "cstate cpu-sleep big", "exit_latency_us", "250");
	out_free(&o);
	tree_put(dir, "sys/devices/system/cpu/cpu4/cpuidle/state2/name", "big-sleep\n");
	o = runf("machines detect --root %s", dir);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.err, "cpu4's cpuidle states are not cpu0's (state2: 'big-sleep', "
				      "not 'cluster-sleep')"));
	assert_null(strstr(o.text, "[cstate cpu-sleep big]"));
	out_free(&o);
	drop_tree(dir);

	/* One kind of core: a CPU that differs cannot have its own figures. */
	dir = copy_tree("amd-pstate-epp-laptop");
	tree_put(dir, "sys/devices/system/cpu/cpu2/cpuidle/state2/residency", "99\n");
	o = runf("machines detect --root %s", dir);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.err, "warning: cpu2's cpuidle "));
	assert_non_null(strstr(o.err, "is not cpu0's, a core of its kind: the model takes cpu0's"));
	out_free(&o);
	drop_tree(dir);
}

/* Arm big.LITTLE: two types by cpu_capacity, each cluster one clock
 * (policy0, policy4), one L3; the detected machine runs EAS, as the
 * kernel would there (cpufreq-dt, schedutil, asymmetric capacities). */
static void test_detect_big_little(void **state)
{
	(void)state;
	char *ini = detect("arm-big-little");
	check_file(ini, "arm-big-little");
	expect_key(ini, "machine", "cpufreq_driver", "cpufreq-dt");
	/* psci_idle is a cpuidle driver the simulator models (issue 16). */
	expect_key(ini, "machine", "cpuidle_driver", "psci_idle");
	assert_null(strstr(ini, "# guessed: the driver psci_idle is not modelled"));
	expect_key(ini, "topology", "cores_per_package", "8");
	expect_key(ini, "topology", "llc_cores", "8");
	expect_key(ini, "cpu_type little", "cores", "4");
	expect_key(ini, "cpu_type little", "capacity", "446");
	expect_key(ini, "cpu_type little", "freq_domain", "package");
	expect_key(ini, "cpu_type big", "capacity", "1024");
	expect_key(ini, "cpu_type big", "base_khz", "2400000");
	assert_int_equal(section_lines(ini, "pstates little"), 1 + 10);
	assert_int_equal(section_lines(ini, "pstates big"), 1 + 11);
	expect_key(ini, "pstates little", "300000", "700");
	expect_key(ini, "cstate cpu-sleep", "exit_latency_us", "150");
	/* The little core is the cheaper per unit of work at its top
	 * P-state: the guessed power scales with capacity squared. */
	double cl = atof(value(ini, "cpu_type little", "ceff_nf"));
	double cb = atof(value(ini, "cpu_type big", "ceff_nf"));
	double per_work_l = cl * 1804800 / 446, per_work_b = cb * 2400000 / 1024;
	assert_true(per_work_l < per_work_b * 0.6);

	char *path = write_temp(ini, ".ini");
	struct out o = runf("sim -m %s -w video -d 0.2", path);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.text, "placement eas"));
	out_free(&o);
	unlink(path);
	free(path);
	free(ini);
}

/* An Intel hybrid laptop without cpu_capacity (before Linux 6.12): the
 * cpu_atom PMU names the E-cores, their capacity is guessed from the top
 * frequencies. */
static void test_detect_intel_hybrid(void **state)
{
	(void)state;
	char dir[] = "/tmp/pmlab-detect-XXXXXX", cmd[2048];
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "cp -r %sintel-hwp-laptop/. %s && mkdir -p %s/sys/devices/cpu_atom "
		 "&& echo 2-3 > %s/sys/devices/cpu_atom/cpus && for p in 2 3; do echo 3600000 > "
		 "%s/sys/devices/system/cpu/cpufreq/policy$p/cpuinfo_max_freq; done", FIX, dir, dir,
		 dir, dir);
	assert_int_equal(system(cmd), 0);
	struct out o = runf("machines detect --root %s", dir);
	assert_int_equal(o.status, 0);
	check_file(o.text, "hybrid");
	expect_key(o.text, "cpu_type pcore", "cores", "2");
	expect_key(o.text, "cpu_type pcore", "capacity", "1024");
	expect_key(o.text, "cpu_type ecore", "cores", "2");
	expect_key(o.text, "cpu_type ecore", "capacity", "784");
	assert_non_null(strstr(o.text, "# guessed: no cpu_capacity: the top frequencies' ratio"));
	expect_key(o.text, "pstates ecore", "3600000", "1100");
	out_free(&o);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_detect_errors(void **state)
{
	(void)state;
	expect_usage_error("machines detect --root " FIX "no-such-tree", "no-such-tree");
	expect_usage_error("machines detect --root " FIX "profiles", "no online CPUs");
	expect_usage_error("machines detect extra", "takes no argument, got 'extra'");
	expect_usage_error("machines detect --bogus", "--bogus");
	/* The shared option parser's wording, as every command's. */
	expect_usage_error("machines detect --root ''", "--root '': an empty value");
	expect_usage_error("machines detect -o ''", "--output '': an empty value");
	expect_usage_error("machines detect --output ''", "--output '': an empty value");
	expect_usage_error("machines detect -o", "-o needs a value");
	expect_usage_error("machines detect -r /", "unknown option '-r'");
	expect_usage_error("machines detect --root " FIX "vm-no-cpufreq -o /nonexistent/dir/x.ini",
			   "/nonexistent/dir/x.ini: cannot write");

	/* Packages that differ cannot be one machine file. */
	char dir[] = "/tmp/pmlab-detect-XXXXXX", cmd[1024];
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "cp -r %sarm-big-little/. %s && echo 1 > "
		 "%s/sys/devices/system/cpu/cpu7/topology/physical_package_id", FIX, dir, dir);
	assert_int_equal(system(cmd), 0);
	char args[512];
	snprintf(args, sizeof(args), "machines detect --root %s", dir);
	expect_usage_error(args, "package 1 has 0 cores of a kind package 0 has 4");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* pmlab replay without --machine: the machine pmlab record left beside
 * the trace, else one like the capture machine; a broken one is an
 * error naming it. */
static void test_replay_recorded_machine(void **state)
{
	(void)state;
	char dir[] = "/tmp/pmlab-detect-XXXXXX", cmd[1024], args[1024];
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "cp %stracefs-trace-default.txt %s/t.txt", TRACES, dir);
	assert_int_equal(system(cmd), 0);

	snprintf(args, sizeof(args), "replay %s/t.txt", dir);
	struct out o = run(args);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.text, "machine trace,"));
	out_free(&o);

	snprintf(args, sizeof(args), "machines detect --root %sintel-hwp-laptop -o %s/t.txt.machine.ini",
		 FIX, dir);
	o = run(args);
	assert_int_equal(o.status, 0);
	out_free(&o);
	snprintf(args, sizeof(args), "replay %s/t.txt", dir);
	o = run(args);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.text, "machine host, workload replay, cpufreq intel_pstate"));
	out_free(&o);
	/* --machine still wins. */
	snprintf(args, sizeof(args), "replay %s/t.txt --machine i7-4790", dir);
	o = run(args);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.text, "machine i7-4790,"));
	out_free(&o);

	snprintf(cmd, sizeof(cmd), "echo '[machine]' > %s/t.txt.machine.ini", dir);
	assert_int_equal(system(cmd), 0);
	snprintf(args, sizeof(args), "replay %s/t.txt", dir);
	expect_usage_error(args, "t.txt.machine.ini:1: [machine] is missing name");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detect_vm),
		cmocka_unit_test(test_detect_intel_hwp),
		cmocka_unit_test(test_detect_acpi_server),
		cmocka_unit_test(test_detect_amd_pstate),
		cmocka_unit_test(test_detect_prefcore_variants),
		cmocka_unit_test(test_detect_big_little),
		cmocka_unit_test(test_detect_cstates_per_cpu),
		cmocka_unit_test(test_detect_intel_hybrid),
		cmocka_unit_test(test_detect_errors),
		cmocka_unit_test(test_replay_recorded_machine),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
