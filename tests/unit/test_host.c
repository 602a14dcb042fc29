// SPDX-License-Identifier: GPL-2.0-only
/* The host backend against fake trees (tests/fixtures/host/<machine>, each
 * copied to a temporary directory first): the access layer's confinement
 * and test hooks, the state file, /proc/stat, the inventory, write plans,
 * apply/off round trips that leave the tree byte-identical, a failure at
 * every write of a plan, SIGKILL in the middle of an apply, verify, the
 * monitor's arithmetic, govd. Two tests touch the real machine, and only
 * what the issue allows: a cpuidle governor switch and a PM QoS request,
 * both put back whatever happens; they skip where the machine lacks them. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "host_trees.h"
#include "real_machine.h"

#include "host/apply.h"
#include "host/govd.h"
#include "host/hostfs.h"
#include "host/hostprofile.h"
#include "host/inventory.h"
#include "host/monitor.h"
#include "host/plan.h"
#include "host/procstat.h"
#include "host/plan_paths.h"
#include "host/state.h"
#include "host/txn.h"

#define FIX HOST_FIXTURES
#define CPU "sys/devices/system/cpu/"

static const char *const machines[] = {
	"intel-hwp-laptop", "acpi-cpufreq-server", "amd-pstate-epp-desktop", "vm-no-cpufreq",
	"thinkpad-platform-profile", "amd-pstate-epp-laptop",
};
#define NMACHINES ((int)(sizeof(machines) / sizeof(machines[0])))

static const char *const dirs[] = { FIX "profiles", PMLAB_SOURCE_ROOT "/data/profiles" };

/* ---- helpers ---- */

/* Whether directory trees a and b hold the same names, types, link
 * targets and bytes, pmlab's own run/pmlab aside. In-process: the
 * failure-injection tests compare a tree after every write. */
static bool file_equal(const char *a, const char *b)
{
	FILE *x = fopen(a, "rb"), *y = fopen(b, "rb");
	bool same = x && y;
	while (same) {
		int c = fgetc(x), e = fgetc(y);
		same = c == e;
		if (c == EOF)
			break;
	}
	if (x)
		fclose(x);
	if (y)
		fclose(y);
	return same;
}

static bool tree_equal(const char *a, const char *b)
{
	DIR *da = opendir(a), *db = opendir(b);
	bool same = da && db;
	int na = 0, nb = 0;
	struct dirent *e;
	char pa[4096], pb[4096];
	while (same && (e = readdir(da))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || !strcmp(e->d_name, "pmlab"))
			continue;
		na++;
		snprintf(pa, sizeof(pa), "%s/%s", a, e->d_name);
		snprintf(pb, sizeof(pb), "%s/%s", b, e->d_name);
		struct stat sa, sb;
		if (lstat(pa, &sa) < 0 || lstat(pb, &sb) < 0 ||
		    (sa.st_mode & S_IFMT) != (sb.st_mode & S_IFMT)) {
			same = false;
		} else if (S_ISLNK(sa.st_mode)) {
			char la[4096] = "", lb[4096] = "";
			same = readlink(pa, la, sizeof(la) - 1) >= 0 && readlink(pb, lb, sizeof(lb) - 1) >= 0 &&
			       strcmp(la, lb) == 0;
		} else if (S_ISDIR(sa.st_mode)) {
			same = tree_equal(pa, pb);
		} else {
			same = sa.st_size == sb.st_size && file_equal(pa, pb);
		}
	}
	while (same && (e = readdir(db)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, "pmlab"))
			nb++;
	if (same && na != nb)
		same = false;
	if (da)
		closedir(da);
	if (db)
		closedir(db);
	return same;
}

static bool same_as_fixture(const char *dir, const char *name)
{
	char fix[4096];
	snprintf(fix, sizeof(fix), FIX "%s", name);
	return tree_equal(fix, dir);
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

static char *get(const char *dir, const char *rel)
{
	return tree_get(dir, rel);
}

static bool state_exists(const char *dir, const char *name)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/run/pmlab/%s", dir, name);
	return access(path, F_OK) == 0;
}

static void open_fs(struct hostfs *fs, const char *dir)
{
	struct pm_diag d = { { 0 } };
	if (hostfs_open(fs, dir, &d) < 0)
		fail_msg("%s", d.msg);
	/* the environment's hooks are for the CLI tests */
	fs->fail_at = fs->pause_at = 0;
	fs->fail_path[0] = '\0';
}

static struct host_profile_opts quiet(void)
{
	return (struct host_profile_opts){ .dirs = dirs, .ndirs = 2 };
}

static int apply(struct hostfs *fs, const char *spec, struct txn_result *r, struct pm_diag *d)
{
	struct host_profile_opts o = quiet();
	int rc = host_profile_apply(fs, spec, &o, r, d);
	if (rc == 0 && r->latency_fd >= 0) {
		close(r->latency_fd);
		r->latency_fd = -1;
	}
	return rc;
}

static void must_apply(struct hostfs *fs, const char *spec)
{
	struct txn_result r;
	struct pm_diag d = { { 0 } };
	if (apply(fs, spec, &r, &d) < 0)
		fail_msg("apply %s: %s", spec, d.msg);
}

static void must_off(struct hostfs *fs)
{
	struct pm_diag d = { { 0 } };
	bool had;
	if (host_profile_off(fs, NULL, &had, &d) < 0)
		fail_msg("off: %s", d.msg);
}

/* ---- the access layer ---- */

static void test_hostfs_root_and_reads(void **state)
{
	(void)state;
	char *dir = copy_tree("acpi-cpufreq-server");
	struct hostfs fs;
	struct pm_diag d = { { 0 } };
	char buf[256], shown[4200];
	open_fs(&fs, dir);
	assert_false(fs.real);
	assert_int_equal(hostfs_read_str(&fs, CPU "cpufreq/policy0/scaling_governor", buf,
					 sizeof(buf), &d), 0);
	assert_string_equal(buf, "ondemand");
	/* the kernel's relative symlinks, followed inside the root */
	assert_int_equal(hostfs_read_str(&fs, CPU "cpu1/cpufreq/scaling_driver", buf, sizeof(buf),
					 &d), 0);
	assert_string_equal(buf, "acpi-cpufreq");
	uint64_t v;
	assert_int_equal(hostfs_read_u64(&fs, CPU "cpufreq/policy0/cpuinfo_max_freq", &v, &d), 0);
	assert_int_equal(v, 2301000);
	assert_int_equal(hostfs_read_u64(&fs, CPU "cpufreq/policy0/scaling_governor", &v, &d), -1);
	assert_non_null(strstr(d.msg, "expected a whole number"));
	assert_int_equal(hostfs_read_str(&fs, CPU "nothing", buf, sizeof(buf), &d), -1);
	assert_non_null(strstr(d.msg, "No such file"));
	hostfs_show(&fs, "sys/x", shown, sizeof(shown));
	assert_true(strncmp(shown, fs.root, strlen(fs.root)) == 0);
	hostfs_close(&fs);

	/* "/" shows paths as they are */
	assert_int_equal(hostfs_open(&fs, "/", &d), 0);
	assert_true(fs.real);
	assert_string_equal(hostfs_show(&fs, "sys/x", shown, sizeof(shown)), "/sys/x");
	hostfs_close(&fs);
	assert_int_equal(hostfs_open(&fs, "/nonexistent-pmlab-root", &d), -1);
	assert_non_null(strstr(d.msg, "--root /nonexistent-pmlab-root"));
	drop_tree(dir);
}

static void confinement(bool no_openat2)
{
	char *dir = copy_tree("acpi-cpufreq-server");
	struct hostfs fs;
	struct pm_diag d = { { 0 } };
	char path[4200];
	open_fs(&fs, dir);
	fs.no_openat2 = no_openat2;
	/* allowed: sys/ (through a relative link inside sys too), proc/sys/ */
	assert_int_equal(hostfs_write(&fs, CPU "cpu0/cpufreq/scaling_max_freq", "2000000", 7, &d), 0);
	assert_string_equal(get(dir, CPU "cpufreq/policy0/scaling_max_freq"), "2000000");
	assert_int_equal(hostfs_write(&fs, "proc/sys/kernel/sched_latency_ns", "1", 1, &d), 0);
	/* refused: anything else, dot-dot, absolute, new files */
	assert_int_equal(hostfs_write(&fs, "proc/stat", "x", 1, &d), -1);
	assert_non_null(strstr(d.msg, "not a kernel interface pmlab writes"));
	assert_int_equal(hostfs_write(&fs, "sys/../proc/stat", "x", 1, &d), -1);
	assert_int_equal(hostfs_write(&fs, "/sys/x", "x", 1, &d), -1);
	assert_int_equal(hostfs_write(&fs, "dev/cpu_dma_latency2", "x", 1, &d), -1);
	assert_int_equal(hostfs_write(&fs, CPU "new_file", "x", 1, &d), -1);
	snprintf(path, sizeof(path), "%s/" CPU "new_file", dir);
	assert_int_equal(access(path, F_OK), -1);
	/* symlinks leading out of the writable tree or the root */
	sh("echo secret > '%s/etc-passwd'", dir);
	snprintf(path, sizeof(path), "%s/sys/escape", dir);
	assert_int_equal(symlink("../etc-passwd", path), 0);
	assert_int_equal(hostfs_write(&fs, "sys/escape", "x", 1, &d), -1);
	assert_non_null(strstr(d.msg, "symbolic link"));
	assert_int_equal(hostfs_write(&fs, "proc/sys/../../sys/escape", "x", 1, &d), -1);
	snprintf(path, sizeof(path), "%s/sys/abs", dir);
	assert_int_equal(symlink("/tmp", path), 0);
	assert_int_equal(hostfs_write(&fs, "sys/abs/pmlab-never", "x", 1, &d), -1);
	snprintf(path, sizeof(path), "%s/sys/up", dir);
	assert_int_equal(symlink("../../../../../../..", path), 0);
	assert_int_equal(hostfs_write(&fs, "sys/up/tmp/pmlab-never", "x", 1, &d), -1);
	char buf[64];
	assert_int_equal(hostfs_read_str(&fs, "sys/up/etc/hostname", buf, sizeof(buf), &d), -1);
	assert_string_equal(get(dir, "etc-passwd"), "secret\n");
	/* reading through a link inside the root is fine */
	assert_int_equal(hostfs_read_str(&fs, "sys/escape", buf, sizeof(buf), &d), 0);
	hostfs_close(&fs);
	drop_tree(dir);
}

static void test_hostfs_write_confinement(void **state)
{
	(void)state;
	confinement(false);
	confinement(true); /* the realpath() check of kernels without openat2 */
}

static void test_hostfs_hooks(void **state)
{
	(void)state;
	char *dir = copy_tree("intel-hwp-laptop");
	struct hostfs fs;
	struct pm_diag d = { { 0 } };
	open_fs(&fs, dir);
	const char *f = CPU "intel_pstate/no_turbo";
	fs.fail_at = 2;
	fs.fail_errno = EINVAL;
	assert_int_equal(hostfs_write(&fs, f, "1", 1, &d), 0);
	assert_int_equal(hostfs_write(&fs, f, "0", 1, &d), -1);
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(d.msg, "no_turbo: cannot write '0': Invalid argument"));
	assert_string_equal(get(dir, f), "1");
	assert_int_equal(hostfs_write(&fs, f, "0", 1, &d), 0);
	snprintf(fs.fail_path, sizeof(fs.fail_path), "energy_performance_preference");
	fs.fail_path_errno = EBUSY;
	assert_int_equal(hostfs_write(&fs, CPU "cpufreq/policy1/energy_performance_preference",
				      "power", 5, &d), -1);
	assert_int_equal(errno, EBUSY);
	assert_int_equal(fs.writes, 4);
	hostfs_close(&fs);

	setenv("PMLAB_FAIL_WRITE_AT", "3:EBUSY", 1);
	setenv("PMLAB_FAIL_WRITE_PATH", "boost:EINVAL", 1);
	setenv("PMLAB_PAUSE_WRITE_AT", "7", 1);
	assert_int_equal(hostfs_open(&fs, dir, &d), 0);
	assert_int_equal(fs.fail_at, 3);
	assert_int_equal(fs.fail_errno, EBUSY);
	assert_string_equal(fs.fail_path, "boost");
	assert_int_equal(fs.fail_path_errno, EINVAL);
	assert_int_equal(fs.pause_at, 7);
	hostfs_close(&fs);
	unsetenv("PMLAB_FAIL_WRITE_AT");
	unsetenv("PMLAB_FAIL_WRITE_PATH");
	unsetenv("PMLAB_PAUSE_WRITE_AT");
	drop_tree(dir);
}

static void test_hostfs_state_files(void **state)
{
	(void)state;
	char *dir = copy_tree("vm-no-cpufreq");
	struct hostfs fs;
	struct pm_diag d = { { 0 } };
	char *text;
	size_t len;
	open_fs(&fs, dir);
	assert_int_equal(hostfs_state_load(&fs, "profile", &text, &len, &d), 0);
	assert_null(text);
	assert_int_equal(hostfs_state_save(&fs, "profile", "abc\n", 4, &d), 0);
	assert_int_equal(hostfs_state_load(&fs, "profile", &text, &len, &d), 0);
	assert_non_null(text);
	assert_int_equal(len, 4);
	assert_string_equal(text, "abc\n");
	free(text);
	assert_int_equal(hostfs_state_save(&fs, "../x", "a", 1, &d), -1);
	int lock = hostfs_lock(&fs, &d);
	assert_true(lock >= 0);
	close(lock);
	assert_int_equal(hostfs_state_remove(&fs, "profile", &d), 0);
	assert_false(state_exists(dir, "profile"));
	assert_int_equal(hostfs_state_remove(&fs, "profile", &d), 0);

	/* created 0700, its files 0600 */
	char path[4200];
	struct stat sb;
	assert_int_equal(hostfs_state_save(&fs, "profile", "abc\n", 4, &d), 0);
	snprintf(path, sizeof(path), "%s/run/pmlab", dir);
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(sb.st_mode & 07777, 0700);
	snprintf(path, sizeof(path), "%s/run/pmlab/profile", dir);
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(sb.st_mode & 07777, 0600);
	/* writable by others, a FIFO, a directory: refused, not read */
	assert_int_equal(chmod(path, 0620), 0);
	assert_int_equal(hostfs_state_load(&fs, "profile", &text, &len, &d), HOSTFS_UNTRUSTED);
	assert_null(text);
	assert_non_null(strstr(d.msg, "run/pmlab/profile: writable by its group (mode 0620)"));
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(hostfs_state_load(&fs, "profile", &text, &len, &d), HOSTFS_UNTRUSTED);
	assert_non_null(strstr(d.msg, "not a regular file"));
	assert_int_equal(unlink(path), 0);
	snprintf(path, sizeof(path), "%s/run/pmlab", dir);
	assert_int_equal(chmod(path, 01777), 0);
	assert_int_equal(hostfs_state_load(&fs, "profile", &text, &len, &d), HOSTFS_UNTRUSTED);
	assert_int_equal(hostfs_state_save(&fs, "profile", "a\n", 2, &d), HOSTFS_UNTRUSTED);
	assert_int_equal(hostfs_state_remove(&fs, "profile", &d), HOSTFS_UNTRUSTED);
	assert_int_equal(hostfs_lock(&fs, &d), HOSTFS_UNTRUSTED);
	assert_non_null(strstr(d.msg, "run/pmlab: writable by others (mode 1777)"));
	assert_int_equal(chmod(path, 0700), 0);
	if (geteuid() == 0) {
		assert_int_equal(chown(path, 65534, 65534), 0);
		assert_int_equal(hostfs_lock(&fs, &d), HOSTFS_UNTRUSTED);
		assert_non_null(strstr(d.msg, "owned by uid 65534"));
		assert_int_equal(chown(path, 0, 0), 0);
	} else {
		print_message("skipped: a state directory of another user (needs root)\n");
	}
	lock = hostfs_lock(&fs, &d);
	assert_true(lock >= 0);
	close(lock);
	hostfs_close(&fs);
	drop_tree(dir);
}

/* The allow-list shared by apply (host_plan_add) and restore (the parser). */
static void test_plan_paths(void **state)
{
	(void)state;
	static const char *const ok[] = {
		CPU "cpufreq/policy12/scaling_governor", CPU "cpufreq/policy0/ondemand/up_threshold",
		CPU "cpufreq/conservative/freq_step", CPU "cpu7/cpuidle/state3/disable",
		CPU "cpu0/power/energy_perf_bias", "proc/sys/kernel/sched_latency_ns",
		"sys/kernel/debug/sched/base_slice_ns", CPU "intel_pstate/no_turbo",
	};
	static const char *const bad[] = {
		"proc/sys/kernel/core_pattern", "proc/sys/kernel/modprobe", "sys/kernel/uevent_helper",
		CPU "cpufreq/policy0/a/b/c",
		CPU "cpufreq/policy0/../../../../../../etc/x", CPU "cpufreq/Policy0/x",
		CPU "cpu1234567890/power/energy_perf_bias", CPU "cpufreq/boost/", "dev/cpu_dma_latency",
		CPU "intel_pstate/status", "",
	};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (!host_plan_path_ok(ok[i]))
			fail_msg("refused: %s", ok[i]);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (host_plan_path_ok(bad[i]))
			fail_msg("allowed: %s", bad[i]);
	/* apply goes through the same list */
	struct host_plan pl;
	struct pm_diag d = { { 0 } };
	host_plan_init(&pl, "x");
	assert_int_equal(host_plan_add(&pl, PHASE_SCHED, "proc/sys/kernel/core_pattern", "|x", "k",
				       NULL, false, &d), -1);
	assert_non_null(strstr(d.msg, "not a file pmlab writes"));
	assert_int_equal(host_plan_add(&pl, PHASE_SCHED, ok[5], "1", "k", NULL, false, &d), 0);
	host_plan_free(&pl);
}

/* ---- the state file ---- */

static void test_state_roundtrip(void **state)
{
	(void)state;
	struct host_state st, back;
	struct pm_diag d = { { 0 } };
	host_state_init(&st);
	snprintf(st.profile, sizeof(st.profile), "balanced:governor=conservative");
	st.applied = true;
	st.holder_pid = 1234;
	st.holder_start = 987654321;
	st.latency_us = 3;
	st.latency_old_valid = true;
	memcpy(st.latency_old, "\x00\x94\x35\x77", 4);
	struct plan_entry pe = { .path = CPU "cpufreq/policy0/scaling_governor", .value = "powersave",
				 .key = "governor", .check = true };
	assert_int_equal(host_state_add(&st, &pe, &d), 0);
	assert_int_equal(host_state_set_old(&st, 0, "a b\\c\n\x01\xff", 8, &d), 0);
	snprintf(st.e[0].seen, sizeof(st.e[0].seen), "powersave");
	struct plan_entry pe2 = { .path = CPU "cpufreq/ondemand/up_threshold", .value = "80",
				  .key = "up_threshold", .appears = true };
	assert_int_equal(host_state_add(&st, &pe2, &d), 0);
	size_t len;
	char *text = host_state_format(&st, &len);
	assert_non_null(text);
	assert_non_null(strstr(text, "pmlab-state 1\nprofile balanced:governor=conservative\n"));
	assert_non_null(strstr(text, "=a\\x20b\\x5cc\\x0a\\x01\\xff"));
	assert_int_equal(host_state_parse(&back, text, len, "state", &d), 0);
	assert_string_equal(back.profile, st.profile);
	assert_true(back.applied);
	assert_int_equal(back.holder_pid, 1234);
	assert_int_equal(back.holder_start, 987654321);
	assert_int_equal(back.latency_us, 3);
	assert_true(back.latency_old_valid);
	assert_memory_equal(back.latency_old, st.latency_old, 4);
	assert_int_equal(back.n, 2);
	assert_int_equal(back.e[0].old_len, 8);
	assert_memory_equal(back.e[0].old, "a b\\c\n\x01\xff", 8);
	assert_string_equal(back.e[0].value, "powersave");
	assert_true(back.e[0].check);
	assert_true(back.e[1].appears);
	assert_false(back.e[1].had_old);
	host_state_free(&back);
	free(text);
	host_state_free(&st);
}

static void expect_bad_state(const char *text, const char *needle)
{
	struct host_state st;
	struct pm_diag d = { { 0 } };
	if (host_state_parse(&st, text, strlen(text), "S", &d) == 0)
		fail_msg("parsed: %s", text);
	if (!strstr(d.msg, needle))
		fail_msg("'%s' lacks '%s'", d.msg, needle);
}

static void test_state_rejects(void **state)
{
	(void)state;
	expect_bad_state("", "no status");
	expect_bad_state("pmlab-state 2\n", "not a pmlab state file");
	expect_bad_state("pmlab-state 1\nprofile x\nstatus applied", "no newline at the end");
	expect_bad_state("pmlab-state 1\nprofile x\nstatus done\n", "status 'done'");
	expect_bad_state("pmlab-state 1\nprofile x\nstatus applied\nentry etc/passwd =a =b =b - k\n",
			 "S:4: path 'etc/passwd'");
	expect_bad_state("pmlab-state 1\nprofile x\nstatus applied\n"
			 "entry sys/../etc/passwd =a =b =b - k\n", "path");
	expect_bad_state("pmlab-state 1\nprofile x\nstatus applied\nentry " CPU
			 "cpufreq/boost =\\x4 =b =b - k\n", "old value");
	expect_bad_state("pmlab-state 1\nprofile x\nstatus applied\nentry " CPU
			 "cpufreq/boost - =b =b - k\n", "no old value");
	/* under sys/ or proc/sys/ but no file a plan writes: never restored */
	expect_bad_state("pmlab-state 1\nprofile x\nstatus applied\n"
			 "entry proc/sys/kernel/core_pattern =core =x =x - k\n",
			 "S:4: path 'proc/sys/kernel/core_pattern' is not a file pmlab writes");
	expect_bad_state("pmlab-state 1\nprofile x\nstatus applied\n"
			 "entry sys/kernel/uevent_helper =a =b =b - k\n", "not a file pmlab writes");
	expect_bad_state("pmlab-state 1\nprofile x\nstatus applied\nentry " CPU
			 "cpufreq/policy0/../../../../../../proc/sys/kernel/modprobe =a =b =b - k\n",
			 "not a file pmlab writes");
	expect_bad_state("pmlab-state 1\nprofile x\nstatus applied\nlatency -1 -\n", "latency");
	expect_bad_state("pmlab-state 1\nprofile x\nstatus applied\nholder 0 1\n", "holder");
	expect_bad_state("pmlab-state 1\nprofile x\nstatus applied\nwhat\n", "'what'");
	expect_bad_state("pmlab-state 1\nstatus applied\n", "no profile");
}

/* ---- /proc/stat, CPU lists ---- */

static void test_procstat(void **state)
{
	(void)state;
	const char *text = "cpu  10 1 5 100 4 1 2 3 7 0\n"
			   "cpu0 10 1 5 100 4 1 2 3 7 0\n"
			   "cpu2 1 2 3 4\n"
			   "intr 1 2 3\nctxt 5\n";
	struct procstat st = { 0 };
	struct pm_diag d = { { 0 } };
	assert_int_equal(procstat_parse(&st, text, strlen(text), "stat", &d), 0);
	assert_int_equal(st.ncpus, 2);
	assert_int_equal(st.all.t[PS_GUEST], 7);
	const struct procstat_cpu *c2 = procstat_find(&st, 2);
	assert_non_null(c2);
	assert_int_equal(c2->t[PS_IDLE], 4);
	assert_int_equal(c2->t[PS_IOWAIT], 0);
	assert_null(procstat_find(&st, 1));
	struct procstat_cpu a = { .t = { 100, 0, 50, 1000, 10, 0, 0, 0, 20, 0 } };
	struct procstat_cpu b = { .t = { 160, 10, 70, 1300, 5, 5, 5, 10, 50, 0 } };
	struct procstat_delta dl;
	procstat_delta(&a, &b, &dl);
	/* guest time (30) is inside user already; iowait went backwards: 0 */
	assert_int_equal(dl.user, 70);
	assert_int_equal(dl.system, 30);
	assert_int_equal(dl.iowait, 0);
	assert_int_equal(dl.idle, 300);
	assert_int_equal(dl.busy, 110);
	assert_int_equal(dl.total, 410);
	static const char *const bad[] = {
		"intr 1\n", "cpu 1 2 3\n", "cpu x 1 2 3 4\n", "cpu 1 2 3 4\ncpu 1 2 3 4\n",
		"cpu 1 2 3 4\ncpu0 1 2 3 4\ncpu0 1 2 3 4\n", "cpu 1 2 3 4 5 6 7 8 9 10 11\n",
		"cpu 99999999999999999999 1 1 1\n", "cpu0x 1 2 3 4\ncpu 1 2 3 4\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (procstat_parse(&st, bad[i], strlen(bad[i]), "stat", &d) == 0)
			fail_msg("parsed: %s", bad[i]);
	procstat_free(&st);
}

static void test_cpulist(void **state)
{
	(void)state;
	int *v, n;
	assert_int_equal(host_parse_cpulist("0-3,6,8-9\n", 64, &v, &n), 0);
	assert_int_equal(n, 7);
	assert_int_equal(v[4], 6);
	assert_int_equal(v[6], 9);
	free(v);
	assert_int_equal(host_parse_cpulist("\n", 64, &v, &n), 0);
	assert_int_equal(n, 0);
	free(v);
	assert_int_equal(host_parse_cpulist("3-1", 64, &v, &n), -1);
	assert_int_equal(host_parse_cpulist("0,0", 64, &v, &n), -1);
	assert_int_equal(host_parse_cpulist("64", 64, &v, &n), -1);
	assert_int_equal(host_parse_cpulist("1-", 64, &v, &n), -1);
	assert_int_equal(host_parse_cpulist("a", 64, &v, &n), -1);
}

/* ---- the inventory ---- */

static void test_inventory(void **state)
{
	(void)state;
	struct hostfs fs;
	struct host_info hi;
	struct pm_diag d = { { 0 } };

	open_fs(&fs, FIX "intel-hwp-laptop");
	assert_int_equal(host_info_load(&hi, &fs, &d), 0);
	assert_int_equal(hi.ncpus, 4);
	assert_int_equal(hi.npolicies, 4);
	assert_string_equal(hi.pol[0].driver, "intel_pstate");
	assert_true(hi.pol[0].has_epp);
	assert_int_equal(hi.pol[0].base_khz, 2800000);
	assert_true(hi.intel_pstate && hi.has_no_turbo && hi.has_min_perf_pct);
	assert_string_equal(hi.pstate_status, "active");
	assert_true(hi.has_epb && hi.has_resume_latency && hi.has_idle_governor);
	assert_int_equal(hi.ncstates, 5);
	assert_string_equal(hi.cstates[3].name, "C6");
	assert_int_equal(hi.cstates[3].latency_us, 170);
	assert_int_equal(hi.nzones, 4);
	assert_string_equal(hi.zones[0].name, "package-0");
	assert_int_equal(hi.zones[0].kind, ZONE_PACKAGE);
	assert_true(host_driver_owns_policies(&hi));
	host_info_free(&hi);
	hostfs_close(&fs);

	open_fs(&fs, FIX "acpi-cpufreq-server");
	assert_int_equal(host_info_load(&hi, &fs, &d), 0);
	assert_int_equal(hi.pol[2].nfreqs, 13);
	assert_int_equal(hi.pol[2].freqs[0], 1200000);
	assert_int_equal(hi.pol[2].transition_latency_ns, 10000);
	assert_true(hi.global_boost && !hi.intel_pstate);
	assert_true(host_list_has(hi.pol[0].governors, "userspace"));
	assert_false(host_list_has(hi.pol[0].governors, "user"));
	assert_false(host_driver_owns_policies(&hi));
	assert_int_equal(host_cpu_policy(&hi, 3)->id, 3);
	host_info_free(&hi);
	hostfs_close(&fs);

	open_fs(&fs, FIX "amd-pstate-epp-desktop");
	assert_int_equal(host_info_load(&hi, &fs, &d), 0);
	assert_true(hi.amd_pstate && hi.pol[1].has_boost && !hi.has_epb);
	assert_true(host_driver_owns_policies(&hi));
	host_info_free(&hi);
	hostfs_close(&fs);

	open_fs(&fs, FIX "vm-no-cpufreq");
	assert_int_equal(host_info_load(&hi, &fs, &d), 0);
	assert_int_equal(hi.ncpus, 2);
	assert_int_equal(hi.npolicies, 0);
	assert_int_equal(hi.ncstates, 0);
	assert_int_equal(hi.nzones, 0);
	assert_string_equal(hi.idle_driver, "none");
	assert_true(hi.has_dma_latency && hi.has_resume_latency && !hi.has_msr);
	host_info_free(&hi);
	hostfs_close(&fs);
}

/* ---- plans ---- */

static const struct plan_entry *find_entry(const struct host_plan *pl, const char *path)
{
	for (int i = 0; i < pl->n; i++)
		if (strcmp(pl->e[i].path, path) == 0)
			return &pl->e[i];
	return NULL;
}

static int entry_index(const struct host_plan *pl, const char *path)
{
	const struct plan_entry *e = find_entry(pl, path);
	return e ? (int)(e - pl->e) : -1;
}

static bool skipped(const struct host_plan *pl, const char *what, const char *why)
{
	for (int i = 0; i < pl->nskip; i++)
		if (strstr(pl->skip[i].what, what) && strstr(pl->skip[i].why, why))
			return true;
	return false;
}

static void plan_for(const char *root, const char *spec, struct host_plan *pl)
{
	struct hostfs fs;
	struct pm_diag d = { { 0 } };
	struct host_profile_opts o = quiet();
	open_fs(&fs, root);
	if (host_profile_plan(&fs, spec, &o, pl, &d) < 0)
		fail_msg("plan %s: %s", spec, d.msg);
	hostfs_close(&fs);
}

static void test_plan_intel(void **state)
{
	(void)state;
	struct host_plan pl;
	plan_for(FIX "intel-hwp-laptop", "host-all", &pl);
	const struct plan_entry *e = find_entry(&pl, CPU "cpufreq/policy2/scaling_governor");
	assert_non_null(e);
	assert_string_equal(e->value, "powersave"); /* intel_pstate: performance|powersave */
	assert_string_equal(find_entry(&pl, CPU "intel_pstate/no_turbo")->value, "1");
	assert_string_equal(find_entry(&pl, CPU "intel_pstate/min_perf_pct")->value, "20");
	assert_string_equal(find_entry(&pl, CPU "cpu3/power/energy_perf_bias")->value, "15");
	assert_string_equal(find_entry(&pl, CPU "cpufreq/policy0/energy_performance_preference")
				    ->value, "power");
	assert_string_equal(find_entry(&pl, CPU "cpu1/power/pm_qos_resume_latency_us")->value,
			    "100");
	assert_string_equal(find_entry(&pl, CPU "cpu2/cpuidle/state3/disable")->value, "1");
	assert_string_equal(find_entry(&pl, "sys/kernel/debug/sched/migration_cost_ns")->value,
			    "250000");
	/* cstate.id_no_zero:1 is this machine's state1, C1: 1 us */
	assert_int_equal(pl.latency_us, 1);
	/* order: governor, turbo, limits, EPP, EPB */
	assert_true(entry_index(&pl, CPU "cpufreq/policy3/scaling_governor") <
		    entry_index(&pl, CPU "intel_pstate/no_turbo"));
	assert_true(entry_index(&pl, CPU "intel_pstate/no_turbo") <
		    entry_index(&pl, CPU "cpufreq/policy0/scaling_max_freq"));
	assert_true(entry_index(&pl, CPU "cpufreq/policy0/scaling_max_freq") <
		    entry_index(&pl, CPU "cpufreq/policy0/energy_performance_preference"));
	assert_true(skipped(&pl, "[script]", "not modelled"));
	host_plan_free(&pl);

	/* min above the current max: the maximum is raised first */
	char *dir = copy_tree("intel-hwp-laptop");
	put(dir, CPU "cpufreq/policy0/scaling_max_freq", "1000000\n");
	struct hostfs fs;
	struct host_info hi;
	struct pm_diag d = { { 0 } };
	struct profile_setting sets[2] = { { .key = "scaling_min_khz", .value = "3000000" },
					   { .key = "scaling_max_khz", .value = "4000000" } };
	struct profile p = { .nsettings = 2, .settings = sets };
	open_fs(&fs, dir);
	assert_int_equal(host_info_load(&hi, &fs, &d), 0);
	host_plan_init(&pl, "limits");
	assert_int_equal(host_plan_build(&pl, &fs, &hi, &p, &d), 0);
	assert_true(entry_index(&pl, CPU "cpufreq/policy0/scaling_max_freq") <
		    entry_index(&pl, CPU "cpufreq/policy0/scaling_min_freq"));
	assert_true(entry_index(&pl, CPU "cpufreq/policy1/scaling_min_freq") <
		    entry_index(&pl, CPU "cpufreq/policy1/scaling_max_freq"));
	host_plan_free(&pl);
	/* and min above max is bad input */
	snprintf(sets[1].value, sizeof(sets[1].value), "2000000");
	host_plan_init(&pl, "limits");
	assert_int_equal(host_plan_build(&pl, &fs, &hi, &p, &d), -1);
	assert_non_null(strstr(d.msg, "would be above scaling_max_freq"));
	host_plan_free(&pl);
	host_info_free(&hi);
	hostfs_close(&fs);
	drop_tree(dir);
}

/* The engine's cost and machine keys have no file on the host: a profile
 * carrying them says so instead of blaming the governor. */
static void test_plan_simulator_only_keys(void **state)
{
	(void)state;
	static const char *const keys[] = { "tick_restart_cost_ns", "tick_reprogram_cost_ns",
					    "idle_polling_wakeup", "background_wakeups",
					    "freq_invariance_cores" };
	struct hostfs fs;
	struct host_info hi;
	struct host_plan pl;
	struct pm_diag d = { { 0 } };
	open_fs(&fs, FIX "intel-hwp-laptop");
	assert_int_equal(host_info_load(&hi, &fs, &d), 0);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		struct profile_setting set = { .value = "1" };
		struct profile p = { .nsettings = 1, .settings = &set };
		snprintf(set.key, sizeof(set.key), "%s", keys[i]);
		host_plan_init(&pl, "sim-only");
		assert_int_equal(host_plan_build(&pl, &fs, &hi, &p, &d), 0);
		if (!skipped(&pl, keys[i], "simulator-only"))
			fail_msg("%s: not reported as simulator-only", keys[i]);
		host_plan_free(&pl);
	}
	host_info_free(&hi);
	hostfs_close(&fs);
}

static void test_plan_server_and_vm(void **state)
{
	(void)state;
	struct host_plan pl;
	/* acpi-cpufreq: the generic governors, global boost, EPB, /proc/sys */
	plan_for(FIX "acpi-cpufreq-server", "host-latency", &pl);
	assert_string_equal(find_entry(&pl, CPU "cpufreq/policy0/scaling_governor")->value,
			    "ondemand");
	const struct plan_entry *e = find_entry(&pl, CPU "cpufreq/ondemand/sampling_down_factor");
	assert_non_null(e);
	assert_string_equal(e->value, "10");
	assert_int_equal(pl.latency_us, 2); /* C1 of this machine: 2 us */
	host_plan_free(&pl);

	plan_for(FIX "acpi-cpufreq-server", "host-all", &pl);
	assert_string_equal(find_entry(&pl, CPU "cpufreq/policy1/scaling_governor")->value,
			    "schedutil");
	assert_string_equal(find_entry(&pl, CPU "cpufreq/boost")->value, "0");
	assert_string_equal(find_entry(&pl, CPU "cpu0/power/energy_perf_bias")->value, "15");
	assert_string_equal(find_entry(&pl, "proc/sys/kernel/sched_migration_cost_ns")->value,
			    "250000");
	assert_true(skipped(&pl, "energy_performance_preference", "driver acpi-cpufreq"));
	assert_true(skipped(&pl, "min_perf_pct", "no intel_pstate"));
	host_plan_free(&pl);

	/* amd-pstate-epp: per-policy boost, EPP, no EPB */
	plan_for(FIX "amd-pstate-epp-desktop", "host-all", &pl);
	assert_string_equal(find_entry(&pl, CPU "cpufreq/policy3/boost")->value, "0");
	assert_true(skipped(&pl, "energy_perf_bias", "no energy_perf_bias"));
	host_plan_free(&pl);

	/* the VM: no cpufreq, no C-states, no RAPL -- only PM QoS */
	plan_for(FIX "vm-no-cpufreq", "host-all", &pl);
	assert_int_equal(pl.n, 2);
	assert_string_equal(pl.e[0].value, "100");
	assert_int_equal(pl.latency_us, 3); /* no state1: the next alternative */
	assert_true(skipped(&pl, "governor", "no cpufreq on this machine"));
	assert_true(skipped(&pl, "boost", "no boost control"));
	host_plan_free(&pl);

	/* tuned's stock profiles on every machine */
	static const char *const stock[] = { "balanced", "powersave", "throughput-performance",
					     "latency-performance", "network-latency",
					     "virtual-guest" };
	for (int m = 0; m < NMACHINES; m++)
		for (size_t s = 0; s < sizeof(stock) / sizeof(stock[0]); s++) {
			char root[512];
			snprintf(root, sizeof(root), FIX "%s", machines[m]);
			plan_for(root, stock[s], &pl);
			host_plan_free(&pl);
		}
	/* balanced on intel_pstate: schedutil|ondemand|powersave -> powersave */
	plan_for(FIX "intel-hwp-laptop", "balanced", &pl);
	assert_string_equal(find_entry(&pl, CPU "cpufreq/policy0/scaling_governor")->value,
			    "powersave");
	assert_string_equal(find_entry(&pl, CPU "cpufreq/policy0/energy_performance_preference")
				    ->value, "balance_performance");
	host_plan_free(&pl);
}

static void expect_bad_plan(const char *root, const char *spec, const char *needle)
{
	struct hostfs fs;
	struct pm_diag d = { { 0 } };
	struct host_plan pl;
	struct host_profile_opts o = quiet();
	open_fs(&fs, root);
	int rc = host_profile_plan(&fs, spec, &o, &pl, &d);
	hostfs_close(&fs);
	host_plan_free(&pl);
	if (rc != HOST_BAD_INPUT)
		fail_msg("%s: rc %d, expected bad input", spec, rc);
	if (!strstr(d.msg, needle))
		fail_msg("'%s' lacks '%s'", d.msg, needle);
}

static void test_plan_bad_input(void **state)
{
	(void)state;
	expect_bad_plan(FIX "intel-hwp-laptop", "no-such-profile", "no-such-profile");
	expect_bad_plan(FIX "intel-hwp-laptop", "balanced:energy_perf_bias=20",
			"energy_perf_bias");
	expect_bad_plan(FIX "intel-hwp-laptop", "balanced:min_perf_pct=300", "min_perf_pct");
	/* a tuned profile that passes the loader but not this machine */
	char *dir = copy_tree("acpi-cpufreq-server");
	char prof[4200];
	snprintf(prof, sizeof(prof), "%s/maxfreq.conf", dir);
	FILE *f = fopen(prof, "w");
	assert_non_null(f);
	fputs("[sysfs]\n/sys/devices/system/cpu/cpufreq/policy*/scaling_max_freq=9000000\n", f);
	fclose(f);
	expect_bad_plan(dir, prof, "outside policy0's cpuinfo_min_freq..cpuinfo_max_freq");
	drop_tree(dir);
}

/* ---- apply and off ---- */

static void test_roundtrips(void **state)
{
	(void)state;
	static const char *const specs[] = { "host-all", "host-latency", "balanced", "powersave",
					      "throughput-performance", "latency-performance",
					      "balanced:tuned=2.20", "ppd/power-saver" };
	for (int m = 0; m < NMACHINES; m++) {
		char *dir = copy_tree(machines[m]);
		for (size_t s = 0; s < sizeof(specs) / sizeof(specs[0]); s++) {
			struct hostfs fs;
			open_fs(&fs, dir);
			must_apply(&fs, specs[s]);
			assert_true(state_exists(dir, "profile"));
			int n;
			struct pm_diag d = { { 0 } };
			FILE *out = fopen("/dev/null", "w");
			assert_int_equal(host_profile_verify(&fs, out, &n, &d), 0);
			fclose(out);
			if (n)
				fail_msg("%s on %s: %d mismatches after apply", specs[s], machines[m], n);
			/* (balanced changes nothing on the laptop: it is as shipped) */
			if (s == 0 && same_as_fixture(dir, machines[m]))
				fail_msg("%s on %s: nothing changed", specs[s], machines[m]);
			must_off(&fs);
			hostfs_close(&fs);
			assert_false(state_exists(dir, "profile"));
			if (!same_as_fixture(dir, machines[m]))
				fail_msg("%s on %s: the tree changed", specs[s], machines[m]);
		}
		drop_tree(dir);
	}
}

static void test_switch_profiles(void **state)
{
	(void)state;
	char *dir = copy_tree("intel-hwp-laptop");
	struct hostfs fs;
	struct txn_result r;
	struct pm_diag d = { { 0 } };
	open_fs(&fs, dir);
	must_apply(&fs, "powersave");
	assert_string_equal(get(dir, CPU "cpufreq/policy0/energy_performance_preference"), "power");
	assert_int_equal(apply(&fs, "throughput-performance", &r, &d), 0);
	assert_true(r.recovered);
	assert_string_equal(get(dir, CPU "cpufreq/policy0/scaling_governor"), "performance");
	assert_string_equal(get(dir, CPU "cpufreq/policy0/energy_performance_preference"),
			    "performance");
	assert_string_equal(get(dir, CPU "intel_pstate/min_perf_pct"), "100");
	must_off(&fs);
	hostfs_close(&fs);
	assert_true(same_as_fixture(dir, "intel-hwp-laptop"));
	drop_tree(dir);
}

/* Counts the machine writes of a successful apply. */
static unsigned long count_writes(const char *machine, const char *spec)
{
	char *dir = copy_tree(machine);
	struct hostfs fs;
	open_fs(&fs, dir);
	must_apply(&fs, spec);
	unsigned long n = fs.writes;
	hostfs_close(&fs);
	drop_tree(dir);
	return n;
}

static void test_fail_at_every_write(void **state)
{
	(void)state;
	static const struct {
		const char *machine, *spec;
	} cases[] = {
		{ "intel-hwp-laptop", "host-all" },
		{ "acpi-cpufreq-server", "host-all" },
		{ "amd-pstate-epp-desktop", "host-all" },
		{ "vm-no-cpufreq", "host-all" },
		{ "acpi-cpufreq-server", "host-latency" },
	};
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		unsigned long total = count_writes(cases[c].machine, cases[c].spec);
		assert_true(total > 0);
		/* a failed apply leaves the tree as it was: the same copy serves
		 * every position */
		char *dir = copy_tree(cases[c].machine);
		for (unsigned long at = 1; at <= total; at++) {
			struct hostfs fs;
			struct txn_result r;
			struct pm_diag d = { { 0 } };
			open_fs(&fs, dir);
			fs.fail_at = at;
			fs.fail_errno = at % 2 ? EINVAL : EIO;
			int rc = apply(&fs, cases[c].spec, &r, &d);
			hostfs_close(&fs);
			if (rc != -1)
				fail_msg("%s on %s, write %lu of %lu: rc %d", cases[c].spec,
					 cases[c].machine, at, total, rc);
			if (!strstr(d.msg, "cannot write") || !strstr(d.msg, "nothing left changed"))
				fail_msg("message: %s", d.msg);
			if (!same_as_fixture(dir, cases[c].machine) || state_exists(dir, "profile"))
				fail_msg("%s on %s, write %lu: the tree changed", cases[c].spec,
					 cases[c].machine, at);
		}
		drop_tree(dir);
	}
}

/* The kernel refuses a write: the apply fails with its error, names the
 * file and leaves the tree as it was. */
static void test_kernel_rejects(void **state)
{
	static const struct {
		const char *machine, *spec, *path;
		int err;
		const char *msg, *hint; /* in the message; hint may be NULL */
	} cases[] = {
		/* EBUSY: EPP under the performance policy */
		{ "intel-hwp-laptop", "host-epp", "policy2/energy_performance_preference", EBUSY,
		  "policy2/energy_performance_preference: cannot write 'power': "
		  "Device or resource busy", "pins EPP" },
		/* EINVAL on a boost file of amd-pstate */
		{ "amd-pstate-epp-desktop", "powersave", "policy3/boost", EINVAL,
		  "policy3/boost: cannot write '0': Invalid argument", NULL },
		/* permission denied (root ignores modes: the hook says EACCES) */
		{ "acpi-cpufreq-server", "powersave", "cpu2/power/energy_perf_bias", EACCES,
		  "Permission denied", NULL },
	};
	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		char *dir = copy_tree(cases[c].machine);
		struct hostfs fs;
		struct txn_result r;
		struct pm_diag d = { { 0 } };
		open_fs(&fs, dir);
		snprintf(fs.fail_path, sizeof(fs.fail_path), "%s", cases[c].path);
		fs.fail_path_errno = cases[c].err;
		assert_int_equal(apply(&fs, cases[c].spec, &r, &d), -1);
		if (!strstr(d.msg, cases[c].msg) || (cases[c].hint && !strstr(d.msg, cases[c].hint)))
			fail_msg("%s on %s: message '%s'", cases[c].spec, cases[c].machine, d.msg);
		hostfs_close(&fs);
		assert_true(same_as_fixture(dir, cases[c].machine));
		drop_tree(dir);
	}
}

static void test_unreadable_target(void **state)
{
	(void)state;
	char *dir = copy_tree("acpi-cpufreq-server");
	char path[4200];
	snprintf(path, sizeof(path), "%s/" CPU "cpu1/power/energy_perf_bias", dir);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkdir(path, 0755), 0); /* a directory in place of the file */
	struct hostfs fs;
	struct txn_result r;
	struct pm_diag d = { { 0 } };
	open_fs(&fs, dir);
	assert_int_equal(apply(&fs, "host-all", &r, &d), -1);
	assert_non_null(strstr(d.msg, "cpu1/power/energy_perf_bias"));
	assert_false(state_exists(dir, "profile"));
	assert_string_equal(get(dir, CPU "cpufreq/policy0/scaling_governor"), "ondemand\n");
	hostfs_close(&fs);
	drop_tree(dir);
}

static void test_verify_reports_change(void **state)
{
	(void)state;
	char *dir = copy_tree("amd-pstate-epp-desktop");
	struct hostfs fs;
	struct pm_diag d = { { 0 } };
	open_fs(&fs, dir);
	must_apply(&fs, "powersave");
	put(dir, CPU "cpufreq/policy1/energy_performance_preference", "performance\n");
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	int n;
	assert_int_equal(host_profile_verify(&fs, out, &n, &d), 0);
	fclose(out);
	assert_int_equal(n, 1);
	assert_non_null(strstr(buf, "policy1/energy_performance_preference: is 'performance', the "
				    "profile set 'power'"));
	free(buf);
	/* off puts pmlab's snapshot back where the file still holds what
	 * pmlab wrote; the one another program changed is left and reported */
	buf = NULL;
	out = open_memstream(&buf, &len);
	bool had;
	int left;
	assert_int_equal(host_profile_off_left(&fs, out, &had, &left, &d), 0);
	fclose(out);
	assert_true(had);
	assert_int_equal(left, 1);
	assert_non_null(strstr(buf, "policy1/energy_performance_preference: left at 'performance': "
				    "pmlab wrote 'power', another program changed it since (pmlab's "
				    "saved value: 'balance_performance')"));
	assert_null(strstr(buf, "policy0/energy_performance_preference: left"));
	free(buf);
	hostfs_close(&fs);
	assert_string_equal(get(dir, CPU "cpufreq/policy1/energy_performance_preference"),
			    "performance\n");
	assert_false(same_as_fixture(dir, "amd-pstate-epp-desktop"));
	put(dir, CPU "cpufreq/policy1/energy_performance_preference", "balance_performance\n");
	assert_true(same_as_fixture(dir, "amd-pstate-epp-desktop")); /* the rest restored */
	drop_tree(dir);

	/* nothing active */
	dir = copy_tree("vm-no-cpufreq");
	open_fs(&fs, dir);
	out = fopen("/dev/null", "w");
	assert_int_equal(host_profile_verify(&fs, out, &n, &d), -1);
	fclose(out);
	assert_non_null(strstr(d.msg, "no profile is active"));
	hostfs_close(&fs);
	drop_tree(dir);
}

/* An apply killed before its write `at`: off restores everything. */
static void kill_during_apply(const char *machine, const char *spec, unsigned long at,
			      const char *then)
{
	char *dir = copy_tree(machine);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct hostfs fs;
		struct txn_result r;
		struct pm_diag d = { { 0 } };
		open_fs(&fs, dir);
		fs.pause_at = at;
		apply(&fs, spec, &r, &d);
		_exit(0);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, WUNTRACED), pid);
	if (!WIFSTOPPED(st))
		fail_msg("write %lu of %s: the child did not stop", at, spec);
	kill(pid, SIGKILL);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFSIGNALED(st));
	assert_true(state_exists(dir, "profile"));

	struct hostfs fs;
	struct pm_diag d = { { 0 } };
	struct host_state hs;
	bool has;
	open_fs(&fs, dir);
	assert_int_equal(host_profile_active(&fs, &hs, &has, &d), 0);
	assert_true(has);
	assert_false(hs.applied);
	host_state_free(&hs);
	if (then) {
		/* a later apply restores first */
		struct txn_result r;
		assert_int_equal(apply(&fs, then, &r, &d), 0);
		assert_true(r.recovered);
	}
	must_off(&fs);
	hostfs_close(&fs);
	if (!same_as_fixture(dir, machine))
		fail_msg("%s killed before write %lu: not restored", spec, at);
	drop_tree(dir);
}

static void test_sigkill_mid_apply(void **state)
{
	(void)state;
	unsigned long total = count_writes("intel-hwp-laptop", "host-all");
	for (unsigned long at = 1; at <= total; at += 3)
		kill_during_apply("intel-hwp-laptop", "host-all", at, NULL);
	kill_during_apply("acpi-cpufreq-server", "host-all", 5, "powersave");
	kill_during_apply("vm-no-cpufreq", "host-all", 2, "host-latency");
}

/* ---- the monitor ---- */

static void put_msr(const char *dir, int cpu, uint64_t tsc, uint64_t mperf, uint64_t aperf)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/dev/cpu/%d", dir, cpu);
	sh("mkdir -p '%s'", path);
	snprintf(path, sizeof(path), "%s/dev/cpu/%d/msr", dir, cpu);
	int fd = open(path, O_WRONLY | O_CREAT, 0600);
	assert_true(fd >= 0);
	/* a plain file holds register R at 8 x R */
	assert_int_equal(pwrite(fd, &tsc, 8, 0x10 * 8), 8);
	assert_int_equal(pwrite(fd, &mperf, 8, 0xe7 * 8), 8);
	assert_int_equal(pwrite(fd, &aperf, 8, 0xe8 * 8), 8);
	close(fd);
}

static void put_num(const char *dir, const char *rel, uint64_t v)
{
	char text[32];
	snprintf(text, sizeof(text), "%llu\n", (unsigned long long)v);
	put(dir, rel, text);
}

static void test_monitor_arithmetic(void **state)
{
	(void)state;
	char *dir = copy_tree("intel-hwp-laptop");
	const char *pkg = "sys/devices/virtual/powercap/intel-rapl/intel-rapl:0/energy_uj";
	const char *core = "sys/devices/virtual/powercap/intel-rapl/intel-rapl:0/intel-rapl:0:0/"
			   "energy_uj";
	uint64_t range = 262143328850ull;
	for (int c = 0; c < 4; c++)
		put_msr(dir, c, 1000000000, 100000000, 200000000);
	put(dir, "proc/stat", "cpu  1500 0 500 6000 0 0 0 0 5 0\n"
			      "cpu0 750 0 250 1000 0 0 0 0 5 0\ncpu1 750 0 250 1000 0 0 0 0 0 0\n"
			      "cpu2 0 0 0 2000 0 0 0 0 0 0\ncpu3 0 0 0 2000 0 0 0 0 0 0\nintr 0\n");
	put_num(dir, pkg, range - 1000000); /* wraps within the interval */
	put_num(dir, core, 5000000);
	put_num(dir, CPU "cpu0/cpuidle/state3/time", 1000000);
	put_num(dir, CPU "cpu0/cpuidle/state3/usage", 100);
	put_num(dir, CPU "cpu0/cpuidle/state3/above", 10);
	put_num(dir, CPU "cpu0/cpuidle/state3/below", 1);

	struct hostfs fs;
	struct monitor m;
	struct mon_sample a, b;
	struct mon_result r;
	struct pm_diag d = { { 0 } };
	open_fs(&fs, dir);
	assert_int_equal(monitor_open(&m, &fs, &d), 0);
	assert_true(m.have_msr && m.have_rapl && m.have_stat && m.have_cur);
	assert_int_equal(m.nabsent, 0);
	assert_int_equal(monitor_sample_init(&m, &a, &d), 0);
	assert_int_equal(monitor_sample_init(&m, &b, &d), 0);
	assert_int_equal(monitor_sample(&m, &a, &d), 0);

	/* one second: cpu0 busy 50 % (MPERF/TSC) at 2 x base (APERF/MPERF);
	 * TSC at 2800 MHz */
	put_msr(dir, 0, 1000000000 + 2800000000ull, 100000000 + 1400000000ull,
		200000000 + 2800000000ull);
	for (int c = 1; c < 4; c++)
		put_msr(dir, c, 1000000000 + 2800000000ull, 100000000, 200000000);
	/* cpu0, cpu1: 60 user (guest time inside it), 15 sys, 25 idle */
	put(dir, "proc/stat", "cpu  1620 0 530 6250 0 0 0 0 15 0\n"
			      "cpu0 810 0 265 1025 0 0 0 0 15 0\ncpu1 810 0 265 1025 0 0 0 0 0 0\n"
			      "cpu2 0 0 0 2100 0 0 0 0 0 0\ncpu3 0 0 0 2100 0 0 0 0 0 0\nintr 0\n");
	put_num(dir, pkg, 14000000 - 1000000); /* 1 J to the wrap + 13 J = 14 W */
	put_num(dir, core, 5000000 + 7500000);  /* 7.5 W */
	put_num(dir, CPU "cpu0/cpuidle/state3/time", 1000000 + 250000);
	put_num(dir, CPU "cpu0/cpuidle/state3/usage", 150);
	put_num(dir, CPU "cpu0/cpuidle/state3/above", 13);
	put_num(dir, CPU "cpu0/cpuidle/state3/below", 3);
	assert_int_equal(monitor_sample(&m, &b, &d), 0);
	a.t_ns = 0;
	b.t_ns = 1000000000;
	assert_int_equal(monitor_compute(&m, &a, &b, &r, &d), 0);
	assert_int_equal(r.nrows, 5);
	const struct mon_row *s = &r.rows[0], *c0 = &r.rows[1], *c1 = &r.rows[2];
	assert_int_equal(c0->cpu, 0);
	assert_float_equal(c0->busy_pct, 50.0, 1e-9);
	assert_float_equal(c0->avg_mhz, 2800.0, 1e-6);
	assert_float_equal(c0->bzy_mhz, 5600.0, 1e-6);
	assert_float_equal(c1->busy_pct, 0.0, 1e-9);
	assert_float_equal(c0->cs_pct[3], 25.0, 1e-9);
	assert_float_equal(c0->cs_usage[3], 50, 0);
	assert_float_equal(c0->cs_above[3], 3, 0);
	assert_float_equal(c0->cs_below[3], 2, 0);
	assert_float_equal(c0->user_pct, 60.0, 1e-9);
	assert_float_equal(c0->sys_pct, 15.0, 1e-9);
	assert_float_equal(c0->idle_pct, 25.0, 1e-9);
	/* summary: counters summed (busy 1.4e9 of 4 x 2.8e9 TSC = 12.5 %) */
	assert_float_equal(s->busy_pct, 12.5, 1e-9);
	assert_float_equal(s->avg_mhz, 700.0, 1e-6);
	assert_float_equal(s->bzy_mhz, 5600.0, 1e-6);
	assert_float_equal(s->pkg_w, 14.0, 1e-9);
	assert_float_equal(s->cor_w, 7.5, 1e-9);
	assert_true(isnan(s->ram_w));
	assert_float_equal(s->cs_pct[3], 6.25, 1e-9);
	assert_float_equal(s->cs_usage[3], 50, 0);
	monitor_result_free(&r);
	monitor_sample_free(&a);
	monitor_sample_free(&b);
	monitor_close(&m);
	hostfs_close(&fs);
	drop_tree(dir);

	assert_int_equal(monitor_energy_delta(10, 30, 100), 20);
	assert_int_equal(monitor_energy_delta(90, 5, 100), 15);
	assert_int_equal(monitor_energy_delta(90, 5, 0), 0);
}

static void test_monitor_vm(void **state)
{
	(void)state;
	char *dir = copy_tree("vm-no-cpufreq");
	struct hostfs fs;
	struct monitor m;
	struct mon_sample a, b;
	struct mon_result r;
	struct pm_diag d = { { 0 } };
	open_fs(&fs, dir);
	assert_int_equal(monitor_open(&m, &fs, &d), 0);
	assert_false(m.have_msr || m.have_cur || m.have_rapl);
	assert_int_equal(m.nabsent, 3);
	assert_non_null(strstr(m.absent[0], "no cpufreq"));
	assert_non_null(strstr(m.absent[1], "no cpuidle states"));
	assert_non_null(strstr(m.absent[2], "no RAPL"));
	assert_int_equal(monitor_sample_init(&m, &a, &d), 0);
	assert_int_equal(monitor_sample_init(&m, &b, &d), 0);
	monitor_sample(&m, &a, &d);
	/* cpu1: 500 ticks stolen by the hypervisor */
	put(dir, "proc/stat", "cpu  8100 120 4100 189300 300 0 150 500 0 0\n"
			      "cpu0 4100 30 2000 94900 75 0 37 0 0 0\n"
			      "cpu1 4000 30 2100 94400 75 0 37 500 0 0\n");
	monitor_sample(&m, &b, &d);
	b.t_ns = a.t_ns + 500000000;
	assert_int_equal(monitor_compute(&m, &a, &b, &r, &d), 0);
	/* from the fixture: cpuN 4000 30 2000 90000 75 0 37 */
	assert_true(isnan(r.rows[0].avg_mhz) && isnan(r.rows[0].pkg_w));
	assert_float_equal(r.rows[1].busy_pct, 2.0, 1e-9);
	assert_float_equal(r.rows[2].sys_pct, 2.0, 1e-9);
	/* sar's %steal; stolen time is not this vCPU's busy time */
	assert_float_equal(r.rows[2].steal_pct, 10.0, 1e-9);
	assert_float_equal(r.rows[2].idle_pct, 88.0, 1e-9);
	assert_float_equal(r.rows[2].busy_pct, 2.0, 1e-9);
	assert_float_equal(r.rows[1].steal_pct, 0.0, 1e-9);
	assert_float_equal(r.rows[0].steal_pct, 5.0, 1e-9);
	assert_float_equal(r.rows[0].busy_pct, 2.0, 1e-9);
	assert_float_equal(r.interval_s, 0.5, 1e-12);
	monitor_result_free(&r);
	monitor_sample_free(&a);
	monitor_sample_free(&b);
	monitor_close(&m);
	hostfs_close(&fs);
	drop_tree(dir);
}

/* ---- govd ---- */

static void test_govd_fake_server(void **state)
{
	(void)state;
	char *dir = copy_tree("acpi-cpufreq-server");
	struct hostfs fs;
	struct govd *g;
	struct pm_diag d = { { 0 } };
	const char *sets[] = { "up_threshold=80" };
	struct govd_config c = { .governor = "ondemand", .sets = sets, .nsets = 1,
				 .interval_ms = 10, .hz = 250 };
	open_fs(&fs, dir);
	if (govd_start(&g, &fs, &c, &d) < 0)
		fail_msg("%s", d.msg);
	assert_string_equal(get(dir, CPU "cpufreq/policy0/scaling_governor"), "userspace");
	assert_true(state_exists(dir, "govd"));
	/* every CPU fully busy for 100 ms: ondemand goes to the maximum */
	put(dir, "proc/stat", "cpu  16040 120 8000 360000 300 0 150 0 0 0\n"
			      "cpu0 4010 30 2000 90000 75 0 37 0 0 0\n"
			      "cpu1 4010 30 2000 90000 75 0 37 0 0 0\n"
			      "cpu2 4010 30 2000 90000 75 0 37 0 0 0\n"
			      "cpu3 4010 30 2000 90000 75 0 37 0 0 0\n");
	assert_int_equal(govd_step(g, 100000000, &d), 0);
	assert_string_equal(get(dir, CPU "cpufreq/policy2/scaling_setspeed"), "2301000");
	/* then idle for a second: down to the minimum */
	put(dir, "proc/stat", "cpu  16040 120 8000 360400 300 0 150 0 0 0\n"
			      "cpu0 4010 30 2000 90100 75 0 37 0 0 0\n"
			      "cpu1 4010 30 2000 90100 75 0 37 0 0 0\n"
			      "cpu2 4010 30 2000 90100 75 0 37 0 0 0\n"
			      "cpu3 4010 30 2000 90100 75 0 37 0 0 0\n");
	/* (the first sample after a long idle reuses the load before it) */
	assert_int_equal(govd_step(g, 1100000000, &d), 0);
	assert_string_equal(get(dir, CPU "cpufreq/policy2/scaling_setspeed"), "2301000");
	put(dir, "proc/stat", "cpu  16040 120 8000 360800 300 0 150 0 0 0\n"
			      "cpu0 4010 30 2000 90200 75 0 37 0 0 0\n"
			      "cpu1 4010 30 2000 90200 75 0 37 0 0 0\n"
			      "cpu2 4010 30 2000 90200 75 0 37 0 0 0\n"
			      "cpu3 4010 30 2000 90200 75 0 37 0 0 0\n");
	assert_int_equal(govd_step(g, 2100000000, &d), 0);
	assert_string_equal(get(dir, CPU "cpufreq/policy2/scaling_setspeed"), "1200000");
	assert_int_equal(govd_stop(g, &d), 0);
	hostfs_close(&fs);
	assert_false(state_exists(dir, "govd"));
	sh("cp '%sacpi-cpufreq-server/proc/stat' '%s/proc/stat'", FIX, dir); /* ours, not govd's */
	assert_true(same_as_fixture(dir, "acpi-cpufreq-server"));
	drop_tree(dir);
}

static void test_govd_refuses(void **state)
{
	(void)state;
	struct hostfs fs;
	struct govd *g;
	struct pm_diag d = { { 0 } };
	struct govd_config c = { .governor = "ondemand", .interval_ms = 10, .hz = 250 };
	open_fs(&fs, FIX "vm-no-cpufreq");
	assert_int_equal(govd_start(&g, &fs, &c, &d), -2);
	assert_non_null(strstr(d.msg, "no cpufreq on this machine"));
	hostfs_close(&fs);
	open_fs(&fs, FIX "intel-hwp-laptop");
	assert_int_equal(govd_start(&g, &fs, &c, &d), -2);
	assert_non_null(strstr(d.msg, "no userspace governor"));
	assert_non_null(strstr(d.msg, "intel_pstate=passive"));
	hostfs_close(&fs);
	c.governor = "performance";
	assert_int_equal(govd_check(&c, &d), -1);
	c.governor = "conservative";
	const char *sets[] = { "freq_step=x" };
	c.sets = sets;
	c.nsets = 1;
	assert_int_equal(govd_check(&c, &d), -1);
	assert_non_null(strstr(d.msg, "freq_step"));
	/* a failed switch to userspace leaves nothing changed */
	char *dir = copy_tree("acpi-cpufreq-server");
	open_fs(&fs, dir);
	fs.fail_at = 3;
	c.nsets = 0;
	assert_int_equal(govd_start(&g, &fs, &c, &d), -1);
	hostfs_close(&fs);
	assert_true(same_as_fixture(dir, "acpi-cpufreq-server"));
	drop_tree(dir);
}

/* ---- the real machine: only what the issue allows, always put back ---- */

static int real_lock(void)
{
	/* one real test at a time, across the build directories' test runs */
	int fd = open("/tmp/pmlab-real-host-tests.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd >= 0)
		flock(fd, LOCK_EX);
	return fd;
}

static void test_real_cpuidle_governor(void **state)
{
	(void)state;
	struct hostfs fs;
	struct host_info hi;
	struct pm_diag d = { { 0 } };
	SKIP_UNLESS_REAL_MACHINE();
	if (geteuid() != 0) {
		print_message("skipped: not root\n");
		skip();
	}
	assert_int_equal(hostfs_open(&fs, "/", &d), 0);
	fs.fail_at = fs.pause_at = 0;
	fs.fail_path[0] = '\0';
	assert_int_equal(host_info_load(&hi, &fs, &d), 0);
	char other[HOST_NAME_MAX] = "";
	const char *list = hi.idle_governors;
	for (const char *s = list; *s && !other[0];) {
		size_t n = strcspn(s, " \n");
		if (n && (n != strlen(hi.idle_governor) || strncmp(s, hi.idle_governor, n) != 0))
			snprintf(other, sizeof(other), "%.*s", (int)n, s);
		s += n;
		while (*s == ' ' || *s == '\n')
			s++;
	}
	bool usable = hi.has_idle_governor && other[0] && access("/sys/devices/system/cpu/cpuidle/"
								 "current_governor", W_OK) == 0;
	char before[HOST_NAME_MAX];
	snprintf(before, sizeof(before), "%s", hi.idle_governor);
	host_info_free(&hi);
	if (!usable) {
		hostfs_close(&fs);
		print_message("skipped: no second cpuidle governor to switch to\n");
		skip();
	}
	int lock = real_lock();
	struct host_plan pl;
	host_plan_init(&pl, "pmlab-unit-test");
	int rc = host_plan_add(&pl, PHASE_IDLE_GOV, HOST_CPUIDLE_DIR "/current_governor", other,
			       "cpuidle", NULL, true, &d);
	struct txn_opts to = { .state_name = "unittest" };
	struct txn_result r;
	char during[HOST_NAME_MAX] = "", after[HOST_NAME_MAX] = "";
	struct pm_diag d2 = { { 0 } }, d3 = { { 0 } };
	bool had;
	if (rc == 0)
		rc = host_txn_apply(&fs, &pl, &to, &r, &d);
	if (rc == 0)
		hostfs_read_str(&fs, HOST_CPUIDLE_DIR "/current_governor", during, sizeof(during), &d2);
	/* put back before any assertion can leave */
	int rrc = host_txn_restore(&fs, "unittest", &had, NULL, &d3);
	if (rrc < 0)
		hostfs_write(&fs, HOST_CPUIDLE_DIR "/current_governor", before, strlen(before), &d3);
	hostfs_read_str(&fs, HOST_CPUIDLE_DIR "/current_governor", after, sizeof(after), &d2);
	host_plan_free(&pl);
	hostfs_close(&fs);
	close(lock);
	if (rc < 0)
		fail_msg("switching to %s: %s", other, d.msg);
	assert_int_equal(rrc, 0);
	assert_string_equal(during, other);
	assert_string_equal(after, before);
}

static int32_t real_latency(void)
{
	int32_t v = -1;
	int fd = open("/dev/cpu_dma_latency", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (read(fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
			v = -1;
		close(fd);
	}
	return v;
}

static void test_real_latency_hold(void **state)
{
	(void)state;
	struct hostfs fs;
	struct pm_diag d = { { 0 } };
	SKIP_UNLESS_REAL_MACHINE();
	if (geteuid() != 0 || access("/dev/cpu_dma_latency", W_OK) != 0) {
		print_message("skipped: no writable /dev/cpu_dma_latency\n");
		skip();
	}
	assert_int_equal(hostfs_open(&fs, "/", &d), 0);
	fs.fail_at = fs.pause_at = 0;
	fs.fail_path[0] = '\0';
	int lock = real_lock();
	int32_t before = real_latency(), held = -1, after;
	bool dev = false;
	int fd = hostfs_open_latency(&fs, &dev, &d);
	if (fd >= 0) {
		int32_t v = 42;
		if (hostfs_write_fd(&fs, fd, HOST_DMA_LATENCY, &v, sizeof(v), &d) == 0)
			held = real_latency();
		close(fd); /* the request ends here */
	}
	after = real_latency();
	close(lock);
	hostfs_close(&fs);
	if (fd < 0)
		fail_msg("%s", d.msg);
	assert_true(dev);
	assert_true(held >= 0 && held <= 42);
	/* back to what it was (another holder may hold a limit of its own) */
	assert_int_equal(after, before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hostfs_root_and_reads),
		cmocka_unit_test(test_hostfs_write_confinement),
		cmocka_unit_test(test_hostfs_hooks),
		cmocka_unit_test(test_hostfs_state_files),
		cmocka_unit_test(test_state_roundtrip),
		cmocka_unit_test(test_state_rejects),
		cmocka_unit_test(test_plan_paths),
		cmocka_unit_test(test_procstat),
		cmocka_unit_test(test_cpulist),
		cmocka_unit_test(test_inventory),
		cmocka_unit_test(test_plan_intel),
		cmocka_unit_test(test_plan_server_and_vm),
		cmocka_unit_test(test_plan_simulator_only_keys),
		cmocka_unit_test(test_plan_bad_input),
		cmocka_unit_test(test_roundtrips),
		cmocka_unit_test(test_switch_profiles),
		cmocka_unit_test(test_fail_at_every_write),
		cmocka_unit_test(test_kernel_rejects),
		cmocka_unit_test(test_unreadable_target),
		cmocka_unit_test(test_verify_reports_change),
		cmocka_unit_test(test_sigkill_mid_apply),
		cmocka_unit_test(test_monitor_arithmetic),
		cmocka_unit_test(test_monitor_vm),
		cmocka_unit_test(test_govd_fake_server),
		cmocka_unit_test(test_govd_refuses),
		cmocka_unit_test(test_real_cpuidle_governor),
		cmocka_unit_test(test_real_latency_hold),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
