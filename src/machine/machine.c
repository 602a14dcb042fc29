// SPDX-License-Identifier: GPL-2.0-only
/* Machine topology helpers and the machine's invariants.
 *
 * machine_check() is the one place that says what a valid machine is. The
 * parser calls it with the line of every value it read, machine_validate()
 * without, so the same rule gives "x.ini:12: ..." for a file and
 * "WHERE: ..." for a machine built in code. */
#include "machine_lines.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_KHZ 100000000u     /* 100 GHz: a larger value is a unit mistake (Hz) */
#define MAX_MV 5000u
#define MAX_THREADS 8
#define MAX_LATENCY_NS (INT64_C(1000) * NS_PER_SEC) /* 1000 s, matches the parser's limit */
#define MAX_WATTS 1e6          /* keeps every product of the power model finite */

/* Every core has the machine's threads_per_core unless a type says
 * otherwise; then CPUs are numbered thread-major still, skipping the
 * threads a core's type does not have (the first thread of every core,
 * then the second thread of every core that has one, ...). */
static int uniform_threads(const struct machine *m)
{
	for (int t = 0; t < m->ntypes; t++)
		if (m->types[t].threads_per_core != m->threads_per_core)
			return 0;
	return 1;
}

static int core_threads(const struct machine *m, int core)
{
	int t = machine_core_type(m, core);
	return m->ntypes > 0 && t >= 0 ? m->types[t].threads_per_core : m->threads_per_core;
}

int machine_possible_cpus(const struct machine *m)
{
	if (uniform_threads(m))
		return m->packages * m->cores_per_package * m->threads_per_core;
	int per_pkg = 0;
	for (int t = 0; t < m->ntypes; t++)
		per_pkg += m->types[t].cores * m->types[t].threads_per_core;
	return m->packages * per_pkg;
}

int machine_core_type(const struct machine *m, int core)
{
	if (core < 0 || core >= machine_cores(m))
		return -1;
	int in_pkg = core % m->cores_per_package;
	for (int t = 0; t < m->ntypes; t++) {
		if (in_pkg < m->types[t].cores)
			return t;
		in_pkg -= m->types[t].cores;
	}
	return 0;
}

/* The CPU's core and thread, through the numbering above. */
static int cpu_place(const struct machine *m, int cpu, int *thread)
{
	if (cpu < 0 || cpu >= machine_possible_cpus(m))
		return -1;
	int ncores = machine_cores(m);
	if (uniform_threads(m)) {
		*thread = cpu / ncores;
		return cpu % ncores;
	}
	for (int th = 0;; th++)
		for (int core = 0; core < ncores; core++)
			if (core_threads(m, core) > th && cpu-- == 0) {
				*thread = th;
				return core;
			}
}

int machine_cpu_core(const struct machine *m, int cpu)
{
	int thread;
	return cpu_place(m, cpu, &thread);
}

int machine_cpu_type(const struct machine *m, int cpu)
{
	return machine_core_type(m, machine_cpu_core(m, cpu));
}

int machine_cpu_package(const struct machine *m, int cpu)
{
	int core = machine_cpu_core(m, cpu);
	return core < 0 ? -1 : core / m->cores_per_package;
}

int machine_cpu_thread(const struct machine *m, int cpu)
{
	int thread;
	return cpu_place(m, cpu, &thread) < 0 ? -1 : thread;
}

/* llc_cores divides cores_per_package, so dividing the global core index
 * gives package * (cores_per_package / llc_cores) + core_in_pkg / llc_cores. */
int machine_cpu_llc(const struct machine *m, int cpu)
{
	int core = machine_cpu_core(m, cpu);
	return core < 0 ? -1 : core / m->llc_cores;
}

/* Clock domains of `cores` cores of one kind, and the one of the core
 * `in` of them. */
static int kind_domains(enum freq_domain_kind k, int cores, int cluster_cores)
{
	switch (k) {
	case FREQ_DOMAIN_CORE:
		return cores;
	case FREQ_DOMAIN_CLUSTER:
		return cluster_cores > 0 ? cores / cluster_cores : 0;
	case FREQ_DOMAIN_PACKAGE:
		return 1;
	}
	return 0;
}

static int kind_domain(enum freq_domain_kind k, int in, int cluster_cores)
{
	switch (k) {
	case FREQ_DOMAIN_CORE:
		return in;
	case FREQ_DOMAIN_CLUSTER:
		return cluster_cores > 0 ? in / cluster_cores : 0;
	case FREQ_DOMAIN_PACKAGE:
		return 0;
	}
	return 0;
}

static int pkg_domains(const struct machine *m)
{
	if (m->ntypes == 0)
		return kind_domains(m->freq_domain, m->cores_per_package, m->cluster_cores);
	int n = 0;
	for (int t = 0; t < m->ntypes; t++)
		n += kind_domains(m->types[t].freq_domain, m->types[t].cores,
				  m->types[t].cluster_cores);
	return n;
}

/* Domains are numbered package by package, and in a package type by type
 * (a clock never spans two packages or two types). */
int machine_cpu_freq_domain(const struct machine *m, int cpu)
{
	int core = machine_cpu_core(m, cpu);
	if (core < 0)
		return -1;
	int pkg = core / m->cores_per_package, in = core % m->cores_per_package;
	int dom = pkg * pkg_domains(m);
	if (m->ntypes == 0)
		return dom + kind_domain(m->freq_domain, in, m->cluster_cores);
	for (int t = 0; t < m->ntypes; t++) {
		const struct cpu_type *ty = &m->types[t];
		if (in < ty->cores)
			return dom + kind_domain(ty->freq_domain, in, ty->cluster_cores);
		dom += kind_domains(ty->freq_domain, ty->cores, ty->cluster_cores);
		in -= ty->cores;
	}
	return -1;
}

int machine_freq_domains(const struct machine *m)
{
	return m->packages * pkg_domains(m);
}

void machine_type_get(const struct machine *m, int t, struct cpu_type *out)
{
	if (m->ntypes > 0) {
		*out = m->types[t < 0 || t >= m->ntypes ? 0 : t];
		return;
	}
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "cpu");
	out->cores = m->cores_per_package;
	out->threads_per_core = m->threads_per_core;
	out->capacity = CAPACITY_SCALE;
	out->freq_domain = m->freq_domain;
	out->cluster_cores = m->cluster_cores;
	out->base_khz = m->base_khz;
	out->lowest_nonlinear_khz = m->lowest_nonlinear_khz;
	out->perf_scaling_khz = m->perf_scaling_khz;
	out->npstates = m->npstates;
	memcpy(out->pstates, m->pstates, sizeof(out->pstates));
	out->nturbo = m->nturbo;
	memcpy(out->turbo, m->turbo, sizeof(out->turbo));
	memcpy(out->cstates, m->cstates, sizeof(out->cstates));
	out->ceff_nf = m->ceff_nf;
	out->leak_w = m->leak_w;
	out->leak_beta = m->leak_beta;
	out->smt_activity = m->smt_activity;
	out->smt_throughput = m->smt_throughput;
	out->cluster_w = m->cluster_w;
}

void machine_types_resolve(struct machine *m)
{
	if (m->ntypes > 0)
		return;
	machine_type_get(m, 0, &m->types[0]);
	m->ntypes = 1;
}

const struct pstate *machine_cpu_pstates(const struct machine *m, int cpu, int *n)
{
	int t = machine_cpu_type(m, cpu);
	if (m->ntypes == 0 || t < 0) {
		*n = m->npstates;
		return m->pstates;
	}
	*n = m->types[t].npstates;
	return m->types[t].pstates;
}

static int pstate_at_most(const struct pstate *ps, int n, uint32_t khz)
{
	int best = 0;
	for (int i = 0; i < n; i++)
		if (ps[i].khz <= khz)
			best = i;
	return best;
}

int machine_pstate_at_most(const struct machine *m, uint32_t khz)
{
	return pstate_at_most(m->pstates, m->npstates, khz);
}

int machine_type_pstate_at_most(const struct cpu_type *t, uint32_t khz)
{
	return pstate_at_most(t->pstates, t->npstates, khz);
}

static uint32_t turbo_limit_khz(const struct pstate *ps, int nps, uint32_t base_khz,
				const struct turbo_bin *turbo, int nturbo, int active_cores)
{
	if (nturbo == 0)
		return nps ? ps[nps - 1].khz : base_khz;
	if (active_cores < 1)
		active_cores = 1;
	/* Bins are sorted by falling frequency and rising core count, so the
	 * first bin that admits this many cores is the fastest one. */
	for (int i = 0; i < nturbo; i++)
		if (turbo[i].max_active_cores >= (uint32_t)active_cores)
			return turbo[i].khz;
	return base_khz;
}

uint32_t machine_turbo_limit_khz(const struct machine *m, int active_cores)
{
	return turbo_limit_khz(m->pstates, m->npstates, m->base_khz, m->turbo, m->nturbo,
			       active_cores);
}

uint32_t machine_type_turbo_limit_khz(const struct cpu_type *t, int active_cores)
{
	return turbo_limit_khz(t->pstates, t->npstates, t->base_khz, t->turbo, t->nturbo,
			       active_cores);
}

const char *machine_pm_profile_name(enum pm_profile p)
{
	static const char *const names[PM_NPROFILES] = {
		"unspecified", "desktop", "mobile", "workstation", "enterprise_server",
		"soho_server", "appliance_pc", "performance_server", "tablet",
	};
	return (unsigned)p < PM_NPROFILES ? names[p] : "?";
}

bool machine_pm_profile_server(enum pm_profile p)
{
	return p == PM_PROFILE_ENTERPRISE_SERVER || p == PM_PROFILE_SOHO_SERVER ||
	       p == PM_PROFILE_PERFORMANCE_SERVER;
}

const char *machine_turbo_control_name(enum turbo_control t)
{
	return t == TURBO_OS ? "os" : t == TURBO_HARDWARE ? "hardware" : "?";
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
static uint32_t invariance_khz(enum freq_invariance f, const struct pstate *ps, int nps,
			       uint32_t base_khz, const struct turbo_bin *turbo, int nturbo,
			       int cores, int boost)
{
	if (f == FIE_NONE)
		return 0;
	if (!boost || f == FIE_BASE)
		return base_khz;
	if (f == FIE_MAX)
		return nps ? ps[nps - 1].khz : base_khz;
	int active = f == FIE_TURBO_4C && cores >= 4 ? 4 : 1;
	return turbo_limit_khz(ps, nps, base_khz, turbo, nturbo, active);
}

uint32_t machine_invariance_khz(const struct machine *m, int boost)
{
	return invariance_khz(m->freq_invariance, m->pstates, m->npstates, m->base_khz, m->turbo,
			      m->nturbo, m->cores_per_package, boost);
}

/* A hybrid part's reference is per type (x86 since v6.12: each CPU's own
 * capacity frequency, arch_set_cpu_capacity(); arm64: each policy's
 * cpuinfo max); the 4-core rule counts the type's cores. */
uint32_t machine_type_invariance_khz(const struct machine *m, const struct cpu_type *t, int boost)
{
	return invariance_khz(m->freq_invariance, t->pstates, t->npstates, t->base_khz, t->turbo,
			      t->nturbo, t->cores, boost);
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

#define TL(t, field) (ln ? ln->type[t].field : 0)

/* The types' share of the topology: names, cores adding up to the
 * package's, threads, capacities (the biggest 1024, as the kernel
 * normalises them) and clock domains. */
static int check_type_topology(const struct machine *m, const struct machine_lines *ln,
			       const char *where, struct pm_diag *d)
{
	int cpp = m->cores_per_package, sum = 0;
	uint32_t biggest = 0;

	if (m->ntypes < 0 || m->ntypes > MACHINE_MAX_TYPES)
		return FAIL(0, "%d CPU types (expected at most %d)", m->ntypes, MACHINE_MAX_TYPES);
	for (int t = 0; t < m->ntypes; t++) {
		const struct cpu_type *ty = &m->types[t];
		if (!terminated(ty->name, sizeof(ty->name)) || !machine_name_ok(ty->name))
			return FAIL(TL(t, section), "CPU type name '%.*s' is not valid (expected "
				    "1..%d letters, digits, '.', '_', '+' or '-')",
				    CPU_TYPE_NAME_MAX - 1, ty->name, CPU_TYPE_NAME_MAX - 1);
		for (int u = 0; u < t; u++)
			if (strcmp(m->types[u].name, ty->name) == 0)
				return FAIL(TL(t, section), "duplicate CPU type %s (expected "
					    "distinct names)", ty->name);
		if (ty->cores < 1 || ty->cores > cpp)
			return FAIL(TL(t, cores), "cpu_type %s: cores = %d is out of range "
				    "(expected 1..%d, its cores in each package)", ty->name,
				    ty->cores, cpp);
		sum += ty->cores;
		if (ty->threads_per_core < 1 || ty->threads_per_core > MAX_THREADS)
			return FAIL(TL(t, threads_per_core), "cpu_type %s: threads_per_core = %d "
				    "is out of range (expected 1..%d)", ty->name,
				    ty->threads_per_core, MAX_THREADS);
		if (ty->capacity < 1 || ty->capacity > CAPACITY_SCALE)
			return FAIL(TL(t, capacity), "cpu_type %s: capacity = %u is out of range "
				    "(expected 1..%d, %d for the biggest type)", ty->name,
				    ty->capacity, CAPACITY_SCALE, CAPACITY_SCALE);
		if (ty->capacity > biggest)
			biggest = ty->capacity;
		int cc = ty->cluster_cores;
		switch (ty->freq_domain) {
		case FREQ_DOMAIN_CLUSTER:
			if (cc < 1 || ty->cores % cc)
				return FAIL(TL(t, cluster_cores) ? TL(t, cluster_cores)
								 : LN(cluster_cores),
					    "cpu_type %s: cluster_cores = %d does not divide its "
					    "cores = %d (expected a divisor of %d)", ty->name, cc,
					    ty->cores, ty->cores);
			break;
		case FREQ_DOMAIN_CORE:
		case FREQ_DOMAIN_PACKAGE:
			if (cc != 0)
				return FAIL(TL(t, cluster_cores), "cpu_type %s: cluster_cores is "
					    "set but its frequency domain is not a cluster (expected "
					    "cluster_cores only with freq_domain = cluster)", ty->name);
			break;
		default:
			return FAIL(TL(t, freq_domain), "cpu_type %s: freq_domain %d is unknown "
				    "(expected core, cluster or package)", ty->name,
				    (int)ty->freq_domain);
		}
	}
	if (sum != cpp)
		return FAIL(LN(cores_per_package), "the CPU types have %d cores per package, "
			    "cores_per_package = %d (expected their cores to add up to it)", sum, cpp);
	if (biggest != CAPACITY_SCALE)
		return FAIL(TL(0, capacity), "the biggest CPU type has capacity %u (expected %d: "
			    "capacities are relative to the biggest CPU)", biggest, CAPACITY_SCALE);
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
	if (m->ntypes && check_type_topology(m, ln, where, d))
		return -1;
	long long cpus = (long long)m->packages * cpp * m->threads_per_core;
	if (m->ntypes)
		cpus = machine_possible_cpus(m);
	if (cpus > MACHINE_MAX_CPUS)
		return FAIL(LN(topology), "topology has %lld CPUs (expected packages * "
			    "cores_per_package * threads_per_core <= %d)", cpus, MACHINE_MAX_CPUS);
	if (m->llc_cores < 1 || cpp % m->llc_cores)
		return FAIL(LN(llc_cores), "llc_cores = %d does not divide cores_per_package = %d "
			    "(expected a divisor of %d)", m->llc_cores, cpp, cpp);
	switch (m->freq_domain) {
	case FREQ_DOMAIN_CLUSTER:
		/* With types, the default cluster must divide the cores of the
		 * types that take it (check_type_topology()). */
		if (m->cluster_cores < 1 || (!m->ntypes && cpp % m->cluster_cores))
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

static int pstate_index(const struct pstate *ps, int n, uint32_t khz)
{
	for (int i = 0; i < n; i++)
		if (ps[i].khz == khz)
			return i;
	return -1;
}

/* A clock table: the machine's own ([pstates], [turbo], base_khz) or a
 * CPU type's; `who` prefixes the messages about a type's ("cpu_type
 * ecore: "), "" for the machine's, whose words stay as they were. */
struct clock_table {
	const char *who;
	const struct pstate *ps;
	int nps;
	uint32_t base_khz;
	const struct turbo_bin *turbo;
	int nturbo;
	int max_cores;                 /* cores the turbo bins may count */
	uint32_t lowest_nonlinear_khz, perf_scaling_khz;
	int pstates_line, base_line, turbo_line, lnl_line, scaling_line;
	const int *pstate_lines, *turbo_lines; /* NULL: no lines */
};

static int check_pstates(const struct clock_table *c, const char *where, struct pm_diag *d)
{
	const char *why, *who = c->who;

	if (c->nps < 1)
		return FAIL(c->pstates_line, "%sno P-states (expected at least one "
			    "'<kHz> = <mV>' line in [pstates%s])", who, *who ? " NAME" : "");
	if (c->nps > MACHINE_MAX_PSTATES)
		return FAIL(c->pstates_line, "%stoo many P-states (expected at most %d)", who,
			    MACHINE_MAX_PSTATES);
	for (int i = 0; i < c->nps; i++) {
		const struct pstate *p = &c->ps[i];
		int line = c->pstate_lines ? c->pstate_lines[i] : 0;

		if ((why = machine_khz_problem(p->khz)))
			return FAIL(line, "%spstate %u kHz: %s", who, p->khz, why);
		if ((why = machine_mv_problem(p->mv)))
			return FAIL(line, "%spstate %u kHz: %s", who, p->khz, why);
		if (i == 0)
			continue;
		if (p->khz <= p[-1].khz)
			return FAIL(line, "%spstate %u kHz: not above the previous P-state %u kHz "
				    "(expected ascending, distinct frequencies)", who, p->khz,
				    p[-1].khz);
		if (p->mv < p[-1].mv)
			return FAIL(line, "%spstate %u kHz: voltage %u mV is below the %u mV of "
				    "the slower P-state %u kHz (expected voltage to rise with "
				    "frequency)", who, p->khz, p->mv, p[-1].mv, p[-1].khz);
	}

	uint32_t lo = c->ps[0].khz, hi = c->ps[c->nps - 1].khz, base = c->base_khz;
	if ((why = machine_khz_problem(base)))
		return FAIL(c->base_line, "%sbase_khz = %u: %s", who, base, why);
	if (base > hi)
		return FAIL(c->base_line, "%sbase_khz = %u is above the highest P-state %u kHz "
			    "(expected a kHz listed in [pstates])", who, base, hi);
	if (base < lo)
		return FAIL(c->base_line, "%sbase_khz = %u is below the lowest P-state %u kHz "
			    "(expected a kHz listed in [pstates])", who, base, lo);
	if (pstate_index(c->ps, c->nps, base) < 0) {
		int below = pstate_at_most(c->ps, c->nps, base);
		return FAIL(c->base_line, "%sbase_khz = %u is not a P-state (expected a kHz "
			    "listed in [pstates], e.g. %u or %u)", who, base,
			    c->ps[below].khz, c->ps[below + 1].khz);
	}
	uint32_t lnl = c->lowest_nonlinear_khz;
	if (lnl && (lnl < lo || lnl > base))
		return FAIL(c->lnl_line, "%slowest_nonlinear_khz = %u is out of range (expected "
			    "%u..%u, between the lowest P-state and base_khz)", who, lnl, lo, base);
	if (c->perf_scaling_khz > MAX_KHZ)
		return FAIL(c->scaling_line, "%sperf_scaling_khz = %u is out of range (expected "
			    "kHz per performance unit, at most 100000000)", who, c->perf_scaling_khz);
	return 0;
}

static int check_turbo(const struct clock_table *c, const char *where, struct pm_diag *d)
{
	const char *who = c->who;

	if (c->nturbo < 0 || c->nturbo > MACHINE_MAX_TURBO)
		return FAIL(c->turbo_line, "%stoo many turbo bins (expected at most %d)", who,
			    MACHINE_MAX_TURBO);
	for (int i = 0; i < c->nturbo; i++) {
		const struct turbo_bin *t = &c->turbo[i];
		int line = c->turbo_lines ? c->turbo_lines[i] : 0;

		if (pstate_index(c->ps, c->nps, t->khz) < 0)
			return FAIL(line, "%sturbo %u kHz: not a P-state "
				    "(expected a kHz listed in [pstates])", who, t->khz);
		if (t->khz <= c->base_khz)
			return FAIL(line, "%sturbo %u kHz: not above base_khz %u "
				    "(expected turbo frequencies above base)", who, t->khz,
				    c->base_khz);
		if (t->max_active_cores < 1 || t->max_active_cores > (uint32_t)c->max_cores)
			return FAIL(line, "%sturbo %u kHz: %u active cores is out of range "
				    "(expected 1..%d)", who, t->khz, t->max_active_cores,
				    c->max_cores);
		if (i == 0)
			continue;
		if (t->khz >= t[-1].khz)
			return FAIL(line, "%sturbo %u kHz: not below the previous bin %u kHz "
				    "(expected descending, distinct frequencies)", who, t->khz,
				    t[-1].khz);
		if (t->max_active_cores <= t[-1].max_active_cores)
			return FAIL(line, "%sturbo %u kHz: allows %u active cores, no more than "
				    "the faster bin %u kHz (expected more active cores at lower "
				    "turbo frequencies)", who, t->khz, t->max_active_cores, t[-1].khz);
	}
	return 0;
}

static int check_frequency(const struct machine *m, const struct machine_lines *ln,
			   const char *where, struct pm_diag *d)
{
	const struct clock_table c = {
		.who = "", .ps = m->pstates, .nps = m->npstates, .base_khz = m->base_khz,
		.turbo = m->turbo, .nturbo = m->nturbo, .max_cores = m->cores_per_package,
		.lowest_nonlinear_khz = m->lowest_nonlinear_khz,
		.perf_scaling_khz = m->perf_scaling_khz, .lnl_line = LN(lowest_nonlinear),
		.scaling_line = LN(perf_scaling),
		.pstates_line = LN(pstates), .base_line = LN(base_khz), .turbo_line = LN(turbo),
		.pstate_lines = ln ? ln->pstate : NULL, .turbo_lines = ln ? ln->turbo_bin : NULL,
	};
	if (check_pstates(&c, where, d))
		return -1;
	if (m->transition_latency_ns < 0 || m->transition_latency_ns > MAX_LATENCY_NS)
		return FAIL(LN(transition_latency), "transition_latency_us is out of range "
			    "(expected 0..1000000000 us)");
	return check_turbo(&c, where, d);
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
		if (c->lowest_pstate != 0 && c->lowest_pstate != 1)
			return FAIL(l.lowest_pstate, "C-state %s: lowest_pstate = %d (expected 0 or 1)",
				    c->name, c->lowest_pstate);
		if (c->leak_at_vid != 0 && c->leak_at_vid != 1)
			return FAIL(l.leak_at_vid, "C-state %s: leak_at_vid = %d (expected 0 or 1)",
				    c->name, c->leak_at_vid);
		if (c->leak_at_vid && c->poll)
			return FAIL(l.leak_at_vid, "C-state %s: leak_at_vid = 1 on a polling state "
				    "(expected 0: a polling core runs)", c->name);
		if (c->lowest_pstate && c->poll)
			return FAIL(l.lowest_pstate, "C-state %s: lowest_pstate = 1 on a polling "
				    "state (expected 0: a polling core keeps its clock)", c->name);
		if (c->poll && i > 0)
			return FAIL(l.poll, "C-state %s: only the first C-state may poll "
				    "(expected poll = 0 here)", c->name);
		/* A cluster state lets its CPUs sit in the state before it until
		 * the cluster goes down: there must be one, and no deeper state
		 * may be a core's own again. */
		if (c->cluster && (i == 0 || c->poll))
			return FAIL(l.cluster, "C-state %s: cluster = 1 on the first state (expected "
				    "a core state before a cluster state)", c->name);
		if (!c->cluster && i > 0 && c[-1].cluster)
			return FAIL(l.section, "C-state %s: a core state after the cluster state %s "
				    "(expected cluster states deepest)", c->name, c[-1].name);
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

/* A core's power coefficients (the machine's, or a type's: `who`). */
struct core_power {
	const char *who;
	double ceff_nf, leak_w, leak_beta, smt_activity, smt_throughput;
	int tpc;
	int lines[5]; /* of the five figures, in that order */
};

static int check_core_power(const struct core_power *c, const char *where, struct pm_diag *d)
{
	const char *who = c->who;
	int tpc = c->tpc;

	if (!(c->ceff_nf > 0) || c->ceff_nf > MAX_WATTS)
		return FAIL(c->lines[0], "%sceff_nf = %g is out of range (expected nF > 0)", who,
			    c->ceff_nf);
	if (!in_range(c->leak_w, 0, MAX_WATTS))
		return FAIL(c->lines[1], "%sleak_w = %g is out of range (expected W >= 0)", who,
			    c->leak_w);
	if (!in_range(c->leak_beta, 0, 100))
		return FAIL(c->lines[2], "%sleak_beta = %g is out of range "
			    "(expected 0..100 per volt)", who, c->leak_beta);
	if (tpc == 1 ? c->smt_activity != 1 : !in_range(c->smt_activity, 1, tpc))
		return FAIL(c->lines[3], "%ssmt_activity = %g is out of range (expected "
			    "1..%d with %d threads per core)", who, c->smt_activity, tpc, tpc);
	/* All threads together never do less than one thread alone. */
	if (tpc == 1 ? c->smt_throughput != 1 : !in_range(c->smt_throughput, 1.0 / tpc, 1))
		return FAIL(c->lines[4], "%ssmt_throughput = %g is out of range (expected "
			    "%g..1 with %d threads per core)", who, c->smt_throughput, 1.0 / tpc, tpc);
	return 0;
}

static int check_power(const struct machine *m, const struct machine_lines *ln,
		       const char *where, struct pm_diag *d)
{
	const struct core_power cp = {
		"", m->ceff_nf, m->leak_w, m->leak_beta, m->smt_activity, m->smt_throughput,
		m->threads_per_core,
		{ LN(ceff_nf), LN(leak_w), LN(leak_beta), LN(smt_activity), LN(smt_throughput) },
	};
	if (check_core_power(&cp, where, d))
		return -1;
	if (!in_range(m->uncore_w, 0, MAX_WATTS))
		return FAIL(LN(uncore_w), "uncore_w = %g is out of range (expected W >= 0)",
			    m->uncore_w);
	if (!in_range(m->cluster_w, 0, MAX_WATTS))
		return FAIL(LN(cluster_w), "cluster_w = %g is out of range (expected W >= 0)",
			    m->cluster_w);
	if (!in_range(m->platform_w, 0, MAX_WATTS))
		return FAIL(LN(platform_w), "platform_w = %g is out of range (expected W >= 0)",
			    m->platform_w);
	if (!in_range(m->vr_slew_mv_per_us, 0, 1e6))
		return FAIL(LN(vr_slew), "vr_slew_mv_per_us = %g is out of range "
			    "(expected mV/us >= 0; 0: instant)", m->vr_slew_mv_per_us);
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
		{ m->tick_reprogram_ns, LN(tick_reprogram), "tick_reprogram_us" },
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
	if (m->hwp != 0 && m->hwp != 1)
		return FAIL(LN(hwp), "hwp = %d (expected 0 or 1)", m->hwp);
	if (m->epp_balance_perf < 0 || m->epp_balance_perf > 255 ||
	    (LN(epp_balance_perf) && m->epp_balance_perf == 0))
		return FAIL(LN(epp_balance_perf), "epp_balance_performance = %d is out of range "
			    "(expected 1..255)", m->epp_balance_perf);
	if ((unsigned)m->turbo_control > TURBO_HARDWARE)
		return FAIL(LN(turbo_control), "turbo %d is unknown (expected os or hardware)",
			    (int)m->turbo_control);
	const struct { double w; sim_ns window; int wline, tline; const char *name; } pl[] = {
		{ m->pl1_w, m->pl1_window_ns, LN(pl1_w), LN(pl1_window), "pl1" },
		{ m->pl2_w, m->pl2_window_ns, LN(pl2_w), LN(pl2_window), "pl2" },
	};
	for (int i = 0; i < 2; i++) {
		if (!in_range(pl[i].w, 0, MAX_WATTS))
			return FAIL(pl[i].wline, "%s_w = %g is out of range (expected watts >= 0; 0: "
				    "no limit)", pl[i].name, pl[i].w);
		if (pl[i].w > 0 && (pl[i].window <= 0 || pl[i].window > MAX_LATENCY_NS))
			return FAIL(pl[i].tline ? pl[i].tline : LN(power_limits), "%s_window_us is "
				    "out of range (expected 1..1000000000 us with %s_w set: the "
				    "running average's time constant)", pl[i].name, pl[i].name);
	}
	if (m->pl_control_ns && (m->pl_control_ns < NS_PER_US || m->pl_control_ns > NS_PER_SEC))
		return FAIL(LN(pl_control), "control_us is out of range (expected 1..1000000 us; "
			    "absent: 1000)");
	return 0;
}

/* Each type's clock, C-state figures and power coefficients, by the
 * machine's own rules. */
static int check_types(const struct machine *m, const struct machine_lines *ln,
		       const char *where, struct pm_diag *d)
{
	for (int t = 0; t < m->ntypes; t++) {
		const struct cpu_type *ty = &m->types[t];
		char who[CPU_TYPE_NAME_MAX + 16], kind[CPU_TYPE_NAME_MAX + 24];
		snprintf(who, sizeof(who), "cpu_type %s: ", ty->name);
		snprintf(kind, sizeof(kind), "cpu_type %s: C-state", ty->name);
		const struct clock_table c = {
			.who = who, .ps = ty->pstates, .nps = ty->npstates,
			.base_khz = ty->base_khz, .turbo = ty->turbo, .nturbo = ty->nturbo,
			.max_cores = ty->cores, .pstates_line = TL(t, pstates),
			.lowest_nonlinear_khz = ty->lowest_nonlinear_khz,
			.perf_scaling_khz = ty->perf_scaling_khz, .lnl_line = TL(t, lowest_nonlinear),
			.scaling_line = TL(t, perf_scaling),
			.base_line = TL(t, base_khz), .turbo_line = TL(t, turbo),
			.pstate_lines = ln ? ln->type[t].pstate : NULL,
			.turbo_lines = ln ? ln->type[t].turbo_bin : NULL,
		};
		if (check_pstates(&c, where, d) || check_turbo(&c, where, d))
			return -1;
		for (int i = 0; i < m->ncstates; i++) {
			const struct cstate *cs = &ty->cstates[i], *mc = &m->cstates[i];
			struct cstate_lines l = { 0 };
			if (ln)
				l = ln->type[t].cstate[i];
			if (strncmp(cs->name, mc->name, CSTATE_NAME_MAX) != 0 || cs->poll != mc->poll ||
			    cs->turbo_active != mc->turbo_active ||
			    cs->lowest_pstate != mc->lowest_pstate ||
			    cs->leak_at_vid != mc->leak_at_vid)
				return FAIL(l.section, "cpu_type %s: C-state %d is not the machine's "
					    "%s (expected the machine's states, names and flags, "
					    "with figures of its own)", ty->name, i, mc->name);
			int lines[3] = { l.exit, l.residency, l.power };
			sim_ns prev[2];
			if (i > 0) {
				prev[0] = cs[-1].exit_ns;
				prev[1] = cs[-1].residency_ns;
			}
			if (check_idle_state(kind, cs->name, cs->exit_ns, cs->residency_ns,
					     cs->power_w, i ? prev : NULL, lines, where, d))
				return -1;
			if (cs->wake_ns < 0 || cs->wake_ns > cs->exit_ns)
				return FAIL(l.wake, "%s %s: wake_us = %g (expected "
					    "0..exit_latency_us = %g: the table's exit latency is "
					    "the worst case)", kind, cs->name,
					    (double)cs->wake_ns / 1e3, (double)cs->exit_ns / 1e3);
		}
		const struct core_power cp = {
			who, ty->ceff_nf, ty->leak_w, ty->leak_beta, ty->smt_activity,
			ty->smt_throughput, ty->threads_per_core,
			{ TL(t, ceff_nf), TL(t, leak_w), TL(t, leak_beta), TL(t, smt_activity),
			  TL(t, smt_throughput) },
		};
		if (check_core_power(&cp, where, d))
			return -1;
		if (!in_range(ty->cluster_w, 0, MAX_WATTS))
			return FAIL(TL(t, cluster_w), "%scluster_w = %g is out of range (expected W "
				    ">= 0)", who, ty->cluster_w);
	}
	return 0;
}

int machine_check(const struct machine *m, const struct machine_lines *ln,
		  const char *where, struct pm_diag *d)
{
	if (check_machine_section(m, ln, where, d) || check_topology(m, ln, where, d) ||
	    check_frequency(m, ln, where, d) ||
	    check_power(m, ln, where, d) || check_cstates(m, ln, where, d) ||
	    check_pkg_cstates(m, ln, where, d) || check_types(m, ln, where, d) ||
	    machine_check_platform(m, ln, where, d) || machine_check_cppc(m, ln, where, d))
		return -1;
	return 0;
}

const char *machine_cpufreq_driver_name(enum cpufreq_driver_kind k)
{
	static const char *const names[CPUFREQ_NDRIVERS] = {
		"acpi-cpufreq", "intel_pstate", "intel_cpufreq", "powernv-cpufreq", "cpufreq-dt",
		"amd-pstate", "amd-pstate-epp", "none",
	};
	return (unsigned)k < CPUFREQ_NDRIVERS ? names[k] : "?";
}

const char *machine_cpuidle_driver_name(enum cpuidle_driver_kind k)
{
	static const char *const names[CPUIDLE_NDRIVERS] = {
		"acpi_idle", "intel_idle", "powernv_idle", "haltpoll", "psci_idle", "none",
	};
	return (unsigned)k < CPUIDLE_NDRIVERS ? names[k] : "?";
}

int machine_validate(const struct machine *m, const char *where, struct pm_diag *d)
{
	return machine_check(m, NULL, where, d);
}
