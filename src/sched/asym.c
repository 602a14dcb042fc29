// SPDX-License-Identifier: GPL-2.0-only
/* The asymmetry between CPUs the scheduler sees (asym.h). */
#include "asym.h"

#include <stdlib.h>

#include "../machine/energy_model.h"
#include "../machine/machine.h"

/* The cpufreq drivers of x86: there arch_scale_cpu_capacity() is 1024 on
 * every CPU unless intel_pstate enables hybrid capacity scaling
 * (arch_enable_hybrid_capacity_scale(), v6.12). */
static bool x86_driver(enum cpufreq_driver_kind k)
{
	return k == CPUFREQ_DRIVER_ACPI || k == CPUFREQ_DRIVER_INTEL_PSTATE ||
	       k == CPUFREQ_DRIVER_INTEL_CPUFREQ;
}

static bool intel_pstate(enum cpufreq_driver_kind k)
{
	return k == CPUFREQ_DRIVER_INTEL_PSTATE || k == CPUFREQ_DRIVER_INTEL_CPUFREQ;
}

static uint32_t type_capacity(const struct machine *m, int cpu)
{
	int ty = machine_cpu_type(m, cpu);
	return m->ntypes > 0 && ty >= 0 ? m->types[ty].capacity : CAPACITY_SCALE;
}

/* Whether the online CPUs' types differ in capacity. */
static bool capacities_differ(const struct machine *m, const struct sched_topology *t)
{
	for (int c = 1; c < t->ncpus; c++)
		if (type_capacity(m, c) != type_capacity(m, 0))
			return true;
	return false;
}

static bool amd_pstate(enum cpufreq_driver_kind k)
{
	return k == CPUFREQ_DRIVER_AMD_PSTATE || k == CPUFREQ_DRIVER_AMD_PSTATE_EPP;
}

bool sched_amd_prefcore(const struct machine *m, int kernel, bool amd_prefcore)
{
	return amd_prefcore && amd_pstate(m->cpufreq_driver) && (kernel == 0 || kernel >= 6009) &&
	       machine_highest_perf_differs(m);
}

enum sched_asym sched_asym_mode(const struct machine *m, const struct sched_topology *t,
				int kernel, bool itmt, bool amd_prefcore)
{
	/* amd-pstate's preferred cores (v6.9+): amd_pstate_init_prefcore()
	 * sets each CPU's ITMT priority to its CPPC highest performance and
	 * sched_set_itmt_support() turns ITMT on, where amd_detect_prefcore()
	 * found two values and amd_prefcore=disable was not given. */
	if (sched_amd_prefcore(m, kernel, amd_prefcore))
		return itmt ? SCHED_ASYM_PACKING : SCHED_ASYM_NONE;
	if (!capacities_differ(m, t))
		return SCHED_ASYM_NONE;
	if (!x86_driver(m->cpufreq_driver))
		return SCHED_ASYM_CPUCAPACITY; /* Arm: the device tree's capacities */
	if (!intel_pstate(m->cpufreq_driver))
		return SCHED_ASYM_NONE; /* nothing sets priorities or capacities */
	/* intel_pstate_register_driver(): hybrid capacity scaling from v6.12
	 * unless SMT is active; else ITMT from the CPPC highest_perf. */
	if ((kernel == 0 || kernel >= 6012) && !t->smt)
		return SCHED_ASYM_CPUCAPACITY;
	return itmt ? SCHED_ASYM_PACKING : SCHED_ASYM_NONE;
}

bool sched_energy_model(const struct machine *m)
{
	if (m->cpufreq_driver != CPUFREQ_DRIVER_CPUFREQ_DT)
		return false;
	for (int t = 0; t < machine_ntypes(m); t++) {
		struct cpu_type ty;
		machine_type_get(m, t, &ty);
		if (!em_dynamic_power_coefficient(&ty))
			return false;
	}
	return true;
}

const char *sched_asym_name(enum sched_asym mode)
{
	switch (mode) {
	case SCHED_ASYM_CPUCAPACITY:
		return "capacity";
	case SCHED_ASYM_PACKING:
		return "packing";
	default:
		return "none";
	}
}

/* Whether the span holds CPUs of two capacities (SD_ASYM_CPUCAPACITY),
 * and of every capacity the machine has (SD_ASYM_CPUCAPACITY_FULL), as
 * asym_cpu_capacity_classify() sets them. */
static void classify(const struct sched_topology *t, struct sched_domain *sd)
{
	const struct cpu_group *g = sd->span;
	bool seen_min = false, seen_max = false, two = false;
	for (int i = 0; i < g->n; i++) {
		uint32_t cap = t->capacity[g->cpu[i]];
		seen_min |= cap == t->min_capacity;
		seen_max |= cap == t->rd->max_cpu_capacity;
		two |= cap != t->capacity[g->cpu[0]];
	}
	sd->asym_cpucapacity = two;
	/* Every capacity in between is that of some type; with at most a few
	 * types, a span with both ends and every middle type is full. */
	bool full = two && seen_min && seen_max;
	for (int c = 0; full && c < t->ncpus; c++) {
		bool found = false;
		for (int i = 0; i < g->n && !found; i++)
			found = t->capacity[g->cpu[i]] == t->capacity[c];
		full = found;
	}
	sd->asym_cpucapacity_full = full;
}

int sched_topology_set_asym(struct sched_topology *t, const struct machine *m,
			    enum sched_asym mode, struct pm_diag *d)
{
	free(t->capacity);
	free(t->asym_prio);
	t->capacity = calloc((size_t)t->ncpus, sizeof(*t->capacity));
	t->asym_prio = calloc((size_t)t->ncpus, sizeof(*t->asym_prio));
	if (!t->capacity || !t->asym_prio)
		return pm_fail(d, "out of memory");
	t->asym = mode;
	/* Packing from amd-pstate's ranking rather than a hybrid part's types;
	 * then SD_ASYM_PACKING is on MC only: x86_die_flags() gives it to the
	 * DIE domain on hybrid parts alone (v6.6-v6.12). */
	bool prefcore = mode == SCHED_ASYM_PACKING && amd_pstate(m->cpufreq_driver) &&
			machine_highest_perf_differs(m);
	t->min_capacity = CAPACITY_SCALE;
	t->rd->max_cpu_capacity = 0;
	for (int c = 0; c < t->ncpus; c++) {
		uint32_t cap = type_capacity(m, c);
		t->capacity[c] = mode == SCHED_ASYM_CPUCAPACITY ? cap : CAPACITY_SCALE;
		t->asym_prio[c] = mode != SCHED_ASYM_PACKING ? 0 :
				  prefcore ? m->highest_perf[t->cpu[c].core] : (int)cap;
		if (t->capacity[c] < t->min_capacity)
			t->min_capacity = t->capacity[c];
		if (t->capacity[c] > t->rd->max_cpu_capacity)
			t->rd->max_cpu_capacity = t->capacity[c];
	}
	int ndom[SDL_COUNT] = { t->ncores, t->nllcs, t->npkgs, 1 };
	for (int l = 0; l < SDL_COUNT; l++) {
		for (int i = 0; t->dom[l] && i < ndom[l]; i++) {
			struct sched_domain *sd = &t->dom[l][i];
			classify(t, sd);
			sd->asym_packing = mode == SCHED_ASYM_PACKING &&
					   (l == SDL_MC || (l == SDL_DIE && !prefcore));
		}
	}
	return 0;
}
