// SPDX-License-Identifier: GPL-2.0-only
/* The scheduler's view of the machine (kernel/sched/topology.c): which
 * CPUs share a core, a last-level cache, a package, and the sched domains
 * built from them, each with its groups and the flags and figures
 * fair.c's placement reads. Built once per run (sched_topology_build());
 * fixed for the run except the per-LLC hints of `llc_shared`, which the
 * placement code keeps (the kernel's sched_domain_shared). */
#ifndef PMLAB_SCHED_TOPOLOGY_H
#define PMLAB_SCHED_TOPOLOGY_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/diag.h"
#include "../core/simtime.h"

struct machine;

enum group_kind { GROUP_CPU, GROUP_CORE, GROUP_LLC, GROUP_PKG, GROUP_ALL };

/* CPUs that share something: a core's SMT threads, a last-level cache, a
 * package, the machine (or a lone CPU); in ascending CPU order. */
struct cpu_group {
	int n;
	int *cpu;
	enum group_kind kind;
	int id; /* the CPU, core, LLC or package it is */
};

struct llc_shared;

/* Where one CPU sits. */
struct cpu_place {
	int core, llc, pkg;
	int llc_pos;  /* its index in its LLC's list (in CPU order) */
	int llc_size; /* CPUs in its LLC (the kernel's per-CPU sd_llc_size) */
	/* &shared[llc] (the kernel's per-CPU sd_llc_shared): every CPU going
	 * idle reads its LLC's has_idle_cores (fair_update_idle_core()). */
	struct llc_shared *shared;
};

/* Domain levels as x86 and POWER build them: SMT siblings, the LLC (MC),
 * the package (DIE), and with more than one package a NUMA level (each
 * package a node, at a distance under node_reclaim_distance, so fork,
 * exec and wake-affine balancing stay on). A level whose span is its
 * child's is degenerate and left out, as sd_degenerate() does. */
enum sd_level { SDL_SMT, SDL_MC, SDL_DIE, SDL_NUMA, SDL_COUNT };

/* The asymmetry between CPUs the scheduler sees (sched/asym.h). */
enum sched_asym {
	SCHED_ASYM_NONE,
	SCHED_ASYM_CPUCAPACITY, /* SD_ASYM_CPUCAPACITY */
	SCHED_ASYM_PACKING,     /* SD_ASYM_PACKING (ITMT) */
};

struct sched_domain {
	enum sd_level level;
	const struct cpu_group *span;
	/* The child level's spans inside this one, in CPU order (the kernel's
	 * sched_groups); for SMT, single CPUs. */
	int ngroups;
	const struct cpu_group **groups;
	int imbalance_pct; /* 110 for SMT, 117 above (sd_init()) */
	bool numa;         /* SD_NUMA */
	int imb_numa_nr;   /* the NUMA imbalance allowed (build_sched_domains()) */
	bool asym_cpucapacity;      /* SD_ASYM_CPUCAPACITY: its CPUs differ in capacity */
	bool asym_cpucapacity_full; /* SD_ASYM_CPUCAPACITY_FULL: it has every capacity */
	bool asym_packing;          /* SD_ASYM_PACKING: prefer CPUs of higher priority */
};

/* The kernel's root_domain: what the placement code keeps for all CPUs. */
struct root_domain {
	uint32_t max_cpu_capacity; /* rd->max_cpu_capacity */
	bool overutilized;         /* rd->overutilized (EAS gives way to load balancing) */
	sim_ns next_balance;       /* the next periodic balance of the top domain */
	/* sched_mc_power_savings 2 (Linux 2.6.29): the first CPU of the group
	 * leader as the last power-savings balance named it
	 * (rd->sched_mc_preferred_wakeup_cpu; 0 until then, as kzalloc leaves
	 * it). */
	int mc_preferred_wakeup_cpu;
};

/* The kernel's sched_domain_shared of an LLC: hints the wakeup path keeps. */
struct llc_shared {
	int nr_idle_scan;  /* SIS_UTIL: CPUs select_idle_cpu() may scan */
	sim_ns scan_at;    /* when nr_idle_scan was last computed; -1: never */
	bool has_idle_cores;
	uint32_t scan_gen; /* select_idle_cpu()'s scans, to mark cores scanned */
};

/* The machine's online CPUs. Indices are global (cores and LLCs count
 * every core of the topology, online or not; a group with no online CPU
 * has n == 0). */
struct sched_topology {
	int ncpus, ncores, nllcs, npkgs;
	struct cpu_place *cpu;  /* by CPU */
	struct cpu_group *core; /* SMT siblings, by core */
	struct cpu_group *llc;  /* by LLC */
	struct cpu_group *pkg;  /* by package */
	struct cpu_group *one;  /* each CPU alone, by CPU */
	struct cpu_group all;   /* every CPU */
	bool smt;               /* some core has two threads online (sched_smt_active()) */
	/* Domain instances by level and group index, and each CPU's domains
	 * bottom up (degenerate levels left out). */
	struct sched_domain *dom[SDL_COUNT];
	struct sched_domain *(*cpu_dom)[SDL_COUNT];
	int *cpu_ndom;
	/* By CPU and level: its lowest domain of that level or above, NULL if
	 * none (cpu_domain_spanning()). */
	struct sched_domain *(*cpu_dom_from)[SDL_COUNT];
	struct llc_shared *shared; /* by LLC */
	uint32_t *core_mark;       /* by core: the LLC scan that last saw it */
	/* by CPU: its package-level domain's consecutive failed newly-idle
	 * balances (2.6.29's sd->nr_balance_failed, placement_pack.c) */
	int *pkg_newidle_failed;
	/* Asymmetry (sched/asym.h): each CPU's capacity as the scheduler
	 * sees it (arch_scale_cpu_capacity(), 1024 on a symmetric machine;
	 * capacity_of() is the same, no RT, IRQ or thermal pressure being
	 * modelled) and its asym packing priority (arch_asym_cpu_priority()). */
	enum sched_asym asym;
	uint32_t *capacity;
	uint32_t min_capacity;
	int *asym_prio;
	struct root_domain *rd;
};

/* Builds the topology of machine `m`'s online CPUs; -1 with a message on
 * out of memory. */
int sched_topology_build(struct sched_topology *t, const struct machine *m, struct pm_diag *d);
void sched_topology_free(struct sched_topology *t);

/* The domain of `cpu` at index k of its hierarchy (0: lowest), or NULL. */
static inline const struct sched_domain *cpu_domain(const struct sched_topology *t, int cpu,
						    int k)
{
	return k >= 0 && k < t->cpu_ndom[cpu] ? t->cpu_dom[cpu][k] : 0;
}

/* The lowest domain of `cpu` whose span holds `other` (NULL: none), what
 * for_each_domain() tested with cpumask_test_cpu() finds: the spans nest
 * (core, LLC, package, machine), so it is cpu's lowest domain at or above
 * the level of the smallest group the two share. A look-up rather than a
 * walk: every wakeup asks it (select_task_rq_fair()'s wake-affine
 * domain). */
static inline const struct sched_domain *cpu_domain_spanning(const struct sched_topology *t,
							     int cpu, int other)
{
	const struct cpu_place *a = &t->cpu[cpu], *b = &t->cpu[other];
	enum sd_level l = a->core == b->core ? SDL_SMT
			: a->llc == b->llc   ? SDL_MC
			: a->pkg == b->pkg   ? SDL_DIE
					     : SDL_NUMA;
	return t->cpu_dom_from[cpu][l];
}

/* sched_asym_cpucap_active() and sched_asym_prefer() (v6.6). */
static inline bool sched_asym_cpucap_active(const struct sched_topology *t)
{
	return t->asym == SCHED_ASYM_CPUCAPACITY;
}

static inline bool sched_asym_prefer(const struct sched_topology *t, int a, int b)
{
	return t->asym_prio[a] > t->asym_prio[b];
}

static inline bool cpus_share_cache(const struct sched_topology *t, int a, int b)
{
	return t->cpu[a].llc == t->cpu[b].llc;
}

/* Whether CPU `cpu` belongs to group `g`. */
static inline bool cpu_group_has(const struct sched_topology *t, const struct cpu_group *g,
				 int cpu)
{
	switch (g->kind) {
	case GROUP_CPU:
		return cpu == g->id;
	case GROUP_CORE:
		return t->cpu[cpu].core == g->id;
	case GROUP_LLC:
		return t->cpu[cpu].llc == g->id;
	case GROUP_PKG:
		return t->cpu[cpu].pkg == g->id;
	default:
		return true;
	}
}

#endif
