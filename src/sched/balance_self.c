// SPDX-License-Identifier: GPL-2.0-only
/* Fork and exec balancing of Linux 2.6.29 (kernel/sched.c:
 * sched_balance_self(), called by sched_fork() with SD_BALANCE_FORK and by
 * sched_exec() with SD_BALANCE_EXEC; every default domain has both).
 *
 * The domain walk starts from the widest domain of the parent's (or the
 * exec'ing task's) CPU, but "if power savings logic is enabled for a
 * domain, stop there": at sched_mc_power_savings >= 1 the CPU (machine-
 * spanning) domain carries SD_POWERSAVINGS_BALANCE
 * (sd_balance_for_package_power()), so a new process is balanced only
 * inside its parent's package. The domains 2.6.29 builds on x86 (without
 * NUMA): at sched_mc_power_savings = 0 the CPU domain with the last-level
 * caches as groups (cpu_to_phys_group() groups by cpu_coregroup_mask(),
 * the LLC then), the MC domain (the LLC, one group per core) and the SMT
 * domain (a core's threads); at sched_mc > 0 cpu_coregroup_mask() is the
 * package (cpu_core_mask), so the walk is the MC domain (the package, one
 * group per core), then the SMT domain. A domain of one group is no
 * domain (sd_degenerate()).
 *
 * At each level find_idlest_group() compares the groups' loads per CPU
 * of power (source_load() for the local group, target_load() for the
 * others) and stays local unless the idlest is below the local one by
 * half the domain's imbalance_pct (125, 110 for SMT); find_idlest_cpu()
 * takes the CPU with the least load, the current CPU on ties, else the
 * first; a move goes on in the new CPU's narrower domains. The task
 * itself counts on its CPU: the parent runs there while it forks, the
 * exec'ing task is current (2.6.29 has no *_without() discount), so an
 * exec moves a lone task to an idle core.
 *
 * Load: weighted_cpuload(), every task of the model at nice 0 (NICE_0_LOAD
 * per runnable task). forkexec_idx = 1 reads cpu_load[0], the load at the
 * last tick, against the present one (min for the local group, max for
 * the others); the model has no per-tick load history and uses the
 * present load for both. */
#include <limits.h>

#include "placement_lib.h"

#define NICE_0_LOAD 1024UL
/* SD_CPU_INIT's and SD_MC_INIT's imbalance_pct (125) and SD_SIBLING_INIT's
 * (110), 2.6.29, halved as find_idlest_group() halves them. */
#define MC_IMBALANCE (100 + (125 - 100) / 2)
#define SMT_IMBALANCE (100 + (110 - 100) / 2)

static unsigned long weighted_cpuload(const struct sim *s, int cpu)
{
	return (unsigned long)sv_nr_running(s, cpu) * NICE_0_LOAD;
}

/* The groups of a level: last-level caches, cores or CPUs. */
enum bs_kind { BS_LLC, BS_CORE, BS_CPU };

static const struct cpu_group *group_of(const struct sched_topology *t, int cpu, enum bs_kind k)
{
	switch (k) {
	case BS_LLC:
		return &t->llc[t->cpu[cpu].llc];
	case BS_CORE:
		return &t->core[t->cpu[cpu].core];
	default:
		return &t->one[cpu];
	}
}

static bool group_allows(const struct cpu_group *g, const struct task *p)
{
	for (int i = 0; i < g->n; i++)
		if (task_allowed(p, g->cpu[i]))
			return true;
	return false;
}

/* avg_load: the group's load scaled by its power (one SCHED_LOAD_SCALE
 * per CPU; SMT siblings' smaller share of a core is left out). */
static unsigned long avg_load(const struct sim *s, const struct cpu_group *g)
{
	unsigned long sum = 0;
	for (int i = 0; i < g->n; i++)
		sum += weighted_cpuload(s, g->cpu[i]);
	return sum * NICE_0_LOAD / ((unsigned long)g->n * NICE_0_LOAD);
}

/* find_idlest_group(): the idlest group of `span` other than this_cpu's,
 * or NULL to stay in the local one. Visited from the local group on, as
 * the kernel's circular list starts at the owner CPU's group. */
static const struct cpu_group *find_idlest_group(const struct sim *s, const struct cpu_group *span,
						 enum bs_kind kind, const struct task *p,
						 int this_cpu, int imbalance)
{
	const struct sched_topology *topo = sv_topology(s);
	const struct cpu_group *local = group_of(topo, this_cpu, kind), *idlest = NULL;
	unsigned long min_load = ULONG_MAX, this_load = 0;
	int first = 0;
	for (int i = 0; i < span->n; i++)
		if (span->cpu[i] == local->cpu[0])
			first = i;
	for (int k = 0; k < span->n; k++) {
		int cpu = span->cpu[(first + k) % span->n];
		const struct cpu_group *g = group_of(topo, cpu, kind);
		if (g->cpu[0] != cpu || !group_allows(g, p))
			continue; /* not the group's first CPU: seen with it */
		unsigned long load = avg_load(s, g);
		if (g == local)
			this_load = load;
		else if (load < min_load) {
			min_load = load;
			idlest = g;
		}
	}
	if (!idlest || 100 * this_load < (unsigned long)imbalance * min_load)
		return NULL;
	return idlest;
}

/* find_idlest_cpu(): the allowed CPU of the group with the least load,
 * `this_cpu` on ties, else the first; -1 if none is allowed. */
static int find_idlest_cpu(const struct sim *s, const struct cpu_group *g, const struct task *p,
			   int this_cpu)
{
	unsigned long min_load = ULONG_MAX;
	int idlest = -1;
	for (int i = 0; i < g->n; i++) {
		int cpu = g->cpu[i];
		if (!task_allowed(p, cpu))
			continue;
		unsigned long load = weighted_cpuload(s, cpu);
		if (load < min_load || (load == min_load && cpu == this_cpu)) {
			min_load = load;
			idlest = cpu;
		}
	}
	return idlest;
}

/* One level of the walk: the CPU `cpu` moves to among the groups of
 * `span`, or `cpu`. A span of one group is no domain (sd_degenerate()). */
static int balance_level(const struct sim *s, const struct cpu_group *span, enum bs_kind kind,
			 const struct task *p, int cpu, int imbalance)
{
	if (group_of(sv_topology(s), cpu, kind)->n == span->n)
		return cpu;
	const struct cpu_group *g = find_idlest_group(s, span, kind, p, cpu, imbalance);
	if (!g)
		return cpu;
	int new_cpu = find_idlest_cpu(s, g, p, cpu);
	return new_cpu < 0 ? cpu : new_cpu;
}

int sched_balance_self_2629(const struct sim *s, const struct task *p, int cpu, bool power_savings)
{
	const struct sched_topology *topo = sv_topology(s);
	if (power_savings) {
		/* The MC domain: the package, its cores as groups. */
		cpu = balance_level(s, &topo->pkg[topo->cpu[cpu].pkg], BS_CORE, p, cpu, MC_IMBALANCE);
	} else {
		/* The CPU domain (its LLCs as groups), then the MC domain (the
		 * new CPU's LLC, its cores as groups). */
		cpu = balance_level(s, &topo->all, BS_LLC, p, cpu, MC_IMBALANCE);
		cpu = balance_level(s, &topo->llc[topo->cpu[cpu].llc], BS_CORE, p, cpu, MC_IMBALANCE);
	}
	/* The SMT domain: the core's threads. */
	return balance_level(s, &topo->core[topo->cpu[cpu].core], BS_CPU, p, cpu, SMT_IMBALANCE);
}

bool sched_rules_2629(const struct sched_knobs *k)
{
	return k->kernel_version > 0 && k->kernel_version < 3000;
}
