// SPDX-License-Identifier: GPL-2.0-only
/* pmlab machines detect (machine_detect.h). The kernel interfaces read,
 * as Linux 6.12 documents them: Documentation/ABI/stable/sysfs-devices-
 * system-cpu (topology/, cache/, cpu_capacity), Documentation/admin-guide/
 * pm/cpufreq.rst (policyN/), cpuidle sysfs (cpuN/cpuidle/stateN/), and the
 * powercap interface (intel-rapl constraints). */
#include "machine_detect.h"

#include <stdarg.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../machine/machine.h"
#include "../machine/machine_lines.h"
#include "inventory.h"
#include "machine_kind.h"

/* The guesses, each written with its rule in front of the figure it gave
 * (docs/ARCHITECTURE.md, "This machine as a model"). Round figures of a
 * 2020s core, not fitted to anything. */
#define GUESS_MV_LOW 700         /* the lowest P-state's voltage */
#define GUESS_MV_HIGH 1100       /* the highest's; linear in frequency between */
#define GUESS_MV_ONE 1000        /* a single P-state */
#define GUESS_CORE_W 4.0         /* dynamic power of the biggest core busy at its top P-state */
#define GUESS_LEAK_W 0.5         /* its leakage there */
#define GUESS_UNCORE_W 5.0       /* a package's uncore while a core is active */
#define GUESS_NO_CLOCK_KHZ 2000000 /* neither cpufreq nor /proc/cpuinfo gives a clock */
#define GUESS_STEP_KHZ 100000    /* table step of drivers without a table (intel_pstate's ratio) */
#define DEEP_STATE_US 20         /* a C-state this slow to leave is power-gated */

#define MAX_CACHE_INDEX 10
#define CPUINFO_MAX 65536

struct core {
	int pkg, core_id;
	int first_cpu;   /* the lowest online CPU of the core */
	int threads;     /* online CPUs */
	uint32_t capacity; /* cpu_capacity; 0 if absent */
	int atom;        /* 1: an Intel E-core (cpu_atom PMU), 0: not, -1 unknown */
	const struct host_policy *pol;
	int llc;         /* lowest CPU sharing the last-level cache; -1 unknown */
	int type;
};

struct dtype {
	char name[CPU_TYPE_NAME_MAX];
	uint32_t capacity; /* as written */
	int capacity_guessed;
	int threads;
	int atom;
	const struct host_policy *pol;
	int cores;         /* per package */
	int first_cpu;
};

struct detect {
	const struct hostfs *fs;
	struct host_info hi;
	struct host_kind_info kind;
	char model[128], vendor[32];
	char *flags;     /* of the first CPU, " a b c " */
	double cpuinfo_mhz;
	int ncores;
	struct core *cores;
	int *core_of;    /* each online CPU's (hi.cpus order) index in cores */
	int npkgs;
	int ntypes;
	struct dtype types[MACHINE_MAX_TYPES];
	/* Each type's cpuidle states as its first CPU has them, where their
	 * names are the first CPU's but their figures differ: the type's own
	 * [cstate STATE TYPE]. */
	bool type_own_cstates[MACHINE_MAX_TYPES];
	struct host_cstate type_cstates[MACHINE_MAX_TYPES][HOST_MAX_CSTATES];
	FILE *out;
};

static void guess(struct detect *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void guess(struct detect *x, const char *fmt, ...)
{
	va_list ap;
	fputs("# guessed: ", x->out);
	va_start(ap, fmt);
	vfprintf(x->out, fmt, ap);
	va_end(ap);
	fputc('\n', x->out);
}

static int read_int(const struct hostfs *fs, int cpu, const char *attr, int64_t *v)
{
	char rel[HOSTFS_PATH_MAX], buf[64], *end;
	struct pm_diag ignore;
	if (host_cpu_path(rel, sizeof(rel), cpu, attr) < 0 ||
	    hostfs_read_str(fs, rel, buf, sizeof(buf), &ignore) < 0)
		return -1;
	long long n = strtoll(buf, &end, 10);
	if (end == buf || *end)
		return -1;
	*v = n;
	return 0;
}

/* Text safe for a machine file's one-line values: printable ASCII, no
 * comment characters, single spaces. */
static void plain_text(char *s)
{
	char *w = s;
	for (const char *r = s; *r; r++) {
		char c = *r >= ' ' && *r < 127 && *r != ';' && *r != '#' ? *r : ' ';
		if (c == ' ' && (w == s || w[-1] == ' '))
			continue;
		*w++ = c;
	}
	while (w > s && w[-1] == ' ')
		w--;
	*w = '\0';
}

/* The first processor's lines of /proc/cpuinfo. */
static void read_cpuinfo(struct detect *x)
{
	struct pm_diag ignore;
	char *text = malloc(CPUINFO_MAX);
	if (!text)
		return;
	int fd = hostfs_open_ro(x->fs, "proc/cpuinfo");
	ssize_t n = 0;
	if (fd >= 0) {
		/* /proc files give a page per read. */
		ssize_t r;
		while (n < CPUINFO_MAX - 1 && (r = read(fd, text + n, (size_t)(CPUINFO_MAX - 1 - n))) > 0)
			n += r;
		close(fd);
	}
	(void)ignore;
	text[n > 0 ? n : 0] = '\0';
	char *ls = NULL;
	int seen_processor = 0;
	for (char *line = strtok_r(text, "\n", &ls); line; line = strtok_r(NULL, "\n", &ls)) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		char *key = line, *val = colon + 1;
		char *k = colon;
		while (k > key && (k[-1] == ' ' || k[-1] == '\t'))
			k--;
		*k = '\0';
		while (*val == ' ' || *val == '\t')
			val++;
		if (strcmp(key, "processor") == 0 && seen_processor++)
			break; /* x86: the second CPU's block */
		if (strcmp(key, "model name") == 0 && !x->model[0])
			snprintf(x->model, sizeof(x->model), "%s", val);
		else if (strcmp(key, "CPU implementer") == 0 && !x->model[0])
			snprintf(x->model, sizeof(x->model), "Arm CPU (implementer %s)", val);
		else if (strcmp(key, "vendor_id") == 0 && !x->vendor[0])
			snprintf(x->vendor, sizeof(x->vendor), "%s", val);
		else if ((strcmp(key, "flags") == 0 || strcmp(key, "Features") == 0) && !x->flags) {
			size_t len = strlen(val) + 3;
			x->flags = malloc(len);
			if (x->flags)
				snprintf(x->flags, len, " %s ", val);
		} else if (strcmp(key, "cpu MHz") == 0 && x->cpuinfo_mhz <= 0)
			x->cpuinfo_mhz = strtod(val, NULL);
	}
	free(text);
	plain_text(x->model);
}

static int has_flag(const struct detect *x, const char *flag)
{
	char w[64];
	snprintf(w, sizeof(w), " %s ", flag);
	return x->flags && strstr(x->flags, w) != NULL;
}

static int is_x86(const struct detect *x)
{
	return x->vendor[0] != '\0';
}

/* The last-level cache of a CPU: the highest level of cache/indexN that
 * holds data, as its lowest sharing CPU; -1 when sysfs has no cache. */
static int cpu_llc(const struct detect *x, int cpu)
{
	int best_level = 0, llc = -1;
	for (int i = 0; i < MAX_CACHE_INDEX; i++) {
		char attr[64], buf[HOST_LIST_MAX];
		int64_t level;
		struct pm_diag ignore;
		char rel[HOSTFS_PATH_MAX];
		snprintf(attr, sizeof(attr), "cache/index%d/level", i);
		if (read_int(x->fs, cpu, attr, &level) < 0)
			continue;
		snprintf(attr, sizeof(attr), "cache/index%d/type", i);
		if (host_cpu_path(rel, sizeof(rel), cpu, attr) < 0 ||
		    (hostfs_read_str(x->fs, rel, buf, sizeof(buf), &ignore) == 0 &&
		     strcmp(buf, "Instruction") == 0))
			continue;
		snprintf(attr, sizeof(attr), "cache/index%d/shared_cpu_list", i);
		int *cpus, n;
		if (host_cpu_path(rel, sizeof(rel), cpu, attr) < 0 ||
		    hostfs_read_str(x->fs, rel, buf, sizeof(buf), &ignore) < 0 ||
		    host_parse_cpulist(buf, HOST_MAX_CPUS, &cpus, &n) < 0)
			continue;
		if (n > 0 && level > best_level) {
			best_level = (int)level;
			llc = cpus[0];
		}
		free(cpus);
	}
	return llc;
}

/* Intel hybrid parts name their E-cores in the cpu_atom PMU's cpus
 * (arch/x86/events/intel/core.c); -1 when there is no such PMU. */
static int *atom_cpus(const struct detect *x, int *n)
{
	char buf[HOST_LIST_MAX];
	struct pm_diag ignore;
	int *cpus = NULL;
	*n = -1;
	if (hostfs_read_str(x->fs, "sys/devices/cpu_atom/cpus", buf, sizeof(buf), &ignore) < 0 ||
	    host_parse_cpulist(buf, HOST_MAX_CPUS, &cpus, n) < 0)
		*n = -1;
	return cpus;
}

static int read_cores(struct detect *x, struct pm_diag *d)
{
	const struct host_info *hi = &x->hi;
	int natom;
	int *atom = atom_cpus(x, &natom);
	x->cores = calloc((size_t)hi->ncpus, sizeof(*x->cores));
	x->core_of = calloc((size_t)hi->ncpus, sizeof(*x->core_of));
	if (!x->cores || !x->core_of) {
		free(atom);
		return pm_fail(d, "out of memory");
	}
	for (int i = 0; i < hi->ncpus; i++) {
		int cpu = hi->cpus[i];
		int64_t core_id = cpu, cap = 0;
		int pkg = hi->packages[i] < 0 ? 0 : hi->packages[i];
		if (read_int(x->fs, cpu, "topology/core_id", &core_id) < 0)
			core_id = -1 - cpu; /* unknown: a core of its own */
		struct core *c = NULL;
		for (int k = 0; k < x->ncores; k++)
			if (x->cores[k].pkg == pkg && x->cores[k].core_id == core_id)
				c = &x->cores[k];
		if (!c) {
			c = &x->cores[x->ncores++];
			c->pkg = pkg;
			c->core_id = (int)core_id;
			c->first_cpu = cpu;
			if (read_int(x->fs, cpu, "cpu_capacity", &cap) == 0 && cap > 0 &&
			    cap <= CAPACITY_SCALE)
				c->capacity = (uint32_t)cap;
			c->atom = -1;
			if (natom >= 0) {
				c->atom = 0;
				for (int a = 0; a < natom; a++)
					c->atom |= atom[a] == cpu;
			}
			c->pol = host_cpu_policy(hi, cpu);
			c->llc = cpu_llc(x, cpu);
		}
		c->threads++;
		x->core_of[i] = (int)(c - x->cores);
	}
	free(atom);
	return 0;
}

static uint32_t pol_max(const struct host_policy *p)
{
	return p ? p->cpuinfo_max : 0;
}

/* Cores alike in capacity, kind, top frequency and SMT are one type, in
 * the order their first CPUs come. */
static int make_types(struct detect *x, struct pm_diag *d)
{
	for (int k = 0; k < x->ncores; k++) {
		struct core *c = &x->cores[k];
		int t;
		for (t = 0; t < x->ntypes; t++) {
			const struct dtype *y = &x->types[t];
			if (y->capacity == c->capacity && y->atom == c->atom &&
			    pol_max(y->pol) == pol_max(c->pol) && y->threads == c->threads)
				break;
		}
		if (t == x->ntypes) {
			if (t == MACHINE_MAX_TYPES)
				return pm_fail(d, "%s: more than %d kinds of core (by cpu_capacity, top "
					       "frequency and SMT; expected at most %d)", x->fs->root,
					       MACHINE_MAX_TYPES, MACHINE_MAX_TYPES);
			x->types[t] = (struct dtype){ .capacity = c->capacity, .threads = c->threads,
						      .atom = c->atom, .pol = c->pol,
						      .first_cpu = c->first_cpu };
			x->ntypes++;
		}
		c->type = t;
	}
	/* Packages: each must hold as many cores of each type as the first. */
	int pkgs[HOST_MAX_CPUS > 64 ? 64 : HOST_MAX_CPUS], np = 0;
	for (int k = 0; k < x->ncores; k++) {
		int p;
		for (p = 0; p < np && pkgs[p] != x->cores[k].pkg; p++)
			;
		if (p == np) {
			if (np == 64)
				return pm_fail(d, "%s: more than 64 packages", x->fs->root);
			pkgs[np++] = x->cores[k].pkg;
		}
	}
	x->npkgs = np;
	for (int t = 0; t < x->ntypes; t++)
		for (int p = 0; p < np; p++) {
			int n = 0;
			for (int k = 0; k < x->ncores; k++)
				n += x->cores[k].type == t && x->cores[k].pkg == pkgs[p];
			if (p == 0)
				x->types[t].cores = n;
			else if (n != x->types[t].cores)
				return pm_fail(d, "%s: package %d has %d cores of a kind package %d has "
					       "%d of (expected alike packages; some CPUs offline?)",
					       x->fs->root, pkgs[p], n, pkgs[0], x->types[t].cores);
		}
	/* Capacities: cpu_capacity where the kernel has it, else the top
	 * frequencies' ratio (same work per cycle); names by size. */
	uint32_t top = 0;
	for (int t = 0; t < x->ntypes; t++)
		top = pol_max(x->types[t].pol) > top ? pol_max(x->types[t].pol) : top;
	for (int t = 0; t < x->ntypes; t++) {
		struct dtype *y = &x->types[t];
		if (!y->capacity) {
			y->capacity = top && pol_max(y->pol) ?
				(uint32_t)((uint64_t)CAPACITY_SCALE * pol_max(y->pol) / top) : CAPACITY_SCALE;
			y->capacity_guessed = x->ntypes > 1;
		}
		int smaller = 0;
		for (int u = 0; u < x->ntypes; u++)
			smaller += x->types[u].capacity < y->capacity ||
				   (x->types[u].capacity == y->capacity && u < t);
		static const char *const by_size2[] = { "little", "big" };
		static const char *const by_size3[] = { "little", "mid", "big" };
		if (y->atom >= 0 && x->ntypes == 2 && x->types[!t].atom == !y->atom)
			snprintf(y->name, sizeof(y->name), "%s", y->atom ? "ecore" : "pcore");
		else if (x->ntypes == 2)
			snprintf(y->name, sizeof(y->name), "%s", by_size2[smaller]);
		else if (x->ntypes == 3)
			snprintf(y->name, sizeof(y->name), "%s", by_size3[smaller]);
		else
			snprintf(y->name, sizeof(y->name), "type%d", t);
	}
	return 0;
}

/* Cores of type t sharing one clock: the cores of its policy in its
 * package. */
static int policy_cores(const struct detect *x, int t)
{
	const struct host_policy *p = x->types[t].pol;
	int n = 0;
	for (int k = 0; p && k < x->ncores; k++)
		n += x->cores[k].pol == p;
	return n ? n : 1;
}

static const char *domain_word(int cores_per_clock, int cores, int *cluster)
{
	*cluster = 0;
	if (cores_per_clock <= 1)
		return "core";
	if (cores_per_clock >= cores)
		return "package";
	*cluster = cores_per_clock;
	return "cluster";
}

/* The P-state table of a policy: the driver's, else GUESS_STEP_KHZ steps
 * (what the driver would request), thinned to MACHINE_MAX_PSTATES. */
static int table(const struct detect *x, const struct host_policy *p, uint32_t *khz, int *guessed)
{
	int n = 0;
	*guessed = 0;
	if (!p || !p->cpuinfo_max) {
		khz[n++] = x->cpuinfo_mhz > 0 ? (uint32_t)(x->cpuinfo_mhz * 1000 + 0.5)
					      : GUESS_NO_CLOCK_KHZ;
		*guessed = x->cpuinfo_mhz > 0 ? 0 : 1;
		return n;
	}
	uint32_t all[HOST_MAX_FREQS + 1];
	int na = 0;
	if (p->nfreqs) {
		for (int i = 0; i < p->nfreqs && na < HOST_MAX_FREQS; i++)
			if (!na || p->freqs[i] > all[na - 1])
				all[na++] = p->freqs[i];
	} else {
		for (uint32_t f = p->cpuinfo_min; f < p->cpuinfo_max && na < HOST_MAX_FREQS;
		     f += GUESS_STEP_KHZ)
			all[na++] = f;
		all[na++] = p->cpuinfo_max;
		*guessed = 2;
	}
	if (na <= MACHINE_MAX_PSTATES) {
		memcpy(khz, all, (size_t)na * sizeof(*khz));
		return na;
	}
	for (int i = 0; i < MACHINE_MAX_PSTATES; i++)
		khz[n++] = all[(size_t)i * (size_t)(na - 1) / (MACHINE_MAX_PSTATES - 1)];
	*guessed = 3;
	return n;
}

/* acpi-cpufreq shows the turbo range as one entry 1 MHz above base
 * (drivers/cpufreq/acpi-cpufreq.c, the _PSS P0 the hardware turns into
 * its own choice). */
static int acpi_turbo_entry(const uint32_t *khz, int n)
{
	return n >= 2 && khz[n - 1] - khz[n - 2] == 1000;
}

static uint32_t type_base(const struct host_policy *p, const uint32_t *khz, int n, int *guessed)
{
	*guessed = 0;
	if (acpi_turbo_entry(khz, n))
		return khz[n - 2];
	if (p && p->base_khz && p->base_khz != p->cpuinfo_max)
		return p->base_khz; /* base_frequency */
	*guessed = p && p->has_boost;
	return khz[n - 1];
}

static void write_pstates(struct detect *x, const char *section, const uint32_t *khz, int n,
			  int tguess)
{
	fprintf(x->out, "\n[%s]\n", section);
	if (tguess == 2)
		guess(x, "the driver has no table: steps of %d MHz between cpuinfo_min_freq and "
		      "cpuinfo_max_freq", GUESS_STEP_KHZ / 1000);
	else if (tguess == 3)
		guess(x, "more frequencies than a machine file holds: %d of them, evenly",
		      MACHINE_MAX_PSTATES);
	else if (tguess == 1)
		guess(x, "no cpufreq and no clock in /proc/cpuinfo: %d MHz", GUESS_NO_CLOCK_KHZ / 1000);
	guess(x, "voltages (sysfs has none): %d mV at the lowest frequency to %d mV at the highest, "
	      "linear (one P-state: %d mV)", GUESS_MV_LOW, GUESS_MV_HIGH, GUESS_MV_ONE);
	for (int i = 0; i < n; i++) {
		int mv = n == 1 ? GUESS_MV_ONE :
			 GUESS_MV_LOW + (int)((double)(GUESS_MV_HIGH - GUESS_MV_LOW) *
					      (khz[i] - khz[0]) / (khz[n - 1] - khz[0]) + 0.5);
		fprintf(x->out, "%u = %d\n", khz[i], mv);
	}
}

/* ceff (nF) so that the type's core busy at its top P-state draws
 * GUESS_CORE_W times its capacity squared: a smaller core does less work
 * per cycle and spends less energy on it (narrower, in order), about
 * twice as efficient at half the capacity. */
static double type_ceff(uint32_t capacity, uint32_t top_khz, int npstates)
{
	double v = (npstates == 1 ? GUESS_MV_ONE : GUESS_MV_HIGH) / 1000.0;
	double share = (double)capacity / CAPACITY_SCALE;
	return GUESS_CORE_W * share * share / (1e-9 * v * v * top_khz * 1e3);
}

static const char *cpufreq_driver(struct detect *x, const char **why)
{
	const struct host_policy *p = x->hi.npolicies ? &x->hi.pol[0] : NULL;
	*why = NULL;
	if (!p || !p->driver[0])
		return machine_cpufreq_driver_name(CPUFREQ_DRIVER_NONE);
	for (int k = 0; k < CPUFREQ_NDRIVERS; k++)
		if (strcmp(p->driver, machine_cpufreq_driver_name((enum cpufreq_driver_kind)k)) == 0)
			return p->driver;
	*why = p->driver;
	/* A driver the simulator lacks: the generic governors' acpi-cpufreq
	 * with the same table, or intel_pstate's own loop for one that
	 * has no scaling_available_frequencies and does its own choosing. */
	return machine_cpufreq_driver_name(p->has_epp ? CPUFREQ_DRIVER_INTEL_PSTATE
						     : CPUFREQ_DRIVER_ACPI);
}

static const char *cpuidle_driver(struct detect *x, const char **why)
{
	const char *drv = x->hi.idle_driver;
	*why = NULL;
	if (!drv[0] || strcmp(drv, "none") == 0 || x->hi.ncstates == 0)
		return machine_cpuidle_driver_name(CPUIDLE_DRIVER_NONE);
	for (int k = 0; k < CPUIDLE_NDRIVERS; k++)
		if (strcmp(drv, machine_cpuidle_driver_name((enum cpuidle_driver_kind)k)) == 0)
			return drv;
	if (strcmp(drv, "haltpoll") == 0 || strcmp(drv, "cpuidle_haltpoll") == 0)
		return machine_cpuidle_driver_name(CPUIDLE_DRIVER_HALTPOLL);
	*why = drv;
	return machine_cpuidle_driver_name(CPUIDLE_DRIVER_ACPI);
}

/* The reference frequency of frequency invariance, as the kernel picks
 * it (arch/x86/kernel/cpu/aperfmperf.c, Linux 6.12: APERF/MPERF needed;
 * Intel's 4-core turbo ratio, AMD's highest perf; elsewhere cpufreq's
 * own invariance, arch_set_freq_scale() with the policy's maximum). */
static void write_invariance(struct detect *x, int has_cpufreq)
{
	if (is_x86(x)) {
		if (!has_flag(x, "aperfmperf")) {
			fprintf(x->out, "# no aperfmperf CPU flag: no frequency invariance\n"
				"freq_invariance = none\n");
			return;
		}
		if (strcmp(x->vendor, "GenuineIntel") == 0) {
			guess(x, "Intel: the 4-core turbo ratio (core_set_max_freq_ratio()); Atom "
			      "parts use the 1-core one, and no turbo bins are read");
			fprintf(x->out, "freq_invariance = turbo_4c\n");
		} else {
			fprintf(x->out, "freq_invariance = max\n");
		}
		return;
	}
	if (!has_cpufreq)
		fprintf(x->out, "# no cpufreq driver to scale by: no frequency invariance\n");
	fprintf(x->out, "freq_invariance = %s\n", has_cpufreq ? "max" : "none");
}

/* What the processor offers a P-state driver: HWP (the hwp CPU flag,
 * which intel_pstate needs for its active mode with HWP), and ACPI CPPC's
 * lowest nonlinear performance as amd-pstate shows it
 * (amd_pstate_lowest_nonlinear_freq, Documentation/admin-guide/pm/
 * amd-pstate.rst). */
static void write_processor(struct detect *x, const uint32_t *khz, int n)
{
	const struct host_policy *p = x->types[0].pol;
	if (strcmp(x->vendor, "GenuineIntel") == 0 && has_flag(x, "hwp"))
		fprintf(x->out, "# the hwp CPU flag\nhwp = 1\n");
	char rel[HOSTFS_PATH_MAX], buf[32], *end;
	struct pm_diag ignore;
	if (!p || host_policy_path(rel, sizeof(rel), p->id, "amd_pstate_lowest_nonlinear_freq") < 0 ||
	    hostfs_read_str(x->fs, rel, buf, sizeof(buf), &ignore) < 0)
		return;
	long long lnl = strtoll(buf, &end, 10);
	if (end != buf && !*end && lnl >= khz[0] && lnl <= khz[n - 1])
		fprintf(x->out, "# policy%d/amd_pstate_lowest_nonlinear_freq\n"
			"lowest_nonlinear_khz = %lld\n", p->id, lnl);
}

/* amd-pstate's preferred-core ranking (v6.9+): each core's CPPC highest
 * performance, policyN/amd_pstate_prefcore_ranking
 * (Documentation/admin-guide/pm/amd-pstate.rst), as [highest_perf] by the
 * model's core index (package ordinal x cores per package + the core's
 * place in its package). Nothing when a core has none, or with core types
 * (the model numbers those by type). amd_pstate/prefcore "disabled" is
 * the kernel parameter amd_prefcore=disable: a run's --set. */
static void write_highest_perf(struct detect *x)
{
	int n = x->ncores, *perf = calloc((size_t)n, sizeof(int));
	if (!perf)
		return;
	int ok = x->ntypes == 1;
	for (int k = 0; k < n && ok; k++) {
		char rel[HOSTFS_PATH_MAX], buf[32], *end;
		struct pm_diag ignore;
		const struct host_policy *p = x->cores[k].pol;
		ok = p && host_policy_path(rel, sizeof(rel), p->id,
					   "amd_pstate_prefcore_ranking") == 0 &&
		     hostfs_read_str(x->fs, rel, buf, sizeof(buf), &ignore) == 0;
		long v = ok ? strtol(buf, &end, 10) : 0;
		ok = ok && end != buf && !*end && v >= 1 && v <= 254;
		perf[k] = (int)v;
	}
	if (ok) {
		int per_pkg = n / x->npkgs;
		fprintf(x->out, "\n# policyN/amd_pstate_prefcore_ranking: each core's CPPC highest "
			"performance\n[highest_perf]\n");
		for (int k = 0; k < n; k++) {
			int ord = 0, place = 0; /* the package's ordinal, the core's place in it */
			for (int j = 0; j < n; j++) {
				bool first = true;
				for (int i = 0; i < j && first; i++)
					first = x->cores[i].pkg != x->cores[j].pkg;
				ord += first && x->cores[j].pkg < x->cores[k].pkg;
				place += j < k && x->cores[j].pkg == x->cores[k].pkg;
			}
			fprintf(x->out, "%d = %d\n", ord * per_pkg + place, perf[k]);
		}
		char buf[32];
		struct pm_diag ignore;
		if (hostfs_read_str(x->fs, HOST_CPU_DIR "/amd_pstate/prefcore", buf, sizeof(buf),
				    &ignore) == 0 && strcmp(buf, "disabled") == 0)
			fprintf(x->out, "# amd_pstate/prefcore: disabled (amd_prefcore=disable): "
				"run with --set amd_prefcore=0\n");
	}
	free(perf);
}

/* A state's name cut to the machine file's limits and characters. */
static void state_name(const char *in, char name[CSTATE_NAME_MAX])
{
	snprintf(name, CSTATE_NAME_MAX, "%.*s", CSTATE_NAME_MAX - 1, in);
	for (char *p = name; *p; p++)
		if (!(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') &&
		    !(*p >= '0' && *p <= '9') && !strchr("._+-", *p))
			*p = '_';
}

/* The [cstate STATE TYPE] of types whose states' figures are not the
 * first CPU's (check_cpu_cstates()). */
static void write_type_cstates(struct detect *x)
{
	const struct host_info *hi = &x->hi;
	for (int t = 0; t < x->ntypes; t++) {
		if (!x->type_own_cstates[t])
			continue;
		for (int i = 0; i < hi->ncstates && i < MACHINE_MAX_CSTATES; i++) {
			const struct host_cstate *c = &x->type_cstates[t][i];
			if (c->latency_us == hi->cstates[i].latency_us &&
			    c->residency_us == hi->cstates[i].residency_us)
				continue;
			char name[CSTATE_NAME_MAX];
			state_name(c->name, name);
			fprintf(x->out, "\n# cpu%d's cpuidle/state%d\n[cstate %s %s]\n"
				"exit_latency_us = %llu\ntarget_residency_us = %llu\n",
				x->types[t].first_cpu, i, name, x->types[t].name,
				(unsigned long long)c->latency_us, (unsigned long long)c->residency_us);
		}
	}
}

/* CPU `cpu`'s cpuidle states (cpuN/cpuidle/stateK, numbered from 0
 * without gaps), as inventory.c reads the first CPU's. */
static int read_cpu_cstates(const struct detect *x, int cpu, struct host_cstate *c)
{
	int n = 0;
	for (; n < HOST_MAX_CSTATES; n++) {
		char rel[HOSTFS_PATH_MAX];
		struct pm_diag ignore;
		memset(&c[n], 0, sizeof(c[n]));
		host_cstate_path(rel, sizeof(rel), cpu, n, "name");
		if (hostfs_read_str(x->fs, rel, c[n].name, sizeof(c[n].name), &ignore) < 0)
			break;
		host_cstate_path(rel, sizeof(rel), cpu, n, "latency");
		hostfs_read_u64(x->fs, rel, &c[n].latency_us, &ignore);
		host_cstate_path(rel, sizeof(rel), cpu, n, "residency");
		hostfs_read_u64(x->fs, rel, &c[n].residency_us, &ignore);
	}
	return n;
}

/* The index of the first state whose name differs (or n when the tables
 * name the same states), and of the first whose figures differ. */
static int names_differ(const struct host_cstate *a, int na, const struct host_cstate *b, int nb)
{
	for (int i = 0; i < na || i < nb; i++)
		if (i >= na || i >= nb || strcmp(a[i].name, b[i].name) != 0)
			return i;
	return -1;
}

static int figures_differ(const struct host_cstate *a, const struct host_cstate *b, int n)
{
	for (int i = 0; i < n; i++)
		if (a[i].latency_us != b[i].latency_us || a[i].residency_us != b[i].residency_us)
			return i;
	return -1;
}

/* Every online CPU's states against the first CPU's (the machine's
 * [cstate] sections) and its type's first CPU's (they can differ: the
 * clusters of an Arm big.LITTLE part, psci_idle's per-CPU device-tree
 * states). Figures that differ by type become the type's own [cstate
 * STATE TYPE]; what the model cannot hold (other states, cores of one
 * type that differ, types on a machine of one type) is a "# warning:"
 * line naming the CPU, and the model keeps the first CPU's or the type's
 * first CPU's figures. */
static void check_cpu_cstates(struct detect *x)
{
	const struct host_info *hi = &x->hi;
	struct host_cstate own[HOST_MAX_CSTATES], rep[HOST_MAX_CSTATES];
	for (int t = 0; t < x->ntypes; t++) {
		int cpu0 = x->types[t].first_cpu;
		int nr = read_cpu_cstates(x, cpu0, rep);
		int at = names_differ(rep, nr, hi->cstates, hi->ncstates);
		if (at >= 0) {
			fprintf(x->out, "# warning: cpu%d's cpuidle states are not cpu%d's (state%d: "
				"'%s', not '%s'): the model gives every CPU cpu%d's\n", cpu0,
				hi->cpus[0], at, at < nr ? rep[at].name : "none",
				at < hi->ncstates ? hi->cstates[at].name : "none", hi->cpus[0]);
			return;
		}
		at = figures_differ(rep, hi->cstates, nr);
		if (at >= 0 && x->ntypes == 1) {
			fprintf(x->out, "# warning: cpu%d's %s (%llu us exit, %llu us residency) is "
				"not cpu%d's: the model takes cpu%d's\n", cpu0, rep[at].name,
				(unsigned long long)rep[at].latency_us,
				(unsigned long long)rep[at].residency_us, hi->cpus[0], hi->cpus[0]);
			return;
		}
		if (at >= 0) {
			x->type_own_cstates[t] = true;
			memcpy(x->type_cstates[t], rep, sizeof(rep));
		}
		for (int i = 0; i < hi->ncpus; i++) {
			int cpu = hi->cpus[i];
			if (cpu == cpu0 || x->cores[x->core_of[i]].type != t)
				continue;
			int n = read_cpu_cstates(x, cpu, own);
			int bad = names_differ(own, n, rep, nr);
			if (bad < 0)
				bad = figures_differ(own, rep, n);
			if (bad >= 0) {
				fprintf(x->out, "# warning: cpu%d's cpuidle %s is not cpu%d's, a core "
					"of its kind: the model takes cpu%d's\n", cpu,
					bad < n ? own[bad].name : "states", cpu0, cpu0);
				return;
			}
		}
	}
}

static void write_cstates(struct detect *x, double leak_w)
{
	const struct host_info *hi = &x->hi;
	int intel = strcmp(x->vendor, "GenuineIntel") == 0;
	if (hi->ncstates == 0 || strcmp(hi->idle_driver, "none") == 0 || !hi->idle_driver[0]) {
		fprintf(x->out, "\n# No cpuidle driver: the idle loop's default_idle_call(), %s\n",
			is_x86(x) ? "HLT" : "WFI");
		fprintf(x->out, "[cstate %s]\ndesc = default_idle_call\n", is_x86(x) ? "C1" : "WFI");
		guess(x, "its latency: 1 us (no driver table)");
		fprintf(x->out, "exit_latency_us = 1\n");
		guess(x, "its target residency: 1 us");
		fprintf(x->out, "target_residency_us = 1\n");
		guess(x, "idle power: 30 %% of the core's leakage (clock gated)");
		fprintf(x->out, "power_mw = %.0f\n", leak_w * 300);
		return;
	}
	check_cpu_cstates(x);
	int shallow = 0;
	for (int i = 0; i < hi->ncstates && i < MACHINE_MAX_CSTATES; i++) {
		const struct host_cstate *c = &hi->cstates[i];
		char name[CSTATE_NAME_MAX], desc[CSTATE_DESC_MAX];
		state_name(c->name, name);
		snprintf(desc, sizeof(desc), "%.*s", CSTATE_DESC_MAX - 1, c->desc);
		plain_text(desc);
		int poll = strcmp(c->name, "POLL") == 0;
		fprintf(x->out, "\n[cstate %s]\n", name);
		if (desc[0])
			fprintf(x->out, "desc = %s\n", desc);
		fprintf(x->out, "exit_latency_us = %llu\ntarget_residency_us = %llu\n",
			(unsigned long long)c->latency_us, (unsigned long long)c->residency_us);
		if (poll) {
			fprintf(x->out, "power_mw = 0\npoll = 1\n");
			continue;
		}
		if (c->latency_us < DEEP_STATE_US) {
			guess(x, "a state left in under %d us keeps its voltage: 30 %% of the core's "
			      "leakage, halved for each shallower state before it", DEEP_STATE_US);
			fprintf(x->out, "power_mw = %.0f\n", leak_w * 300 / (1 << shallow));
			shallow++;
		} else {
			guess(x, "a state left in %d us or more is power-gated: 2 %% of the core's "
			      "leakage", DEEP_STATE_US);
			fprintf(x->out, "power_mw = %.0f\n", leak_w * 20);
		}
		if (intel && c->latency_us <= 10) {
			guess(x, "Intel counts C1 and C1E (latency up to 10 us) as active cores for "
			      "turbo");
			fprintf(x->out, "turbo_active = 1\n");
		}
	}
}

/* powercap's package zone: PL1 (constraint_0, long_term) and PL2
 * (constraint_1, short_term), Documentation/power/powercap/powercap.rst. */
static void write_power_limits(struct detect *x, double *tdp_w)
{
	*tdp_w = 0;
	for (int z = 0; z < x->hi.nzones; z++) {
		if (x->hi.zones[z].kind != ZONE_PACKAGE)
			continue;
		uint64_t pw[2] = { 0, 0 }, win[2] = { 0, 0 };
		for (int c = 0; c < 2; c++) {
			char rel[HOSTFS_PATH_MAX];
			struct pm_diag ignore;
			hostfs_path(rel, sizeof(rel), "%s/constraint_%d_power_limit_uw",
				    x->hi.zones[z].dir, c);
			hostfs_read_u64(x->fs, rel, &pw[c], &ignore);
			hostfs_path(rel, sizeof(rel), "%s/constraint_%d_time_window_us",
				    x->hi.zones[z].dir, c);
			hostfs_read_u64(x->fs, rel, &win[c], &ignore);
		}
		if (!pw[0])
			return;
		*tdp_w = (double)pw[0] / 1e6;
		fprintf(x->out, "\n# %s/%s: constraint_0 (long_term) and constraint_1 (short_term)\n"
			"[power_limits]\npl1_w = %g\n", x->fs->real ? "" : x->fs->root,
			x->hi.zones[z].dir, (double)pw[0] / 1e6);
		if (win[0])
			fprintf(x->out, "pl1_window_us = %llu\n", (unsigned long long)win[0]);
		if (pw[1]) {
			fprintf(x->out, "pl2_w = %g\n", (double)pw[1] / 1e6);
			if (win[1])
				fprintf(x->out, "pl2_window_us = %llu\n", (unsigned long long)win[1]);
		}
		return;
	}
}

/* Settings of the moment: not the machine, but what a run should be
 * given to be like it. */
static void write_settings(struct detect *x)
{
	const struct host_info *hi = &x->hi;
	char epp[64] = "";
	int64_t epb = -1;
	if (hi->npolicies && hi->pol[0].has_epp) {
		char rel[HOSTFS_PATH_MAX];
		struct pm_diag ignore;
		host_policy_path(rel, sizeof(rel), hi->pol[0].id, "energy_performance_preference");
		hostfs_read_str(x->fs, rel, epp, sizeof(epp), &ignore);
	}
	if (hi->has_epb && hi->ncpus)
		read_int(x->fs, hi->cpus[0], "power/energy_perf_bias", &epb);
	fprintf(x->out, "# Settings now (not part of the model):");
	if (hi->npolicies)
		fprintf(x->out, " cpufreq governor %s (policy%d),", hi->pol[0].governor,
			hi->pol[0].id);
	if (epp[0])
		fprintf(x->out, " energy_performance_preference %s,", epp);
	if (epb >= 0)
		fprintf(x->out, " energy_perf_bias %lld (--set energy_perf_bias=%lld),",
			(long long)epb, (long long)epb);
	fprintf(x->out, " cpuidle governor %s\n",
		hi->idle_governor[0] ? hi->idle_governor : "none");
}

static int llc_cores(const struct detect *x, int cores_per_pkg, int *guessed)
{
	const struct core *c0 = &x->cores[0];
	int n = 0;
	*guessed = c0->llc < 0;
	if (c0->llc < 0)
		return cores_per_pkg;
	for (int k = 0; k < x->ncores; k++)
		n += x->cores[k].pkg == c0->pkg && x->cores[k].llc == c0->llc;
	if (n <= 0 || cores_per_pkg % n) {
		*guessed = 1;
		return cores_per_pkg;
	}
	return n;
}

/* The power limits (they give tdp_w), written into a buffer of their own
 * for [power]; NULL (and tdp_w 0) when there is no memory for it. */
static char *power_limits_text(struct detect *x, double *tdp_w)
{
	FILE *o = x->out;
	char *pl = NULL;
	size_t pl_len = 0;

	x->out = open_memstream(&pl, &pl_len);
	*tdp_w = 0;
	if (x->out) {
		write_power_limits(x, tdp_w);
		if (fclose(x->out) != 0) {
			free(pl);
			pl = NULL;
			*tdp_w = 0;
		}
	}
	x->out = o;
	return pl;
}

/* The header, [machine] and its tdp_w (the package's PL1). */
static void write_machine(struct detect *x, int cores_per_pkg, int threads, double tdp_w)
{
	FILE *o = x->out;
	const struct host_info *hi = &x->hi;
	const char *fwhy, *iwhy;
	const char *fdrv = cpufreq_driver(x, &fwhy), *idrv = cpuidle_driver(x, &iwhy);

	fprintf(o, "# pmlab machines detect: a model of %s, read from sysfs and /proc/cpuinfo%s%s%s.\n"
		"# Figures after a \"# guessed:\" line have no source there: replace them with\n"
		"# measured ones (data sheets, RAPL, a power meter) before trusting watts.\n",
		x->fs->real ? "this machine" : x->fs->root, hi->osrelease[0] ? " (Linux " : "",
		hi->osrelease, hi->osrelease[0] ? ")" : "");
	write_settings(x);
	fprintf(o, "\n[machine]\nname = host\ndescription = %s, %d CPUs (%d x %d cores x %d "
		"thread%s)%s%s%s\n", x->model[0] ? x->model : "unknown CPU", hi->ncpus, x->npkgs,
		cores_per_pkg, threads, threads > 1 ? "s" : "",
		x->kind.virt[0] ? ", virtual machine (" : "", x->kind.virt, x->kind.virt[0] ? ")" : "");
	if (fwhy)
		guess(x, "the driver %s is not modelled: %s with its frequencies", fwhy, fdrv);
	fprintf(o, "cpufreq_driver = %s\n", fdrv);
	if (iwhy)
		guess(x, "the driver %s is not modelled: %s with its states", iwhy, idrv);
	fprintf(o, "cpuidle_driver = %s\n", idrv);
	if (tdp_w > 0)
		fprintf(o, "# tdp_w: the package's PL1\ntdp_w = %g\n", tdp_w);
}

static void write_topology(struct detect *x, int cores_per_pkg, int threads, int has_cpufreq)
{
	FILE *o = x->out;
	int cluster, llc_guessed;
	const char *dom = domain_word(policy_cores(x, 0) / x->npkgs, x->types[0].cores, &cluster);

	fprintf(o, "\n[topology]\npackages = %d\ncores_per_package = %d\nthreads_per_core = %d\n",
		x->npkgs, cores_per_pkg, threads);
	int llc = llc_cores(x, cores_per_pkg, &llc_guessed);
	if (llc_guessed)
		guess(x, "no cache/indexN/shared_cpu_list that divides the package: one "
		      "last-level cache per package");
	fprintf(o, "llc_cores = %d\n", llc);
	if (!has_cpufreq)
		fprintf(o, "# no cpufreq: the clock is one for all, as the firmware set it\n");
	fprintf(o, "freq_domain = %s\n", has_cpufreq ? dom : "package");
	if (has_cpufreq && cluster)
		fprintf(o, "cluster_cores = %d\n", cluster);
	if (x->hi.ncpus != x->npkgs * cores_per_pkg * threads)
		fprintf(o, "online_cpus = %d\n", x->hi.ncpus);
}

/* [frequency] up to the processor's own keys (write_processor()). */
static void write_frequency(struct detect *x, int has_cpufreq, const uint32_t *khz, int n)
{
	FILE *o = x->out;
	const struct dtype *t0 = &x->types[0];
	int bguess;
	uint32_t base = type_base(t0->pol, khz, n, &bguess);

	fprintf(o, "\n[frequency]\n");
	if (!has_cpufreq && x->cpuinfo_mhz > 0)
		fprintf(o, "# no cpufreq: the clock /proc/cpuinfo gives (cpu MHz), the only P-state\n");
	if (bguess)
		guess(x, "sysfs shows no base frequency: the highest (no turbo range)");
	fprintf(o, "base_khz = %u\n", base);
	if (has_cpufreq && t0->pol->transition_latency_ns > 0 &&
	    t0->pol->transition_latency_ns < 4294967295LL)
		fprintf(o, "transition_latency_us = %g\n",
			(double)t0->pol->transition_latency_ns / 1000);
	write_invariance(x, has_cpufreq);
	if (acpi_turbo_entry(khz, n)) {
		fprintf(o, "# acpi-cpufreq's turbo entry (base + 1 MHz): the hardware picks the bin\n");
		guess(x, "the turbo range is not in sysfs: the model's turbo is the entry itself");
		fprintf(o, "turbo = hardware\n");
	}
}

/* [power] (guessed) and the power limits' text (pl) after it. */
static void write_power(struct detect *x, int threads, const uint32_t *khz, int n,
			const char *pl)
{
	FILE *o = x->out;
	const struct dtype *t0 = &x->types[0];

	fprintf(o, "\n[power]\n");
	guess(x, "power coefficients: the biggest core busy at its top P-state draws %g W "
	      "(ceff_nf), leaks %g W there, leak_beta 3", GUESS_CORE_W, GUESS_LEAK_W);
	fprintf(o, "ceff_nf = %.4g\nleak_w = %g\nleak_beta = 3\n",
		type_ceff(t0->capacity, khz[n - 1], n), GUESS_LEAK_W * t0->capacity / CAPACITY_SCALE);
	if (threads > 1) {
		guess(x, "SMT: Intel's Hyper-Threading figures (activity x1.15, each thread 62.5 %% "
		      "of the core)");
		fprintf(o, "smt_activity = 1.15\nsmt_throughput = 0.625\n");
	}
	guess(x, "%g W of uncore per active package; the platform (not the CPUs) left out",
	      GUESS_UNCORE_W);
	fprintf(o, "uncore_w = %g\nplatform_w = 0\n", GUESS_UNCORE_W);
	if (pl)
		fputs(pl, o);

	fprintf(o, "\n[costs]\n");
	guess(x, "kernel costs: the i7-4790 preset's (Haswell); the tick's and the idle "
	      "loop's are the defaults");
	fprintf(o, "syscall_us = 0.1\ncontext_switch_us = 1.3\nwakeup_ipi_us = 0.8\n"
		"fork_us = 60\nexec_us = 200\n");
}

/* A [cpu_type] and its [pstates] for each kind of core, when there are
 * several. */
static void write_types(struct detect *x)
{
	FILE *o = x->out;

	if (x->ntypes == 1)
		return;
	for (int t = 0; t < x->ntypes; t++) {
		struct dtype *y = &x->types[t];
		uint32_t tk[MACHINE_MAX_PSTATES];
		int tg, bg, tn = table(x, y->pol, tk, &tg);
		uint32_t tb = type_base(y->pol, tk, tn, &bg);
		int tc;
		const char *td = domain_word(policy_cores(x, t) / x->npkgs, y->cores, &tc);
		fprintf(o, "\n[cpu_type %s]\ncores = %d\nthreads_per_core = %d\n", y->name, y->cores,
			y->threads);
		if (y->capacity_guessed)
			guess(x, "no cpu_capacity: the top frequencies' ratio (the same work per "
			      "cycle)");
		else
			fprintf(o, "# cpu_capacity\n");
		fprintf(o, "capacity = %u\nfreq_domain = %s\n", y->capacity, td);
		if (tc)
			fprintf(o, "cluster_cores = %d\n", tc);
		if (bg)
			guess(x, "sysfs shows no base frequency: the highest");
		fprintf(o, "base_khz = %u\n", tb);
		guess(x, "power: the biggest core's, dynamic power scaled by capacity squared, "
		      "leakage by capacity");
		fprintf(o, "ceff_nf = %.4g\nleak_w = %g\n", type_ceff(y->capacity, tk[tn - 1], tn),
			GUESS_LEAK_W * y->capacity / CAPACITY_SCALE);
		char sec[64];
		snprintf(sec, sizeof(sec), "pstates %s", y->name);
		write_pstates(x, sec, tk, tn, tg);
	}
	write_type_cstates(x);
}

static void write_ini(struct detect *x)
{
	const struct host_info *hi = &x->hi;
	int cores_per_pkg = 0, threads = 1;
	for (int t = 0; t < x->ntypes; t++) {
		cores_per_pkg += x->types[t].cores;
		threads = x->types[t].threads > threads ? x->types[t].threads : threads;
	}
	int has_cpufreq = hi->npolicies > 0 && x->types[0].pol;
	struct dtype *t0 = &x->types[0];
	uint32_t khz[MACHINE_MAX_PSTATES];
	int tguess;
	int n = table(x, t0->pol, khz, &tguess);
	double tdp_w;
	char *pl = power_limits_text(x, &tdp_w);

	write_machine(x, cores_per_pkg, threads, tdp_w);
	write_topology(x, cores_per_pkg, threads, has_cpufreq);
	write_frequency(x, has_cpufreq, khz, n);
	write_processor(x, khz, n);
	write_pstates(x, "pstates", khz, n, tguess);
	write_highest_perf(x);

	write_cstates(x, GUESS_LEAK_W * t0->capacity / CAPACITY_SCALE);
	write_power(x, threads, khz, n, pl);
	free(pl);
	write_types(x);
}

char *machine_detect_ini(const struct hostfs *fs, struct pm_diag *d)
{
	struct detect x = { .fs = fs };
	char *text = NULL;
	size_t len = 0;

	if (host_info_load(&x.hi, fs, d) < 0)
		return NULL;
	if (x.hi.ncpus == 0) {
		char shown[HOSTFS_ROOT_MAX + 64];
		pm_fail(d, "%s: no online CPUs", hostfs_show(fs, HOST_CPU_DIR "/online", shown,
							    sizeof(shown)));
		goto out;
	}
	host_kind_detect(fs, &x.kind);
	read_cpuinfo(&x);
	if (read_cores(&x, d) < 0 || make_types(&x, d) < 0)
		goto out;
	x.out = open_memstream(&text, &len);
	if (!x.out) {
		pm_fail(d, "out of memory");
		goto out;
	}
	write_ini(&x);
	if (fclose(x.out) != 0 || !text) {
		free(text);
		text = NULL;
		pm_fail(d, "out of memory");
		goto out;
	}
	struct machine m;
	if (machine_parse(&m, text, "the detected machine", d) < 0) {
		free(text);
		text = NULL;
	}
out:
	free(x.cores);
	free(x.core_of);
	free(x.flags);
	host_info_free(&x.hi);
	return text;
}

int machine_detect_write(const char *root, const char *path, struct pm_diag *d)
{
	struct hostfs fs;
	if (hostfs_open(&fs, root, d) < 0)
		return -1;
	char *ini = machine_detect_ini(&fs, d);
	hostfs_close(&fs);
	if (!ini)
		return -1;
	FILE *f = fopen(path, "w");
	int bad = !f;
	if (f) {
		bad |= fputs(ini, f) == EOF;
		bad |= fclose(f) != 0;
	}
	free(ini);
	return bad ? pm_fail(d, "%s: cannot write", path) : 0;
}
