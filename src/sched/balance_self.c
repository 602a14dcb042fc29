// SPDX-License-Identifier: GPL-2.0-only
/* Fork and exec balancing of Linux 2.6.29 (kernel/sched.c:
 * sched_balance_self(), called by sched_fork() with SD_BALANCE_FORK and by
 * sched_exec() with SD_BALANCE_EXEC), as it runs while
 * sched_mc_power_savings is set.
 *
 * The domain walk starts from the widest domain of the parent's (or the
 * exec'ing task's) CPU that has the flag, but "if power savings logic is
 * enabled for a domain, stop there": at sched_mc_power_savings >= 1 the
 * CPU (package-spanning) domain carries SD_POWERSAVINGS_BALANCE
 * (sd_balance_for_package_power()), so a new process is balanced only
 * inside its parent's package -- the MC domain, which spans the package
 * then (cpu_coregroup_mask() returns cpu_core_mask at sched_mc > 0), with
 * one group per core -- and below it among a core's SMT siblings. Packages
 * are balanced afterwards by the load balancer alone.
 *
 * At each level find_idlest_group() compares the groups' loads per CPU
 * of power (source_load() for the local group, target_load() for the
 * others) and stays local unless the idlest is below the local one by
 * half the domain's imbalance_pct (125: 12 %); find_idlest_cpu() takes
 * the CPU with the least load, the current CPU on ties, else the first.
 * The task itself counts on its CPU: the parent runs there while it
 * forks, the exec'ing task is current (2.6.29 has no *_without()
 * discount), so an exec moves a lone task to an idle core of its package.
 *
 * Load: weighted_cpuload(), every task of the model at nice 0 (NICE_0_LOAD
 * per runnable task). forkexec_idx = 1 reads cpu_load[0], the load at the
 * last tick, against the present one (min for the local group, max for
 * the others); the model has no per-tick load history and uses the
 * present load for both. */
#include <limits.h>

#include "placement_lib.h"

#define NICE_0_LOAD 1024UL
/* SD_MC_INIT's and SD_SIBLING_INIT's imbalance_pct (2.6.29), halved as
 * find_idlest_group() halves it. */
#define MC_IMBALANCE (100 + (125 - 100) / 2)
#define SMT_IMBALANCE (100 + (110 - 100) / 2)

static unsigned long weighted_cpuload(const struct sim *s, int cpu)
{
	return (unsigned long)sv_nr_running(s, cpu) * NICE_0_LOAD;
}

/* A level of the walk: its span, and whether its groups are the span's
 * cores (the MC domain) or its CPUs (the SMT domain). */
static const struct cpu_group *group_of(const struct sched_topology *t, int cpu, bool cores)
{
	return cores ? &t->core[t->cpu[cpu].core] : &t->one[cpu];
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
						 bool cores, const struct task *p, int this_cpu,
						 int imbalance)
{
	const struct sched_topology *topo = sv_topology(s);
	const struct cpu_group *local = group_of(topo, this_cpu, cores), *idlest = NULL;
	unsigned long min_load = ULONG_MAX, this_load = 0;
	int first = 0;
	for (int i = 0; i < span->n; i++)
		if (span->cpu[i] == local->cpu[0])
			first = i;
	for (int k = 0; k < span->n; k++) {
		int cpu = span->cpu[(first + k) % span->n];
		const struct cpu_group *g = group_of(topo, cpu, cores);
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
static int balance_level(const struct sim *s, const struct cpu_group *span, bool cores,
			 const struct task *p, int cpu, int imbalance)
{
	if (group_of(sv_topology(s), cpu, cores)->n == span->n)
		return cpu;
	const struct cpu_group *g = find_idlest_group(s, span, cores, p, cpu, imbalance);
	if (!g)
		return cpu;
	int new_cpu = find_idlest_cpu(s, g, p, cpu);
	return new_cpu < 0 ? cpu : new_cpu;
}

int sched_balance_self_powersave(const struct sim *s, const struct task *p, int cpu)
{
	const struct sched_topology *topo = sv_topology(s);
	/* The MC domain: the package, its cores as groups. A move goes on in
	 * the new CPU's narrower domain, a stay in this CPU's: either way
	 * the core's, its threads as groups. */
	cpu = balance_level(s, &topo->pkg[topo->cpu[cpu].pkg], true, p, cpu, MC_IMBALANCE);
	return balance_level(s, &topo->core[topo->cpu[cpu].core], false, p, cpu, SMT_IMBALANCE);
}
