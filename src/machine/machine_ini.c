// SPDX-License-Identifier: GPL-2.0-only
/* Machine INI files: parsing (with inih) and writing.
 *
 * inih splits "key = value" lines; everything else is done here, because
 * the packaged inih cannot report line numbers (no INI_HANDLER_LINENO) and
 * does not call the handler for a section without keys. Our reader hands
 * inih one line at a time and so always knows the current line; it also
 * takes section headers itself, strips comments and leading blanks (so no
 * line is mistaken for a continuation line), and refuses lines that would
 * not fit inih's line buffer instead of letting inih split them.
 *
 * The parser only checks what it must to store a value (syntax, duplicates,
 * array limits, missing keys); every rule about the values lives in
 * machine_check(), which it runs at the end with the line of every value. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#endif

#include "machine_lines.h"

#include <ini.h>

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_CHARS 190 /* longest line after comments are cut; inih holds 197 */
#define MAX_FILE_BYTES (1 << 20)
#define MAX_INT 1000000000LL
#define MAX_US 1e9
#define ARRAY_SIZE(a) ((int)(sizeof(a) / sizeof((a)[0])))

enum vtype {
	V_NAME,     /* identifier (machine name) */
	V_TEXT,     /* free one-line text */
	V_INT,
	V_U32,      /* a count or figure that is never negative (capacity) */
	V_DOUBLE,
	V_KHZ,
	V_US,       /* microseconds in the file, sim_ns in the struct */
	V_MW,       /* milliwatts in the file, watts in the struct */
	V_PCT,      /* percent in the file, a share 0..1 in the struct */
	V_BOOL,
	V_DOMAIN,
	V_CPUFREQ_DRIVER,
	V_CPUIDLE_DRIVER,
	V_FIE,      /* enum freq_invariance by name */
	V_PM_PROFILE, /* enum pm_profile by name */
	V_TURBO,    /* enum turbo_control by name */
	V_REQUIRES, /* C-state name, resolved to an index at the end */
};

struct key {
	const char *name;
	enum vtype type;
	size_t off;  /* field in the section's record */
	size_t size; /* of a string field */
	size_t line; /* int in the section's line record */
	const char *example; /* a value, for "missing key" messages */
	unsigned flags;      /* K_REQUIRED, K_IF_SET */
};

enum {
	K_REQUIRED = 1, /* the parser refuses a section without it */
	K_IF_SET = 2,   /* written only when not zero, empty or the enum's first value */
};

#define FIELD(rec, lrec, name, type, field, lfield, example, req) \
	{ name, type, offsetof(struct rec, field), sizeof(((struct rec *)0)->field), \
	  offsetof(struct lrec, lfield), example, req }
#define MKEY(...) FIELD(machine, machine_lines, __VA_ARGS__)
#define CKEY(...) FIELD(cstate, cstate_lines, __VA_ARGS__)
#define PKEY(...) FIELD(pkg_cstate, pkg_cstate_lines, __VA_ARGS__)
#define TKEY(...) FIELD(cpu_type, cpu_type_lines, __VA_ARGS__)

static const struct key machine_keys[] = {
	MKEY("name", V_NAME, name, name, "<name>", K_REQUIRED),
	MKEY("description", V_TEXT, description, description, "<text>", K_IF_SET),
	MKEY("tdp_w", V_DOUBLE, tdp_w, tdp_w, "<watts>", 0),
	MKEY("cpufreq_driver", V_CPUFREQ_DRIVER, cpufreq_driver, cpufreq_driver, "acpi-cpufreq", 0),
	MKEY("cpuidle_driver", V_CPUIDLE_DRIVER, cpuidle_driver, cpuidle_driver, "acpi_idle", 0),
	MKEY("pm_profile", V_PM_PROFILE, pm_profile, pm_profile, "desktop|mobile|workstation|"
	     "enterprise_server|soho_server|appliance_pc|performance_server|tablet|unspecified",
	     K_IF_SET),
};

static const struct key topology_keys[] = {
	MKEY("packages", V_INT, packages, packages, "<count>", K_REQUIRED),
	MKEY("cores_per_package", V_INT, cores_per_package, cores_per_package, "<count>",
	     K_REQUIRED),
	MKEY("threads_per_core", V_INT, threads_per_core, threads_per_core, "<count>", K_REQUIRED),
	MKEY("llc_cores", V_INT, llc_cores, llc_cores, "<count>", 0),
	MKEY("freq_domain", V_DOMAIN, freq_domain, freq_domain, "core|cluster|package", K_REQUIRED),
	MKEY("cluster_cores", V_INT, cluster_cores, cluster_cores, "<count>", K_IF_SET),
	MKEY("online_cpus", V_INT, online_cpus, online_cpus, "<count>", 0),
};

static const struct key frequency_keys[] = {
	MKEY("base_khz", V_KHZ, base_khz, base_khz, "<kHz>", K_REQUIRED),
	MKEY("transition_latency_us", V_US, transition_latency_ns, transition_latency, "<us>", 0),
	MKEY("freq_invariance", V_FIE, freq_invariance, freq_invariance,
	     "max|turbo_4c|turbo_1c|base|none", 0),
	MKEY("turbo", V_TURBO, turbo_control, turbo_control, "os|hardware", K_IF_SET),
	MKEY("hwp", V_BOOL, hwp, hwp, "0|1", K_IF_SET),
	MKEY("lowest_nonlinear_khz", V_KHZ, lowest_nonlinear_khz, lowest_nonlinear, "<kHz>",
	     K_IF_SET),
	MKEY("perf_scaling_khz", V_KHZ, perf_scaling_khz, perf_scaling, "<kHz per unit>", K_IF_SET),
	MKEY("epp_balance_performance", V_INT, epp_balance_perf, epp_balance_perf, "1..255",
	     K_IF_SET),
};

static const struct key power_keys[] = {
	MKEY("ceff_nf", V_DOUBLE, ceff_nf, ceff_nf, "<nF>", K_REQUIRED),
	MKEY("leak_w", V_DOUBLE, leak_w, leak_w, "<watts>", K_REQUIRED),
	MKEY("leak_beta", V_DOUBLE, leak_beta, leak_beta, "<per volt>", 0),
	MKEY("smt_activity", V_DOUBLE, smt_activity, smt_activity, "<factor>", 0),
	/* required when threads_per_core > 1, see finish() */
	MKEY("smt_throughput", V_DOUBLE, smt_throughput, smt_throughput, "<share>", 0),
	MKEY("uncore_w", V_DOUBLE, uncore_w, uncore_w, "<watts>", K_REQUIRED),
	MKEY("platform_w", V_DOUBLE, platform_w, platform_w, "<watts>", K_REQUIRED),
	MKEY("vr_slew_mv_per_us", V_DOUBLE, vr_slew_mv_per_us, vr_slew, "<mV/us>", K_IF_SET),
	MKEY("cluster_w", V_DOUBLE, cluster_w, cluster_w, "<watts>", K_IF_SET),
};

static const struct key power_limit_keys[] = {
	MKEY("pl1_w", V_DOUBLE, pl1_w, pl1_w, "<watts>", 0),
	MKEY("pl1_window_us", V_US, pl1_window_ns, pl1_window, "<us>", 0),
	MKEY("pl2_w", V_DOUBLE, pl2_w, pl2_w, "<watts>", 0),
	MKEY("pl2_window_us", V_US, pl2_window_ns, pl2_window, "<us>", 0),
	MKEY("control_us", V_US, pl_control_ns, pl_control, "<us>", 0),
};

static const struct key cache_keys[] = {
	MKEY("refill_us", V_US, refill_ns, refill, "<us>", 0),
	MKEY("share_stall_cut", V_DOUBLE, share_stall_cut, share_stall_cut, "<0..1>", 0),
	MKEY("share_window_us", V_US, share_window_ns, share_window, "<us>", 0),
};

static const struct key costs_keys[] = {
	MKEY("syscall_us", V_US, syscall_ns, syscall, "<us>", 0),
	MKEY("context_switch_us", V_US, context_switch_ns, context_switch, "<us>", 0),
	MKEY("wakeup_ipi_us", V_US, wakeup_ipi_ns, wakeup_ipi, "<us>", 0),
	MKEY("fork_us", V_US, fork_ns, fork, "<us>", 0),
	MKEY("exec_us", V_US, exec_ns, exec, "<us>", 0),
	MKEY("tick_us", V_US, tick_cost_ns, tick_cost, "<us>", 0),
	MKEY("tick_stop_us", V_US, tick_stop_ns, tick_stop, "<us>", 0),
	MKEY("tick_restart_us", V_US, tick_restart_ns, tick_restart, "<us>", 0),
	MKEY("tick_reprogram_us", V_US, tick_reprogram_ns, tick_reprogram, "<us>", 0),
	MKEY("idle_entry_us", V_US, idle_entry_ns, idle_entry, "<us>", 0),
	MKEY("idle_exit_us", V_US, idle_exit_ns, idle_exit, "<us>", 0),
};

static const struct key background_keys[] = {
	MKEY("wakeups_per_s", V_DOUBLE, bg_wakeups_per_s, bg_wakeups, "<per CPU per second>", 0),
	MKEY("jitter_pct", V_PCT, bg_jitter, bg_jitter, "<0..100>", 0),
	MKEY("timer_pct", V_PCT, bg_timer_share, bg_timer, "<0..100>", 0),
	MKEY("handler_us", V_US, bg_handler_ns, bg_handler, "<us>", 0),
};

static const struct key uncore_keys[] = {
	MKEY("min_khz", V_KHZ, unc.min_khz, unc_min_khz, "<kHz>", K_REQUIRED),
	MKEY("max_khz", V_KHZ, unc.max_khz, unc_max_khz, "<kHz>", K_REQUIRED),
	MKEY("min_mv", V_INT, unc.min_mv, unc_min_mv, "<mV>", K_REQUIRED),
	MKEY("max_mv", V_INT, unc.max_mv, unc_max_mv, "<mV>", K_REQUIRED),
	MKEY("static_w", V_DOUBLE, unc.static_w, unc_static, "<watts>", K_REQUIRED),
	MKEY("epb_max_clock", V_INT, unc.epb_max_clock, unc_epb, "<0..15>", 0),
};

static const struct key memory_keys[] = {
	MKEY("core_cycles", V_DOUBLE, mem.core_cycles, mem_core, "<cycles>", K_REQUIRED),
	MKEY("uncore_cycles", V_DOUBLE, mem.uncore_cycles, mem_uncore, "<cycles>", K_REQUIRED),
	MKEY("dram_ns", V_DOUBLE, mem.dram_ns, mem_dram, "<ns>", K_REQUIRED),
	MKEY("mlp", V_DOUBLE, mem.mlp, mem_mlp, "<misses in flight>", 0),
	MKEY("line_nj", V_DOUBLE, mem.line_nj, mem_line, "<nJ>", 0),
	MKEY("snoop_pct", V_PCT, mem.snoop_share, mem_snoop_share, "<0..100>", 0),
	MKEY("snoop_x", V_DOUBLE, mem.snoop_x, mem_snoop_x, "<factor>", 0),
	MKEY("size_mb", V_DOUBLE, mem.size_mb, mem_size, "<MiB>", 0),
	MKEY("peak_gbps", V_DOUBLE, mem.peak_gbps, mem_peak, "<GB/s>", K_IF_SET),
};

static const struct key platform_keys[] = {
	MKEY("psu_w", V_DOUBLE, plat.psu_w, psu_w, "<watts>", 0),
	MKEY("psu_eff_10_pct", V_PCT, plat.psu_eff[0], psu_eff[0], "<0..100>", 0),
	MKEY("psu_eff_20_pct", V_PCT, plat.psu_eff[1], psu_eff[1], "<0..100>", 0),
	MKEY("psu_eff_50_pct", V_PCT, plat.psu_eff[2], psu_eff[2], "<0..100>", 0),
	MKEY("psu_eff_100_pct", V_PCT, plat.psu_eff[3], psu_eff[3], "<0..100>", 0),
	MKEY("disk_active_w", V_DOUBLE, plat.disk_active_w, disk_active, "<watts>", 0),
	MKEY("nic_packet_uj", V_DOUBLE, plat.nic_packet_uj, nic_packet, "<uJ>", 0),
	MKEY("disk_mbps", V_DOUBLE, plat.disk_mbps, disk_mbps, "<MB/s>", 0),
	MKEY("fan_min_w", V_DOUBLE, plat.fan_min_w, fan_min, "<watts>", 0),
	MKEY("fan_max_w", V_DOUBLE, plat.fan_max_w, fan_max, "<watts>", 0),
};

static const struct key energy_bias_keys[] = {
	MKEY("demotion_x", V_DOUBLE, epb.demotion_x, epb_demotion, "<factor>", 0),
	MKEY("turbo_delay_us", V_US, epb.turbo_delay_ns, epb_turbo_delay, "<us>", 0),
};

static const struct key cstate_keys[] = {
	CKEY("desc", V_TEXT, desc, desc, "<text>", K_IF_SET),
	CKEY("exit_latency_us", V_US, exit_ns, exit, "<us>", K_REQUIRED),
	CKEY("target_residency_us", V_US, residency_ns, residency, "<us>", K_REQUIRED),
	CKEY("wake_us", V_US, wake_ns, wake, "<us>", K_IF_SET),
	CKEY("power_mw", V_MW, power_w, power, "<mW>", K_REQUIRED),
	CKEY("poll", V_BOOL, poll, poll, "0|1", K_IF_SET),
	CKEY("turbo_active", V_BOOL, turbo_active, turbo_active, "0|1", K_IF_SET),
	CKEY("lowest_pstate", V_BOOL, lowest_pstate, lowest_pstate, "0|1", K_IF_SET),
	CKEY("leak_at_vid", V_BOOL, leak_at_vid, leak_at_vid, "0|1", K_IF_SET),
	CKEY("cluster", V_BOOL, cluster, cluster, "0|1", K_IF_SET),
};

/* [cstate STATE TYPE]: a type's own figures for one of the machine's
 * states; what it leaves out is the machine's. */
static const struct key cstate_type_keys[] = {
	CKEY("exit_latency_us", V_US, exit_ns, exit, "<us>", 0),
	CKEY("target_residency_us", V_US, residency_ns, residency, "<us>", 0),
	CKEY("wake_us", V_US, wake_ns, wake, "<us>", 0),
	CKEY("power_mw", V_MW, power_w, power, "<mW>", 0),
};

/* [cpu_type NAME]: what is left out is the machine's (resolve_types()). */
static const struct key type_keys[] = {
	TKEY("cores", V_INT, cores, cores, "<cores per package>", K_REQUIRED),
	TKEY("threads_per_core", V_INT, threads_per_core, threads_per_core, "<count>", 0),
	TKEY("capacity", V_U32, capacity, capacity, "<1..1024>", 0),
	TKEY("freq_domain", V_DOMAIN, freq_domain, freq_domain, "core|cluster|package", 0),
	TKEY("cluster_cores", V_INT, cluster_cores, cluster_cores, "<count>", 0),
	TKEY("base_khz", V_KHZ, base_khz, base_khz, "<kHz>", 0),
	TKEY("lowest_nonlinear_khz", V_KHZ, lowest_nonlinear_khz, lowest_nonlinear, "<kHz>", 0),
	TKEY("perf_scaling_khz", V_KHZ, perf_scaling_khz, perf_scaling, "<kHz per unit>", 0),
	TKEY("ceff_nf", V_DOUBLE, ceff_nf, ceff_nf, "<nF>", 0),
	TKEY("leak_w", V_DOUBLE, leak_w, leak_w, "<watts>", 0),
	TKEY("leak_beta", V_DOUBLE, leak_beta, leak_beta, "<per volt>", 0),
	TKEY("smt_activity", V_DOUBLE, smt_activity, smt_activity, "<factor>", 0),
	TKEY("smt_throughput", V_DOUBLE, smt_throughput, smt_throughput, "<share>", 0),
	TKEY("cluster_w", V_DOUBLE, cluster_w, cluster_w, "<watts>", 0),
};

static const struct key pkg_cstate_keys[] = {
	PKEY("requires", V_REQUIRES, requires, requires, "<C-state name>", K_REQUIRED),
	PKEY("exit_latency_us", V_US, exit_ns, exit, "<us>", K_REQUIRED),
	PKEY("target_residency_us", V_US, residency_ns, residency, "<us>", K_REQUIRED),
	PKEY("power_mw", V_MW, power_w, power, "<mW>", K_REQUIRED),
};

enum section_kind { S_PLAIN, S_PSTATES, S_TURBO, S_CSTATE, S_PKG_CSTATE, S_CPU_TYPE,
		   S_CSTATE_TYPE, S_HIGHEST_PERF };

struct section {
	const char *name;
	enum section_kind kind;
	const struct key *keys;
	int nkeys;
	size_t line; /* int in machine_lines holding the header's line (plain sections) */
	/* Whether the writer writes the section; NULL: always. */
	bool (*present)(const struct machine *m);
};

#define SECTION(name, kind, keys, lfield) \
	{ name, kind, keys, ARRAY_SIZE(keys), \
	  offsetof(struct machine_lines, lfield), NULL }
#define SECTION_IF(name, keys, lfield, present) \
	{ name, S_PLAIN, keys, ARRAY_SIZE(keys), \
	  offsetof(struct machine_lines, lfield), present }

/* The optional sections are written when they hold something. */
static bool has_power_limits(const struct machine *m)
{
	return m->pl1_w > 0 || m->pl2_w > 0 || m->pl_control_ns;
}

static bool has_uncore(const struct machine *m)
{
	return m->unc.max_khz;
}

static bool has_memory(const struct machine *m)
{
	return m->mem.core_cycles + m->mem.uncore_cycles + m->mem.dram_ns > 0;
}

static bool has_platform(const struct machine *m)
{
	const struct machine_platform *pl = &m->plat;

	return pl->psu_w || pl->disk_active_w || pl->nic_packet_uj || pl->disk_mbps ||
	       pl->fan_max_w;
}

static bool has_energy_bias(const struct machine *m)
{
	return m->epb.demotion_x || m->epb.turbo_delay_ns;
}

static const struct section sections[] = {
	SECTION("machine", S_PLAIN, machine_keys, machine),
	SECTION("topology", S_PLAIN, topology_keys, topology),
	SECTION("frequency", S_PLAIN, frequency_keys, frequency),
	{ "pstates", S_PSTATES, NULL, 0, offsetof(struct machine_lines, pstates), NULL },
	{ "turbo", S_TURBO, NULL, 0, offsetof(struct machine_lines, turbo), NULL },
	{ "highest_perf", S_HIGHEST_PERF, NULL, 0, offsetof(struct machine_lines, highest_perf),
	  NULL },
	SECTION("cstate", S_CSTATE, cstate_keys, machine), /* line unused */
	SECTION("package_cstate", S_PKG_CSTATE, pkg_cstate_keys, machine),
	SECTION("power", S_PLAIN, power_keys, power),
	SECTION_IF("power_limits", power_limit_keys, power_limits, has_power_limits),
	SECTION("cache", S_PLAIN, cache_keys, cache),
	SECTION("costs", S_PLAIN, costs_keys, costs),
	SECTION("background", S_PLAIN, background_keys, background),
	SECTION_IF("uncore", uncore_keys, uncore, has_uncore),
	SECTION_IF("memory", memory_keys, memory, has_memory),
	SECTION_IF("platform", platform_keys, platform, has_platform),
	SECTION_IF("energy_bias", energy_bias_keys, energy_bias, has_energy_bias),
	SECTION("cpu_type", S_CPU_TYPE, type_keys, machine), /* line unused */
};
#define NSECTIONS ARRAY_SIZE(sections)

/* [cstate STATE TYPE], reached through "cstate" with two names. */
static const struct section cstate_type_section =
	SECTION("cstate", S_CSTATE_TYPE, cstate_type_keys, machine);

struct parser {
	struct machine *m;
	struct machine_lines ln;
	const char *where;
	struct pm_diag *d;

	const char *pos; /* reader: start of the next line */
	int line;        /* line last handed to inih */
	int failed;      /* line of the first error (-1: not on a line), 0: none */

	const struct section *sec; /* current section, NULL before the first */
	int idx;                   /* its C-state or CPU type index */
	int type;                  /* the CPU type of [pstates T], [turbo T], [cstate S T]; -1 */
	char requires[MACHINE_MAX_PKG_CSTATES][CSTATE_NAME_MAX];
};

__attribute__((format(printf, 3, 4)))
static int fail(struct parser *p, int line, const char *fmt, ...)
{
	char msg[PM_DIAG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	p->failed = line > 0 ? line : -1;
	return pm_fail_at(p->d, p->where, line, "%s", msg);
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Label of the current section for messages: "[topology]", "[cstate C1]". */
static const char *label(const struct parser *p, char *buf, size_t size)
{
	if (p->sec->kind == S_CSTATE)
		snprintf(buf, size, "[cstate %s]", p->m->cstates[p->idx].name);
	else if (p->sec->kind == S_CSTATE_TYPE)
		snprintf(buf, size, "[cstate %s %s]", p->m->cstates[p->idx].name,
			 p->m->types[p->type].name);
	else if (p->sec->kind == S_CPU_TYPE)
		snprintf(buf, size, "[cpu_type %s]", p->m->types[p->idx].name);
	else if (p->sec->kind == S_PKG_CSTATE)
		snprintf(buf, size, "[package_cstate %s]", p->m->pkg_cstates[p->idx].name);
	else
		snprintf(buf, size, "[%s]", p->sec->name);
	return buf;
}

/* Copies a C-state name from a section header, or fails. */
static int take_state_name(struct parser *p, const char *kind, const char *s, size_t n,
			   char out[CSTATE_NAME_MAX])
{
	if (n == 0)
		return fail(p, p->line, "[%s] has no name (expected [%s NAME])", kind, kind);
	if (n >= CSTATE_NAME_MAX)
		return fail(p, p->line, "%s name '%.*s' is too long (expected at most %d "
			    "characters)", kind, (int)n, s, CSTATE_NAME_MAX - 1);
	memcpy(out, s, n);
	out[n] = '\0';
	if (!machine_name_ok(out))
		return fail(p, p->line, "%s name '%s' is not valid (expected letters, digits, "
			    "'.', '_', '+' or '-')", kind, out);
	return 0;
}

static int begin_cstate(struct parser *p, const char *arg, size_t n)
{
	struct machine *m = p->m;
	char name[CSTATE_NAME_MAX];

	if (take_state_name(p, "cstate", arg, n, name))
		return -1;
	int i = machine_cstate_index(m, name);
	if (i >= 0)
		return fail(p, p->line, "duplicate C-state %s, first on line %d "
			    "(expected each name once)",
			    name, p->ln.cstate[i].section);
	if (m->ncstates == MACHINE_MAX_CSTATES)
		return fail(p, p->line, "too many C-states (expected at most %d)",
			    MACHINE_MAX_CSTATES);
	p->idx = m->ncstates++;
	memcpy(m->cstates[p->idx].name, name, sizeof(name));
	p->ln.cstate[p->idx].section = p->line;
	return 0;
}

static int begin_pkg_cstate(struct parser *p, const char *arg, size_t n)
{
	struct machine *m = p->m;
	char name[CSTATE_NAME_MAX];

	if (take_state_name(p, "package_cstate", arg, n, name))
		return -1;
	for (int i = 0; i < m->npkg_cstates; i++)
		if (strcmp(m->pkg_cstates[i].name, name) == 0)
			return fail(p, p->line, "duplicate package C-state %s, first on "
				    "line %d (expected each name once)",
				    name, p->ln.pkg[i].section);
	if (m->npkg_cstates == MACHINE_MAX_PKG_CSTATES)
		return fail(p, p->line, "too many package C-states (expected at most %d)",
			    MACHINE_MAX_PKG_CSTATES);
	p->idx = m->npkg_cstates++;
	memcpy(m->pkg_cstates[p->idx].name, name, sizeof(name));
	p->ln.pkg[p->idx].section = p->line;
	return 0;
}

static int begin_type(struct parser *p, const char *arg, size_t n)
{
	struct machine *m = p->m;
	char name[CPU_TYPE_NAME_MAX];

	if (take_state_name(p, "cpu_type", arg, n, name))
		return -1;
	for (int t = 0; t < m->ntypes; t++)
		if (strcmp(m->types[t].name, name) == 0)
			return fail(p, p->line, "duplicate CPU type %s, first on line %d "
				    "(expected each name once)", name, p->ln.type[t].section);
	if (m->ntypes == MACHINE_MAX_TYPES)
		return fail(p, p->line, "too many CPU types (expected at most %d)",
			    MACHINE_MAX_TYPES);
	p->idx = m->ntypes++;
	memcpy(m->types[p->idx].name, name, sizeof(name));
	p->ln.type[p->idx].section = p->line;
	return 0;
}

/* The type a [pstates T], [turbo T] or [cstate S T] header names. */
static int find_type(struct parser *p, const char *kind, const char *s, size_t n)
{
	for (int t = 0; t < p->m->ntypes; t++)
		if (strlen(p->m->types[t].name) == n && memcmp(p->m->types[t].name, s, n) == 0)
			return t;
	return fail(p, p->line, "[%s %.*s]: unknown CPU type '%.*s' (expected a [cpu_type "
		    "%.*s] section before this one)", kind, (int)n, s, (int)n, s, (int)n, s);
}

/* [pstates T] and [turbo T]: a type's own table, once. */
static int begin_type_table(struct parser *p, const char *arg, size_t n)
{
	int turbo = p->sec->kind == S_TURBO;
	int t = find_type(p, p->sec->name, arg, n);
	if (t < 0)
		return -1;
	int *line = turbo ? &p->ln.type[t].turbo : &p->ln.type[t].pstates;
	if (*line)
		return fail(p, p->line, "duplicate section [%s %s], first on line %d (expected "
			    "each section once)", p->sec->name, p->m->types[t].name, *line);
	*line = p->line;
	p->type = t;
	return 0;
}

/* [cstate STATE TYPE]: the type's own figures for a state already given. */
static int begin_cstate_type(struct parser *p, const char *arg, size_t n)
{
	size_t sn = 0;
	while (sn < n && !is_blank(arg[sn]))
		sn++;
	const char *tn = arg + sn;
	while (tn < arg + n && is_blank(*tn))
		tn++;
	size_t tlen = (size_t)(arg + n - tn);
	char state[CSTATE_NAME_MAX];
	/* Neither a known state nor a known type: a state name with a blank,
	 * which begin_cstate() refuses in its own words. */
	bool known_type = false;
	for (int t = 0; t < p->m->ntypes; t++)
		known_type |= strlen(p->m->types[t].name) == tlen &&
			      memcmp(p->m->types[t].name, tn, tlen) == 0;
	bool known_state = false;
	if (sn < CSTATE_NAME_MAX) {
		memcpy(state, arg, sn);
		state[sn] = '\0';
		known_state = machine_cstate_index(p->m, state) >= 0;
	}
	if (!known_state && !known_type)
		return begin_cstate(p, arg, n);
	if (take_state_name(p, "cstate", arg, sn, state))
		return -1;
	int i = machine_cstate_index(p->m, state);
	if (i < 0)
		return fail(p, p->line, "[cstate %s %.*s]: unknown C-state '%s' (expected a "
			    "[cstate %s] section before this one)", state, (int)tlen, tn,
			    state, state);
	int t = find_type(p, "cstate", tn, tlen);
	if (t < 0)
		return -1;
	int *line = &p->ln.type[t].cstate[i].section;
	if (*line)
		return fail(p, p->line, "duplicate section [cstate %s %s], first on line %d "
			    "(expected each section once)", state, p->m->types[t].name, *line);
	*line = p->line;
	p->sec = &cstate_type_section;
	p->idx = i;
	p->type = t;
	return 0;
}

/* "[kind]" or "[kind NAME]"; s has no leading blanks and no comment. */
static int begin_section(struct parser *p, const char *s, size_t n)
{
	const char *close = memchr(s, ']', n);
	if (!close)
		return fail(p, p->line, "section header has no closing ']' (expected [name])");
	for (const char *q = close + 1; q < s + n; q++)
		if (!is_blank(*q))
			return fail(p, p->line, "text after a section header "
				    "(expected nothing after ']' but a comment)");

	const char *a = s + 1, *b = close;
	while (a < b && is_blank(*a))
		a++;
	while (b > a && is_blank(b[-1]))
		b--;
	const char *kind_end = a;
	while (kind_end < b && !is_blank(*kind_end))
		kind_end++;
	const char *arg = kind_end;
	while (arg < b && is_blank(*arg))
		arg++;
	size_t kind_len = (size_t)(kind_end - a), arg_len = (size_t)(b - arg);

	for (int i = 0; i < NSECTIONS; i++) {
		const struct section *sec = &sections[i];
		if (strlen(sec->name) != kind_len || memcmp(sec->name, a, kind_len) != 0)
			continue;
		p->sec = sec;
		p->type = -1;
		if (sec->kind == S_CSTATE && arg_len &&
		    (memchr(arg, ' ', arg_len) || memchr(arg, '\t', arg_len)))
			return begin_cstate_type(p, arg, arg_len);
		if (sec->kind == S_CSTATE)
			return begin_cstate(p, arg, arg_len);
		if (sec->kind == S_CPU_TYPE)
			return begin_type(p, arg, arg_len);
		if ((sec->kind == S_PSTATES || sec->kind == S_TURBO) && arg_len)
			return begin_type_table(p, arg, arg_len);
		if (sec->kind == S_PKG_CSTATE)
			return begin_pkg_cstate(p, arg, arg_len);
		if (arg_len)
			return fail(p, p->line, "[%s] takes no name (expected [%s])",
				    sec->name, sec->name);
		int *line = (int *)((char *)&p->ln + sec->line);
		if (*line)
			return fail(p, p->line, "duplicate section [%s], first on line %d "
				    "(expected each section once)",
				    sec->name, *line);
		*line = p->line;
		return 0;
	}
	return fail(p, p->line, "unknown section [%.*s] (expected machine, topology, frequency, "
		    "pstates, turbo, cstate NAME, package_cstate NAME, power, power_limits, cache, "
		    "costs, background, highest_perf or cpu_type NAME)", (int)(b - a), a);
}

/* The ini_reader: one line per call, as fgets would, after taking out what
 * inih must not see. Returning NULL ends the parse. */
static char *read_line(char *str, int num, void *stream)
{
	struct parser *p = stream;
	const char *s = p->pos;

	if (p->failed || !*s)
		return NULL;
	const char *nl = strchr(s, '\n');
	size_t n = nl ? (size_t)(nl - s) : strlen(s);
	p->pos = s + n + (nl != NULL);
	p->line++;

	if (p->line == 1 && n >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0) {
		s += 3; /* UTF-8 byte order mark */
		n -= 3;
	}
	while (n && is_blank(*s))
		s++, n--;
	if (n && (*s == ';' || *s == '#'))
		n = 0;
	for (size_t i = 1; i < n; i++)
		if ((s[i] == ';' || s[i] == '#') && is_blank(s[i - 1])) {
			n = i;
			break;
		}
	while (n && is_blank(s[n - 1]))
		n--;
	if (n > LINE_CHARS || (int)n + 2 > num) {
		fail(p, p->line, "line is too long (expected at most %d characters before any "
		     "comment)", LINE_CHARS);
		return NULL;
	}
	if (n && *s == '[' && begin_section(p, s, n))
		return NULL;
	memcpy(str, s, n);
	str[n] = '\n';
	str[n + 1] = '\0';
	return str;
}

/* Integers: optional sign and decimal digits, nothing else. */
static int parse_int(const char *s, long long *out)
{
	const char *q = s + (*s == '-' || *s == '+');
	if (!*q)
		return -1;
	for (; *q; q++)
		if (*q < '0' || *q > '9')
			return -1;
	errno = 0;
	*out = strtoll(s, NULL, 10);
	return errno ? -1 : 0;
}

/* Decimals as C writes them, but no hex, inf or nan. */
static int parse_double(const char *s, double *out)
{
	char *end;
	if (!*s || strspn(s, "0123456789.eE+-") != strlen(s) || !strpbrk(s, "0123456789"))
		return -1;
	*out = strtod(s, &end);
	return *end || !isfinite(*out) ? -1 : 0;
}

static const char *domain_name(enum freq_domain_kind k)
{
	switch (k) {
	case FREQ_DOMAIN_CORE:
		return "core";
	case FREQ_DOMAIN_CLUSTER:
		return "cluster";
	case FREQ_DOMAIN_PACKAGE:
		return "package";
	}
	return "?";
}

/* The name of value v of an enum-valued key's type. */
static const char *enum_word(enum vtype type, int v)
{
	switch (type) {
	case V_DOMAIN:
		return domain_name((enum freq_domain_kind)v);
	case V_CPUFREQ_DRIVER:
		return machine_cpufreq_driver_name((enum cpufreq_driver_kind)v);
	case V_CPUIDLE_DRIVER:
		return machine_cpuidle_driver_name((enum cpuidle_driver_kind)v);
	case V_FIE:
		return machine_invariance_name((enum freq_invariance)v);
	case V_PM_PROFILE:
		return machine_pm_profile_name((enum pm_profile)v);
	case V_TURBO:
		return machine_turbo_control_name((enum turbo_control)v);
	default:
		return "?";
	}
}

/* The keys whose value is one of an enum's names. */
static const struct enum_key {
	enum vtype type;
	int first, last;            /* its values (enum_word()) */
	const char *what;           /* "'x' is not WHAT" */
	bool list_names;            /* expected: the names, else the key's example */
} enum_keys[] = {
	{ V_DOMAIN, FREQ_DOMAIN_CORE, FREQ_DOMAIN_PACKAGE, "a domain kind", true },
	{ V_CPUFREQ_DRIVER, 0, CPUFREQ_NDRIVERS - 1, "a driver pmlab knows", true },
	{ V_CPUIDLE_DRIVER, 0, CPUIDLE_NDRIVERS - 1, "a driver pmlab knows", true },
	{ V_FIE, FIE_MAX, FIE_NONE, "a frequency invariance reference", false },
	{ V_PM_PROFILE, PM_PROFILE_UNSPECIFIED, PM_NPROFILES - 1, "an ACPI PM profile", false },
	{ V_TURBO, TURBO_OS, TURBO_HARDWARE, "who picks turbo frequencies", false },
};

/* A value given by its name: drivers, clock domains, enums. */
static int set_enum(struct parser *p, const struct key *k, const char *v, void *field,
		    const char *where)
{
	const struct enum_key *e = enum_keys;
	char names[160] = "";

	while (e->type != k->type)
		e++;
	for (int i = e->first; i <= e->last; i++) {
		const char *name = enum_word(k->type, i);
		if (strcmp(v, name) == 0) {
			*(int *)field = i;
			return 0;
		}
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
			 i == e->first ? "" : i == e->last ? " or " : ", ", name);
	}
	return fail(p, p->line, "%s %s: '%.40s' is not %s (expected %s)", where, k->name, v,
		    e->what, e->list_names ? names : k->example);
}

/* V_INT, V_U32, V_KHZ. */
static int set_integer(struct parser *p, const struct key *k, const char *v, void *field,
		       const char *where)
{
	long long i;

	if (parse_int(v, &i) && k->type == V_KHZ)
		return fail(p, p->line, "%s %s: '%.40s' is not an integer "
			    "(expected kHz)", where, k->name, v);
	if (k->type == V_KHZ && (i < 0 || i > UINT32_MAX))
		return fail(p, p->line, "%s %s = %lld: %s", where, k->name, i,
			    machine_khz_problem(i));
	if (k->type == V_KHZ) {
		*(uint32_t *)field = (uint32_t)i;
		return 0;
	}
	if (parse_int(v, &i))
		return fail(p, p->line, "%s %s: '%.40s' is not an integer "
			    "(expected %s = %s)", where, k->name, v, k->name, k->example);
	if (k->type == V_INT ? i < -MAX_INT || i > MAX_INT : i < 0 || i > UINT32_MAX)
		return fail(p, p->line, "%s %s: %lld is out of range (expected %s = %s)",
			    where, k->name, i, k->name, k->example);
	if (k->type == V_INT)
		*(int *)field = (int)i;
	else
		*(uint32_t *)field = (uint32_t)i;
	return 0;
}

/* V_DOUBLE and the units the file gives in other terms than the struct:
 * V_US (sim_ns), V_MW (watts), V_PCT (a share). */
static int set_number(struct parser *p, const struct key *k, const char *v, void *field,
		      const char *where)
{
	double x;

	if (parse_double(v, &x))
		return fail(p, p->line, "%s %s: '%.40s' is not a number (expected %s = %s)",
			    where, k->name, v, k->name, k->example);
	if (k->type == V_DOUBLE) {
		*(double *)field = x;
	} else if (k->type == V_MW) {
		*(double *)field = x / 1000;
	} else if (k->type == V_PCT) {
		*(double *)field = x / 100;
	} else {
		if (fabs(x) > MAX_US)
			return fail(p, p->line, "%s %s = %g is out of range "
				    "(expected 0..1000000000 us)", where, k->name, x);
		*(sim_ns *)field = llround(x * 1000);
	}
	return 0;
}

static int set_value(struct parser *p, const struct key *k, void *field, const char *v)
{
	char where[64];

	label(p, where, sizeof(where));
	switch (k->type) {
	case V_NAME:
	case V_TEXT:
	case V_REQUIRES: {
		/* `requires` is an index in the struct; keep the name until
		 * every C-state has been read. */
		size_t size = k->type == V_REQUIRES ? sizeof(p->requires[0]) : k->size;
		if (k->type == V_REQUIRES)
			field = p->requires[p->idx];
		if (strlen(v) >= size)
			return fail(p, p->line, "%s %s is too long (expected at most %zu "
				    "characters)", where, k->name, size - 1);
		strcpy(field, v);
		return 0;
	}
	case V_INT:
	case V_U32:
	case V_KHZ:
		return set_integer(p, k, v, field, where);
	case V_DOUBLE:
	case V_US:
	case V_MW:
	case V_PCT:
		return set_number(p, k, v, field, where);
	case V_BOOL:
		if (strcmp(v, "0") && strcmp(v, "1"))
			return fail(p, p->line, "%s %s: '%.40s' is not 0 or 1 (expected %s = 0 "
				    "or 1)", where, k->name, v, k->name);
		*(int *)field = v[0] == '1';
		return 0;
	case V_DOMAIN:
	case V_CPUFREQ_DRIVER:
	case V_CPUIDLE_DRIVER:
	case V_FIE:
	case V_PM_PROFILE:
	case V_TURBO:
		return set_enum(p, k, v, field, where);
	}
	return -1;
}

static void *record(struct parser *p, int lines)
{
	switch (p->sec->kind) {
	case S_CSTATE:
		return lines ? (void *)&p->ln.cstate[p->idx] : (void *)&p->m->cstates[p->idx];
	case S_PKG_CSTATE:
		return lines ? (void *)&p->ln.pkg[p->idx] : (void *)&p->m->pkg_cstates[p->idx];
	case S_CPU_TYPE:
		return lines ? (void *)&p->ln.type[p->idx] : (void *)&p->m->types[p->idx];
	case S_CSTATE_TYPE:
		return lines ? (void *)&p->ln.type[p->type].cstate[p->idx]
			     : (void *)&p->m->types[p->type].cstates[p->idx];
	default:
		return lines ? (void *)&p->ln : (void *)p->m;
	}
}

static int keyed_line(struct parser *p, const char *name, const char *value)
{
	const struct section *sec = p->sec;
	char where[96], known[256] = "";

	for (int i = 0; i < sec->nkeys; i++) {
		const struct key *k = &sec->keys[i];
		if (strcmp(k->name, name) != 0)
			continue;
		int *line = (int *)((char *)record(p, 1) + k->line);
		if (*line)
			return fail(p, p->line, "duplicate key %s in %s, first on line %d "
				    "(expected each key once)",
				    name, label(p, where, sizeof(where)), *line);
		*line = p->line;
		return set_value(p, k, (char *)record(p, 0) + k->off, value);
	}
	for (int i = 0; i < sec->nkeys; i++) {
		strcat(known, i ? ", " : "");
		strcat(known, sec->keys[i].name);
	}
	return fail(p, p->line, "unknown key '%.40s' in %s (expected one of: %s)",
		    name, label(p, where, sizeof(where)), known);
}

/* "<kHz> = <mV>" in [pstates], "<kHz> = <max active cores>" in [turbo]. */
static int table_line(struct parser *p, const char *name, const char *value)
{
	struct machine *m = p->m;
	int turbo = p->sec->kind == S_TURBO;
	const char *what = turbo ? "turbo" : "pstate";
	long long khz, v;

	if (parse_int(name, &khz))
		return fail(p, p->line, "%s '%.40s': not a frequency (expected <kHz> = %s)",
			    what, name, turbo ? "<max active cores>" : "<mV>");
	if (khz < 0 || khz > UINT32_MAX)
		return fail(p, p->line, "%s %lld kHz: %s", what, khz, machine_khz_problem(khz));
	if (parse_int(value, &v))
		return fail(p, p->line, "%s %lld kHz: '%.40s' is not an integer (expected %s)",
			    what, khz, value, turbo ? "a count of active cores" : "mV");
	if (v < 0 || v > UINT32_MAX)
		return fail(p, p->line, "%s %lld kHz: %s", what, khz, turbo ?
			    "active core count is out of range (expected a count >= 1)" :
			    machine_mv_problem(v));

	/* The machine's tables, or the type's of [pstates T] and [turbo T]. */
	struct cpu_type *ty = p->type >= 0 ? &m->types[p->type] : NULL;
	struct cpu_type_lines *tl = p->type >= 0 ? &p->ln.type[p->type] : NULL;
	struct pstate *ps = ty ? ty->pstates : m->pstates;
	struct turbo_bin *tb = ty ? ty->turbo : m->turbo;
	int *nps = ty ? &ty->npstates : &m->npstates;
	int *ntb = ty ? &ty->nturbo : &m->nturbo;
	int n = turbo ? *ntb : *nps;
	int *lines = turbo ? (tl ? tl->turbo_bin : p->ln.turbo_bin) : (tl ? tl->pstate : p->ln.pstate);
	for (int i = 0; i < n; i++) {
		uint32_t other = turbo ? tb[i].khz : ps[i].khz;
		if (other == khz)
			return fail(p, p->line, "duplicate %s %lld kHz, first on line %d "
				    "(expected each frequency once)",
				    turbo ? "turbo bin" : "P-state", khz, lines[i]);
	}
	if (n == (turbo ? MACHINE_MAX_TURBO : MACHINE_MAX_PSTATES))
		return fail(p, p->line, "too many %s (expected at most %d)",
			    turbo ? "turbo bins" : "P-states", n);
	if (turbo) {
		tb[n] = (struct turbo_bin){ (uint32_t)khz, (uint32_t)v };
		(*ntb)++;
	} else {
		ps[n] = (struct pstate){ (uint32_t)khz, (uint32_t)v };
		(*nps)++;
	}
	lines[n] = p->line;
	return 0;
}

/* The ini_handler. It always returns 1: inih's own error count is kept for
 * its syntax errors only; ours are in p->failed. */
static int on_value(void *user, const char *section, const char *name, const char *value)
{
	struct parser *p = user;

	(void)section; /* p->sec says the same, with its parsed name */
	if (p->failed)
		return 1;
	if (!p->sec)
		fail(p, p->line, "'%.40s' is outside any section (expected a [section] "
		     "header first)", name);
	else if (p->sec->kind == S_PSTATES || p->sec->kind == S_TURBO)
		table_line(p, name, value);
	else if (p->sec->kind == S_HIGHEST_PERF) {
		char msg[PM_DIAG_MAX];
		if (machine_cppc_line(p->m, &p->ln, p->line, name, value, msg, sizeof(msg)))
			fail(p, p->line, "%s", msg);
	}
	else
		keyed_line(p, name, value);
	return 1;
}

/* Insertion sort of P-states (ascending) or turbo bins (descending), with
 * their lines, so messages after sorting still point at the right line. */
static void sort_tables(struct pstate *ps, int nps, int *pl, struct turbo_bin *tb, int ntb,
			int *tl)
{
	for (int i = 1; i < nps; i++)
		for (int j = i; j > 0 && ps[j - 1].khz > ps[j].khz; j--) {
			struct pstate t = ps[j];
			int l = pl[j];
			ps[j] = ps[j - 1];
			pl[j] = pl[j - 1];
			ps[j - 1] = t;
			pl[j - 1] = l;
		}
	for (int i = 1; i < ntb; i++)
		for (int j = i; j > 0 && tb[j - 1].khz < tb[j].khz; j--) {
			struct turbo_bin t = tb[j];
			int l = tl[j];
			tb[j] = tb[j - 1];
			tl[j] = tl[j - 1];
			tb[j - 1] = t;
			tl[j - 1] = l;
		}
}

static int missing(struct parser *p, const char *sec, int line, const struct key *k,
		   const char *why)
{
	/* No such section at all: the place is the end of the file. */
	if (!line)
		return fail(p, p->line, "the file ends without a %s section, which needs %s "
			    "(expected %s with %s = %s%s)", sec, k->name, sec, k->name,
			    k->example, why);
	return fail(p, line, "%s is missing %s (expected %s = %s%s)", sec, k->name,
		    k->name, k->example, why);
}

static const struct key *find_key(const struct key *keys, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(keys[i].name, name) == 0)
			return &keys[i];
	return NULL;
}

/* What a [cpu_type] leaves out is the machine's: threads, clock domain,
 * base and tables (turbo bins only with the machine's P-states), C-state
 * figures, power coefficients (the SMT ones only with the machine's
 * threads per core). */
static int resolve_type(struct parser *p, int t)
{
	struct machine *m = p->m;
	struct cpu_type *ty = &m->types[t];
	struct cpu_type_lines *tl = &p->ln.type[t];
	char sec[CPU_TYPE_NAME_MAX + 16];

	snprintf(sec, sizeof(sec), "[cpu_type %s]", ty->name);
	if (!tl->cores)
		return missing(p, sec, tl->section, &type_keys[0], "");
	if (!tl->threads_per_core)
		ty->threads_per_core = m->threads_per_core;
	if (!tl->capacity)
		ty->capacity = CAPACITY_SCALE;
	if (!tl->freq_domain) {
		ty->freq_domain = m->freq_domain;
		if (!tl->cluster_cores)
			ty->cluster_cores = m->cluster_cores;
	} else if (ty->freq_domain == FREQ_DOMAIN_CLUSTER && !tl->cluster_cores) {
		return missing(p, sec, tl->section,
			       find_key(type_keys, ARRAY_SIZE(type_keys), "cluster_cores"),
			       " with freq_domain = cluster");
	}
	if (tl->pstates && !tl->base_khz)
		return missing(p, sec, tl->section,
			       find_key(type_keys, ARRAY_SIZE(type_keys), "base_khz"),
			       " with its own [pstates NAME]");
	if (!tl->perf_scaling)
		ty->perf_scaling_khz = m->perf_scaling_khz;
	if (!tl->pstates && !tl->lowest_nonlinear)
		ty->lowest_nonlinear_khz = m->lowest_nonlinear_khz;
	if (!tl->pstates) {
		ty->npstates = m->npstates;
		memcpy(ty->pstates, m->pstates, sizeof(ty->pstates));
		if (!tl->base_khz)
			ty->base_khz = m->base_khz;
		if (!tl->turbo) {
			ty->nturbo = m->nturbo;
			memcpy(ty->turbo, m->turbo, sizeof(ty->turbo));
		}
	}
	sort_tables(ty->pstates, ty->npstates, tl->pstate, ty->turbo, ty->nturbo,
		    tl->turbo_bin);
	/* [cstate STATE TYPE]: the keys given, over the machine's state. */
	const struct section *cs = &cstate_type_section;
	for (int i = 0; i < m->ncstates; i++) {
		const struct cstate own = ty->cstates[i];
		ty->cstates[i] = m->cstates[i];
		for (int k = 0; k < cs->nkeys; k++)
			if (*(const int *)((const char *)&tl->cstate[i] + cs->keys[k].line))
				memcpy((char *)&ty->cstates[i] + cs->keys[k].off,
				       (const char *)&own + cs->keys[k].off, cs->keys[k].size);
	}
	if (!tl->ceff_nf)
		ty->ceff_nf = m->ceff_nf;
	if (!tl->leak_w)
		ty->leak_w = m->leak_w;
	if (!tl->leak_beta)
		ty->leak_beta = m->leak_beta;
	if (!tl->cluster_w)
		ty->cluster_w = m->cluster_w;
	bool same_smt = ty->threads_per_core == m->threads_per_core;
	if (!tl->smt_activity)
		ty->smt_activity = same_smt ? m->smt_activity : 1.0;
	if (!tl->smt_throughput && !same_smt && ty->threads_per_core > 1)
		return missing(p, sec, tl->section,
			       find_key(type_keys, ARRAY_SIZE(type_keys), "smt_throughput"),
			       " with threads_per_core > 1");
	if (!tl->smt_throughput)
		ty->smt_throughput = same_smt ? m->smt_throughput : 1.0;
	return 0;
}

/* The CPUs the types make, when online_cpus is not given: counted once
 * the types are known to fit (machine_check()). */
static int types_cpus(const struct machine *m)
{
	long long cpus = 0;

	for (int t = 0; t < m->ntypes; t++) {
		const struct cpu_type *ty = &m->types[t];
		if (ty->cores < 1 || ty->cores > MACHINE_MAX_CPUS || ty->threads_per_core < 1 ||
		    ty->threads_per_core > MACHINE_MAX_CPUS)
			cpus = MACHINE_MAX_CPUS + 1;
		else if (cpus <= MACHINE_MAX_CPUS)
			cpus += (long long)ty->cores * ty->threads_per_core;
	}
	if (m->packages >= 1 && m->packages <= MACHINE_MAX_CPUS)
		cpus *= m->packages;
	return cpus > 0 && cpus <= MACHINE_MAX_CPUS ? (int)cpus : 0;
}

static int resolve_types(struct parser *p)
{
	for (int t = 0; t < p->m->ntypes; t++)
		if (resolve_type(p, t))
			return -1;
	if (p->m->ntypes && !p->ln.online_cpus)
		p->m->online_cpus = types_cpus(p->m);
	return 0;
}

/* Missing keys, defaults and the `requires` names, then every value rule. */
/* Every required key of every section there, and the C-state each
 * package C-state requires. */
static int check_required(struct parser *p)
{
	struct machine *m = p->m;
	struct machine_lines *ln = &p->ln;
	char sec[64];

	for (int s = 0; s < NSECTIONS; s++) {
		const struct section *sd = &sections[s];
		if (sd->kind != S_PLAIN)
			continue;
		int secline = *(int *)((char *)ln + sd->line);
		/* The sections of the models around the cores are optional as a
		 * whole: their required keys only once the section is there. */
		if (!secline && (sd->keys == uncore_keys || sd->keys == memory_keys))
			continue;
		snprintf(sec, sizeof(sec), "[%s]", sd->name);
		for (int i = 0; i < sd->nkeys; i++)
			if ((sd->keys[i].flags & K_REQUIRED) &&
			    !*(int *)((char *)ln + sd->keys[i].line))
				return missing(p, sec, secline, &sd->keys[i], "");
	}
	if (m->freq_domain == FREQ_DOMAIN_CLUSTER && !ln->cluster_cores)
		return missing(p, "[topology]", ln->topology,
			       find_key(topology_keys, ARRAY_SIZE(topology_keys), "cluster_cores"),
			       " with freq_domain = cluster");
	if (m->threads_per_core > 1 && !ln->smt_throughput)
		return missing(p, "[power]", ln->power,
			       find_key(power_keys, ARRAY_SIZE(power_keys), "smt_throughput"),
			       " with threads_per_core > 1");
	for (int i = 0; i < m->ncstates; i++)
		for (int k = 0; k < ARRAY_SIZE(cstate_keys); k++)
			if ((cstate_keys[k].flags & K_REQUIRED) &&
			    !*(int *)((char *)&ln->cstate[i] + cstate_keys[k].line)) {
				snprintf(sec, sizeof(sec), "[cstate %s]", m->cstates[i].name);
				return missing(p, sec, ln->cstate[i].section, &cstate_keys[k], "");
			}
	for (int i = 0; i < m->npkg_cstates; i++) {
		struct pkg_cstate *pc = &m->pkg_cstates[i];
		snprintf(sec, sizeof(sec), "[package_cstate %s]", pc->name);
		for (int k = 0; k < ARRAY_SIZE(pkg_cstate_keys); k++)
			if ((pkg_cstate_keys[k].flags & K_REQUIRED) &&
			    !*(int *)((char *)&ln->pkg[i] + pkg_cstate_keys[k].line))
				return missing(p, sec, ln->pkg[i].section, &pkg_cstate_keys[k], "");
		pc->requires = machine_cstate_index(m, p->requires[i]);
		if (pc->requires < 0) {
			char names[MACHINE_MAX_CSTATES * (CSTATE_NAME_MAX + 2)] = "";
			for (int c = 0; c < m->ncstates; c++) {
				strcat(names, c ? ", " : "");
				strcat(names, m->cstates[c].name);
			}
			return fail(p, ln->pkg[i].requires, "%s requires unknown C-state '%s' "
				    "(expected one of: %s)", sec, p->requires[i],
				    m->ncstates ? names : "none defined");
		}
	}
	return 0;
}

/* What a key left out stands for. */
static void set_defaults(struct parser *p)
{
	struct machine *m = p->m;
	struct machine_lines *ln = &p->ln;

	if (!ln->llc_cores)
		m->llc_cores = m->cores_per_package;
	if (!ln->online_cpus && !m->ntypes) {
		long long cpus = (long long)m->packages * m->cores_per_package *
				 m->threads_per_core;
		m->online_cpus = cpus > 0 && cpus <= MACHINE_MAX_CPUS ? (int)cpus : 0;
	}
	if (!ln->smt_activity)
		m->smt_activity = 1.0;
	if (!ln->smt_throughput)
		m->smt_throughput = 1.0;
	const struct { int line; sim_ns *ns; sim_ns def; } ns_defaults[] = {
		{ ln->tick_cost, &m->tick_cost_ns, MACHINE_DEFAULT_TICK_NS },
		{ ln->tick_stop, &m->tick_stop_ns, MACHINE_DEFAULT_TICK_STOP_NS },
		{ ln->tick_restart, &m->tick_restart_ns, MACHINE_DEFAULT_TICK_RESTART_NS },
		{ ln->tick_reprogram, &m->tick_reprogram_ns, MACHINE_DEFAULT_TICK_REPROGRAM_NS },
		{ ln->bg_handler, &m->bg_handler_ns, MACHINE_DEFAULT_BG_HANDLER_NS },
	};
	for (size_t i = 0; i < sizeof(ns_defaults) / sizeof(ns_defaults[0]); i++)
		if (!ns_defaults[i].line)
			*ns_defaults[i].ns = ns_defaults[i].def;
	if (!ln->bg_wakeups)
		m->bg_wakeups_per_s = MACHINE_DEFAULT_BG_WAKEUPS;
	if (!ln->bg_jitter)
		m->bg_jitter = MACHINE_DEFAULT_BG_JITTER;
	if (!ln->bg_timer)
		m->bg_timer_share = MACHINE_DEFAULT_BG_TIMER_SHARE;
	if (ln->memory && !ln->mem_mlp)
		m->mem.mlp = 1;
	if (ln->memory && !ln->mem_snoop_x)
		m->mem.snoop_x = 1;
	if (ln->uncore && !ln->unc_epb)
		m->unc.epb_max_clock = MACHINE_DEFAULT_UNCORE_EPB_MAX;
}

static int finish(struct parser *p)
{
	struct machine *m = p->m;
	struct machine_lines *ln = &p->ln;

	if (check_required(p))
		return -1;
	set_defaults(p);
	sort_tables(m->pstates, m->npstates, ln->pstate, m->turbo, m->nturbo, ln->turbo_bin);
	if (resolve_types(p))
		return -1;
	return machine_check(m, ln, p->where, p->d) ? (p->failed = -1) : 0;
}

int machine_parse(struct machine *m, const char *text, const char *where, struct pm_diag *d)
{
	struct parser *p = calloc(1, sizeof(*p)); /* ~3 KiB of line tables: keep off the stack */
	if (!p)
		return pm_fail_at(d, where, 0, "out of memory (expected enough to parse)");

	memset(m, 0, sizeof(*m));
	p->m = m;
	p->where = where;
	p->d = d;
	p->pos = text;

	int rc = ini_parse_stream(read_line, p, on_value, p);
	int err = 0;
	if (rc > 0 && (!p->failed || rc < p->failed))
		err = pm_fail_at(d, where, rc, "not a 'key = value' line, a [section] header "
				 "or a comment (expected key = value)");
	else if (p->failed)
		err = -1;
	else if (rc < 0)
		err = pm_fail_at(d, where, 0, "cannot parse (inih error %d)", rc);
	else
		err = finish(p);
	free(p);
	return err;
}

int machine_load_file(struct machine *m, const char *path, struct pm_diag *d)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return pm_fail_at(d, path, 0, "cannot read: %s", strerror(errno));

	char *buf = malloc(MAX_FILE_BYTES + 1);
	if (!buf) {
		fclose(f);
		return pm_fail_at(d, path, 0, "cannot read: out of memory");
	}
	size_t n = fread(buf, 1, MAX_FILE_BYTES + 1, f);
	int rc = 0;
	if (ferror(f))
		rc = pm_fail_at(d, path, 0, "cannot read: %s", strerror(errno));
	else if (n > MAX_FILE_BYTES)
		rc = pm_fail_at(d, path, 0, "file is too large (expected at most %d bytes)",
				MAX_FILE_BYTES);
	else if (memchr(buf, '\0', n)) {
		const char *nul = memchr(buf, '\0', n);
		int line = 1;
		for (const char *q = buf; q < nul; q++)
			line += *q == '\n';
		rc = pm_fail_at(d, path, line, "a NUL byte, byte %zu of the file (expected a "
				"text file)", (size_t)(nul - buf) + 1);
	}
	fclose(f);
	if (rc == 0) {
		buf[n] = '\0';
		rc = machine_parse(m, buf, path, d);
	}
	free(buf);
	return rc;
}

/* --- writing --- */

/* Whole numbers as such, anything else as the shortest "%g" form that
 * reads back as the same double. */
static void put_double(FILE *f, double x)
{
	char s[40];

	if (x == trunc(x) && fabs(x) < 1e15) {
		fprintf(f, "%.0f", x);
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(s, sizeof(s), "%.*g", prec, x);
		if (strtod(s, NULL) == x)
			break;
	}
	fputs(s, f);
}

/* The file holds mW and the parser divides by 1000; x * 1000 may be an ulp
 * or two away from the mW figure that gave x, so look for the neighbour
 * that divides back exactly. */
static double mw_of(double w)
{
	double lo = w * 1000, hi = lo;
	for (int i = 0; i < 4 && isfinite(lo); i++) {
		if (lo / 1000 == w)
			return lo;
		if (hi / 1000 == w)
			return hi;
		lo = nextafter(lo, -INFINITY);
		hi = nextafter(hi, INFINITY);
	}
	return w * 1000;
}

/* Nanoseconds as an exact decimal number of microseconds. */
static void put_us(FILE *f, sim_ns ns)
{
	uint64_t u = ns < 0 ? 0 - (uint64_t)ns : (uint64_t)ns;
	char frac[8];

	snprintf(frac, sizeof(frac), "%03u", (unsigned)(u % 1000));
	for (int i = 2; i > 0 && frac[i] == '0'; i--)
		frac[i] = '\0';
	fprintf(f, "%s%llu", ns < 0 ? "-" : "", (unsigned long long)(u / 1000));
	if (strcmp(frac, "0") != 0)
		fprintf(f, ".%s", frac);
}

static void put_key_double(FILE *f, const char *key, double x)
{
	fprintf(f, "%s = ", key);
	put_double(f, x);
	fputc('\n', f);
}

static bool same_pstates(const struct pstate *a, int na, const struct pstate *b, int nb)
{
	if (na != nb)
		return false;
	for (int i = 0; i < na; i++)
		if (a[i].khz != b[i].khz || a[i].mv != b[i].mv)
			return false;
	return true;
}

static bool same_turbo(const struct turbo_bin *a, int na, const struct turbo_bin *b, int nb)
{
	if (na != nb)
		return false;
	for (int i = 0; i < na; i++)
		if (a[i].khz != b[i].khz || a[i].max_active_cores != b[i].max_active_cores)
			return false;
	return true;
}

/* What a key's field holds, for the writer: 0 when it is zero, empty or
 * the enum's first value (K_IF_SET keys are then left out). */
static bool key_is_set(const struct key *k, const void *field)
{
	switch (k->type) {
	case V_NAME:
	case V_TEXT:
		return *(const char *)field != '\0';
	case V_U32:
	case V_KHZ:
		return *(const uint32_t *)field != 0;
	case V_DOUBLE:
	case V_MW:
	case V_PCT:
		return *(const double *)field != 0;
	case V_US:
		return *(const sim_ns *)field != 0;
	default: /* int and enums */
		return *(const int *)field != 0;
	}
}

/* Whether two records hold the same value of k (a type's C-state against
 * the machine's). */
static bool key_same(const struct key *k, const void *a, const void *b)
{
	switch (k->type) {
	case V_DOUBLE:
	case V_MW:
	case V_PCT:
		return *(const double *)a == *(const double *)b;
	case V_US:
		return *(const sim_ns *)a == *(const sim_ns *)b;
	case V_NAME:
	case V_TEXT:
		return strncmp(a, b, k->size) == 0;
	default:
		return memcmp(a, b, k->size) == 0;
	}
}

/* "key = value" as the parser reads it back to the same value. */
static void put_key(FILE *f, const struct machine *m, const struct key *k, const void *field)
{
	fprintf(f, "%s = ", k->name);
	switch (k->type) {
	case V_NAME:
	case V_TEXT:
		fprintf(f, "%.*s", (int)k->size, (const char *)field);
		break;
	case V_INT:
	case V_BOOL:
		fprintf(f, "%d", *(const int *)field);
		break;
	case V_U32:
	case V_KHZ:
		fprintf(f, "%u", *(const uint32_t *)field);
		break;
	case V_DOUBLE:
		put_double(f, *(const double *)field);
		break;
	case V_US:
		put_us(f, *(const sim_ns *)field);
		break;
	case V_MW:
		put_double(f, mw_of(*(const double *)field));
		break;
	case V_PCT:
		put_double(f, *(const double *)field * 100);
		break;
	case V_DOMAIN:
	case V_CPUFREQ_DRIVER:
	case V_CPUIDLE_DRIVER:
	case V_FIE:
	case V_PM_PROFILE:
	case V_TURBO:
		fputs(enum_word(k->type, *(const int *)field), f);
		break;
	case V_REQUIRES: {
		int req = *(const int *)field;
		fprintf(f, "%.*s", CSTATE_NAME_MAX,
			req >= 0 && req < m->ncstates ? m->cstates[req].name : "?");
		break;
	}
	}
	fputc('\n', f);
}

/* A [cpu_type] and its tables, saying only what differs from what the
 * parser would give it from the machine's own values (resolve_types()),
 * so that the file reads back to the same type. */
static void write_type(FILE *f, const struct machine *m, const struct cpu_type *t)
{
	int nps = t->npstates < MACHINE_MAX_PSTATES ? t->npstates : MACHINE_MAX_PSTATES;
	int ntb = t->nturbo < MACHINE_MAX_TURBO ? t->nturbo : MACHINE_MAX_TURBO;
	bool own_ps = !same_pstates(t->pstates, nps, m->pstates, m->npstates);
	bool same_smt = t->threads_per_core == m->threads_per_core;

	fprintf(f, "\n[cpu_type %.*s]\ncores = %d\n", CPU_TYPE_NAME_MAX, t->name, t->cores);
	if (!same_smt)
		fprintf(f, "threads_per_core = %d\n", t->threads_per_core);
	if (t->capacity != CAPACITY_SCALE)
		fprintf(f, "capacity = %u\n", t->capacity);
	if (t->freq_domain != m->freq_domain || t->cluster_cores != m->cluster_cores) {
		fprintf(f, "freq_domain = %s\n", domain_name(t->freq_domain));
		if (t->freq_domain == FREQ_DOMAIN_CLUSTER)
			fprintf(f, "cluster_cores = %d\n", t->cluster_cores);
	}
	if (own_ps || t->base_khz != m->base_khz)
		fprintf(f, "base_khz = %u\n", t->base_khz);
	if (t->lowest_nonlinear_khz != (own_ps ? 0 : m->lowest_nonlinear_khz))
		fprintf(f, "lowest_nonlinear_khz = %u\n", t->lowest_nonlinear_khz);
	if (t->perf_scaling_khz != m->perf_scaling_khz)
		fprintf(f, "perf_scaling_khz = %u\n", t->perf_scaling_khz);
	const struct { const char *key; double v, inherited; } figures[] = {
		{ "ceff_nf", t->ceff_nf, m->ceff_nf },
		{ "leak_w", t->leak_w, m->leak_w },
		{ "leak_beta", t->leak_beta, m->leak_beta },
		{ "smt_activity", t->smt_activity, same_smt ? m->smt_activity : 1.0 },
		{ "smt_throughput", t->smt_throughput, same_smt ? m->smt_throughput : 1.0 },
		{ "cluster_w", t->cluster_w, m->cluster_w },
	};
	for (size_t i = 0; i < sizeof(figures) / sizeof(figures[0]); i++)
		if (figures[i].v != figures[i].inherited)
			put_key_double(f, figures[i].key, figures[i].v);
	if (own_ps) {
		fprintf(f, "\n[pstates %.*s]\n", CPU_TYPE_NAME_MAX, t->name);
		for (int i = 0; i < nps; i++)
			fprintf(f, "%u = %u\n", t->pstates[i].khz, t->pstates[i].mv);
	}
	/* Without its own P-states a type takes the machine's turbo bins. */
	if (own_ps ? ntb > 0 : !same_turbo(t->turbo, ntb, m->turbo, m->nturbo)) {
		fprintf(f, "\n[turbo %.*s]\n", CPU_TYPE_NAME_MAX, t->name);
		for (int i = 0; i < ntb; i++)
			fprintf(f, "%u = %u\n", t->turbo[i].khz, t->turbo[i].max_active_cores);
	}
	/* A type's C-state figures where they are not the machine's. */
	const struct section *cs = &cstate_type_section;
	for (int i = 0; i < m->ncstates && i < MACHINE_MAX_CSTATES; i++) {
		const char *c = (const char *)&t->cstates[i], *mc = (const char *)&m->cstates[i];
		bool own = false;
		for (int k = 0; k < cs->nkeys; k++)
			own |= !key_same(&cs->keys[k], c + cs->keys[k].off, mc + cs->keys[k].off);
		if (!own)
			continue;
		fprintf(f, "\n[cstate %.*s %.*s]\n", CSTATE_NAME_MAX, m->cstates[i].name,
			CPU_TYPE_NAME_MAX, t->name);
		for (int k = 0; k < cs->nkeys; k++)
			if (!key_same(&cs->keys[k], c + cs->keys[k].off, mc + cs->keys[k].off))
				put_key(f, m, &cs->keys[k], c + cs->keys[k].off);
	}
}

/* A section's keys from its record, in the table's order. */
static void put_keys(FILE *f, const struct machine *m, const struct section *sec,
		     const void *rec)
{
	for (int i = 0; i < sec->nkeys; i++) {
		const struct key *k = &sec->keys[i];
		const void *field = (const char *)rec + k->off;
		if (!(k->flags & K_IF_SET) || key_is_set(k, field))
			put_key(f, m, k, field);
	}
}

/* One section of the file: its header and keys, a table, or one header
 * per C-state, package C-state or CPU type. */
static void write_section(FILE *f, const struct machine *m, const struct section *sec)
{
	switch (sec->kind) {
	case S_PLAIN:
		if (sec->present && !sec->present(m))
			return;
		fprintf(f, "\n[%s]\n", sec->name);
		put_keys(f, m, sec, m);
		return;
	case S_PSTATES:
		fprintf(f, "\n[pstates]\n");
		for (int i = 0; i < m->npstates && i < MACHINE_MAX_PSTATES; i++)
			fprintf(f, "%u = %u\n", m->pstates[i].khz, m->pstates[i].mv);
		return;
	case S_TURBO:
		if (m->nturbo > 0)
			fprintf(f, "\n[turbo]\n");
		for (int i = 0; i < m->nturbo && i < MACHINE_MAX_TURBO; i++)
			fprintf(f, "%u = %u\n", m->turbo[i].khz, m->turbo[i].max_active_cores);
		return;
	case S_CSTATE:
		for (int i = 0; i < m->ncstates && i < MACHINE_MAX_CSTATES; i++) {
			fprintf(f, "\n[cstate %.*s]\n", CSTATE_NAME_MAX, m->cstates[i].name);
			put_keys(f, m, sec, &m->cstates[i]);
		}
		return;
	case S_PKG_CSTATE:
		for (int i = 0; i < m->npkg_cstates && i < MACHINE_MAX_PKG_CSTATES; i++) {
			fprintf(f, "\n[package_cstate %.*s]\n", CSTATE_NAME_MAX,
				m->pkg_cstates[i].name);
			put_keys(f, m, sec, &m->pkg_cstates[i]);
		}
		return;
	case S_CPU_TYPE:
		for (int t = 0; t < m->ntypes && t < MACHINE_MAX_TYPES; t++)
			write_type(f, m, &m->types[t]);
		return;
	case S_CSTATE_TYPE: /* written by write_type() */
		return;
	case S_HIGHEST_PERF:
		machine_cppc_write(f, m);
		return;
	}
}

/* The canonical form: every section in the parser's table order. */
static void write_ini(FILE *f, const struct machine *m)
{
	fprintf(f, "# pmlab machine %.*s, canonical form (comments of the source are not "
		"kept)\n", MACHINE_NAME_MAX, m->name);
	for (int s = 0; s < NSECTIONS; s++)
		write_section(f, m, &sections[s]);
}

char *machine_to_ini(const struct machine *m)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	write_ini(f, m);
	if (ferror(f)) {
		fclose(f);
		free(buf);
		return NULL;
	}
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}
