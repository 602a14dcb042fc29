// SPDX-License-Identifier: GPL-2.0-only
/* End-to-end: the host commands of the pmlab binary -- monitor, govd,
 * bench, daemon and profile apply|off|verify|active -- on copies of the
 * fake trees in tests/fixtures/host (--root), plus the read-only monitor
 * and a govd that must refuse on this machine when it has no cpufreq. No
 * test here writes to the real /sys or /dev. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "host_trees.h"
#include <jansson.h>

#include "pmlab_run.h"

#define FIX HOST_FIXTURES
#define PROFILES "--profile-dir " FIX "profiles"
#define CPU "sys/devices/system/cpu/"

static bool same_as_fixture(const char *dir, const char *name)
{
	return sh("diff -r --no-dereference -x pmlab '%s%s' '%s' >/dev/null", FIX, name, dir) == 0;
}

static bool exists(const char *dir, const char *rel)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	return access(path, F_OK) == 0;
}

static char *slurp(const char *dir, const char *rel)
{
	return tree_get(dir, rel);
}

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

static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *s = hay; (s = strstr(s, needle)); s += strlen(needle))
		n++;
	return n;
}

/* pmlab with args through sh -c "exec ...", so the pid is pmlab's. */
static pid_t spawn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static pid_t spawn(const char *fmt, ...)
{
	char args[4096], cmd[8192];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof(cmd), "exec %s %s >/dev/null 2>&1", PMLAB_BIN, args);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	return pid;
}

static void sleep_ms(int ms)
{
	nanosleep(&(struct timespec){ ms / 1000, (ms % 1000) * 1000000L }, NULL);
}

/* Waits until dir/rel exists (or holds `text`), up to 10 s. */
static bool wait_for(const char *dir, const char *rel, const char *text)
{
	for (int i = 0; i < 1000; i++) {
		const char *s = slurp(dir, rel);
		if (s && (!text || strstr(s, text)))
			return true;
		sleep_ms(10);
	}
	return false;
}

static int wait_exit(pid_t pid)
{
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Whether cmd_profile.c hands apply|off|verify|active to the host code. */
static bool profile_host_wired(const char *dir)
{
	struct out o = runf("profile active --root %s", dir);
	bool ok = o.status == 0 && strstr(o.text, "active profile");
	out_free(&o);
	if (!ok)
		print_message("skipped: pmlab profile does not dispatch apply/off/verify/active yet\n");
	return ok;
}

/* ---- --help ---- */

static void test_help(void **state)
{
	(void)state;
	static const char *const cmds[] = { "monitor", "bench", "govd", "daemon" };
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		struct out o = runf("%s --help", cmds[i]);
		assert_int_equal(o.status, 0);
		char want[64];
		snprintf(want, sizeof(want), "usage: pmlab %s", cmds[i]);
		assert_non_null(strstr(o.text, want));
		assert_non_null(strstr(o.text, "--root DIR"));
		out_free(&o);
		o = runf("help %s", cmds[i]);
		assert_int_equal(o.status, 0);
		out_free(&o);
	}
	struct out o = run("help");
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		assert_non_null(strstr(o.text, cmds[i]));
	out_free(&o);
}

/* ---- monitor ---- */

static void test_monitor_vm(void **state)
{
	(void)state;
	char *dir = copy_tree("vm-no-cpufreq");
	struct out o = runf("monitor --root %s --count 2 --interval 0.05", dir);
	assert_int_equal(o.status, 0);
	/* absent sources: named once each, on stderr, not an error */
	assert_int_equal(count(o.err, "no cpufreq"), 1);
	assert_int_equal(count(o.err, "no RAPL"), 1);
	assert_int_equal(count(o.err, "no cpuidle states (driver none)"), 1);
	assert_int_equal(count(o.text, "CPU  Busy%  Avg_MHz  Bzy_MHz  %user  %system"), 2);
	assert_non_null(strstr(o.text, "\n  -      -"));
	out_free(&o);
	assert_true(same_as_fixture(dir, "vm-no-cpufreq"));
	drop_tree(dir);
}

static void test_monitor_formats(void **state)
{
	(void)state;
	char *dir = copy_tree("intel-hwp-laptop");
	struct out o = runf("monitor --root %s --count 1 --interval 0.01 --format csv", dir);
	assert_int_equal(o.status, 0);
	/* the inputs' "#" lines (tests/e2e/test_inputs_cli.c), then the rows */
	assert_true(strncmp(o.text, "# pmlab_version: ", 17) == 0);
	char *rows = csv_data(o.text);
	/* pmlab sim's keys for the same figures */
	assert_true(strncmp(rows, "time_s,interval_s,cpu,busy_pct,avg_mhz,bzy_mhz,residency_POLL_pct,"
				  "POLL_usage,POLL_below,POLL_above,residency_C1_pct,", 116) == 0);
	assert_non_null(strstr(rows, "util_user_pct,util_sys_pct,util_iowait_pct,util_steal_pct,"
				     "util_idle_pct,package_power_w,core_power_w,ram_power_w\n"));
	assert_int_equal(count(rows, "\n"), 6); /* header, all, 4 CPUs */
	assert_non_null(strstr(rows, ",all,"));
	free(rows);
	out_free(&o);

	o = runf("monitor --root %s --count 2 --interval 0.01 --format json", dir);
	assert_int_equal(o.status, 0);
	assert_int_equal(count(o.text, "\n"), 1 + 2); /* the inputs, two intervals */
	assert_true(strncmp(o.text, "{\"inputs\":{", 11) == 0);
	json_error_t err;
	const char *second = strchr(o.text, '\n') + 1;
	json_t *line = json_loadb(second, (size_t)(strchr(second, '\n') - second), 0, &err);
	assert_non_null(line);
	json_t *sum = json_object_get(line, "summary"), *cpus = json_object_get(line, "cpus");
	assert_non_null(sum);
	assert_int_equal(json_array_size(cpus), 4);
	assert_true(json_is_number(json_object_get(sum, "package_power_w")));
	assert_true(json_is_null(json_object_get(sum, "ram_power_w"))); /* a laptop: no DRAM zone */
	assert_true(json_is_number(json_object_get(sum, "residency_C6_pct")));
	json_decref(line);
	out_free(&o);

	o = runf("monitor --root %s --summary --count 1 --interval 0.01", dir);
	assert_int_equal(o.status, 0);
	/* the summary row (CPU -) in every block of columns, no CPU's own */
	assert_true(count(o.text, "\n  -  ") >= 1);
	assert_int_equal(count(o.text, "\n  -  "), count(o.text, "CPU "));
	assert_null(strstr(o.text, "\n  0  "));
	out_free(&o);
	drop_tree(dir);
}

static void test_monitor_command(void **state)
{
	(void)state;
	char *dir = copy_tree("acpi-cpufreq-server");
	struct out o = runf("monitor --root %s -- true", dir);
	assert_int_equal(o.status, 0);
	assert_true(strncmp(o.text, "inputs: pmlab ", 14) == 0);
	assert_non_null(strstr(o.text, " -- true\n\nCPU "));
	assert_int_equal(count(o.text, " seconds time elapsed (true)\n"), 1);
	out_free(&o);
	/* The elapsed time is the command's: at least its 0.2 s sleep. */
	o = runf("monitor --root %s --format json -- sleep 0.2", dir);
	assert_int_equal(o.status, 0);
	json_error_t err;
	json_t *obj = json_loads(strchr(o.text, '\n') + 1, 0, &err); /* after the inputs */
	assert_non_null(obj);
	assert_string_equal(json_string_value(json_object_get(obj, "command")), "sleep");
	double el = json_number_value(json_object_get(obj, "elapsed_s"));
	assert_true(el >= 0.2 && el < 60);
	assert_true(json_number_value(json_object_get(obj, "interval_s")) == el);
	json_decref(obj);
	out_free(&o);
	/* Sampling periodically prints no elapsed line. */
	o = runf("monitor --root %s --count 1 --interval 0.01", dir);
	assert_int_equal(o.status, 0);
	assert_null(strstr(o.text, "elapsed"));
	assert_non_null(strstr(o.text, "%steal"));
	/* 4 idle states x 4 columns: cut into blocks that fit 100 columns,
	 * each repeating the CPU column. */
	assert_true(count(o.text, "\nCPU ") >= 2);
	for (const char *l = o.text; *l;) {
		const char *e = strchr(l, '\n');
		assert_non_null(e);
		assert_true(e - l <= 100);
		l = e + 1;
	}
	out_free(&o);
	o = runf("monitor --root %s --format csv sh -c 'exit 3'", dir);
	assert_int_equal(o.status, 1);
	assert_non_null(strstr(o.err, "pmlab: monitor: 'sh' exited with status 3"));
	assert_non_null(strstr(o.text, "time_s,"));
	out_free(&o);
	/* a command that cannot be run is bad input: one line, exit 2, no
	 * figures (exit 1 after a table and "exited with status 127" before) */
	o = runf("monitor --root %s -- /nonexistent/pmlab-cmd", dir);
	assert_usage_error(&o, "pmlab: monitor: cannot run '/nonexistent/pmlab-cmd': No such file");
	assert_string_equal(o.text, "");
	out_free(&o);
	drop_tree(dir);
}

static void test_monitor_bad_usage(void **state)
{
	(void)state;
	expect_usage_error("monitor --interval 0", "--interval 0");
	expect_usage_error("monitor --format xml", "--format xml");
	expect_usage_error("monitor --count 0", "--count 0");
	expect_usage_error("monitor --count 2 -- true", "--count and a COMMAND");
	expect_usage_error("monitor --root /nonexistent-pmlab", "--root /nonexistent-pmlab");
	/* --root '' (an unset variable) is not this machine: it was */
	expect_usage_error("monitor --count 1 --interval 0.01 --root ''", "--root '': an empty");
	expect_usage_error("profile apply --dry-run --root '' balanced", "--root '': an empty");
	expect_usage_error("info --root ''", "--root '': an empty");
	expect_usage_error("monitor --bogus", "unknown option '--bogus'");
}

/* Reads only, so it runs on the real machine. */
static void test_monitor_real(void **state)
{
	(void)state;
	struct out o = run("monitor --count 1 --interval 0.1 --summary");
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.text, "Busy%"));
	if (access("/sys/class/powercap", F_OK) != 0)
		assert_int_equal(count(o.err, "no RAPL"), 1);
	out_free(&o);
}

/* ---- govd ---- */

static void test_govd_refuses(void **state)
{
	(void)state;
	char *dir = copy_tree("vm-no-cpufreq");
	struct out o = runf("govd --root %s --governor ondemand", dir);
	assert_int_equal(o.status, 2);
	assert_non_null(strstr(o.err, "pmlab: govd: no cpufreq on this machine"));
	assert_int_equal(count(o.err, "\n"), 1);
	assert_string_equal(o.text, ""); /* no CSV header before the refusal */
	out_free(&o);
	assert_true(same_as_fixture(dir, "vm-no-cpufreq"));
	drop_tree(dir);

	dir = copy_tree("intel-hwp-laptop");
	o = runf("govd --root %s --governor schedutil", dir);
	assert_int_equal(o.status, 2);
	assert_non_null(strstr(o.err, "no userspace governor"));
	out_free(&o);
	drop_tree(dir);

	expect_usage_error("govd --governor performance", "expected ondemand, conservative or "
			   "schedutil");
	expect_usage_error("govd", "--governor is required");
	expect_usage_error("govd --governor ondemand --set up_threshold=0", "up_threshold");
	expect_usage_error("govd --governor ondemand --set nosuch=1", "not a tunable of ondemand");
	expect_usage_error("govd --governor ondemand --interval-ms 0", "--interval-ms 0");

	/* this machine, when it has no cpufreq: refused before any write */
	bool none = true;
	for (int p = 0; p < 64; p++) {
		char path[128];
		snprintf(path, sizeof(path), "/" CPU "cpufreq/policy%d", p);
		none &= access(path, F_OK) != 0;
	}
	if (!none) {
		print_message("skipped: this machine has cpufreq; govd is not run on it\n");
		return;
	}
	o = run("govd --governor ondemand --duration 0.1");
	assert_int_equal(o.status, 2);
	assert_non_null(strstr(o.err, "no cpufreq on this machine"));
	out_free(&o);
}

static void test_govd_runs_and_restores(void **state)
{
	(void)state;
	char *dir = copy_tree("acpi-cpufreq-server");
	struct out o = runf("govd --root %s --governor conservative --set freq_step=10 "
			    "--duration 0.3 --interval-ms 20", dir);
	if (o.status != 0)
		fail_msg("exit %d: %s", o.status, o.err);
	assert_true(strncmp(o.text, "t_s,policy,khz\n", 15) == 0);
	assert_string_equal(o.err, "");
	out_free(&o);
	assert_true(same_as_fixture(dir, "acpi-cpufreq-server"));

	/* SIGTERM while it runs: restored too */
	pid_t pid = spawn("govd --root %s --governor schedutil", dir);
	assert_true(wait_for(dir, CPU "cpufreq/policy3/scaling_governor", "userspace"));
	sleep_ms(100);
	kill(pid, SIGTERM);
	assert_int_equal(wait_exit(pid), 0);
	assert_true(same_as_fixture(dir, "acpi-cpufreq-server"));

	/* killed outright: the next govd restores first */
	pid = spawn("govd --root %s --governor ondemand", dir);
	assert_true(wait_for(dir, CPU "cpufreq/policy3/scaling_governor", "userspace"));
	kill(pid, SIGKILL);
	wait_exit(pid);
	assert_true(exists(dir, "run/pmlab/govd"));
	o = runf("govd --root %s --governor ondemand --duration 0.05 --quiet", dir);
	assert_int_equal(o.status, 0);
	out_free(&o);
	assert_true(same_as_fixture(dir, "acpi-cpufreq-server"));

	/* killed outright, then a profile applied and removed: the governor
	 * govd replaced comes back (off restored userspace before) */
	for (int k = 0; k < 2; k++) {
		pid = spawn("govd --root %s --governor schedutil", dir);
		assert_true(wait_for(dir, CPU "cpufreq/policy3/scaling_governor", "userspace"));
		kill(pid, SIGKILL);
		wait_exit(pid);
		o = runf(k ? "profile off --root %s" : "profile apply --root %s powersave", dir);
		assert_int_equal(o.status, 0);
		out_free(&o);
		assert_false(exists(dir, "run/pmlab/govd"));
		o = runf("profile off --root %s", dir);
		assert_int_equal(o.status, 0);
		out_free(&o);
		assert_true(same_as_fixture(dir, "acpi-cpufreq-server"));
	}
	/* one govd at a time; a profile applied meanwhile (a peer: refused
	 * unless forced) leaves it be */
	pid = spawn("govd --root %s --governor ondemand", dir);
	assert_true(wait_for(dir, "run/pmlab/govd", "owner "));
	o = runf("govd --root %s --governor conservative --duration 0.1", dir);
	assert_int_equal(o.status, 1);
	assert_non_null(strstr(o.err, "a pmlab govd already runs (pid "));
	assert_string_equal(o.text, "");
	out_free(&o);
	o = runf("profile apply --root %s powersave", dir);
	assert_int_equal(o.status, 1);
	assert_non_null(strstr(o.err, "pmlab govd is running (pid "));
	out_free(&o);
	o = runf("profile apply --force --root %s powersave", dir);
	assert_int_equal(o.status, 0);
	out_free(&o);
	assert_true(exists(dir, "run/pmlab/govd"));
	o = runf("profile off --root %s", dir);
	assert_int_equal(o.status, 0);
	out_free(&o);
	kill(pid, SIGTERM);
	assert_int_equal(wait_exit(pid), 0);
	assert_true(same_as_fixture(dir, "acpi-cpufreq-server"));
	drop_tree(dir);

	/* no cpufreq: refused before the CSV header */
	dir = copy_tree("vm-no-cpufreq");
	o = runf("govd --root %s --governor ondemand --duration 0.1", dir);
	assert_int_equal(o.status, 2);
	assert_non_null(strstr(o.err, "no cpufreq on this machine"));
	assert_string_equal(o.text, "");
	out_free(&o);
	drop_tree(dir);
}

/* ---- bench ---- */

static void test_bench(void **state)
{
	(void)state;
	char *dir = copy_tree("acpi-cpufreq-server");
	struct out o = runf("bench --root %s " PROFILES " --profiles host-latency,powersave "
			    "--runs 2 --baseline powersave -- true", dir);
	if (o.status != 0)
		fail_msg("exit %d: %s", o.status, o.err);
	assert_non_null(strstr(o.text, "2 runs of each profile, interleaved"));
	assert_non_null(strstr(o.text, "ratio to powersave"));
	assert_non_null(strstr(o.text, "\nhost-latency "));
	assert_non_null(strstr(o.text, "\npowersave "));
	/* PkgWatt as everywhere; a figure every run gave is "constant", not "± 0.00" */
	assert_non_null(strstr(o.text, "PkgWatt"));
	assert_non_null(strstr(o.text, "1200 constant"));
	for (const char *l = o.text; *l;) {
		const char *e = strchr(l, '\n');
		assert_non_null(e);
		assert_true(e - l <= 101); /* "±" is two bytes */
		l = e + 1;
	}
	assert_int_equal(count(o.err, "run "), 4);
	out_free(&o);
	assert_true(same_as_fixture(dir, "acpi-cpufreq-server"));

	o = runf("bench --root %s " PROFILES " --profiles balanced,powersave --runs 3 --format csv "
		 "-- true", dir);
	assert_int_equal(o.status, 0);
	char *rows = csv_data(o.text); /* after the inputs' "#" lines */
	assert_true(strncmp(rows, "profile,run,time_s,energy_j,package_power_w,busy_pct,bzy_mhz\n",
			    61) == 0);
	assert_int_equal(count(rows, "\n"), 7);
	free(rows);
	out_free(&o);
	assert_true(same_as_fixture(dir, "acpi-cpufreq-server"));
	drop_tree(dir);
}

static void test_bench_failures(void **state)
{
	(void)state;
	char *dir = copy_tree("intel-hwp-laptop");
	/* bad input: nothing touched */
	struct out o = runf("bench --root %s --profiles balanced,no-such-profile -- true", dir);
	assert_usage_error(&o, "no-such-profile");
	out_free(&o);
	expect_usage_error("bench --profiles balanced -- true", "at least two profiles");
	expect_usage_error("bench --profiles a,b", "no command");
	expect_usage_error("bench --profiles a,a -- true", "given twice");
	expect_usage_error("bench --profiles a,b --baseline c -- true", "--baseline c");
	o = runf("bench --root %s --profiles balanced,powersave -- /nonexistent/pmlab-cmd", dir);
	assert_usage_error(&o, "bench: cannot run '/nonexistent/pmlab-cmd': No such file");
	out_free(&o);
	assert_true(same_as_fixture(dir, "intel-hwp-laptop"));
	/* the command fails: restored, exit 1 */
	o = runf("bench --root %s --profiles balanced,powersave -- false", dir);
	assert_int_equal(o.status, 1);
	assert_non_null(strstr(o.err, "'false' exited with status 1"));
	assert_non_null(strstr(o.err, "the machine is restored"));
	out_free(&o);
	assert_true(same_as_fixture(dir, "intel-hwp-laptop"));
	/* Ctrl-C (SIGINT to pmlab) in the middle: restored, exit 1 */
	pid_t pid = spawn("bench --root %s --profiles powersave,throughput-performance --runs 3 "
			  "-- sleep 5", dir);
	assert_true(wait_for(dir, "run/pmlab/profile", "status applied"));
	kill(pid, SIGINT);
	assert_int_equal(wait_exit(pid), 1);
	assert_true(same_as_fixture(dir, "intel-hwp-laptop"));
	drop_tree(dir);
}

/* ---- daemon ---- */

static void test_daemon(void **state)
{
	(void)state;
	char *dir = copy_tree("acpi-cpufreq-server");
	pid_t pid = spawn("daemon --root %s " PROFILES " --profile host-latency", dir);
	assert_true(wait_for(dir, "run/pmlab/daemon", NULL));
	assert_true(wait_for(dir, "run/pmlab/profile", "status applied"));
	assert_string_equal(slurp(dir, CPU "cpufreq/policy0/scaling_governor"), "ondemand\n");
	assert_string_equal(slurp(dir, CPU "cpufreq/ondemand/sampling_down_factor"), "10");
	/* the fake tree's stand-in holds the 4 raw bytes of the request: 2 us */
	int32_t v = 0;
	char path[4200];
	snprintf(path, sizeof(path), "%s/dev/cpu_dma_latency", dir);
	int fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(read(fd, &v, 4), 4);
	close(fd);
	assert_int_equal(v, 2);
	/* a second daemon is refused */
	struct out o = runf("daemon --root %s", dir);
	assert_int_equal(o.status, 1);
	assert_non_null(strstr(o.err, "already runs"));
	out_free(&o);
	kill(pid, SIGHUP); /* re-reads the state: still the same request */
	sleep_ms(50);
	kill(pid, SIGTERM);
	assert_int_equal(wait_exit(pid), 0);
	assert_false(exists(dir, "run/pmlab/daemon"));
	assert_true(exists(dir, "run/pmlab/profile")); /* the profile stays applied */
	/* a new daemon re-applies the active profile */
	pid = spawn("daemon --root %s " PROFILES, dir);
	assert_true(wait_for(dir, "run/pmlab/daemon", NULL));
	sleep_ms(200);
	kill(pid, SIGINT);
	assert_int_equal(wait_exit(pid), 0);
	assert_string_equal(slurp(dir, CPU "cpufreq/ondemand/sampling_down_factor"), "10");
	expect_usage_error("daemon --bogus", "unknown option");
	drop_tree(dir);
	dir = copy_tree("vm-no-cpufreq");
	o = runf("daemon --root %s --profile no-such-profile", dir);
	assert_usage_error(&o, "no-such-profile");
	out_free(&o);
	assert_false(exists(dir, "run/pmlab/daemon"));
	drop_tree(dir);
}


/* A profile without force_latency replacing one with it: the daemon drops
 * its request (it kept it before), and verify checks what the daemon holds
 * against the active profile. */
static void test_daemon_follows_apply(void **state)
{
	(void)state;
	char *dir = copy_tree("acpi-cpufreq-server");
	pid_t pid = spawn("daemon --root %s " PROFILES " --profile host-latency", dir);
	assert_true(wait_for(dir, "run/pmlab/daemon", " 2\n"));
	struct out o = runf("profile verify --root %s", dir);
	assert_int_equal(o.status, 0);
	out_free(&o);
	/* while the daemon cannot answer, verify sees the stale request */
	kill(pid, SIGSTOP);
	o = runf("profile apply --root %s powersave", dir);
	assert_int_equal(o.status, 0);
	out_free(&o);
	o = runf("profile verify --root %s", dir);
	assert_int_equal(o.status, 1);
	assert_non_null(strstr(o.text, "dev/cpu_dma_latency: pmlab daemon (pid "));
	assert_non_null(strstr(o.text, ") holds a 2 us request, the profile asks for none\n"));
	out_free(&o);
	/* it got the SIGHUP: it lets go */
	kill(pid, SIGCONT);
	assert_true(wait_for(dir, "run/pmlab/daemon", " -1\n"));
	o = runf("profile verify --root %s", dir);
	if (o.status != 0)
		fail_msg("exit %d: %s%s", o.status, o.text, o.err);
	out_free(&o);
	/* back to a profile with a request: held again */
	o = runf("profile apply --root %s " PROFILES " host-latency", dir);
	assert_int_equal(o.status, 0);
	assert_null(strstr(o.err, "ends with this process")); /* the daemon holds it */
	out_free(&o);
	assert_true(wait_for(dir, "run/pmlab/daemon", " 2\n"));
	o = runf("profile off --root %s", dir);
	assert_int_equal(o.status, 0);
	out_free(&o);
	assert_true(wait_for(dir, "run/pmlab/daemon", " -1\n"));
	kill(pid, SIGTERM);
	assert_int_equal(wait_exit(pid), 0);
	drop_tree(dir);
}

/* ---- pmlab profile on the host (once cmd_profile.c dispatches to it) ---- */

static void test_profile_apply_off(void **state)
{
	(void)state;
	char *dir = copy_tree("intel-hwp-laptop");
	if (!profile_host_wired(dir)) {
		drop_tree(dir);
		skip();
	}
	struct out o = runf("profile apply --root %s " PROFILES " host-all", dir);
	if (o.status != 0)
		fail_msg("exit %d: %s", o.status, o.err);
	assert_non_null(strstr(o.text, "energy_performance_preference: balance_performance -> power"));
	assert_non_null(strstr(o.text, "not applied: [script]"));
	assert_non_null(strstr(o.err, "warning: the 1 us /dev/cpu_dma_latency request lapses now, "
				      "as pmlab exits (tuned holds it while it runs): run pmlab daemon"));
	out_free(&o);
	o = runf("profile active --root %s", dir);
	assert_string_equal(o.text, "Current active profile: host-all\n");
	out_free(&o);
	o = runf("profile verify --root %s", dir);
	assert_int_equal(o.status, 0);
	out_free(&o);
	sh("echo 6 > '%s/" CPU "cpu2/power/energy_perf_bias'", dir);
	o = runf("profile verify --root %s", dir);
	assert_int_equal(o.status, 1);
	assert_non_null(strstr(o.text, "cpu2/power/energy_perf_bias: is '6', the profile set '15'"));
	out_free(&o);
	o = runf("profile off --root %s", dir);
	assert_int_equal(o.status, 0);
	out_free(&o);
	assert_true(same_as_fixture(dir, "intel-hwp-laptop"));
	o = runf("profile active --root %s", dir);
	assert_string_equal(o.text, "No current active profile.\n");
	out_free(&o);
	o = runf("profile apply --root %s --dry-run powersave", dir);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.text, "-> power"));
	out_free(&o);
	assert_true(same_as_fixture(dir, "intel-hwp-laptop"));
	o = runf("profile apply --root %s no-such-profile", dir);
	assert_usage_error(&o, "no-such-profile");
	out_free(&o);
	drop_tree(dir);
}

static void test_profile_failures(void **state)
{
	(void)state;
	char *dir = copy_tree("amd-pstate-epp-desktop");
	if (!profile_host_wired(dir)) {
		drop_tree(dir);
		skip();
	}
	for (int at = 1; at <= 8; at += 3) { /* powersave here: 8 writes */
		char env[16];
		snprintf(env, sizeof(env), "%d", at);
		setenv("PMLAB_FAIL_WRITE_AT", env, 1);
		struct out o = runf("profile apply --root %s powersave", dir);
		unsetenv("PMLAB_FAIL_WRITE_AT");
		assert_int_equal(o.status, 1);
		assert_non_null(strstr(o.err, "cannot write"));
		assert_non_null(strstr(o.err, "nothing left changed"));
		assert_int_equal(count(o.err, "\n"), 1);
		out_free(&o);
		assert_true(same_as_fixture(dir, "amd-pstate-epp-desktop"));
	}
	/* EBUSY for EPP under the performance policy */
	setenv("PMLAB_FAIL_WRITE_PATH", "energy_performance_preference:EBUSY", 1);
	struct out o = runf("profile apply --root %s " PROFILES " host-epp", dir);
	unsetenv("PMLAB_FAIL_WRITE_PATH");
	assert_int_equal(o.status, 1);
	assert_non_null(strstr(o.err, "energy_performance_preference: cannot write 'power': Device "
				      "or resource busy"));
	out_free(&o);
	assert_true(same_as_fixture(dir, "amd-pstate-epp-desktop"));

	/* SIGKILL in the middle, then off */
	setenv("PMLAB_PAUSE_WRITE_AT", "5", 1);
	pid_t pid = spawn("profile apply --root %s powersave", dir);
	unsetenv("PMLAB_PAUSE_WRITE_AT");
	int st;
	assert_int_equal(waitpid(pid, &st, WUNTRACED), pid);
	assert_true(WIFSTOPPED(st));
	kill(pid, SIGKILL);
	wait_exit(pid);
	o = runf("profile active --root %s", dir);
	assert_non_null(strstr(o.text, "interrupted"));
	out_free(&o);
	o = runf("profile off --root %s", dir);
	assert_int_equal(o.status, 0);
	out_free(&o);
	assert_true(same_as_fixture(dir, "amd-pstate-epp-desktop"));

	/* --hold: off ends the holder */
	pid = spawn("profile apply --root %s " PROFILES " --hold host-latency", dir);
	assert_true(wait_for(dir, "run/pmlab/profile", "holder "));
	o = runf("profile off --root %s", dir);
	assert_int_equal(o.status, 0);
	out_free(&o);
	assert_int_equal(wait_exit(pid), 0);
	assert_true(same_as_fixture(dir, "amd-pstate-epp-desktop"));
	drop_tree(dir);
}



/* Symbolic links out of --root: a file read through one is skipped with a
 * note, a directory pmlab must use is refused saying why ("Invalid
 * cross-device link" before), and nothing outside the root changes. */
static void test_links_out_of_root(void **state)
{
	(void)state;
	char *dir = copy_tree("acpi-cpufreq-server");
	char *out = strdup("/tmp/pmlab-outside-XXXXXX");
	assert_non_null(mkdtemp(out));
	const char *gov = CPU "cpufreq/policy0/scaling_governor";
	assert_int_equal(sh("mv '%s/%s' '%s/gov' && ln -s '%s/gov' '%s/%s'", dir, gov, out, out, dir,
			    gov), 0);
	struct out o = runf("profile apply --root %s powersave", dir);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.err, "pmlab: note: "));
	assert_non_null(strstr(o.err, "policy0/scaling_governor: a symbolic link leads out of --root: "
				      "skipped\n"));
	out_free(&o);
	assert_string_equal(slurp(out, "gov"), "ondemand\n");
	o = runf("profile off --root %s", dir);
	assert_int_equal(o.status, 0);
	out_free(&o);
	/* the state directory's parent out of the root */
	assert_int_equal(sh("rm -rf '%s/run' && mkdir '%s/run' && ln -s '%s/run' '%s/run'", dir, out,
			    out, dir), 0);
	o = runf("profile apply --root %s powersave", dir);
	assert_int_equal(o.status, 1);
	assert_non_null(strstr(o.err, "/run/pmlab: cannot create: a symbolic link leads out of "
				      "--root: refused"));
	assert_null(strstr(o.err, "cross-device"));
	out_free(&o);
	assert_int_equal(sh("test -z \"$(ls -A '%s/run')\"", out), 0);
	assert_string_equal(slurp(out, "gov"), "ondemand\n");
	sh("rm -rf '%s'", out);
	free(out);
	drop_tree(dir);
}

/* ---- a hostile run/pmlab: each attack on the state root's next restore reads ---- */

/* /proc/PID/stat field 22, as pmlab records it. */
static unsigned long long start_time(pid_t pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	char *s = strrchr(buf, ')');
	assert_non_null(s);
	for (int field = 2; field < 22 && s; field++)
		s = strchr(s + 1, ' ');
	assert_non_null(s);
	return strtoull(s + 1, NULL, 10);
}

/* A process that is not pmlab (sleep), to be named by forged state. */
static pid_t bystander(void)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		execl("/bin/sleep", "sleep", "30", (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < 500; i++) { /* until it runs sleep, not this program */
		char exe[64], target[256];
		snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)pid);
		ssize_t n = readlink(exe, target, sizeof(target) - 1);
		if (n > 0) {
			target[n] = '\0';
			if (strstr(target, "sleep"))
				break;
		}
		sleep_ms(10);
	}
	return pid;
}

static bool still_running(pid_t pid)
{
	sleep_ms(100);
	int st;
	return waitpid(pid, &st, WNOHANG) == 0;
}

static void put(const char *dir, const char *rel, const char *text)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

#define FORGED_HEAD "pmlab-state 1\nprofile balanced\nstatus applied\n"
#define CORE_PATTERN "proc/sys/kernel/core_pattern"

static void test_hostile_state(void **state)
{
	(void)state;
	char *dir = copy_tree("acpi-cpufreq-server");
	if (!profile_host_wired(dir)) {
		drop_tree(dir);
		skip();
	}
	/* a state directory pmlab creates is 0700 */
	struct out o = runf("profile apply --root %s powersave", dir);
	assert_int_equal(o.status, 0);
	out_free(&o);
	struct stat sb;
	char path[4200];
	snprintf(path, sizeof(path), "%s/run/pmlab", dir);
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0700);
	o = runf("profile off --root %s", dir);
	assert_int_equal(o.status, 0);
	out_free(&o);

	/* an entry naming a sysctl no plan writes (core_pattern: code execution
	 * as root): refused by off and by apply, the file untouched */
	assert_int_equal(sh("mkdir -p '%s/proc/sys/kernel' && printf core > '%s/" CORE_PATTERN "'",
			    dir, dir), 0);
	put(dir, "run/pmlab/profile", FORGED_HEAD "entry " CORE_PATTERN " =|/tmp/evil =x =x - k\n");
	o = runf("profile off --root %s", dir);
	assert_usage_error(&o, "run/pmlab/profile:4: path 'proc/sys/kernel/core_pattern' is not a "
			       "file pmlab writes");
	out_free(&o);
	o = runf("profile apply --root %s powersave", dir);
	assert_usage_error(&o, "core_pattern");
	out_free(&o);
	assert_string_equal(slurp(dir, CORE_PATTERN), "core");
	assert_int_equal(sh("rm '%s/" CORE_PATTERN "'", dir), 0);
	assert_true(same_as_fixture(dir, "acpi-cpufreq-server"));

	/* a directory others may write: nothing in it is believed */
	put(dir, "run/pmlab/profile", FORGED_HEAD "entry " CPU
	    "cpufreq/policy0/scaling_governor =powersave =x =x - governor\n");
	assert_int_equal(chmod(path, 0777), 0);
	const char *cmds[] = { "profile off", "profile verify", "profile active",
			       "profile apply powersave", "daemon", "govd --governor ondemand" };
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		o = runf("%s --root %s", cmds[i], dir);
		assert_usage_error(&o, "run/pmlab: writable by others (mode 0777): refusing pmlab "
				       "state another user could have written");
		out_free(&o);
	}
	assert_int_equal(chmod(path, 0700), 0);
	/* a state file others may write */
	snprintf(path, sizeof(path), "%s/run/pmlab/profile", dir);
	assert_int_equal(chmod(path, 0666), 0);
	o = runf("profile off --root %s", dir);
	assert_usage_error(&o, "run/pmlab/profile: writable by others (mode 0666)");
	out_free(&o);
	assert_int_equal(chmod(path, 0600), 0);
	/* a symbolic link in its place */
	assert_int_equal(sh("mv '%s' '%s.real' && ln -s '%s.real' '%s'", path, path, path, path), 0);
	o = runf("profile off --root %s", dir);
	assert_usage_error(&o, "run/pmlab/profile: a symbolic link");
	out_free(&o);
	assert_int_equal(sh("rm '%s' && mv '%s.real' '%s'", path, path, path), 0);
	/* owned by another user (only root can make one) */
	if (geteuid() == 0) {
		assert_int_equal(chown(path, 65534, 65534), 0);
		o = runf("profile off --root %s", dir);
		assert_usage_error(&o, "run/pmlab/profile: owned by uid 65534, neither this user");
		out_free(&o);
		assert_int_equal(chown(path, 0, 0), 0);
		snprintf(path, sizeof(path), "%s/run/pmlab", dir);
		assert_int_equal(chown(path, 65534, 65534), 0);
		o = runf("profile active --root %s", dir);
		assert_usage_error(&o, "run/pmlab: owned by uid 65534");
		out_free(&o);
		assert_int_equal(chown(path, 0, 0), 0);
	} else {
		print_message("skipped: state owned by another user (needs root to chown)\n");
	}
	assert_true(same_as_fixture(dir, "acpi-cpufreq-server"));

	/* a forged holder: off restores, and signals no process that is not
	 * a pmlab of this user */
	pid_t victim = bystander();
	char text[512];
	snprintf(text, sizeof(text), FORGED_HEAD "holder %d %llu\nlatency 5 -\n", (int)victim,
		 start_time(victim));
	put(dir, "run/pmlab/profile", text);
	o = runf("profile off --root %s", dir);
	assert_int_equal(o.status, 0);
	out_free(&o);
	assert_true(still_running(victim));
	/* a forged daemon file: apply and off send it no SIGHUP */
	snprintf(text, sizeof(text), "%d %llu\n", (int)victim, start_time(victim));
	put(dir, "run/pmlab/daemon", text);
	o = runf("profile apply --root %s " PROFILES " host-latency", dir);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.err, "lapses now, as pmlab exits")); /* no daemon holds it */
	out_free(&o);
	o = runf("profile off --root %s", dir);
	assert_int_equal(o.status, 0);
	out_free(&o);
	assert_true(still_running(victim));
	kill(victim, SIGKILL);
	wait_exit(victim);
	assert_true(same_as_fixture(dir, "acpi-cpufreq-server"));
	drop_tree(dir);
}

/* ---- next to tuned, power-profiles-daemon and pmlab govd ---- */

static void test_coexist(void **state)
{
	(void)state;
	char *dir = copy_tree("thinkpad-platform-profile");
	tree_put(dir, "run/tuned/tuned.pid", "4242\n");
	tree_put(dir, "proc/4242/comm", "tuned\n");
	tree_put(dir, "etc/tuned/active_profile", "balanced\n");
	/* refused, nothing written: the message names tuned and the way out */
	struct out o = runf("profile apply --root %s powersave", dir);
	assert_int_equal(o.status, 1);
	assert_non_null(strstr(o.err, "pmlab: tuned is running (pid 4242"));
	assert_non_null(strstr(o.err, "stop it first (systemctl stop tuned"));
	assert_non_null(strstr(o.err, "or pass --force"));
	out_free(&o);
	assert_false(exists(dir, "run/pmlab/profile"));
	assert_string_equal(slurp(dir, CPU "cpufreq/policy0/energy_performance_preference"),
			    "balance_performance\n");
	assert_string_equal(slurp(dir, "sys/firmware/acpi/platform_profile"), "balanced\n");
	/* the dry run says what it would do, and the peer */
	o = runf("profile apply --dry-run --root %s balanced:tuned=2.20", dir);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.text, "note: /dev/cpu_dma_latency 1000 us now (the 1-minute load "
				       "average is 0.08)"));
	assert_non_null(strstr(o.text, "warning: tuned: pid 4242"));
	assert_non_null(strstr(o.text, "lapses when pmlab exits unless pmlab daemon holds it"));
	out_free(&o);
	/* --force */
	o = runf("profile apply --force --root %s powersave", dir);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.text, "warning: tuned: pid 4242"));
	assert_non_null(strstr(o.text, "platform_profile: balanced -> low-power"));
	out_free(&o);
	/* tuned changes the platform profile back to its own */
	tree_put(dir, "sys/firmware/acpi/platform_profile", "performance\n");
	o = runf("profile verify --root %s", dir);
	assert_int_equal(o.status, 1);
	assert_non_null(strstr(o.text, "platform_profile: is 'performance', the profile set "
				       "'low-power'"));
	assert_non_null(strstr(o.text, "running now, and writing such files: tuned (pid 4242)"));
	out_free(&o);
	o = runf("monitor --root %s --count 1 --interval 0.05", dir);
	assert_int_equal(o.status, 0);
	assert_int_equal(count(o.err, "platform_profile: now 'performance', profile powersave set "
				      "'low-power' (changed by another program; running: tuned "
				      "(pid 4242))"), 1);
	out_free(&o);
	o = runf("profile off --root %s", dir);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.text, "platform_profile: left at 'performance': pmlab wrote "
				       "'low-power'"));
	assert_non_null(strstr(o.err, "profile off: 1 file left as another program set it"));
	out_free(&o);
	assert_string_equal(slurp(dir, "sys/firmware/acpi/platform_profile"), "performance\n");
	drop_tree(dir);

	/* another pmlab: a govd on the same root */
	dir = copy_tree("acpi-cpufreq-server");
	pid_t govd = spawn("govd --root %s --governor ondemand", dir);
	assert_true(wait_for(dir, "run/pmlab/govd", "status applied"));
	o = runf("profile apply --root %s powersave", dir);
	assert_int_equal(o.status, 1);
	char want[64];
	snprintf(want, sizeof(want), "pmlab govd is running (pid %d)", (int)govd);
	assert_non_null(strstr(o.err, want));
	assert_non_null(strstr(o.err, "kill -TERM"));
	out_free(&o);
	kill(govd, SIGTERM);
	assert_int_equal(wait_exit(govd), 0);
	o = runf("profile apply --root %s powersave", dir);
	assert_int_equal(o.status, 0);
	out_free(&o);
	o = runf("profile off --root %s", dir);
	assert_int_equal(o.status, 0);
	out_free(&o);
	assert_true(same_as_fixture(dir, "acpi-cpufreq-server"));
	drop_tree(dir);
}

/* ---- info, profile recommend ---- */

/* pmlab info on fake trees: the kind of machine, the drivers, and what
 * pmlab can and cannot change there. */
static void test_info(void **state)
{
	(void)state;
	struct out o = runf("info --root %s", HOST_FIXTURES "vm-no-cpufreq");
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.text, "kind: virtual machine (/proc/cpuinfo has the hypervisor"));
	assert_non_null(strstr(o.text, "no cpufreq driver"));
	assert_non_null(strstr(o.text, "  no   frequency governor: no cpufreq driver\n"));
	assert_non_null(strstr(o.text, "  yes  PM QoS latency limit"));
	assert_non_null(strstr(o.text, "recommended profile: virtual-guest"));
	out_free(&o);
	o = runf("info --root %s", HOST_FIXTURES "intel-hwp-laptop");
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.text, "kind: laptop\nchassis: 10, Notebook; a battery\n"));
	assert_non_null(strstr(o.text, "driver intel_pstate  governor powersave"));
	assert_non_null(strstr(o.text, "intel_pstate: status active"));
	assert_non_null(strstr(o.text, "  0     POLL"));
	assert_non_null(strstr(o.text, "  yes  energy_performance_preference"));
	assert_non_null(strstr(o.text, "  no   pmlab govd"));
	out_free(&o);
	o = runf("info --root %s", HOST_FIXTURES "acpi-cpufreq-server");
	assert_non_null(strstr(o.text, "  yes  pmlab govd"));
	assert_non_null(strstr(o.text, "frequencies (MHz): 1200, 1300"));
	out_free(&o);
	expect_usage_error("info --root /nonexistent-pmlab-root", "/nonexistent-pmlab-root");
	expect_usage_error("info extra", "takes no argument");
}

/* tuned-adm recommend's rules on each kind of machine; the reason goes to
 * standard error unless --quiet. */
static void test_profile_recommend(void **state)
{
	(void)state;
	static const struct {
		const char *tree, *want, *why;
	} cases[] = {
		{ "vm-no-cpufreq", "virtual-guest\n", "a virtual machine" },
		{ "intel-hwp-laptop", "balanced\n", "a laptop (DMI chassis type Notebook, a battery)" },
		{ "acpi-cpufreq-server", "throughput-performance\n", "a server's chassis" },
		{ "amd-pstate-epp-desktop", "balanced\n", "a desktop (DMI chassis type 3, Desktop)" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct out o = runf("profile recommend --root %s%s", HOST_FIXTURES, cases[i].tree);
		assert_int_equal(o.status, 0);
		assert_string_equal(o.text, cases[i].want);
		assert_non_null(strstr(o.err, cases[i].why));
		out_free(&o);
	}
	/* The system says server: bare metal gets throughput-performance
	 * whatever its chassis, a virtual machine stays virtual-guest. */
	char *laptop = copy_tree("intel-hwp-laptop"), *vm = copy_tree("vm-no-cpufreq");
	tree_put(laptop, "etc/system-release-cpe", "cpe:/o:redhat:enterprise_linux:9.4::server\n");
	tree_put(vm, "etc/system-release-cpe", "cpe:/o:redhat:enterprise_linux:9.4::server\n");
	struct out o = runf("profile recommend --root %s", laptop);
	assert_string_equal(o.text, "throughput-performance\n");
	assert_non_null(strstr(o.err, "a server system on bare metal"));
	out_free(&o);
	o = runf("-q profile recommend --root %s", vm);
	assert_string_equal(o.text, "virtual-guest\n");
	assert_string_equal(o.err, "");
	out_free(&o);
	o = runf("profile recommend --quiet --root %s", vm);
	assert_string_equal(o.err, "");
	out_free(&o);
	drop_tree(laptop);
	drop_tree(vm);
	expect_usage_error("profile recommend balanced", "takes no argument");
	expect_usage_error("profile off --quiet", "goes with recommend");
}

/* --quiet: the monitor's notes about absent sources go unsaid. */
static void test_quiet(void **state)
{
	(void)state;
	struct out o = runf("monitor --root %s --count 1 --interval 0.01", HOST_FIXTURES "vm-no-cpufreq");
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.err, "no RAPL"));
	out_free(&o);
	o = runf("--quiet monitor --root %s --count 1 --interval 0.01", HOST_FIXTURES "vm-no-cpufreq");
	assert_int_equal(o.status, 0);
	assert_string_equal(o.err, "");
	assert_non_null(strstr(o.text, "Busy%"));
	out_free(&o);
	o = runf("monitor -q --root %s --count 1 --interval 0.01", HOST_FIXTURES "vm-no-cpufreq");
	assert_string_equal(o.err, "");
	out_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_monitor_vm),
		cmocka_unit_test(test_monitor_formats),
		cmocka_unit_test(test_monitor_command),
		cmocka_unit_test(test_monitor_bad_usage),
		cmocka_unit_test(test_monitor_real),
		cmocka_unit_test(test_govd_refuses),
		cmocka_unit_test(test_govd_runs_and_restores),
		cmocka_unit_test(test_bench),
		cmocka_unit_test(test_bench_failures),
		cmocka_unit_test(test_daemon),
		cmocka_unit_test(test_daemon_follows_apply),
		cmocka_unit_test(test_profile_apply_off),
		cmocka_unit_test(test_profile_failures),
		cmocka_unit_test(test_hostile_state),
		cmocka_unit_test(test_links_out_of_root),
		cmocka_unit_test(test_coexist),
		cmocka_unit_test(test_info),
		cmocka_unit_test(test_profile_recommend),
		cmocka_unit_test(test_quiet),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
