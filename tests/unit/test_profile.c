// SPDX-License-Identifier: GPL-2.0-only
/* tuned profiles: the reader's configobj rules, include chains, variables,
 * alternatives, conditions, overrides, and the mapping of every stock
 * profile onto pmlab settings, with expectations worked out by hand from
 * the profile text and the machine files. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/sim.h"
#include "metrics/result.h"
#include "profile/profile.h"
#include "profile/profile_internal.h"

#define FIXTURES PMLAB_SOURCE_ROOT "/tests/fixtures/profiles"
#define DATA PMLAB_SOURCE_ROOT "/data/profiles"

static const char *const fixture_dirs[] = { FIXTURES };
static const char *const data_dirs[] = { DATA };

static void machine(struct machine *m, const char *name)
{
	struct pm_diag d = { "" };
	if (machine_load(m, name, &d) != 0)
		fail_msg("%s: %s", name, d.msg);
}

/* Loads spec from the fixtures (then data/profiles) on machine mname. */
static void load_env(struct profile *p, const char *spec, const char *mname,
		     const struct profile_env *env)
{
	static const char *const dirs[] = { FIXTURES, DATA };
	struct machine m;
	struct pm_diag d = { "" };
	machine(&m, mname);
	if (profile_load_env(p, spec, &m, env, dirs, 2, &d) != 0)
		fail_msg("%s: %s", spec, d.msg);
}

static void load(struct profile *p, const char *spec, const char *mname)
{
	load_env(p, spec, mname, NULL);
}

static const struct profile_env intel = { .cpufreq = "intel_pstate", .cpufreq_fixed = true };

/* The error message of loading spec, which must fail. */
static const char *load_error(const char *spec, const char *mname)
{
	static struct pm_diag d;
	struct machine m;
	struct profile p;
	machine(&m, mname);
	memset(&d, 0, sizeof(d));
	if (profile_load(&p, spec, &m, fixture_dirs, 1, &d) == 0)
		fail_msg("%s loaded, expected an error", spec);
	assert_int_equal(p.nsettings, 0);
	assert_null(p.settings);
	return d.msg;
}

static void assert_contains(const char *hay, const char *needle)
{
	if (!strstr(hay, needle))
		fail_msg("'%s' lacks '%s'", hay, needle);
}

static const struct profile_setting *setting(const struct profile *p, const char *key)
{
	for (int i = 0; i < p->nsettings; i++)
		if (strcmp(p->settings[i].key, key) == 0)
			return &p->settings[i];
	return NULL;
}

static const struct profile_setting *must_set(const struct profile *p, const char *key)
{
	const struct profile_setting *s = setting(p, key);
	if (!s) {
		fail_msg("%s: no setting %s", p->name, key);
		abort(); /* not reached */
	}
	return s;
}

static void assert_setting(const struct profile *p, const char *key, const char *value)
{
	const struct profile_setting *s = must_set(p, key);
	if (strcmp(s->value, value) != 0)
		fail_msg("%s: %s=%s, expected %s", p->name, key, s->value, value);
	char kv[256];
	snprintf(kv, sizeof(kv), "%s=%s", key, value);
	assert_string_equal(s->kv, kv);
}

static const struct profile_skip *skipped(const struct profile *p, const char *what)
{
	for (int i = 0; i < p->nskipped; i++)
		if (strcmp(p->skipped[i].what, what) == 0)
			return &p->skipped[i];
	return NULL;
}

static const struct profile_skip *must_skip(const struct profile *p, const char *what)
{
	const struct profile_skip *s = skipped(p, what);
	if (!s) {
		fail_msg("%s: '%s' is not listed as skipped", p->name, what);
		abort(); /* not reached */
	}
	return s;
}

static void assert_skipped(const struct profile *p, const char *what, const char *why)
{
	if (why)
		assert_contains(must_skip(p, what)->why, why);
	else
		must_skip(p, what);
}

/* ---- the reader ---- */

static void test_ini_configobj_rules(void **state)
{
	char longv[400], text[2048];
	struct pf_file f;
	struct pm_diag d = { "" };

	memset(longv, 'x', 300);
	longv[300] = '\0';
	snprintf(text, sizeof(text),
		 "\xef\xbb\xbf# comment\n"
		 "[main]\n"
		 "summary = Hello # a comment\n"
		 "\n"
		 "[empty]\n"
		 "[sysfs]\n"
		 "  /sys/a:b = 1\n"
		 "semi = a ;b\t;c\n"
		 "quoted = \"x # y\" # z\n"
		 "long = %s\n"
		 ";key = 5\n"
		 "empty =\n",
		 longv);
	if (pf_ini_parse(&f, text, "mem", &d) != 0)
		fail_msg("%s", d.msg);
	assert_int_equal(f.nsecs, 3);
	assert_string_equal(f.secs[0].name, "main");
	const struct pf_opt *o = pf_section_opt(&f.secs[0], "summary");
	assert_string_equal(o->value, "Hello"); /* '#' starts a comment */
	assert_int_equal(o->line, 3);
	assert_string_equal(f.secs[1].name, "empty"); /* a section without keys is kept */
	assert_int_equal(f.secs[1].line, 5);
	assert_int_equal(f.secs[1].nopts, 0);
	const struct pf_section *s = &f.secs[2];
	assert_string_equal(pf_section_opt(s, "/sys/a:b")->value, "1");
	assert_int_equal(pf_section_opt(s, "/sys/a:b")->line, 7);
	assert_string_equal(pf_section_opt(s, "semi")->value, "a ;b\t;c"); /* ';' is not */
	assert_string_equal(pf_section_opt(s, "quoted")->value, "\"x # y\"");
	assert_string_equal(pf_section_opt(s, "long")->value, longv);
	assert_string_equal(pf_section_opt(s, ";key")->value, "5");
	assert_string_equal(pf_section_opt(s, "empty")->value, "");
	assert_int_equal(pf_section_opt(s, "empty")->line, 12);
	pf_file_free(&f);
}

static void ini_error(const char *text, const char *msg)
{
	struct pf_file f;
	struct pm_diag d = { "" };
	if (pf_ini_parse(&f, text, "F", &d) == 0)
		fail_msg("'%s' parsed", text);
	assert_contains(d.msg, msg);
	pf_file_free(&f);
}

static void test_ini_errors(void **state)
{
	ini_error("[cpu]\na=1\n\na=2\n", "F:4: duplicate option 'a' in [cpu], first on line 2");
	ini_error("[cpu]\n[x]\n[cpu]\n", "F:3: duplicate section [cpu], first on line 1");
	ini_error("[cpu]\ngovernor ondemand\n", "F:2: 'governor ondemand' is not an option");
	ini_error("[[sub]]\n", "F:1: subsection");
	ini_error("[cpu\n", "F:1: section header has no closing ']'");
	ini_error("[cpu] x\n", "F:1: text after a section header");
	ini_error("[cpu]\na=\"x\n", "F:2: unterminated quoted value");
	ini_error("[cpu]\na=x\x01y\n", "F:2: control character 0x01");
	ini_error("[ ]\n", "F:1: empty section name");
	ini_error("[cpu]\n=5\n", "F:2: '=' without a key");
}

static void test_regex(void **state)
{
	char why[256];
	assert_int_equal(pf_regex_search("CPU part\\s+:\\s+0x0?af\\b", "x\nCPU part\t: 0xaf\n", why,
					 sizeof(why)), 1);
	assert_int_equal(pf_regex_search("^cpu MHz\\s*:\\s*\\d+", "cpu MHz\t\t: 3600.000", why,
					 sizeof(why)), 1);
	assert_int_equal(pf_regex_search("\\d", "no digits", why, sizeof(why)), 0);
	assert_int_equal(pf_regex_search("[\\d]", "d", why, sizeof(why)), 1); /* literal in [] */
	assert_int_equal(pf_regex_search("(?i)intel", "Intel", why, sizeof(why)), -1);
	assert_contains(why, "Python-only");
	assert_int_equal(pf_regex_search("a(b", "ab", why, sizeof(why)), -1);
	assert_contains(why, "bad regular expression");
}

/* ---- the stock profiles ---- */

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	char *buf = calloc(1, 1 << 16);
	size_t n = fread(buf, 1, (1 << 16) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void test_stock_copies_unmodified(void **state)
{
	static const char *const names[] = { "balanced", "powersave", "throughput-performance",
		"latency-performance", "virtual-guest", "network-latency" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char a[512], b[512];
		snprintf(a, sizeof(a), FIXTURES "/%s/tuned.conf", names[i]);
		snprintf(b, sizeof(b), DATA "/%s/tuned.conf", names[i]);
		char *x = slurp(a), *y = slurp(b);
		assert_string_equal(x, y);
		assert_non_null(strstr(x, "# tuned configuration")); /* the upstream header */
		free(x);
		free(y);
	}
}

static void test_balanced(void **state)
{
	struct profile p;
	load(&p, FIXTURES "/balanced", "i7-4790");
	assert_string_equal(p.summary, "General non-specialized tuned profile");
	assert_string_equal(p.driver, "acpi-cpufreq");
	/* schedutil|ondemand|powersave: pmlab has schedutil. */
	assert_string_equal(p.cpufreq, "schedutil");
	assert_contains(p.cpufreq_origin, "balanced/tuned.conf:13: [cpu] governor=schedutil|ondemand|powersave");
	/* tuned 2.28's profile (tests/fixtures/profiles/tuned-version): no
	 * dynamic PM QoS */
	assert_int_equal(p.tuned_version, 228);
	assert_null(setting(&p, "pm_qos_dynamic"));
	assert_setting(&p, "module.cpufreq_conservative", "+r"); /* [modules], host only */
	assert_true(must_set(&p, "module.cpufreq_conservative")->host_only);
	assert_false(must_set(&p, "boost")->host_only);
	assert_setting(&p, "platform_profile", "balanced"); /* [acpi], 2.22+, host only */
	assert_int_equal(p.nsettings, 4);
	assert_setting(&p, "boost", "1");
	assert_contains(must_set(&p, "boost")->origin, "balanced/tuned.conf:16: [cpu] boost=1");
	/* x86_energy_perf_policy writes EPB whatever the driver: the hardware's
	 * bias (engine/epb.c) */
	assert_setting(&p, "energy_perf_bias", "normal");
	assert_false(must_set(&p, "energy_perf_bias")->host_only);
	assert_skipped(&p, "[cpu] energy_performance_preference=balance_performance", "intel_pstate only");
	assert_null(skipped(&p, "[modules] cpufreq_conservative=+r")); /* a host setting */
	assert_skipped(&p, "[disk]", "not modelled"); /* a section with only comments */
	assert_string_equal(must_skip(&p, "[scsi_host] alpm=med_power_with_dipm")->origin + strlen(FIXTURES),
			    "/balanced/tuned.conf:33");
	profile_free(&p);

	/* Under intel_pstate the same options become the driver's tunables. */
	load_env(&p, FIXTURES "/balanced", "i7-4790", &intel);
	assert_string_equal(p.driver, "intel_pstate");
	assert_string_equal(p.cpufreq, "intel_pstate");
	assert_setting(&p, "scaling_governor", "powersave"); /* its first: powersave */
	assert_setting(&p, "energy_perf_bias", "normal");
	assert_setting(&p, "energy_performance_preference", "balance_performance");
	assert_setting(&p, "boost", "1");
	assert_int_equal(p.nsettings, 6); /* and the [modules] and [acpi] host settings */
	profile_free(&p);
}

static void test_powersave(void **state)
{
	struct profile p;
	load(&p, FIXTURES "/powersave", "i7-4790");
	assert_string_equal(p.cpufreq, "schedutil");
	assert_setting(&p, "boost", "0");
	assert_setting(&p, "platform_profile", "low-power|quiet");
	assert_setting(&p, "energy_perf_bias", "power");
	/* vm.dirty_* become the flusher's settings (engine/writeback.c) */
	assert_setting(&p, "dirty_writeback_centisecs", "1500");
	assert_contains(must_set(&p, "dirty_writeback_centisecs")->origin,
			"[sysctl] vm.dirty_writeback_centisecs=1500");
	assert_int_equal(p.nsettings, 4);
	assert_skipped(&p, "[sysctl] kernel.nmi_watchdog=0", "not modelled");
	assert_skipped(&p, "[script] script=${i:PROFILE_DIR}/script.sh", "not modelled");
	assert_skipped(&p, "[eeepc_she]", "not modelled");
	profile_free(&p);

	/* energy_perf_bias=powersave|power: x86_energy_perf_policy's
	 * "powersave" is EPB 15, the kernel's "power". */
	load_env(&p, FIXTURES "/powersave", "i7-4790", &intel);
	assert_setting(&p, "scaling_governor", "powersave");
	assert_setting(&p, "energy_perf_bias", "power");
	assert_setting(&p, "energy_performance_preference", "power");
	profile_free(&p);
}

static void test_throughput_performance(void **state)
{
	struct profile p;
	load(&p, FIXTURES "/throughput-performance", "xeon-e5-2650l-v3");
	assert_string_equal(p.cpufreq, "performance");
	assert_setting(&p, "boost", "1");
	assert_setting(&p, "platform_profile", "performance");
	assert_setting(&p, "energy_perf_bias", "performance");
	assert_int_equal(p.nsettings, 3);
	assert_skipped(&p, "[cpu] min_perf_pct=100", "acpi-cpufreq");
	/* [vm] options of later tuned versions are listed */
	assert_skipped(&p, "[vm] dirty_bytes=40%", "not modelled");
	/* ThunderX sections: uname_regex=aarch64 fails on x86_64. */
	assert_skipped(&p, "[sysctl.thunderx] kernel.numa_balancing=0", "uname_regex 'aarch64'");
	assert_skipped(&p, "[vm.thunderx] transparent_hugepages=never", "disabled");
	assert_skipped(&p, "[disk] readahead=>4096", "not modelled");
	assert_skipped(&p, "[sysctl] net.core.somaxconn=>2048", "not modelled");
	profile_free(&p);

	load_env(&p, FIXTURES "/throughput-performance", "xeon-e5-2650l-v3", &intel);
	assert_setting(&p, "scaling_governor", "performance");
	assert_setting(&p, "energy_perf_bias", "performance");
	assert_setting(&p, "min_perf_pct", "100");
	assert_setting(&p, "energy_performance_preference", "performance");
	assert_int_equal(p.nsettings, 6);
	profile_free(&p);
}

/* A machine as older files wrote them: no POLL state listed first (x86
 * has one anyway, as Linux's state0). */
static void drop_poll(struct machine *m)
{
	assert_true(m->cstates[0].poll);
	memmove(&m->cstates[0], &m->cstates[1], (size_t)(m->ncstates - 1) * sizeof(m->cstates[0]));
	m->ncstates--;
	for (int i = 0; i < m->npkg_cstates; i++)
		m->pkg_cstates[i].requires--;
}

/* force_latency=cstate.id_no_zero:1|3, by hand: Linux's state1 is the
 * first C-state after POLL (state0): C1 at 2 us on i7-4790 and on the
 * E5-2650L v3, C1 at 3 us on xeon-2s-quad, stop0_lite at 1 us after
 * POWER9's snooze. A state1 of 0 us is passed over by _no_zero, and "3"
 * is then 3 us -- not state3. */
static void latency_on(const char *mname, const char *us, const char *state)
{
	struct profile p;
	load(&p, FIXTURES "/latency-performance", mname);
	assert_setting(&p, "pm_qos_latency_us", us);
	char note[64];
	snprintf(note, sizeof(note), "= %s, %s us", state, us);
	assert_contains(must_set(&p, "pm_qos_latency_us")->origin, note);
	profile_free(&p);
}

static void test_latency_performance(void **state)
{
	latency_on("i7-4790", "2", "C1");
	latency_on("xeon-e5-2650l-v3", "2", "C1");
	latency_on("xeon-2s-quad", "3", "C1");
	latency_on("power9-2n128", "1", "stop0_lite");

	struct machine m;
	struct profile p;
	struct pm_diag d = { "" };
	machine(&m, "i7-4790");
	m.cstates[machine_cstate_index(&m, "C1")].exit_ns = 0;
	assert_int_equal(profile_load(&p, FIXTURES "/latency-performance", &m, NULL, 0, &d), 0);
	assert_setting(&p, "pm_qos_latency_us", "3");
	assert_null(strstr(must_set(&p, "pm_qos_latency_us")->origin, "= C")); /* a number */
	assert_string_equal(p.cpufreq, "performance");
	assert_setting(&p, "boost", "1");
	assert_skipped(&p, "[sysctl] vm.swappiness=10", "not modelled");
	profile_free(&p);

	/* Without a listed POLL, state1 is still C1: state0 is implicit. */
	machine(&m, "i7-4790");
	drop_poll(&m);
	assert_int_equal(profile_load(&p, FIXTURES "/latency-performance", &m, NULL, 0, &d), 0);
	assert_setting(&p, "pm_qos_latency_us", "2");
	assert_contains(must_set(&p, "pm_qos_latency_us")->origin, "= C1, 2 us");
	profile_free(&p);
}

static void test_includes_of_stock(void **state)
{
	struct profile p;
	load(&p, FIXTURES "/virtual-guest", "i7-4790");
	assert_string_equal(p.summary, "Optimize for running inside a virtual guest");
	assert_string_equal(p.cpufreq, "performance");
	assert_contains(p.cpufreq_origin, "throughput-performance/tuned.conf:12");
	/* The child's value wins and keeps the parent's place. */
	const struct profile_skip *s = must_skip(&p, "[sysctl] vm.swappiness=30");
	assert_contains(s->origin, "virtual-guest/tuned.conf:23");
	assert_null(skipped(&p, "[sysctl] vm.swappiness=10"));
	assert_non_null(skipped(&p, "[vm] dirty_background_bytes=10%"));
	profile_free(&p);

	load(&p, FIXTURES "/network-latency", "i7-4790");
	assert_setting(&p, "pm_qos_latency_us", "2");
	assert_contains(must_set(&p, "pm_qos_latency_us")->origin, "latency-performance/tuned.conf:9");
	assert_skipped(&p, "[sysctl] kernel.numa_balancing=0", "not modelled");
	assert_skipped(&p, "[rtentsk]", "not modelled");
	profile_free(&p);
}

/* The 2013-2014 profiles the seed ran, and its "balanced with conservative". */
static void test_tuned_2_3(void **state)
{
	struct profile p;
	struct machine m;
	struct pm_diag d = { "" };
	machine(&m, "xeon-e5-2650l-v3");

	assert_int_equal(profile_load(&p, "tuned-2.3/balanced", &m, data_dirs, 1, &d), 0);
	assert_string_equal(p.cpufreq, "ondemand");
	assert_string_equal(p.summary, "");
	/* tuned 2.3 (the family) as RHEL 7 built it: dynamic tuning off in
	 * its tuned-main.conf, so no dynamic PM QoS although the profile has
	 * no force_latency; EPB on the hardware */
	assert_int_equal(p.tuned_version, 203);
	assert_null(setting(&p, "pm_qos_dynamic"));
	assert_skipped(&p, "[cpu] dynamic PM QoS (no force_latency)",
		       "dynamic tuning is off (dynamic_tuning = 0, ");
	assert_contains(must_skip(&p, "[cpu] dynamic PM QoS (no force_latency)")->why,
			"tuned-2.3/tuned-main.conf:");
	assert_setting(&p, "energy_perf_bias", "normal");
	assert_int_equal(p.nsettings, 1);
	profile_free(&p);

	/* upstream's build: the dynamic PM QoS, which the simulator runs */
	assert_int_equal(profile_load(&p, "tuned-2.3/balanced:dynamic_tuning=1", &m, data_dirs, 1,
				      &d), 0);
	assert_setting(&p, "pm_qos_dynamic", "100,1000,0.2");
	assert_false(must_set(&p, "pm_qos_dynamic")->host_only);
	assert_contains(must_set(&p, "pm_qos_dynamic")->origin, "dynamic PM QoS of tuned 2.3");
	profile_free(&p);
	assert_int_not_equal(profile_load(&p, "tuned-2.3/balanced:dynamic_tuning=maybe", &m,
					  data_dirs, 1, &d), 0);
	assert_contains(d.msg, "override 'dynamic_tuning=maybe': not a boolean");

	assert_int_equal(profile_load(&p, "tuned-2.3/balanced:governor=conservative,"
				      "sampling_down_factor=10", &m, data_dirs, 1, &d), 0);
	assert_string_equal(p.cpufreq, "conservative");
	assert_string_equal(p.cpufreq_origin, "override: [cpu] governor=conservative");
	assert_setting(&p, "sampling_down_factor", "10");
	assert_string_equal(must_set(&p, "sampling_down_factor")->origin,
			    "override: [cpu] sampling_down_factor=10");
	profile_free(&p);

	assert_int_equal(profile_load(&p, "tuned-2.3/throughput-performance", &m, data_dirs, 1, &d), 0);
	assert_string_equal(p.cpufreq, "performance");
	assert_setting(&p, "sched_min_granularity_ns", "10000000");
	assert_setting(&p, "sched_wakeup_granularity_ns", "15000000");
	/* v2.3.0's text: THP always, dirty ratios 10 and 3 */
	assert_setting(&p, "transparent_hugepage", "always");
	assert_setting(&p, "dirty_ratio", "10");
	assert_setting(&p, "dirty_background_ratio", "3");
	assert_setting(&p, "energy_perf_bias", "performance");
	assert_int_equal(p.nsettings, 6);
	assert_skipped(&p, "[disk] readahead=4096", "not modelled");
	profile_free(&p);

	assert_int_equal(profile_load(&p, "tuned-2.3/latency-performance", &m, data_dirs, 1, &d), 0);
	assert_setting(&p, "pm_qos_latency_us", "1");
	assert_setting(&p, "sched_min_granularity_ns", "10000000");
	assert_setting(&p, "sched_migration_cost_ns", "5000000");
	assert_setting(&p, "transparent_hugepage", "never");
	assert_setting(&p, "dirty_ratio", "10");
	assert_setting(&p, "dirty_background_ratio", "3");
	assert_int_equal(p.nsettings, 7);
	profile_free(&p);

	assert_int_equal(profile_load(&p, "tuned-2.3/powersave", &m, data_dirs, 1, &d), 0);
	assert_string_equal(p.cpufreq, "ondemand");
	assert_skipped(&p, "[disk] alpm=min_power", "not modelled");
	profile_free(&p);
}

/* ---- resolution ---- */

static void test_include_chain(void **state)
{
	struct profile p;
	load(&p, "chain-top", "i7-4790");
	assert_string_equal(p.summary, "chain middle"); /* chain-top has none */
	assert_string_equal(p.cpufreq, "ondemand");
	assert_contains(p.cpufreq_origin, "chain-middle/tuned.conf:7");
	assert_setting(&p, "sampling_down_factor", "50");
	assert_contains(must_set(&p, "sampling_down_factor")->origin, "chain-top/tuned.conf:6");
	assert_null(setting(&p, "pm_qos_latency_us"));       /* drop=force_latency */
	assert_null(setting(&p, "sched_latency_ns"));        /* the middle's replace=1 */
	assert_setting(&p, "sched_wakeup_granularity_ns", "4000000");
	assert_setting(&p, "sched_min_granularity_ns", "3000000");
	assert_contains(must_set(&p, "sched_min_granularity_ns")->origin, "chain-base/tuned.conf:15");
	assert_setting(&p, "sched_migration_cost_ns", "2000000");
	assert_int_equal(p.nsettings, 4);
	/* tuned's order: the base's sections first, [cpu] before [sysctl]. */
	assert_string_equal(p.settings[0].key, "sampling_down_factor");
	assert_string_equal(p.settings[1].key, "sched_wakeup_granularity_ns");
	profile_free(&p);
}

static void test_include_errors(void **state)
{
	const char *e = load_error("cycle-a", "i7-4790");
	assert_contains(e, "cycle-b/tuned.conf:2: include cycle: ");
	assert_contains(e, "cycle-a/tuned.conf -> ");
	assert_contains(e, "cycle-b/tuned.conf -> cycle-a");

	e = load_error("missing-include", "i7-4790");
	assert_contains(e, "missing-include/tuned.conf:3: include=no-such-profile-anywhere: "
			"no such profile");

	e = load_error("no-such-profile-anywhere", "i7-4790");
	assert_string_equal(e, "profile 'no-such-profile-anywhere': not found (expected a name from "
			    "pmlab profile list, a tuned.conf or a directory holding one)");
	e = load_error("../etc", "i7-4790");
	assert_contains(e, "not found");
}

/* A family (a directory of profiles that is not in the search path)
 * includes its own members first; a profile may include a namesake in a
 * later directory, as /etc/tuned/balanced includes the system balanced. */
static void test_family_and_namesake(void **state)
{
	char tmpl[] = "/tmp/pmlab-profile-XXXXXX";
	char *root = mkdtemp(tmpl);
	char path[700];
	assert_non_null(root);
	const char *files[][2] = {
		{ "fam/top", "[main]\ninclude=base\n" },
		{ "fam/base", "[cpu]\ngovernor=userspace\n" },
		{ "dirA/base", "[cpu]\ngovernor=powersave\n" },
		{ "dirA/over", "[main]\ninclude=over\n[cpu]\nboost=0\n" },
		{ "dirB/over", "[cpu]\ngovernor=conservative\nboost=1\n" },
	};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char dir[512];
		snprintf(dir, sizeof(dir), "%s/%s", root, files[i][0]);
		char *slash = strrchr(dir, '/');
		*slash = '\0';
		mkdir(dir, 0700);
		*slash = '/';
		mkdir(dir, 0700);
		snprintf(path, sizeof(path), "%s/tuned.conf", dir);
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fputs(files[i][1], f);
		fclose(f);
	}
	char a[512], b[512];
	snprintf(a, sizeof(a), "%s/dirA", root);
	snprintf(b, sizeof(b), "%s/dirB", root);
	const char *dirs[] = { a, b };
	struct machine m;
	struct profile p;
	struct pm_diag d = { "" };
	machine(&m, "i7-4790");

	snprintf(path, sizeof(path), "%s/fam/top", root);
	assert_int_equal(profile_load(&p, path, &m, dirs, 2, &d), 0);
	assert_string_equal(p.cpufreq, "userspace"); /* fam/base, not dirA/base */
	profile_free(&p);

	assert_int_equal(profile_load(&p, "over:tuned=2.24", &m, dirs, 2, &d), 0);
	assert_string_equal(p.cpufreq, "conservative"); /* dirB/over */
	assert_setting(&p, "boost", "0");                /* dirA/over wins */
	profile_free(&p);

	/* A name in FAMILY/NAME form is found one level down. */
	const char *up[] = { root };
	assert_int_equal(profile_load(&p, "fam/base", &m, up, 1, &d), 0);
	assert_string_equal(p.cpufreq, "userspace");
	profile_free(&p);

	char cmd[800];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

static void test_variables(void **state)
{
	struct profile p;
	load(&p, "variables", "i7-4790");
	assert_string_equal(p.cpufreq, "ondemand");             /* ${gov}|powersave */
	assert_setting(&p, "pm_qos_latency_us", "42");          /* from more.conf */
	assert_setting(&p, "sampling_down_factor", "25");       /* virt_check: bare metal */
	assert_setting(&p, "up_threshold", "70");               /* strip */
	assert_skipped(&p, "[disk] readahead=${undefined_elsewhere}", "not modelled");
	profile_free(&p);

	/* Expansion itself: escapes, PROFILE_DIR, cpuinfo on two machines. */
	static const char *const mnames[] = { "i7-4790", "xeon-e5-2650l-v3" };
	for (int i = 0; i < 2; i++) {
		struct pf_load L = { 0 };
		struct machine m;
		struct pm_diag d = { "" };
		char out[256];
		machine(&m, mnames[i]);
		L.m = &m;
		L.d = &d;
		L.dirs = fixture_dirs;
		L.ndirs = 1;
		assert_int_equal(pf_resolve(&L, "variables"), 0);
		assert_int_equal(pf_expand_at(&L, "${literal}|${xeon}|${i:PROFILE_DIR}", "/a/b/tuned.conf",
					      1, out, sizeof(out)), 0);
		assert_string_equal(out, i == 0 ? "${not_a_variable}|no|/a/b"
					   : "${not_a_variable}|yes|/a/b");
		assert_int_equal(pf_expand_at(&L, "${nope}", "F", 7, out, sizeof(out)), -1);
		assert_string_equal(d.msg, "F:7: unknown variable 'nope' (expected one defined in "
				    "[variables] before it is used)");
		assert_int_equal(pf_expand_at(&L, "${a-b}", "F", 8, out, sizeof(out)), -1);
		assert_contains(d.msg, "F:8: '${a-b}' is not a variable reference");
		assert_int_equal(pf_expand_at(&L, "${gov", "F", 9, out, sizeof(out)), -1);
		assert_contains(d.msg, "F:9: '${' without its '}'");
		pf_load_free(&L);
	}
}

static void test_variable_errors(void **state)
{
	const char *e = load_error("unknown-variable", "i7-4790");
	assert_contains(e, "unknown-variable/tuned.conf:3: unknown variable 'no_such_variable'");
	e = load_error("bad-function", "i7-4790");
	assert_contains(e, "bad-function/tuned.conf:2: ${f:exec}: function not supported by pmlab");
}

static void test_alternatives(void **state)
{
	struct profile p;
	load(&p, "alternatives", "i7-4790");
	assert_string_equal(p.cpufreq, "ondemand");
	/* C9 and state17 do not exist on i7-4790; C3 does (33 us). */
	assert_setting(&p, "pm_qos_latency_us", "33");
	assert_contains(must_set(&p, "pm_qos_latency_us")->origin, "(cstate.name:C3 = C3, 33 us)");
	/* POLL is 0 us, which _no_zero passes over; n/a allows no C-state. */
	assert_setting(&p, "pm_qos_resume_latency_us", "0");
	profile_free(&p);

	load_env(&p, "alternatives", "i7-4790", &intel);
	assert_setting(&p, "energy_perf_bias", "balance-power");
	/* nosuchgov|ondemand|powersave under intel_pstate: its powersave. */
	assert_setting(&p, "scaling_governor", "powersave");
	profile_free(&p);

	load(&p, "alternatives", "power9-2n128"); /* no C3 on POWER9: the number */
	assert_setting(&p, "pm_qos_latency_us", "5");
	profile_free(&p);
}

static void test_conditions(void **state)
{
	struct profile p;
	load(&p, "conditions", "i7-4790");
	assert_setting(&p, "sched_latency_ns", "9000000");
	assert_contains(must_set(&p, "sched_latency_ns")->origin, "[sched_x86]");
	assert_skipped(&p, "[sched_arm] kernel.sched_latency_ns=1000000",
		       "uname_regex 'aarch64' does not match");
	assert_skipped(&p, "[sched_xeon] sched_migration_cost_ns=7000000",
		       "cpuinfo_regex 'model name\\s*:.*Xeon' does not match");
	assert_skipped(&p, "[sched_off] sched_wakeup_granularity_ns=1", "enabled=false");
	assert_int_equal(p.nsettings, 1);
	profile_free(&p);

	load(&p, "conditions", "xeon-e5-2650l-v3");
	assert_setting(&p, "sched_migration_cost_ns", "7000000");
	profile_free(&p);

	static const struct profile_env arm = { .uname = "Linux box 6.1.0 #1 SMP aarch64" };
	load_env(&p, "conditions", "i7-4790", &arm);
	assert_string_equal(p.uname, "Linux box 6.1.0 #1 SMP aarch64");
	assert_setting(&p, "sched_latency_ns", "1000000");
	assert_skipped(&p, "[sched_x86] kernel.sched_latency_ns=9000000", "uname_regex 'x86_64'");
	profile_free(&p);

	load(&p, "conditions", "power9-2n128");
	assert_string_equal(p.uname, "Linux pmlab " PROFILE_UNAME_RELEASE " #1 SMP ppc64le");
	assert_null(setting(&p, "sched_latency_ns"));
	profile_free(&p);
}

static void test_bad_values(void **state)
{
	assert_contains(load_error("bad-governor", "i7-4790"),
			"bad-governor/tuned.conf:2: [cpu] governor=: empty governor name");
	const char *e = load_error("bad-latency", "i7-4790");
	assert_contains(e, "bad-latency/tuned.conf:3: [cpu] force_latency=abc: 'abc' is not a latency");
	assert_contains(load_error("bad-boost", "i7-4790"),
			"bad-boost/tuned.conf:2: [cpu] boost=yes: not 0 or 1");
	/* conservative's sampling_down_factor goes to 10, as the kernel's. */
	assert_contains(load_error("bad-sampling", "i7-4790"),
			"bad-sampling/tuned.conf:3: [cpu] sampling_down_factor=100: out of range "
			"(expected 1..10)");
	assert_contains(load_error("syntax-duplicate", "i7-4790"),
			"syntax-duplicate/tuned.conf:3: duplicate option 'governor'");
	assert_contains(load_error("syntax-line", "i7-4790"), "syntax-line/tuned.conf:2: ");
}

static void test_unknown_options(void **state)
{
	const char *e = load_error("unknown-option", "i7-4790");
	const char *tail = strstr(e, "unknown-option/tuned.conf:");
	assert_non_null(tail);
	assert_true(strncmp(tail, "unknown-option/tuned.conf:6: unknown [cpu] option 'frobnicate' "
			    "(expected governor, sampling_down_factor, ", 86) == 0);
	e = load_error("unknown-scheduler-option", "i7-4790");
	assert_contains(e, "unknown-scheduler-option/tuned.conf:2: unknown [scheduler] option "
			"'sched_latncy_ns' (expected sched_latency_ns");
}

static void test_overrides(void **state)
{
	struct profile p;
	load(&p, FIXTURES "/balanced:governor=conservative,sampling_down_factor=10", "i7-4790");
	assert_string_equal(p.cpufreq, "conservative");
	assert_setting(&p, "sampling_down_factor", "10");
	assert_setting(&p, "boost", "1"); /* the profile's other [cpu] options stay */
	profile_free(&p);

	/* On top of force_latency: the override's value replaces the file's. */
	load(&p, FIXTURES "/latency-performance:force_latency=cstate.name:C6", "i7-4790");
	assert_setting(&p, "pm_qos_latency_us", "133");
	profile_free(&p);

	struct machine m;
	struct pm_diag d = { "" };
	machine(&m, "i7-4790");
	assert_int_equal(profile_load(&p, FIXTURES "/balanced:frob=1", &m, NULL, 0, &d), -1);
	assert_contains(d.msg, "override: unknown [cpu] option 'frob' (expected governor, ");
	assert_int_equal(profile_load(&p, FIXTURES "/balanced:governor=", &m, NULL, 0, &d), -1);
	assert_string_equal(d.msg, "override: [cpu] governor=: empty governor name (expected "
			    "NAME[|NAME...], e.g. governor=ondemand|powersave)");
	assert_int_equal(profile_load(&p, FIXTURES "/balanced:governor", &m, NULL, 0, &d), -1);
	assert_contains(d.msg, "override 'governor': expected OPTION=VALUE");
	/* A governor the user names must exist; the profile's own lines may
	 * name governors pmlab lacks (they are skipped, as tuned does). */
	assert_int_equal(profile_load(&p, FIXTURES "/balanced:governor=nosuch", &m, NULL, 0, &d), -1);
	assert_contains(d.msg, "override: [cpu] governor=nosuch: no such governor");
}

static void test_sysfs(void **state)
{
	struct profile p;
	load(&p, "sysfs", "i7-4790");
	assert_string_equal(p.cpufreq, "ondemand");
	assert_setting(&p, "up_threshold", "60");
	assert_skipped(&p, "[sysfs] /sys/devices/system/cpu/cpufreq/conservative/freq_step=10",
		       "the governor that runs is ondemand, not conservative");
	assert_setting(&p, "scaling_max_khz", "3000000");
	assert_setting(&p, "scaling_min_khz", "1600000"); /* min stays min (policy*) */
	assert_skipped(&p, "[sysfs] /sys/devices/system/cpu/cpu0/cpufreq/scaling_min_freq=1200000",
		       "matches 1 of 8 CPUs");
	/* Linux's state0 = POLL, state4 = C6 and state5 = C7s on i7-4790. */
	assert_setting(&p, "cstate_disable", "POLL,C6,C7s");
	assert_skipped(&p, "[sysfs] /sys/devices/system/cpu/intel_pstate/min_perf_pct=50",
		       "acpi-cpufreq");
	assert_setting(&p, "boost", "0");
	assert_setting(&p, "sched_min_granularity_ns", "3000000");
	assert_skipped(&p, "[sysfs] /sys/kernel/mm/transparent_hugepage/enabled=never", "not modelled");
	profile_free(&p);

	/* xeon-2s-quad: state4 = C6 is its last. */
	load(&p, "sysfs", "xeon-2s-quad");
	assert_setting(&p, "cstate_disable", "POLL,C6");
	assert_setting(&p, "scaling_max_khz", "3000000");
	profile_free(&p);

	/* A machine file without POLL: state0 is implicit and cannot be
	 * disabled here; state4 = C6 all the same. */
	struct machine m;
	struct pm_diag d = { "" };
	machine(&m, "i7-4790");
	drop_poll(&m);
	assert_int_equal(profile_load(&p, "sysfs", &m, fixture_dirs, 1, &d), 0);
	assert_setting(&p, "cstate_disable", "C6,C7s");
	assert_skipped(&p, "[sysfs] /sys/devices/system/cpu/cpu*/cpuidle/state0/disable=1",
		       "state0 is POLL, which this machine file does not list");
	profile_free(&p);
}

/* By hand, i7-4790 (8 CPUs): CFS defaults x (1 + log2 8) = 4, so
 * sched_latency_ns 24 ms and sched_wakeup_granularity_ns 4 ms; with 2 CPUs
 * x 2: 12 ms and 2 ms. sched_migration_cost_ns is 0.5 ms either way. */
static void test_scheduler_and_modifiers(void **state)
{
	struct profile p;
	load(&p, "scheduler", "i7-4790");
	assert_setting(&p, "sched_latency_ns", "30000000");       /* >30 ms over 24 ms */
	assert_skipped(&p, "[scheduler] sched_wakeup_granularity_ns=>1000",
		       "sched_wakeup_granularity_ns is 4000000 (pmlab's default here)");
	assert_setting(&p, "sched_migration_cost_ns", "100000");   /* <0.1 ms under 0.5 ms */
	assert_skipped(&p, "[scheduler] isolated_cores=1", "not modelled");
	assert_skipped(&p, "[scheduler] group.ksoftirqd=0:f:2:*:^\\[ksoftirqd", "not modelled");
	assert_setting(&p, "sched_mc_power_savings", "1");
	/* Two lines set sched_min_granularity_ns: the later wins, the earlier
	 * is listed as superseded by it. */
	assert_setting(&p, "sched_min_granularity_ns", "5000000");
	assert_skipped(&p, "sched_min_granularity_ns=4000000", "superseded by ");
	assert_contains(must_skip(&p, "sched_min_granularity_ns=4000000")->why, "scheduler/tuned.conf:11");
	assert_skipped(&p, "[sysctl] vm.swappiness=10", "not modelled");
	profile_free(&p);

	struct machine m;
	struct pm_diag d = { "" };
	machine(&m, "i7-4790");
	assert_int_equal(machine_set_online(&m, 2, &d), 0);
	assert_int_equal(profile_load(&p, "scheduler", &m, fixture_dirs, 1, &d), 0);
	assert_setting(&p, "sched_latency_ns", "30000000");
	assert_skipped(&p, "[scheduler] sched_wakeup_granularity_ns=>1000", "is 2000000");
	profile_free(&p);
}

static void test_devices_and_instances(void **state)
{
	struct profile p;
	load(&p, "devices", "i7-4790");
	assert_string_equal(p.cpufreq, ""); /* the caller's */
	assert_skipped(&p, "[cpu] governor=ondemand", "devices=cpu0,cpu1 covers 2 of 8 CPUs");
	assert_skipped(&p, "[cpu] boost=0", "covers 2 of 8");
	assert_setting(&p, "pm_qos_latency_us", "10"); /* /dev/cpu_dma_latency is global */
	profile_free(&p);

	struct machine m;
	struct pm_diag d = { "" };
	machine(&m, "i7-4790");
	assert_int_equal(machine_set_online(&m, 2, &d), 0);
	assert_int_equal(profile_load(&p, "devices", &m, fixture_dirs, 1, &d), 0);
	assert_string_equal(p.cpufreq, "ondemand"); /* now cpu0,cpu1 is every CPU */
	assert_setting(&p, "boost", "0");
	profile_free(&p);

	load(&p, "two-cpu", "i7-4790");
	assert_string_equal(p.cpufreq, "ondemand");
	assert_null(setting(&p, "pm_qos_latency_us"));
	assert_skipped(&p, "[cpu_more] force_latency=3", "a second cpu instance");
	profile_free(&p);
}

static void test_caller_governor(void **state)
{
	struct profile p;
	static const struct profile_env cons = { .cpufreq = "conservative", .cpufreq_fixed = true };
	load_env(&p, FIXTURES "/throughput-performance:sampling_down_factor=7", "i7-4790", &cons);
	assert_string_equal(p.cpufreq, "conservative");
	assert_skipped(&p, "[cpu] governor=performance", "the run uses cpufreq conservative");
	/* mapped onto the governor that runs */
	assert_setting(&p, "sampling_down_factor", "7");
	profile_free(&p);

	/* Not fixed: the profile's governor runs, and performance has no
	 * sampling_down_factor. */
	static const struct profile_env deflt = { .cpufreq = "conservative" };
	load_env(&p, FIXTURES "/throughput-performance:sampling_down_factor=7", "i7-4790", &deflt);
	assert_string_equal(p.cpufreq, "performance");
	assert_skipped(&p, "[cpu] sampling_down_factor=7", "the governor performance has no");
	profile_free(&p);
}

/* tuned under amd-pstate-epp (amd_pstate): its two policies take the
 * profile's governor, EPP goes to amd_pstate's tunable (AMD's values),
 * EPB and intel_pstate's files are skipped with the reason; an EPP above
 * 0 under the performance policy is refused as the kernel refuses it. */
static void test_amd_pstate_mapping(void **state)
{
	struct profile p;
	static const struct profile_env amd = { .cpufreq = "amd_pstate", .cpufreq_fixed = true };
	load_env(&p, FIXTURES "/throughput-performance", "ryzen-7840u", &amd);
	assert_string_equal(p.driver, "amd-pstate-epp");
	assert_setting(&p, "scaling_governor", "performance");
	assert_skipped(&p, "[cpu] energy_perf_bias=performance", "AMD processors have no");
	assert_skipped(&p, "[cpu] min_perf_pct=100", "intel_pstate only (amd-pstate");
	profile_free(&p);
	load_env(&p, FIXTURES "/throughput-performance:energy_performance_preference=power",
		 "ryzen-7840u", &amd);
	assert_skipped(&p, "[cpu] energy_performance_preference=power", "EBUSY");
	assert_null(setting(&p, "energy_performance_preference"));
	profile_free(&p);
	load_env(&p, FIXTURES "/throughput-performance:governor=powersave,"
		 "energy_performance_preference=balance_power", "ryzen-7840u", &amd);
	assert_setting(&p, "scaling_governor", "powersave");
	assert_setting(&p, "energy_performance_preference", "balance_power");
	profile_free(&p);
}

/* power-profiles-daemon on a model: the intel_pstate laptop with HWP gets
 * EPP (and the powersave policy ppd forces) and EPB; the amd-pstate-epp
 * laptop EPP only; a VM without drivers nothing (ppd's placeholder). */
static void test_ppd_on_models(void **state)
{
	static const char *const epp[] = { "power", "balance_performance", "performance" };
	static const char *const epb[] = { "15", "6", "0" };
	static const char *const names[] = { "ppd/power-saver", "ppd/balanced", "ppd/performance" };
	static const struct profile_env intel_env = { .cpufreq = "intel_pstate" };
	static const struct profile_env amd_env = { .cpufreq = "amd_pstate" };
	static const struct profile_env none_env = { .cpufreq = "performance" };
	struct profile p;
	for (int i = 0; i < 3; i++) {
		load_env(&p, names[i], "i7-1260p", &intel_env);
		assert_setting(&p, "scaling_governor", "powersave");
		assert_setting(&p, "energy_performance_preference", epp[i]);
		assert_setting(&p, "energy_perf_bias", epb[i]);
		profile_free(&p);
		load_env(&p, names[i], "ryzen-7840u", &amd_env);
		assert_setting(&p, "energy_performance_preference", epp[i]);
		assert_null(setting(&p, "energy_perf_bias"));
		profile_free(&p);
		load_env(&p, names[i], "epyc-vm-2c", &none_env);
		assert_int_equal(p.nsettings, 0);
		assert_skipped(&p, names[i], "ppd writes nothing");
		profile_free(&p);
	}
	/* intel_pstate without HWP has no EPP: EPB only. */
	load_env(&p, "ppd/power-saver", "i7-4790", &intel_env);
	assert_null(setting(&p, "energy_performance_preference"));
	assert_setting(&p, "energy_perf_bias", "15");
	profile_free(&p);
	assert_contains(load_error("ppd/quiet", "i7-4790"), "not one of power-profiles-daemon's");
}

/* ppd's three profiles change the modelled hardware: on the hybrid laptop
 * (intel_pstate, HWP) a video load runs at a higher average clock and its
 * cores draw more energy from power-saver to balanced to performance. (The
 * uncore, on while any core runs, draws more the longer the cores take:
 * the whole package need not follow.) */
static void test_ppd_runs(void **state)
{
	static const char *const names[] = { "ppd/power-saver", "ppd/balanced", "ppd/performance" };
	double mhz[3], watts[3];
	for (int i = 0; i < 3; i++) {
		struct machine m;
		struct profile p;
		struct pm_diag d = { "" };
		struct profile_env env = { .cpufreq = "intel_pstate" };
		const char *sets[16];
		struct sim_config cfg = { .machine = &m, .workload = "video", .cpufreq = env.cpufreq,
					  .cpuidle = "menu", .duration = NS_PER_SEC, .seed = 1 };
		struct sim *s = NULL;
		struct run_result r;
		machine(&m, "i7-1260p");
		if (profile_load_env(&p, names[i], &m, &env, NULL, 0, &d))
			fail_msg("%s: %s", names[i], d.msg);
		assert_int_equal(profile_apply(&p, &cfg, false, NULL, 0, sets, 16, &d), 3);
		if (sim_create(&s, &cfg, &d) != 0 || sim_run(s, &r, &d) != 0)
			fail_msg("%s: %s", names[i], d.msg);
		mhz[i] = result_bzy_mhz(&r);
		watts[i] = r.energy_core_dynamic_j + r.energy_core_static_j;
		result_free(&r);
		sim_destroy(s);
		profile_free(&p);
	}
	for (int i = 1; i < 3; i++)
		if (!(mhz[i] > mhz[i - 1] && watts[i] > watts[i - 1]))
			fail_msg("%s: %.0f MHz %.3f J, %s: %.0f MHz %.3f J", names[i - 1], mhz[i - 1],
				 watts[i - 1], names[i], mhz[i], watts[i]);
}

static void test_apply(void **state)
{
	struct profile p;
	struct sim_config cfg = { .cpufreq = "schedutil" };
	const char *user[] = { "boost=0", "hz=1000" };
	const char *sets[8];
	struct pm_diag d = { "" };

	load(&p, "chain-top", "i7-4790");
	assert_int_equal(profile_apply(&p, &cfg, false, user, 2, sets, 8, &d), 6);
	assert_string_equal(cfg.cpufreq, "ondemand");
	assert_int_equal(cfg.nsets, 6);
	assert_ptr_equal(cfg.sets, sets);
	assert_string_equal(sets[0], "sampling_down_factor=50");
	assert_string_equal(sets[4], "boost=0"); /* the user's come last: they win */
	assert_string_equal(sets[5], "hz=1000");

	cfg.cpufreq = "schedutil";
	assert_int_equal(profile_apply(&p, &cfg, true, NULL, 0, sets, 8, &d), 4);
	assert_string_equal(cfg.cpufreq, "schedutil");
	assert_int_equal(profile_apply(&p, &cfg, false, user, 2, sets, 5, &d), -1);
	assert_contains(d.msg, "do not fit");
	profile_free(&p);
}

/* The resolved settings run: sim_create accepts every key. */
static void test_settings_are_valid_sets(void **state)
{
	static const char *const specs[] = { "balanced", "powersave", "throughput-performance",
		"latency-performance", "virtual-guest", "network-latency", "sysfs", "scheduler",
		"alternatives", "chain-top", "tuned-2.3/balanced:governor=conservative,sampling_down_factor=10",
		"tuned-2.3/latency-performance", "tuned-2.3/throughput-performance" };
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++)
		for (int pstate = 0; pstate < 2; pstate++) {
			struct machine m;
			struct profile p;
			struct pm_diag d = { "" };
			static const char *const dirs[] = { FIXTURES, DATA };
			struct profile_env env = { .cpufreq = pstate ? "intel_pstate" : "performance",
						   .cpufreq_fixed = pstate != 0 };
			const char *sets[64];
			struct sim_config cfg = { .machine = &m, .workload = "batch",
						  .cpufreq = env.cpufreq, .cpuidle = "menu",
						  .duration = NS_PER_MS, .seed = 1 };
			struct sim *s = NULL;

			machine(&m, "i7-4790");
			if (profile_load_env(&p, specs[i], &m, &env, dirs, 2, &d))
				fail_msg("%s: %s", specs[i], d.msg);
			assert_true(profile_apply(&p, &cfg, pstate != 0, NULL, 0, sets, 64, &d) >= 0);
			if (sim_create(&s, &cfg, &d) != 0)
				fail_msg("%s (%s): %s", specs[i], env.cpufreq, d.msg);
			sim_destroy(s);
			profile_free(&p);
		}
}

struct listed {
	int n, hidden;
	bool balanced, family, summary;
};

static void on_entry(void *ctx, const struct profile_entry *e)
{
	struct listed *l = ctx;
	l->n++;
	if (strcmp(e->name, "balanced") == 0 && !e->hidden_by[0]) {
		l->balanced = true;
		l->summary = strcmp(e->summary, "General non-specialized tuned profile") == 0;
	}
	if (strcmp(e->name, "tuned-2.3/latency-performance") == 0)
		l->family = true;
	if (e->hidden_by[0]) {
		l->hidden++;
		assert_string_equal(e->hidden_by, FIXTURES);
	}
}

/* tuned's built-in functions: functions/tuned.conf asserts each result,
 * so a wrong one fails the load with the assertion's message. */
static void test_functions(void **state)
{
	struct profile p;
	load(&p, "functions", "xeon-2s-quad");
	assert_string_equal(p.cpufreq, "ondemand");
	profile_free(&p);
	assert_contains(load_error("function-assertion", "xeon-2s-quad"),
			"function-assertion/tuned.conf:3: ${f:assertion}: assertion 'deliberately "
			"wrong' failed: '1,2' != '1,3'");
	/* On another machine the same assertions hold only where the machine
	 * agrees: i7-4790 has one package, so calc_isolated_cores differs. */
	assert_contains(load_error("functions", "i7-4790"), "assertion 'calc 1' failed: "
			"'1,2,3,4,5,6,7' != '1,2,3,5,6,7'");
	/* The host's CPUs: numbers with a gap, two packages, more present. */
	static const int cpu[] = { 0, 1, 2, 4, 5, 6 }, pkg[] = { 0, 0, 0, 1, 1, 1 };
	static const struct profile_cpus host = { 6, cpu, pkg, "0-7" };
	struct profile_env env = { .cpus = &host };
	struct machine m;
	struct pm_diag d = { "" };
	machine(&m, "xeon-2s-quad");
	assert_int_equal(profile_load_env(&p, "functions", &m, &env, fixture_dirs, 1, &d), -1);
	assert_contains(d.msg, "assertion 'calc 1' failed: '1,2,5,6' != '1,2,3,5,6,7'");
}

/* tuned 2.20's cpu-partitioning-powersave, in a profile of our own with
 * the same options: variables files, the X = ${X} idiom, assertions,
 * cpulist functions, force_latency from a variable, no_turbo=true. */
static void test_cpu_partitioning(void **state)
{
	struct profile p;
	load_env(&p, "tuned-2.20/cpu-partitioning-powersave", "xeon-2s-quad", &intel);
	assert_int_equal(p.tuned_version, 220);
	assert_setting(&p, "pm_qos_latency_us", "3"); /* cstate.name:C1 */
	assert_contains(must_set(&p, "pm_qos_latency_us")->origin, "force_latency=${max_power_state} "
			"(cstate.name:C1 = C1, 3 us)");
	assert_setting(&p, "no_turbo", "1");
	assert_setting(&p, "scaling_governor", "performance"); /* the parent's */
	assert_null(setting(&p, "pm_qos_dynamic"));          /* force_latency is set */
	/* tuned splits "cstate.name:C1|10" into arguments too, so assert2
	 * has four and is skipped: listed, not an error. */
	assert_contains(must_skip(&p, "${f:assertion_non_equal:max_power_state is set...}")->why,
			"not checked");
	profile_free(&p);

	/* The parent on its own: its variables file isolates 2-3. */
	load(&p, "tuned-2.20/cpu-partitioning", "xeon-2s-quad");
	assert_setting(&p, "pm_qos_latency_us", "3");
	assert_skipped(&p, "[scheduler] isolated_cores=${isolated_cores}", "not modelled");
	profile_free(&p);
	/* --cpus 2: isolated_cores 2-3 are not online, tuned's assert2 fails. */
	struct machine m;
	struct pm_diag d = { "" };
	machine(&m, "xeon-2s-quad");
	assert_int_equal(machine_set_online(&m, 2, &d), 0);
	assert_int_equal(profile_load(&p, "tuned-2.20/cpu-partitioning", &m, fixture_dirs, 1, &d),
			 -1);
	assert_contains(d.msg, "assertion 'isolated_cores contains online CPU(s)' failed: "
			"'2,3' != ''");
}

/* A [variables] include= that names no file is listed and skipped, as
 * tuned logs it; without the variable it would have given, an assertion
 * catches the undefined value as tuned's does. */
static void test_missing_variables_file(void **state)
{
	struct profile p;
	load(&p, "tuned-2.20/missing-variables-file", "i7-4790");
	assert_string_equal(p.cpufreq, "ondemand");
	assert_contains(must_skip(&p, "[variables] include=${i:PROFILE_DIR}/no-such-variables.conf")->why,
			"no such file: skipped, as tuned does");
	profile_free(&p);

	char dir[] = "/tmp/pmlab-vars-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "cp -r %s/tuned-2.20 %s/ && rm %s/tuned-2.20/variables/"
		 "cpu-partitioning-powersave-variables.conf", FIXTURES, dir, dir);
	assert_int_equal(system(cmd), 0);
	const char *dirs[] = { dir };
	struct machine m;
	struct pm_diag d = { "" };
	machine(&m, "xeon-2s-quad");
	assert_int_equal(profile_load(&p, "tuned-2.20/cpu-partitioning-powersave", &m, dirs, 1, &d),
			 -1);
	assert_contains(d.msg, "assertion 'isolated_cores are set' failed: '${isolated_cores}' == "
			"'${isolated_cores}'");
	snprintf(cmd, sizeof(cmd), "rm -r %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* The tuned version emulated: the family directory's, 2.20 by default,
 * NAME:tuned=X.Y over both. It decides dynamic PM QoS and [acpi]. */
static void test_tuned_versions(void **state)
{
	struct profile p;
	load(&p, "tuned-2.20/acpi-and-modules", "i7-4790");
	assert_int_equal(p.tuned_version, 220);
	assert_setting(&p, "pm_qos_dynamic", "100,1000,0.2");
	assert_skipped(&p, "[acpi] platform_profile=low-power|quiet", "tuned 2.20 has no acpi plugin");
	assert_setting(&p, "module.cpufreq_conservative", "+r");
	assert_setting(&p, "cpuidle_governor", "teo");
	assert_true(must_set(&p, "cpuidle_governor")->host_only);
	profile_free(&p);

	load(&p, "tuned-2.20/acpi-and-modules:tuned=2.22", "i7-4790");
	assert_int_equal(p.tuned_version, 222);
	assert_null(setting(&p, "pm_qos_dynamic"));
	assert_setting(&p, "platform_profile", "low-power|quiet");
	assert_true(must_set(&p, "platform_profile")->host_only);
	profile_free(&p);

	/* no_turbo=Yes: tuned's get_bool() spelling, under intel_pstate */
	load_env(&p, "tuned-2.20/acpi-and-modules:tuned=2.21.1", "i7-4790", &intel);
	assert_int_equal(p.tuned_version, 221);
	assert_setting(&p, "no_turbo", "1");
	assert_setting(&p, "pm_qos_dynamic", "100,1000,0.2");
	profile_free(&p);

	/* latency_low and friends feed it; a C-state name resolves */
	load(&p, "balanced:tuned=2.20,latency_low=cstate.name:C1E,load_threshold=0.5", "i7-4790");
	assert_int_equal(p.tuned_version, 220);
	assert_skipped(&p, "[cpu] boost=1", "tuned 2.20 has no [cpu] boost (2.24 added it)");
	assert_setting(&p, "pm_qos_dynamic", "10,1000,0.5");
	profile_free(&p);
	load(&p, "balanced:tuned=2.28,latency_low=50", "i7-4790");
	assert_null(setting(&p, "pm_qos_dynamic"));
	assert_skipped(&p, "[cpu] latency_low=50", "tuned 2.28 does no dynamic tuning by default");
	profile_free(&p);
	load(&p, "latency-performance:tuned=2.21,latency_high=5", "i7-4790");
	assert_null(setting(&p, "pm_qos_dynamic"));
	assert_skipped(&p, "[cpu] latency_high=5", "the latency is static");
	profile_free(&p);

	assert_contains(load_error("balanced:tuned=3.0", "i7-4790"),
			"override 'tuned=3.0': not a tuned version (expected e.g. tuned=2.20");
	assert_contains(load_error("balanced:tuned=2.20,load_threshold=lots", "i7-4790"),
			"[cpu] load_threshold=lots: not a load average");
	assert_contains(load_error("tuned-2.20/acpi-and-modules:no_turbo=maybe", "i7-4790"),
			"[cpu] no_turbo=maybe: not a boolean");
	/* the sim's runs leave host settings out; it runs tuned's dynamic PM
	 * QoS itself (engine/pmqos_dynamic.c) */
	struct sim_config cfg = { 0 };
	const char *sets[16];
	load(&p, "tuned-2.20/acpi-and-modules", "i7-4790");
	int n = profile_apply(&p, &cfg, false, NULL, 0, sets, 16, &(struct pm_diag){ "" });
	assert_int_equal(n, 1);
	assert_string_equal(sets[0], "pm_qos_dynamic=100,1000,0.2");
	profile_free(&p);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* A family's tuned-main.conf says whether dynamic tuning runs, as
 * /etc/tuned/tuned-main.conf does for tuned; a malformed one is an error
 * naming its line. [vm] and vm.* map onto the engine's keys. */
static void test_tuned_main_conf(void **state)
{
	char dir[] = "/tmp/pmlab-main-XXXXXX", path[512], family[300];
	struct profile p;
	struct machine m;
	struct pm_diag d = { "" };
	assert_non_null(mkdtemp(dir));
	machine(&m, "i7-4790");
	snprintf(family, sizeof(family), "%s/tuned-2.20", dir);
	assert_int_equal(mkdir(family, 0700), 0);
	snprintf(path, sizeof(path), "%s/vm", family);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/vm/tuned.conf", family);
	write_file(path, "[cpu]\ngovernor=ondemand\n[vm]\ntransparent_hugepages=madvise\n"
		   "[sysctl]\nvm.dirty_expire_centisecs=1000\nvm.dirty_background_ratio=5\n");
	snprintf(path, sizeof(path), "%s/vm", family);

	/* No tuned-main.conf: 2.20 runs dynamic tuning. */
	assert_int_equal(profile_load(&p, path, &m, NULL, 0, &d), 0);
	assert_setting(&p, "pm_qos_dynamic", "100,1000,0.2");
	assert_setting(&p, "transparent_hugepage", "madvise");
	assert_setting(&p, "dirty_expire_centisecs", "1000");
	assert_setting(&p, "dirty_background_ratio", "5");
	profile_free(&p);

	char conf[400];
	snprintf(conf, sizeof(conf), "%s/tuned-main.conf", family);
	write_file(conf, "# comment\nupdate_interval = 10\ndynamic_tuning = False\n");
	assert_int_equal(profile_load(&p, path, &m, NULL, 0, &d), 0);
	assert_null(setting(&p, "pm_qos_dynamic"));
	assert_contains(must_skip(&p, "[cpu] dynamic PM QoS (no force_latency)")->why,
			"tuned-main.conf:3");
	profile_free(&p);
	/* An override wins over the file. */
	char spec[600];
	snprintf(spec, sizeof(spec), "%s:dynamic_tuning=1", path);
	assert_int_equal(profile_load(&p, spec, &m, NULL, 0, &d), 0);
	assert_setting(&p, "pm_qos_dynamic", "100,1000,0.2");
	profile_free(&p);

	write_file(conf, "dynamic_tuning = sometimes\n");
	assert_int_not_equal(profile_load(&p, path, &m, NULL, 0, &d), 0);
	assert_contains(d.msg, "tuned-main.conf:1: dynamic_tuning = sometimes: not a boolean");
	write_file(conf, "dynamic_tuning\n");
	assert_int_not_equal(profile_load(&p, path, &m, NULL, 0, &d), 0);
	assert_contains(d.msg, "tuned-main.conf:1: not a 'key = value' line");
	unlink(conf);

	/* tuned 2.3 knows always and never only; a bad mode is an error. */
	snprintf(spec, sizeof(spec), "%s:tuned=2.3", path);
	assert_int_equal(profile_load(&p, spec, &m, NULL, 0, &d), 0);
	assert_null(setting(&p, "transparent_hugepage"));
	assert_skipped(&p, "[vm] transparent_hugepages=madvise", "takes always or never only");
	profile_free(&p);
	snprintf(path, sizeof(path), "%s/vm/tuned.conf", family);
	write_file(path, "[vm]\ntransparent_hugepages=sometimes\n");
	snprintf(path, sizeof(path), "%s/vm", family);
	assert_int_not_equal(profile_load(&p, path, &m, NULL, 0, &d), 0);
	assert_contains(d.msg, "[vm] transparent_hugepages=sometimes: not a transparent hugepage mode");

	snprintf(path, sizeof(path), "%s/vm/tuned.conf", family);
	unlink(path);
	snprintf(path, sizeof(path), "%s/vm", family);
	rmdir(path);
	rmdir(family);
	rmdir(dir);
}

/* Long chains of variables and functions, as cpu-partitioning has. */
static void test_deep_variables(void **state)
{
	char dir[] = "/tmp/pmlab-deep-XXXXXX", path[256];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/tuned.conf", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "[variables]\nv0=1\n");
	for (int i = 1; i <= 20; i++)
		fprintf(f, "v%d=${f:cpulist_unpack:${v%d}}\n", i, i - 1);
	fprintf(f, "[cpu]\nforce_latency=${v20}\n");
	fclose(f);
	struct profile p;
	load(&p, dir, "i7-4790");
	assert_setting(&p, "pm_qos_latency_us", "1");
	profile_free(&p);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "[variables]\nv0=1\n");
	for (int i = 1; i <= 40; i++)
		fprintf(f, "v%d=${f:cpulist_unpack:${v%d}}\n", i, i - 1);
	fprintf(f, "[cpu]\nforce_latency=${v40}\n");
	fclose(f);
	assert_contains(load_error(dir, "i7-4790"), "nest more than 64 deep");
	unlink(path);
	rmdir(dir);
}

static void test_list(void **state)
{
	struct listed l = { 0 };
	struct pm_diag d = { "" };
	const char *dirs[] = { FIXTURES, DATA };
	assert_int_equal(profile_list(dirs, 2, on_entry, &l, &d), 0);
	assert_true(l.balanced);
	assert_true(l.summary);
	assert_true(l.family);
	assert_int_equal(l.hidden, 6); /* data's six stock profiles, behind the fixtures' */
	assert_int_equal(l.n, 35 + 10); /* every fixture and data profile, once */
}

/* tuned's own directories are searched unless $PMLAB_TUNED_DIRS replaces
 * them; the test suite runs with it empty, so that no host's tuned
 * installation is read (meson.build). */
static void test_tuned_dirs_replaced(void **state)
{
	struct machine m;
	struct profile p;
	struct pm_diag d = { "" };
	machine(&m, "xeon-2s-quad");
	const char *saved = getenv("PMLAB_TUNED_DIRS");
	char *keep = saved ? strdup(saved) : NULL;

	assert_int_equal(setenv("PMLAB_TUNED_DIRS", FIXTURES, 1), 0);
	assert_int_equal(profile_load(&p, "chain-top", &m, NULL, 0, &d), 0);
	profile_free(&p);
	assert_int_equal(setenv("PMLAB_TUNED_DIRS", "", 1), 0);
	assert_int_equal(profile_load(&p, "chain-top", &m, NULL, 0, &d), -1);
	assert_non_null(strstr(d.msg, "not found"));
	profile_free(&p);
	if (keep)
		setenv("PMLAB_TUNED_DIRS", keep, 1);
	else
		unsetenv("PMLAB_TUNED_DIRS");
	free(keep);
}

static void test_helpers(void **state)
{
	assert_int_equal(pf_bool("True"), 1);
	assert_int_equal(pf_bool("0"), 0);
	assert_int_equal(pf_bool("maybe"), -1);
	assert_int_equal(pf_devices_matched("*", 8), 8);
	assert_int_equal(pf_devices_matched("cpu0,cpu1", 8), 2);
	assert_int_equal(pf_devices_matched("!cpu0", 8), 7);
	assert_int_equal(pf_devices_matched("cpu[2-3] cpu7", 8), 3);
	assert_int_equal(pf_devices_matched("cpu*,!cpu[0-5]", 8), 2);
	assert_true(pf_name_ok("tuned-2.3/balanced"));
	assert_false(pf_name_ok("a/b/c"));
	assert_false(pf_name_ok("../x"));
	assert_false(pf_name_ok("a//b"));
	assert_false(pf_name_ok("a b"));
	assert_false(pf_name_ok(""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ini_configobj_rules),
		cmocka_unit_test(test_ini_errors),
		cmocka_unit_test(test_regex),
		cmocka_unit_test(test_helpers),
		cmocka_unit_test(test_stock_copies_unmodified),
		cmocka_unit_test(test_balanced),
		cmocka_unit_test(test_powersave),
		cmocka_unit_test(test_throughput_performance),
		cmocka_unit_test(test_latency_performance),
		cmocka_unit_test(test_includes_of_stock),
		cmocka_unit_test(test_tuned_2_3),
		cmocka_unit_test(test_include_chain),
		cmocka_unit_test(test_include_errors),
		cmocka_unit_test(test_family_and_namesake),
		cmocka_unit_test(test_variables),
		cmocka_unit_test(test_variable_errors),
		cmocka_unit_test(test_alternatives),
		cmocka_unit_test(test_conditions),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_unknown_options),
		cmocka_unit_test(test_overrides),
		cmocka_unit_test(test_sysfs),
		cmocka_unit_test(test_scheduler_and_modifiers),
		cmocka_unit_test(test_devices_and_instances),
		cmocka_unit_test(test_caller_governor),
		cmocka_unit_test(test_amd_pstate_mapping),
		cmocka_unit_test(test_ppd_on_models),
		cmocka_unit_test(test_ppd_runs),
		cmocka_unit_test(test_apply),
		cmocka_unit_test(test_settings_are_valid_sets),
		cmocka_unit_test(test_functions),
		cmocka_unit_test(test_cpu_partitioning),
		cmocka_unit_test(test_missing_variables_file),
		cmocka_unit_test(test_tuned_versions),
		cmocka_unit_test(test_tuned_main_conf),
		cmocka_unit_test(test_deep_variables),
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_tuned_dirs_replaced),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
