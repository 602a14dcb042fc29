// SPDX-License-Identifier: GPL-2.0-only
/* Machine topology helpers and the machine's invariants.
 *
 * machine_check() is the one place that says what a valid machine is. The
 * parser calls it with the line of every value it read, machine_validate()
 * without, so the same rule gives "x.ini:12: ..." for a file and
 * "WHERE: ..." for a machine built in code. */
#include "machine_lines.h"

#include <math.h>
#include <string.h>

#define MAX_KHZ 100000000u     /* 100 GHz: a larger value is a unit mistake (Hz) */
#define MAX_MV 5000u
#define MAX_THREADS 8
#define MAX_LATENCY_NS (INT64_C(1000) * NS_PER_SEC) /* 1000 s, matches the parser's limit */
#define MAX_WATTS 1e6          /* keeps every product of the power model finite */

int machine_possible_cpus(const struct machine *m)
{
	return m->packages * m->cores_per_package * m->threads_per_core;
}

int machine_cpu_core(const struct machine *m, int cpu)
{
	if (cpu < 0 || cpu >= machine_possible_cpus(m))
		return -1;
	return cpu % machine_cores(m);
}

int machine_cpu_package(const struct machine *m, int cpu)
{
	int core = machine_cpu_core(m, cpu);
	return core < 0 ? -1 : core / m->cores_per_package;
}

int machine_cpu_thread(const struct machine *m, int cpu)
{
	if (cpu < 0 || cpu >= machine_possible_cpus(m))
		return -1;
	return cpu / machine_cores(m);
}

/* llc_cores divides cores_per_package, so dividing the global core index
 * gives package * (cores_per_package / llc_cores) + core_in_pkg / llc_cores. */
int machine_cpu_llc(const struct machine *m, int cpu)
{
	int core = machine_cpu_core(m, cpu);
	return core < 0 ? -1 : core / m->llc_cores;
}

int machine_cpu_freq_domain(const struct machine *m, int cpu)
{
	int core = machine_cpu_core(m, cpu);
	if (core < 0)
		return -1;
	switch (m->freq_domain) {
	case FREQ_DOMAIN_CORE:
		return core;
	case FREQ_DOMAIN_CLUSTER:
		return core / m->cluster_cores;
	case FREQ_DOMAIN_PACKAGE:
		return core / m->cores_per_package;
	}
	return -1;
}

int machine_freq_domains(const struct machine *m)
{
	switch (m->freq_domain) {
	case FREQ_DOMAIN_CORE:
		return machine_cores(m);
	case FREQ_DOMAIN_CLUSTER:
		return machine_cores(m) / m->cluster_cores;
	case FREQ_DOMAIN_PACKAGE:
		return m->packages;
	}
	return 0;
}

int machine_pstate_at_most(const struct machine *m, uint32_t khz)
{
	int best = 0;
	for (int i = 0; i < m->npstates; i++)
		if (m->pstates[i].khz <= khz)
			best = i;
	return best;
}

uint32_t machine_turbo_limit_khz(const struct machine *m, int active_cores)
{
	if (m->nturbo == 0)
		return m->npstates ? m->pstates[m->npstates - 1].khz : m->base_khz;
	if (active_cores < 1)
		active_cores = 1;
	/* Bins are sorted by falling frequency and rising core count, so the
	 * first bin that admits this many cores is the fastest one. */
	for (int i = 0; i < m->nturbo; i++)
		if (m->turbo[i].max_active_cores >= (uint32_t)active_cores)
			return m->turbo[i].khz;
	return m->base_khz;
}

const char *machine_invariance_name(enum freq_invariance f)
{
	switch (f) {
	case FIE_MAX:
		return "max";
	case FIE_TURBO_4C:
		return "turbo_4c";
	case FIE_TURBO_1C:
		return "turbo_1c";
	case FIE_BASE:
		return "base";
	case FIE_NONE:
		return "none";
	}
	return "?";
}

/* arch_set_max_freq_ratio(turbo_disabled()): with turbo off the reference
 * is the base frequency whatever the CPU's turbo ratio. The 4-core turbo
 * ratio is MSR_TURBO_RATIO_LIMIT's 4th byte, which is 0 on CPUs with
 * fewer cores; core_set_max_freq_ratio() then takes the 1-core one. */
uint32_t machine_invariance_khz(const struct machine *m, int boost)
{
	if (m->freq_invariance == FIE_NONE)
		return 0;
	if (!boost || m->freq_invariance == FIE_BASE)
		return m->base_khz;
	if (m->freq_invariance == FIE_MAX)
		return m->npstates ? m->pstates[m->npstates - 1].khz : m->base_khz;
	int cores = m->freq_invariance == FIE_TURBO_4C && m->cores_per_package >= 4 ? 4 : 1;
	return machine_turbo_limit_khz(m, cores);
}

int machine_cstate_index(const struct machine *m, const char *name)
{
	for (int i = 0; i < m->ncstates; i++)
		if (strncmp(m->cstates[i].name, name, CSTATE_NAME_MAX) == 0)
			return i;
	return -1;
}

int machine_set_online(struct machine *m, int n, struct pm_diag *d)
{
	int possible = machine_possible_cpus(m);
	if (n < 1 || n > possible)
		return pm_fail(d, "%d online CPUs is out of range for %s (expected 1..%d)",
			       n, m->name, possible);
	m->online_cpus = n;
	return 0;
}

/* A name becomes a section header or a bare INI value, so it is one word. */
int machine_name_ok(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr("._+-", *s)))
			return 0;
	return 1;
}

/* Free text must read back unchanged: printable ASCII, no surrounding
 * blanks (the parser trims them) and nothing that starts a comment. */
int machine_text_ok(const char *s)
{
	size_t n = strlen(s);
	if (n && (s[0] == ' ' || s[n - 1] == ' '))
		return 0;
	for (size_t i = 0; i < n; i++) {
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
			return 0;
		if ((s[i] == ';' || s[i] == '#') && (i == 0 || s[i - 1] == ' '))
			return 0;
	}
	return 1;
}

/* Fixed-size strings of a machine built in code may lack their NUL. */
static int terminated(const char *s, size_t size)
{
	return memchr(s, '\0', size) != NULL;
}

static int in_range(double x, double lo, double hi)
{
	return x >= lo && x <= hi; /* false for NaN */
}

#define LN(field) (ln ? ln->field : 0)
#define FAIL(line, ...) pm_fail_at(d, where, (line), __VA_ARGS__)

static int check_machine_section(const struct machine *m, const struct machine_lines *ln,
				 const char *where, struct pm_diag *d)
{
	if (!terminated(m->name, sizeof(m->name)) || !machine_name_ok(m->name))
		return FAIL(LN(name), "name '%.*s' is not a valid machine name "
			    "(expected letters, digits, '.', '_', '+' or '-')",
			    MACHINE_NAME_MAX - 1, m->name);
	if (!terminated(m->description, sizeof(m->description)) || !machine_text_ok(m->description))
		return FAIL(LN(description), "description is not plain one-line text "
			    "(expected printable ASCII without a ';' or '#' after a space)");
	if (!in_range(m->tdp_w, 0, MAX_WATTS))
		return FAIL(LN(tdp_w), "tdp_w = %g is out of range (expected watts >= 0)", m->tdp_w);
	if ((unsigned)m->cpufreq_driver >= CPUFREQ_NDRIVERS)
		return FAIL(LN(cpufreq_driver), "cpufreq_driver %d is not a driver pmlab knows",
			    (int)m->cpufreq_driver);
	if ((unsigned)m->cpuidle_driver >= CPUIDLE_NDRIVERS)
		return FAIL(LN(cpuidle_driver), "cpuidle_driver %d is not a driver pmlab knows",
			    (int)m->cpuidle_driver);
	return 0;
}

static int check_topology(const struct machine *m, const struct machine_lines *ln,
			  const char *where, struct pm_diag *d)
{
	int cpp = m->cores_per_package;

	if (m->packages < 1 || m->packages > MACHINE_MAX_CPUS)
		return FAIL(LN(packages), "packages = %d is out of range (expected 1..%d)",
			    m->packages, MACHINE_MAX_CPUS);
	if (cpp < 1 || cpp > MACHINE_MAX_CPUS)
		return FAIL(LN(cores_per_package), "cores_per_package = %d is out of range "
			    "(expected 1..%d)", cpp, MACHINE_MAX_CPUS);
	if (m->threads_per_core < 1 || m->threads_per_core > MAX_THREADS)
		return FAIL(LN(threads_per_core), "threads_per_core = %d is out of range "
			    "(expected 1..%d)", m->threads_per_core, MAX_THREADS);
	long long cpus = (long long)m->packages * cpp * m->threads_per_core;
	if (cpus > MACHINE_MAX_CPUS)
		return FAIL(LN(topology), "topology has %lld CPUs (expected packages * "
			    "cores_per_package * threads_per_core <= %d)", cpus, MACHINE_MAX_CPUS);
	if (m->llc_cores < 1 || cpp % m->llc_cores)
		return FAIL(LN(llc_cores), "llc_cores = %d does not divide cores_per_package = %d "
			    "(expected a divisor of %d)", m->llc_cores, cpp, cpp);
	switch (m->freq_domain) {
	case FREQ_DOMAIN_CLUSTER:
		if (m->cluster_cores < 1 || cpp % m->cluster_cores)
			return FAIL(LN(cluster_cores), "cluster_cores = %d does not divide "
				    "cores_per_package = %d (expected a divisor of %d)",
				    m->cluster_cores, cpp, cpp);
		break;
	case FREQ_DOMAIN_CORE:
	case FREQ_DOMAIN_PACKAGE:
		if (m->cluster_cores != 0)
			return FAIL(LN(cluster_cores), "cluster_cores is set but the frequency "
				    "domain is not a cluster (expected cluster_cores only with "
				    "freq_domain = cluster)");
		break;
	default:
		return FAIL(LN(freq_domain), "freq_domain %d is unknown "
			    "(expected core, cluster or package)", (int)m->freq_domain);
	}
	if (m->online_cpus < 1 || m->online_cpus > cpus)
		return FAIL(LN(online_cpus), "online_cpus = %d is out of range (expected 1..%lld)",
			    m->online_cpus, cpus);
	return 0;
}

const char *machine_khz_problem(long long khz)
{
	if (khz <= 0)
		return "frequency must be positive (expected kHz > 0)";
	if (khz > MAX_KHZ)
		return "frequency is too high (expected kHz, at most 100000000)";
	return NULL;
}

const char *machine_mv_problem(long long mv)
{
	if (mv <= 0)
		return "voltage must be positive (expected mV > 0)";
	if (mv > MAX_MV)
		return "voltage is too high (expected mV, at most 5000)";
	return NULL;
}

static int pstate_index(const struct machine *m, uint32_t khz)
{
	for (int i = 0; i < m->npstates; i++)
		if (m->pstates[i].khz == khz)
			return i;
	return -1;
}

static int check_pstates(const struct machine *m, const struct machine_lines *ln,
			 const char *where, struct pm_diag *d)
{
	const char *why;

	if (m->npstates < 1)
		return FAIL(LN(pstates), "no P-states (expected at least one "
			    "'<kHz> = <mV>' line in [pstates])");
	if (m->npstates > MACHINE_MAX_PSTATES)
		return FAIL(LN(pstates), "too many P-states (expected at most %d)",
			    MACHINE_MAX_PSTATES);
	for (int i = 0; i < m->npstates; i++) {
		const struct pstate *p = &m->pstates[i];
		int line = ln ? ln->pstate[i] : 0;

		if ((why = machine_khz_problem(p->khz)))
			return FAIL(line, "pstate %u kHz: %s", p->khz, why);
		if ((why = machine_mv_problem(p->mv)))
			return FAIL(line, "pstate %u kHz: %s", p->khz, why);
		if (i == 0)
			continue;
		if (p->khz <= p[-1].khz)
			return FAIL(line, "pstate %u kHz: not above the previous P-state %u kHz "
				    "(expected ascending, distinct frequencies)", p->khz, p[-1].khz);
		if (p->mv < p[-1].mv)
			return FAIL(line, "pstate %u kHz: voltage %u mV is below the %u mV of "
				    "the slower P-state %u kHz (expected voltage to rise with "
				    "frequency)", p->khz, p->mv, p[-1].mv, p[-1].khz);
	}

	uint32_t lo = m->pstates[0].khz, hi = m->pstates[m->npstates - 1].khz;
	if ((why = machine_khz_problem(m->base_khz)))
		return FAIL(LN(base_khz), "base_khz = %u: %s", m->base_khz, why);
	if (m->base_khz > hi)
		return FAIL(LN(base_khz), "base_khz = %u is above the highest P-state %u kHz "
			    "(expected a kHz listed in [pstates])", m->base_khz, hi);
	if (m->base_khz < lo)
		return FAIL(LN(base_khz), "base_khz = %u is below the lowest P-state %u kHz "
			    "(expected a kHz listed in [pstates])", m->base_khz, lo);
	if (pstate_index(m, m->base_khz) < 0) {
		int below = machine_pstate_at_most(m, m->base_khz);
		return FAIL(LN(base_khz), "base_khz = %u is not a P-state (expected a kHz "
			    "listed in [pstates], e.g. %u or %u)", m->base_khz,
			    m->pstates[below].khz, m->pstates[below + 1].khz);
	}
	if (m->transition_latency_ns < 0 || m->transition_latency_ns > MAX_LATENCY_NS)
		return FAIL(LN(transition_latency), "transition_latency_us is out of range "
			    "(expected 0..1000000000 us)");
	return 0;
}

static int check_turbo(const struct machine *m, const struct machine_lines *ln,
		       const char *where, struct pm_diag *d)
{
	if (m->nturbo < 0 || m->nturbo > MACHINE_MAX_TURBO)
		return FAIL(LN(turbo), "too many turbo bins (expected at most %d)",
			    MACHINE_MAX_TURBO);
	for (int i = 0; i < m->nturbo; i++) {
		const struct turbo_bin *t = &m->turbo[i];
		int line = ln ? ln->turbo_bin[i] : 0;

		if (pstate_index(m, t->khz) < 0)
			return FAIL(line, "turbo %u kHz: not a P-state "
				    "(expected a kHz listed in [pstates])", t->khz);
		if (t->khz <= m->base_khz)
			return FAIL(line, "turbo %u kHz: not above base_khz %u "
				    "(expected turbo frequencies above base)", t->khz, m->base_khz);
		if (t->max_active_cores < 1 || t->max_active_cores > (uint32_t)m->cores_per_package)
			return FAIL(line, "turbo %u kHz: %u active cores is out of range "
				    "(expected 1..%d)", t->khz, t->max_active_cores,
				    m->cores_per_package);
		if (i == 0)
			continue;
		if (t->khz >= t[-1].khz)
			return FAIL(line, "turbo %u kHz: not below the previous bin %u kHz "
				    "(expected descending, distinct frequencies)", t->khz, t[-1].khz);
		if (t->max_active_cores <= t[-1].max_active_cores)
			return FAIL(line, "turbo %u kHz: allows %u active cores, no more than "
				    "the faster bin %u kHz (expected more active cores at lower "
				    "turbo frequencies)", t->khz, t->max_active_cores, t[-1].khz);
	}
	return 0;
}

/* Exit latency, residency and power rules shared by core and package states. */
static int check_idle_state(const char *kind, const char *name, sim_ns exit_ns,
			    sim_ns residency_ns, double power_w, const sim_ns *prev,
			    const int lines[3], const char *where, struct pm_diag *d)
{
	if (exit_ns < 0 || exit_ns > MAX_LATENCY_NS)
		return FAIL(lines[0], "%s %s: exit_latency_us = %g is out of range "
			    "(expected 0..1000000000 us)", kind, name, (double)exit_ns / 1e3);
	if (residency_ns > MAX_LATENCY_NS)
		return FAIL(lines[1], "%s %s: target_residency_us = %g is out of range "
			    "(expected 0..1000000000 us)", kind, name, (double)residency_ns / 1e3);
	if (residency_ns < exit_ns)
		return FAIL(lines[1], "%s %s: target_residency_us = %g is below "
			    "exit_latency_us = %g (expected target_residency_us >= "
			    "exit_latency_us)", kind, name, (double)residency_ns / 1e3, (double)exit_ns / 1e3);
	if (!in_range(power_w, 0, MAX_WATTS))
		return FAIL(lines[2], "%s %s: power_mw = %g is out of range (expected mW >= 0)",
			    kind, name, power_w * 1e3);
	/* Governors scan states shallow to deep and stop at the first one
	 * that does not fit, which is only right if cost grows with depth. */
	if (prev && exit_ns < prev[0])
		return FAIL(lines[0], "%s %s: exit latency %g us is below the %g us of a "
			    "shallower state (expected states in order of increasing depth)",
			    kind, name, (double)exit_ns / 1e3, (double)prev[0] / 1e3);
	if (prev && residency_ns < prev[1])
		return FAIL(lines[1], "%s %s: target residency %g us is below the %g us of a "
			    "shallower state (expected states in order of increasing depth)",
			    kind, name, (double)residency_ns / 1e3, (double)prev[1] / 1e3);
	return 0;
}

static int check_cstates(const struct machine *m, const struct machine_lines *ln,
			 const char *where, struct pm_diag *d)
{
	if (m->ncstates < 1)
		return FAIL(0, "no core C-states (expected at least one [cstate NAME] section)");
	if (m->ncstates > MACHINE_MAX_CSTATES)
		return FAIL(0, "too many C-states (expected at most %d)", MACHINE_MAX_CSTATES);
	for (int i = 0; i < m->ncstates; i++) {
		const struct cstate *c = &m->cstates[i];
		struct cstate_lines l = { 0 };
		if (ln)
			l = ln->cstate[i];

		if (!terminated(c->name, sizeof(c->name)) || !machine_name_ok(c->name))
			return FAIL(l.section, "C-state name '%.*s' is not valid (expected 1..%d "
				    "letters, digits, '.', '_', '+' or '-')",
				    CSTATE_NAME_MAX - 1, c->name, CSTATE_NAME_MAX - 1);
		for (int j = 0; j < i; j++)
			if (strcmp(m->cstates[j].name, c->name) == 0)
				return FAIL(l.section, "duplicate C-state %s (expected distinct "
					    "names)", c->name);
		if (!terminated(c->desc, sizeof(c->desc)) || !machine_text_ok(c->desc))
			return FAIL(l.desc, "C-state %s: desc is not plain one-line text "
				    "(expected printable ASCII without a ';' or '#' after a space)",
				    c->name);
		int lines[3] = { l.exit, l.residency, l.power };
		sim_ns prev[2];
		if (i > 0) {
			prev[0] = c[-1].exit_ns;
			prev[1] = c[-1].residency_ns;
		}
		if (check_idle_state("C-state", c->name, c->exit_ns, c->residency_ns,
				     c->power_w, i ? prev : NULL, lines, where, d))
			return -1;
		if (c->wake_ns < 0 || c->wake_ns > c->exit_ns)
			return FAIL(l.wake, "C-state %s: wake_us = %g (expected 0..exit_latency_us = %g: "
				    "the table's exit latency is the worst case)", c->name,
				    (double)c->wake_ns / 1e3, (double)c->exit_ns / 1e3);
		if (c->poll != 0 && c->poll != 1)
			return FAIL(l.poll, "C-state %s: poll = %d (expected 0 or 1)", c->name, c->poll);
		if (c->turbo_active != 0 && c->turbo_active != 1)
			return FAIL(l.turbo_active, "C-state %s: turbo_active = %d (expected 0 or 1)",
				    c->name, c->turbo_active);
		if (c->poll && i > 0)
			return FAIL(l.poll, "C-state %s: only the first C-state may poll "
				    "(expected poll = 0 here)", c->name);
	}
	return 0;
}

static int check_pkg_cstates(const struct machine *m, const struct machine_lines *ln,
			     const char *where, struct pm_diag *d)
{
	if (m->npkg_cstates < 0 || m->npkg_cstates > MACHINE_MAX_PKG_CSTATES)
		return FAIL(0, "too many package C-states (expected at most %d)",
			    MACHINE_MAX_PKG_CSTATES);
	for (int i = 0; i < m->npkg_cstates; i++) {
		const struct pkg_cstate *p = &m->pkg_cstates[i];
		struct pkg_cstate_lines l = { 0 };
		if (ln)
			l = ln->pkg[i];

		if (!terminated(p->name, sizeof(p->name)) || !machine_name_ok(p->name))
			return FAIL(l.section, "package C-state name '%.*s' is not valid "
				    "(expected 1..%d letters, digits, '.', '_', '+' or '-')",
				    CSTATE_NAME_MAX - 1, p->name, CSTATE_NAME_MAX - 1);
		for (int j = 0; j < i; j++)
			if (strcmp(m->pkg_cstates[j].name, p->name) == 0)
				return FAIL(l.section, "duplicate package C-state %s "
					    "(expected distinct names)", p->name);
		if (p->requires < 0 || p->requires >= m->ncstates)
			return FAIL(l.requires, "package C-state %s: requires C-state %d, which "
				    "does not exist (expected 0..%d)", p->name, p->requires,
				    m->ncstates - 1);
		const struct cstate *req = &m->cstates[p->requires];
		if (req->poll)
			return FAIL(l.requires, "package C-state %s requires the polling state "
				    "%s (expected a C-state in which the core idles)",
				    p->name, req->name);
		if (i > 0 && p->requires < p[-1].requires)
			return FAIL(l.requires, "package C-state %s requires %s, shallower than "
				    "%s required by %s (expected package C-states in order of "
				    "increasing depth)", p->name, req->name,
				    m->cstates[p[-1].requires].name, p[-1].name);
		int lines[3] = { l.exit, l.residency, l.power };
		sim_ns prev[2];
		if (i > 0) {
			prev[0] = p[-1].exit_ns;
			prev[1] = p[-1].residency_ns;
		}
		if (check_idle_state("package C-state", p->name, p->exit_ns, p->residency_ns,
				     p->power_w, i ? prev : NULL, lines, where, d))
			return -1;
		/* A package state exists to save uncore power. */
		if (p->power_w > m->uncore_w)
			return FAIL(l.power, "package C-state %s: power_mw = %g exceeds uncore_w "
				    "= %g W (expected at most the running uncore power)",
				    p->name, p->power_w * 1e3, m->uncore_w);
	}
	return 0;
}

static int check_power(const struct machine *m, const struct machine_lines *ln,
		       const char *where, struct pm_diag *d)
{
	int tpc = m->threads_per_core;

	if (!(m->ceff_nf > 0) || m->ceff_nf > MAX_WATTS)
		return FAIL(LN(ceff_nf), "ceff_nf = %g is out of range (expected nF > 0)", m->ceff_nf);
	if (!in_range(m->leak_w, 0, MAX_WATTS))
		return FAIL(LN(leak_w), "leak_w = %g is out of range (expected W >= 0)", m->leak_w);
	if (!in_range(m->leak_beta, 0, 100))
		return FAIL(LN(leak_beta), "leak_beta = %g is out of range "
			    "(expected 0..100 per volt)", m->leak_beta);
	if (tpc == 1 ? m->smt_activity != 1 : !in_range(m->smt_activity, 1, tpc))
		return FAIL(LN(smt_activity), "smt_activity = %g is out of range (expected "
			    "1..%d with %d threads per core)", m->smt_activity, tpc, tpc);
	/* All threads together never do less than one thread alone. */
	if (tpc == 1 ? m->smt_throughput != 1 : !in_range(m->smt_throughput, 1.0 / tpc, 1))
		return FAIL(LN(smt_throughput), "smt_throughput = %g is out of range (expected "
			    "%g..1 with %d threads per core)", m->smt_throughput, 1.0 / tpc, tpc);
	if (!in_range(m->uncore_w, 0, MAX_WATTS))
		return FAIL(LN(uncore_w), "uncore_w = %g is out of range (expected W >= 0)",
			    m->uncore_w);
	if (!in_range(m->platform_w, 0, MAX_WATTS))
		return FAIL(LN(platform_w), "platform_w = %g is out of range (expected W >= 0)",
			    m->platform_w);
	if (m->refill_ns < 0 || m->refill_ns > MAX_LATENCY_NS)
		return FAIL(LN(refill), "refill_us is out of range (expected 0..1000000000 us)");
	if (!in_range(m->share_stall_cut, 0, 1))
		return FAIL(LN(share_stall_cut), "share_stall_cut = %g is out of range "
			    "(expected 0..1)", m->share_stall_cut);
	if (m->share_window_ns < 0 || m->share_window_ns > MAX_LATENCY_NS)
		return FAIL(LN(share_window), "share_window_us is out of range (expected 0..1000000000 us)");
	const struct { sim_ns v; int line; const char *name; } costs[] = {
		{ m->syscall_ns, LN(syscall), "syscall_us" },
		{ m->context_switch_ns, LN(context_switch), "context_switch_us" },
		{ m->wakeup_ipi_ns, LN(wakeup_ipi), "wakeup_ipi_us" },
		{ m->fork_ns, LN(fork), "fork_us" },
		{ m->exec_ns, LN(exec), "exec_us" },
		{ m->tick_cost_ns, LN(tick_cost), "tick_us" },
		{ m->tick_stop_ns, LN(tick_stop), "tick_stop_us" },
		{ m->tick_restart_ns, LN(tick_restart), "tick_restart_us" },
		{ m->idle_entry_ns, LN(idle_entry), "idle_entry_us" },
		{ m->idle_exit_ns, LN(idle_exit), "idle_exit_us" },
		{ m->bg_handler_ns, LN(bg_handler), "handler_us" },
	};
	for (size_t i = 0; i < sizeof(costs) / sizeof(costs[0]); i++)
		if (costs[i].v < 0 || costs[i].v > 1000 * NS_PER_MS)
			return FAIL(costs[i].line, "%s is out of range (expected 0..1000000 us)",
				    costs[i].name);
	if (!in_range(m->bg_wakeups_per_s, 0, 1000000))
		return FAIL(LN(bg_wakeups), "wakeups_per_s = %g is out of range (expected "
			    "0..1000000 per CPU per second)", m->bg_wakeups_per_s);
	if (!in_range(m->bg_jitter, 0, 1))
		return FAIL(LN(bg_jitter), "jitter_pct = %g is out of range (expected 0..100)",
			    m->bg_jitter * 100);
	if (!in_range(m->bg_timer_share, 0, 1))
		return FAIL(LN(bg_timer), "timer_pct = %g is out of range (expected 0..100)",
			    m->bg_timer_share * 100);
	return 0;
}

int machine_check(const struct machine *m, const struct machine_lines *ln,
		  const char *where, struct pm_diag *d)
{
	if (check_machine_section(m, ln, where, d) || check_topology(m, ln, where, d) ||
	    check_pstates(m, ln, where, d) || check_turbo(m, ln, where, d) ||
	    check_power(m, ln, where, d) || check_cstates(m, ln, where, d) ||
	    check_pkg_cstates(m, ln, where, d))
		return -1;
	return 0;
}

const char *machine_cpufreq_driver_name(enum cpufreq_driver_kind k)
{
	static const char *const names[CPUFREQ_NDRIVERS] = {
		"acpi-cpufreq", "intel_pstate", "intel_cpufreq", "powernv-cpufreq", "none",
	};
	return (unsigned)k < CPUFREQ_NDRIVERS ? names[k] : "?";
}

const char *machine_cpuidle_driver_name(enum cpuidle_driver_kind k)
{
	static const char *const names[CPUIDLE_NDRIVERS] = {
		"acpi_idle", "intel_idle", "powernv_idle", "haltpoll", "none",
	};
	return (unsigned)k < CPUIDLE_NDRIVERS ? names[k] : "?";
}

int machine_validate(const struct machine *m, const char *where, struct pm_diag *d)
{
	return machine_check(m, NULL, where, d);
}
