// SPDX-License-Identifier: GPL-2.0-only
/* The host backend next to tuned and power-profiles-daemon, on fake trees
 * (tests/fixtures/host/<machine>, copied first):
 *   - peers under --root: tuned by run/tuned/tuned.pid and proc/PID/comm,
 *     power-profiles-daemon by its process or its D-Bus activation file;
 *     apply refuses unless forced, off leaves what a peer changed;
 *   - what tuned 2.20 applies: the stock profiles' CPU-power writes on
 *     three machines against a table derived from tuned's plugin_cpu.py,
 *     the dynamic PM QoS, [modules], [sysfs] cpuidle/current_governor;
 *   - power-profiles-daemon's profiles on each of its drivers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "host_trees.h"

#include "host/apply.h"
#include "host/hostfs.h"
#include "host/peer.h"
#include "host/plan.h"

#define FIX HOST_FIXTURES
#define CPU "sys/devices/system/cpu/"
#define PROFILES PMLAB_SOURCE_ROOT "/tests/fixtures/profiles"

static const char *const dirs[] = { FIX "profiles", PROFILES, PMLAB_SOURCE_ROOT "/data/profiles" };


static void open_fs(struct hostfs *fs, const char *dir)
{
	struct pm_diag d = { { 0 } };
	if (hostfs_open(fs, dir, &d) < 0)
		fail_msg("%s", d.msg);
	fs->fail_at = fs->pause_at = 0;
	fs->fail_path[0] = '\0';
}

static int apply_opts(struct hostfs *fs, const char *spec, bool force, char **notes,
		      struct pm_diag *d)
{
	size_t len = 0;
	FILE *out = notes ? open_memstream(notes, &len) : NULL;
	struct host_profile_opts o = { .dirs = dirs, .ndirs = 3, .notes = out, .force = force };
	struct txn_result r;
	int rc = host_profile_apply(fs, spec, &o, &r, d);
	if (out)
		fclose(out);
	if (rc == 0 && r.latency_fd >= 0)
		close(r.latency_fd);
	return rc;
}

static void must_apply(struct hostfs *fs, const char *spec)
{
	struct pm_diag d = { { 0 } };
	if (apply_opts(fs, spec, false, NULL, &d) < 0)
		fail_msg("apply %s: %s", spec, d.msg);
}

static void plan_for(const char *root, const char *spec, struct host_plan *pl)
{
	struct hostfs fs;
	struct pm_diag d = { { 0 } };
	struct host_profile_opts o = { .dirs = dirs, .ndirs = 3 };
	open_fs(&fs, root);
	if (host_profile_plan(&fs, spec, &o, pl, &d) < 0)
		fail_msg("plan %s on %s: %s", spec, root, d.msg);
	hostfs_close(&fs);
}

static bool skipped(const struct host_plan *pl, const char *what, const char *why)
{
	for (int i = 0; i < pl->nskip; i++)
		if (strstr(pl->skip[i].what, what) && strstr(pl->skip[i].why, why))
			return true;
	return false;
}

static const struct plan_entry *entry(const struct host_plan *pl, const char *path)
{
	for (int i = 0; i < pl->n; i++)
		if (strcmp(pl->e[i].path, path) == 0)
			return &pl->e[i];
	return NULL;
}

/* ---- peers ---- */

/* A tuned as tuned.service runs it: its pid file names a process whose
 * comm is "tuned", with a profile active. */
static void fake_tuned(const char *dir, const char *profile)
{
	tree_put(dir, "run/tuned/tuned.pid", "4242\n");
	tree_put(dir, "proc/4242/comm", "tuned\n");
	tree_put(dir, "proc/4242/cmdline", "/usr/bin/python3\0/usr/sbin/tuned\0-l\0-P\0");
	tree_put(dir, "etc/tuned/active_profile", profile);
}

static void test_peer_tuned(void **state)
{
	(void)state;
	char *dir = copy_tree("thinkpad-platform-profile");
	struct hostfs fs;
	struct host_peer p[HOST_MAX_PEERS];
	struct pm_diag d = { { 0 } };
	open_fs(&fs, dir);
	assert_int_equal(host_find_peers(&fs, p, HOST_MAX_PEERS), 0);

	fake_tuned(dir, "balanced\n");
	assert_int_equal(host_find_peers(&fs, p, HOST_MAX_PEERS), 1);
	assert_string_equal(p[0].name, "tuned");
	assert_int_equal(p[0].pid, 4242);
	assert_true(p[0].conflict);
	assert_non_null(strstr(p[0].evidence, "run/tuned/tuned.pid"));
	assert_non_null(strstr(p[0].evidence, "profile balanced"));

	/* apply refuses before any write, naming tuned and how to stop it */
	assert_int_equal(apply_opts(&fs, "powersave", false, NULL, &d), HOST_PEER_REFUSED);
	assert_non_null(strstr(d.msg, "tuned is running (pid 4242"));
	assert_non_null(strstr(d.msg, "systemctl stop tuned"));
	assert_non_null(strstr(d.msg, "or pass --force"));
	assert_string_equal(tree_get(dir, CPU "cpufreq/policy0/energy_performance_preference"),
			    "balance_performance\n");
	assert_null(tree_get(dir, "run/pmlab/profile"));
	/* --force: applied, with the warning in the notes */
	char *notes = NULL;
	assert_int_equal(apply_opts(&fs, "powersave", true, &notes, &d), 0);
	assert_non_null(strstr(notes, "warning: tuned: pid 4242"));
	assert_non_null(strstr(notes, "it rewrites what pmlab sets (--force)"));
	free(notes);
	assert_string_equal(tree_get(dir, CPU "cpufreq/policy0/energy_performance_preference"),
			    "power"); /* written without the kernel's newline */

	/* tuned-adm off: tuned runs, with no profile: a warning, no refusal */
	tree_put(dir, "etc/tuned/active_profile", "");
	assert_int_equal(host_find_peers(&fs, p, HOST_MAX_PEERS), 1);
	assert_false(p[0].conflict);
	assert_non_null(strstr(p[0].evidence, "none (tuned-adm off)"));
	assert_int_equal(apply_opts(&fs, "balanced", false, NULL, &d), 0);

	/* a stale pid file (the pid is another process now) is no tuned */
	tree_put(dir, "proc/4242/comm", "bash\n");
	assert_int_equal(host_find_peers(&fs, p, HOST_MAX_PEERS), 0);
	/* a tuned without pid file is found by its process */
	tree_put(dir, "proc/777/comm", "tuned\n");
	tree_put(dir, "etc/tuned/active_profile", "powersave\n");
	assert_int_equal(host_find_peers(&fs, p, HOST_MAX_PEERS), 1);
	assert_int_equal(p[0].pid, 777);
	assert_true(p[0].conflict);
	hostfs_close(&fs);
	drop_tree(dir);
}

static void test_peer_ppd(void **state)
{
	(void)state;
	char *dir = copy_tree("amd-pstate-epp-laptop");
	struct hostfs fs;
	struct host_peer p[HOST_MAX_PEERS];
	struct pm_diag d = { { 0 } };
	open_fs(&fs, dir);
	/* installed, not running: D-Bus starts it on demand -- a warning */
	tree_put(dir, "usr/share/dbus-1/system-services/net.hadess.PowerProfiles.service",
	    "[D-BUS Service]\nName=net.hadess.PowerProfiles\n");
	assert_int_equal(host_find_peers(&fs, p, HOST_MAX_PEERS), 1);
	assert_string_equal(p[0].name, "power-profiles-daemon");
	assert_int_equal(p[0].pid, 0);
	assert_false(p[0].conflict);
	assert_non_null(strstr(p[0].evidence, "D-Bus starts it on demand"));
	assert_non_null(strstr(p[0].stop, "systemctl mask power-profiles-daemon"));
	char *notes = NULL;
	assert_int_equal(apply_opts(&fs, "powersave", false, &notes, &d), 0);
	assert_non_null(strstr(notes, "warning: power-profiles-daemon: not running, but D-Bus"));
	free(notes);

	/* running: comm is cut to 15 characters; the cmdline names it */
	tree_put(dir, "proc/900/comm", "power-profiles-\n");
	tree_put(dir, "proc/900/cmdline", "/usr/libexec/power-profiles-daemon");
	assert_int_equal(host_find_peers(&fs, p, HOST_MAX_PEERS), 1);
	assert_int_equal(p[0].pid, 900);
	assert_true(p[0].conflict);
	assert_int_equal(apply_opts(&fs, "balanced", false, NULL, &d), HOST_PEER_REFUSED);
	assert_non_null(strstr(d.msg, "power-profiles-daemon is running (pid 900"));
	/* another program with that comm is not ppd */
	tree_put(dir, "proc/900/cmdline", "/usr/bin/sleep");
	tree_put(dir, "usr/share/dbus-1/system-services/net.hadess.PowerProfiles.service", "");
	assert_int_equal(sh("rm '%s/usr/share/dbus-1/system-services/"
			    "net.hadess.PowerProfiles.service'", dir), 0);
	assert_int_equal(host_find_peers(&fs, p, HOST_MAX_PEERS), 0);
	hostfs_close(&fs);
	drop_tree(dir);
}

/* A peer changes a file pmlab set: verify and the drift report name it,
 * off leaves it and restores the rest. */
static void test_peer_changes(void **state)
{
	(void)state;
	char *dir = copy_tree("thinkpad-platform-profile");
	struct hostfs fs;
	struct pm_diag d = { { 0 } };
	open_fs(&fs, dir);
	must_apply(&fs, "powersave"); /* tuned 2.28's: EPP power, platform low-power */
	assert_string_equal(tree_get(dir, "sys/firmware/acpi/platform_profile"), "low-power");
	tree_put(dir, CPU "cpu2/power/pm_qos_resume_latency_us", "0\n"); /* untouched by pmlab */
	/* ppd switches to performance behind pmlab's back */
	tree_put(dir, "sys/firmware/acpi/platform_profile", "performance\n");
	tree_put(dir, "proc/900/comm", "power-profiles-\n");
	tree_put(dir, "proc/900/cmdline", "/usr/libexec/power-profiles-daemon");

	char *buf = NULL;
	size_t len = 0;
	int n;
	FILE *out = open_memstream(&buf, &len);
	assert_int_equal(host_profile_verify(&fs, out, &n, &d), 0);
	fclose(out);
	assert_int_equal(n, 1);
	assert_non_null(strstr(buf, "platform_profile: is 'performance', the profile set 'low-power'"));
	assert_non_null(strstr(buf, "running now, and writing such files: power-profiles-daemon "
				    "(pid 900)"));
	free(buf);

	struct host_drift dr = { 0 };
	out = open_memstream(&buf, &len);
	assert_int_equal(host_profile_drift(&fs, &dr, out), 1);
	assert_int_equal(host_profile_drift(&fs, &dr, out), 0); /* reported once */
	fclose(out);
	assert_non_null(strstr(buf, "platform_profile: now 'performance', profile powersave set "
				    "'low-power' (changed by another program; running: "
				    "power-profiles-daemon (pid 900))"));
	free(buf);
	host_drift_free(&dr);

	bool had;
	int left;
	out = open_memstream(&buf, &len);
	assert_int_equal(host_profile_off_left(&fs, out, &had, &left, &d), 0);
	fclose(out);
	assert_int_equal(left, 1);
	assert_non_null(strstr(buf, "platform_profile: left at 'performance': pmlab wrote 'low-power'"));
	free(buf);
	assert_string_equal(tree_get(dir, "sys/firmware/acpi/platform_profile"), "performance\n");
	assert_string_equal(tree_get(dir, CPU "cpufreq/policy3/energy_performance_preference"),
			    "balance_performance\n"); /* the rest is back */
	assert_null(tree_get(dir, "run/pmlab/profile"));
	hostfs_close(&fs);
	drop_tree(dir);
}

/* ---- tuned 2.20's CPU power writes ----
 *
 * Expected from tuned v2.20.0 tuned/plugins/plugin_cpu.py, on the trees'
 * files, key by key:
 *   gov      _set_governor(): per CPU, the first of governor=a|b in
 *            scaling_available_governors;
 *   epb      _set_energy_perf_bias(): Intel only (_is_intel); the value
 *            as given, alternatives tried in turn, to cpuN/power/
 *            energy_perf_bias (hwp_epp CPUs) or by x86_energy_perf_policy:
 *            the kernel's names (intel_epb.c) read back as numbers, and
 *            "powersave" is not one of them, so powersave|power is 15;
 *   epp      _set_energy_performance_preference(): where policyN has
 *            energy_performance_available_preferences, the first listed;
 *   min_perf_pct, no_turbo  _instance_apply_static(): intel_pstate only;
 *   latency  _set_latency(): force_latency by _parse_latency() (a number,
 *            cstate.id[_no_zero]:N = stateN's latency, cstate.name:X), else
 *            the first instance's dynamic tuning (_instance_init(): neither
 *            force_latency nor pm_qos_resume_latency_us) with
 *            _instance_update_dynamic(): latency_high 1000 while the
 *            /proc/loadavg 1-minute load is below load_threshold 0.2, else
 *            latency_low 100 (monitors/monitor_load.py);
 *   boost    not an option before 2.24: none.
 * One deviation, on purpose: no_turbo=true is 1 here (tuned 2.25's
 * get_bool()); 2.20 writes "true", which store_no_turbo() refuses.
 * The trees: thinkpad (intel_pstate active, EPB, C1 1 us, load 0.08),
 * amd laptop (amd-pstate-epp, no EPB, C1 1 us, load 1.25), server
 * (acpi-cpufreq with every governor, EPB, C1 2 us, load 0.50). */
static const struct {
	const char *spec, *tree, *expected;
} tuned220[] = {
	{ "balanced:tuned=2.20", "thinkpad-platform-profile",
	  "epb=6 epp=balance_performance gov=powersave latency=1000" },
	{ "balanced:tuned=2.20", "amd-pstate-epp-laptop",
	  "epp=balance_performance gov=powersave latency=100" },
	{ "balanced:tuned=2.20", "acpi-cpufreq-server", "epb=6 gov=schedutil latency=100" },
	{ "powersave:tuned=2.20", "thinkpad-platform-profile",
	  "epb=15 epp=power gov=powersave latency=1000" },
	{ "powersave:tuned=2.20", "amd-pstate-epp-laptop", "epp=power gov=powersave latency=100" },
	{ "powersave:tuned=2.20", "acpi-cpufreq-server", "epb=15 gov=schedutil latency=100" },
	{ "throughput-performance:tuned=2.20", "thinkpad-platform-profile",
	  "epb=0 epp=performance gov=performance latency=1000 min_perf_pct=100" },
	{ "throughput-performance:tuned=2.20", "amd-pstate-epp-laptop",
	  "epp=performance gov=performance latency=100" },
	{ "throughput-performance:tuned=2.20", "acpi-cpufreq-server",
	  "epb=0 gov=performance latency=100" },
	{ "latency-performance:tuned=2.20", "thinkpad-platform-profile",
	  "epb=0 gov=performance latency=1 min_perf_pct=100" },
	{ "latency-performance:tuned=2.20", "amd-pstate-epp-laptop", "gov=performance latency=1" },
	{ "latency-performance:tuned=2.20", "acpi-cpufreq-server", "epb=0 gov=performance latency=2" },
	{ "network-latency:tuned=2.20", "acpi-cpufreq-server", "epb=0 gov=performance latency=2" },
	{ "virtual-guest:tuned=2.20", "amd-pstate-epp-laptop",
	  "epp=performance gov=performance latency=100" },
	/* our own profile with the options of 2.20's cpu-partitioning-powersave */
	{ "tuned-2.20/cpu-partitioning-powersave", "thinkpad-platform-profile",
	  "gov=performance latency=1 no_turbo=1" },
	{ "tuned-2.20/cpu-partitioning-powersave", "acpi-cpufreq-server", "gov=performance latency=2" },
	{ "tuned-2.20/cpu-partitioning-powersave", "amd-pstate-epp-laptop",
	  "gov=performance latency=1" },
};

/* The plan's plugin_cpu writes as "key=value" words, sorted; each key's
 * value the same on every CPU or policy. */
static void cpu_writes(const struct host_plan *pl, char *out, size_t len)
{
	static const struct {
		const char *suffix, *key;
	} keys[] = {
		{ "/scaling_governor", "gov" },
		{ "/power/energy_perf_bias", "epb" },
		{ "/energy_performance_preference", "epp" },
		{ "intel_pstate/min_perf_pct", "min_perf_pct" },
		{ "intel_pstate/max_perf_pct", "max_perf_pct" },
		{ "intel_pstate/no_turbo", "no_turbo" },
		{ "/boost", "boost" },
		{ "/power/pm_qos_resume_latency_us", "resume" },
		{ "/sampling_down_factor", "sampling_down_factor" },
	};
	char words[16][200];
	int n = 0;
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		const char *value = NULL;
		for (int i = 0; i < pl->n; i++) {
			const char *p = pl->e[i].path;
			size_t lp = strlen(p), ls = strlen(keys[k].suffix);
			if (lp < ls || strcmp(p + lp - ls, keys[k].suffix) != 0)
				continue;
			if (value && strcmp(value, pl->e[i].value) != 0)
				fail_msg("%s differs between CPUs: %s, %s", keys[k].key, value,
					 pl->e[i].value);
			value = pl->e[i].value;
		}
		if (value)
			snprintf(words[n++], sizeof(words[0]), "%s=%s", keys[k].key, value);
	}
	if (pl->latency_us >= 0)
		snprintf(words[n++], sizeof(words[0]), "latency=%lld", (long long)pl->latency_us);
	for (int i = 0; i < n; i++) /* sort */
		for (int j = i + 1; j < n; j++)
			if (strcmp(words[j], words[i]) < 0) {
				char t[200];
				memcpy(t, words[i], sizeof(t));
				memcpy(words[i], words[j], sizeof(t));
				memcpy(words[j], t, sizeof(t));
			}
	size_t used = 0;
	out[0] = '\0';
	for (int i = 0; i < n; i++)
		used += (size_t)snprintf(out + used, len - used, "%s%s", i ? " " : "", words[i]);
}

static void test_stock_profiles_as_tuned_220(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(tuned220) / sizeof(tuned220[0]); i++) {
		char *dir = copy_tree(tuned220[i].tree), got[512];
		struct host_plan pl;
		plan_for(dir, tuned220[i].spec, &pl);
		cpu_writes(&pl, got, sizeof(got));
		if (strcmp(got, tuned220[i].expected) != 0)
			fail_msg("%s on %s: pmlab plans '%s', tuned 2.20 writes '%s'", tuned220[i].spec,
				 tuned220[i].tree, got, tuned220[i].expected);
		host_plan_free(&pl);
		drop_tree(dir);
	}
}

/* The dynamic PM QoS follows the load average; the state keeps its rule. */
static void test_dynamic_latency(void **state)
{
	(void)state;
	char *dir = copy_tree("thinkpad-platform-profile");
	struct hostfs fs;
	struct pm_diag d = { { 0 } };
	open_fs(&fs, dir);
	char *notes = NULL;
	assert_int_equal(apply_opts(&fs, "balanced:tuned=2.20", false, &notes, &d), 0);
	assert_non_null(strstr(notes, "/dev/cpu_dma_latency 1000 us now (the 1-minute load average "
				      "is 0.08): tuned's dynamic PM QoS asks 1000 us while the load "
				      "average is below 0.200, 100 us at or above it"));
	assert_null(strstr(notes, "lapses")); /* the caller warns (pmlab profile apply) */
	free(notes);
	assert_non_null(strstr(tree_get(dir, "run/pmlab/profile"), "\ndynamic 100 1000 200\n"));
	struct host_state st;
	bool has;
	assert_int_equal(host_profile_active(&fs, &st, &has, &d), 0);
	assert_true(has);
	assert_int_equal(host_profile_latency_now(&fs, &st), 1000);
	tree_put(dir, "proc/loadavg", "0.20 0.10 0.05 1/300 999\n"); /* at the threshold: loaded */
	assert_int_equal(host_profile_latency_now(&fs, &st), 100);
	tree_put(dir, "proc/loadavg", "0.19 0.10 0.05 1/300 999\n");
	assert_int_equal(host_profile_latency_now(&fs, &st), 1000);
	host_state_free(&st);
	/* tuned 2.22 and later: no dynamic tuning by default */
	assert_int_equal(apply_opts(&fs, "balanced:tuned=2.22", false, NULL, &d), 0);
	assert_null(strstr(tree_get(dir, "run/pmlab/profile"), "dynamic"));
	assert_null(strstr(tree_get(dir, "run/pmlab/profile"), "latency"));
	hostfs_close(&fs);
	drop_tree(dir);

	/* the rule itself */
	assert_int_equal(host_dynamic_latency(100, 1000, 200, 0.0), 1000);
	assert_int_equal(host_dynamic_latency(100, 1000, 200, 0.199), 1000);
	assert_int_equal(host_dynamic_latency(100, 1000, 200, 0.2), 100);
	assert_int_equal(host_dynamic_latency(100, 1000, 200, 7.5), 100);
}

/* [modules]: balanced's cpufreq_conservative, loaded before [cpu] asks
 * for conservative; without it, conservative|powersave falls to powersave. */
static void test_modules(void **state)
{
	(void)state;
	char *dir = copy_tree("acpi-cpufreq-server");
	for (int p = 0; p < 4; p++) {
		char rel[128];
		snprintf(rel, sizeof(rel), CPU "cpufreq/policy%d/scaling_available_governors", p);
		tree_put(dir, rel, "ondemand userspace powersave performance schedutil\n");
	}
	tree_put(dir, "proc/sys/kernel/osrelease", "6.1.0-18-amd64\n");
	tree_put(dir, "lib/modules/6.1.0-18-amd64/modules.dep",
	    "kernel/drivers/cpufreq/cpufreq_conservative.ko.xz:\n"
	    "kernel/drivers/cpufreq/cpufreq_userspace.ko.xz:\n");
	struct host_plan pl;
	plan_for(dir, "tuned-2.20/acpi-and-modules", &pl);
	assert_int_equal(pl.nmodules, 1);
	assert_string_equal(pl.modules[0].name, "cpufreq_conservative");
	assert_string_equal(entry(&pl, CPU "cpufreq/policy0/scaling_governor")->value,
			    "conservative");
	/* [sysfs] .../cpuidle/current_governor=teo */
	assert_string_equal(entry(&pl, CPU "cpuidle/current_governor")->value, "teo");
	assert_true(skipped(&pl, "platform_profile", "tuned 2.20 has no acpi plugin"));
	host_plan_free(&pl);
	/* a fake root has no kernel to load it into: said, and the rest done */
	struct hostfs fs;
	struct pm_diag d = { { 0 } };
	open_fs(&fs, dir);
	char *log = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&log, &len);
	struct host_profile_opts o = { .dirs = dirs, .ndirs = 3, .log = out };
	struct txn_result r;
	assert_int_equal(host_profile_apply(&fs, "tuned-2.20/acpi-and-modules", &o, &r, &d), 0);
	fclose(out);
	if (r.latency_fd >= 0)
		close(r.latency_fd);
	assert_non_null(strstr(log, "modprobe cpufreq_conservative: not run (a tree at"));
	free(log);
	assert_string_equal(tree_get(dir, CPU "cpufreq/policy0/scaling_governor"), "conservative");
	assert_string_equal(tree_get(dir, CPU "cpuidle/current_governor"), "teo");
	hostfs_close(&fs);

	/* loaded already: nothing to do */
	tree_put(dir, "sys/module/cpufreq_conservative/refcnt", "0\n");
	plan_for(dir, "tuned-2.20/acpi-and-modules", &pl);
	assert_int_equal(pl.nmodules, 0);
	assert_true(skipped(&pl, "module.cpufreq_conservative", "loaded already"));
	host_plan_free(&pl);
	/* not built for this kernel: the next alternative, powersave */
	assert_int_equal(sh("rm -r '%s/sys/module'", dir), 0);
	tree_put(dir, "lib/modules/6.1.0-18-amd64/modules.dep", "kernel/drivers/cpufreq/other.ko:\n");
	plan_for(dir, "tuned-2.20/acpi-and-modules", &pl);
	assert_int_equal(pl.nmodules, 0);
	assert_true(skipped(&pl, "module.cpufreq_conservative", "no module cpufreq_conservative in "
			    "lib/modules/6.1.0-18-amd64"));
	assert_string_equal(entry(&pl, CPU "cpufreq/policy0/scaling_governor")->value, "powersave");
	host_plan_free(&pl);
	drop_tree(dir);
}

/* ---- power-profiles-daemon's profiles ---- */

static void test_ppd_profiles(void **state)
{
	(void)state;
	struct host_plan pl;
	char *dir = copy_tree("thinkpad-platform-profile");
	/* platform_profile probes first: only it is written */
	plan_for(dir, "ppd/power-saver", &pl);
	assert_int_equal(pl.n, 1);
	assert_string_equal(entry(&pl, "sys/firmware/acpi/platform_profile")->value, "low-power");
	host_plan_free(&pl);
	plan_for(dir, "ppd/performance", &pl);
	assert_string_equal(entry(&pl, "sys/firmware/acpi/platform_profile")->value, "performance");
	host_plan_free(&pl);
	/* choices without balanced: ppd's platform driver defers, intel_pstate
	 * writes EPP (with the powersave governor) and EPB */
	tree_put(dir, "sys/firmware/acpi/platform_profile_choices", "quiet performance\n");
	plan_for(dir, "ppd/balanced", &pl);
	assert_null(entry(&pl, "sys/firmware/acpi/platform_profile"));
	assert_string_equal(entry(&pl, CPU "cpufreq/policy1/energy_performance_preference")->value,
			    "balance_performance");
	assert_string_equal(entry(&pl, CPU "cpu3/power/energy_perf_bias")->value, "6");
	assert_string_equal(entry(&pl, CPU "cpufreq/policy2/scaling_governor")->value, "powersave");
	host_plan_free(&pl);
	/* cool before quiet when there is no low-power */
	tree_put(dir, "sys/firmware/acpi/platform_profile_choices", "cool quiet balanced performance\n");
	plan_for(dir, "ppd/power-saver", &pl);
	assert_string_equal(entry(&pl, "sys/firmware/acpi/platform_profile")->value, "cool");
	host_plan_free(&pl);
	drop_tree(dir);

	/* amd-pstate (ppd 0.13): EPP and the powersave governor, no EPB */
	dir = copy_tree("amd-pstate-epp-laptop");
	plan_for(dir, "ppd/performance", &pl);
	assert_string_equal(entry(&pl, CPU "cpufreq/policy0/energy_performance_preference")->value,
			    "performance");
	assert_string_equal(entry(&pl, CPU "cpufreq/policy0/scaling_governor")->value, "powersave");
	assert_null(entry(&pl, CPU "cpu0/power/energy_perf_bias"));
	host_plan_free(&pl);
	drop_tree(dir);

	/* acpi-cpufreq with EPB: ppd's intel_pstate driver writes EPB alone */
	dir = copy_tree("acpi-cpufreq-server");
	plan_for(dir, "ppd/power-saver", &pl);
	assert_string_equal(entry(&pl, CPU "cpu0/power/energy_perf_bias")->value, "15");
	assert_null(entry(&pl, CPU "cpufreq/policy0/scaling_governor"));
	host_plan_free(&pl);
	drop_tree(dir);

	/* a VM: ppd's placeholder driver writes nothing, and says so */
	dir = copy_tree("vm-no-cpufreq");
	plan_for(dir, "ppd/balanced", &pl);
	assert_int_equal(pl.n, 0);
	assert_true(skipped(&pl, "ppd/balanced", "ppd writes nothing"));
	host_plan_free(&pl);
	struct hostfs fs;
	struct pm_diag d = { { 0 } };
	open_fs(&fs, dir);
	struct host_profile_opts o = { .dirs = dirs, .ndirs = 3 };
	assert_int_equal(host_profile_plan(&fs, "ppd/turbo", &o, &pl, &d), HOST_BAD_INPUT);
	assert_non_null(strstr(d.msg, "expected ppd/power-saver, ppd/balanced or ppd/performance"));
	hostfs_close(&fs);
	drop_tree(dir);
}

/* Messages name the driver that runs, not intel_pstate. */
static void test_driver_names(void **state)
{
	(void)state;
	struct host_plan pl;
	char *dir = copy_tree("amd-pstate-epp-laptop");
	plan_for(dir, "throughput-performance", &pl);
	assert_true(skipped(&pl, "min_perf_pct", "no intel_pstate here (cpufreq driver "
			    "amd-pstate-epp)"));
	host_plan_free(&pl);
	plan_for(dir, "balanced:governor=ondemand", &pl);
	assert_true(skipped(&pl, "[cpu] governor=ondemand", "amd-pstate-epp offers only its "
			    "performance and powersave policies"));
	host_plan_free(&pl);
	plan_for(dir, "tuned-2.20/cpu-partitioning-powersave", &pl);
	assert_true(skipped(&pl, "no_turbo", "cpufreq driver amd-pstate-epp"));
	for (int i = 0; i < pl.nskip; i++)
		assert_null(strstr(pl.skip[i].why, "acpi-cpufreq"));
	host_plan_free(&pl);
	drop_tree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_peer_tuned),
		cmocka_unit_test(test_peer_ppd),
		cmocka_unit_test(test_peer_changes),
		cmocka_unit_test(test_stock_profiles_as_tuned_220),
		cmocka_unit_test(test_dynamic_latency),
		cmocka_unit_test(test_modules),
		cmocka_unit_test(test_ppd_profiles),
		cmocka_unit_test(test_driver_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
