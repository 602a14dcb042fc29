// SPDX-License-Identifier: GPL-2.0-only
/* The root domain's performance domains, each with its energy model, as
 * build_perf_domains() (kernel/sched/topology.c, v6.12) builds them when
 * Energy Aware Scheduling can run: asymmetric CPU capacities, no SMT,
 * frequency-invariant utilization, schedutil on every policy, an energy
 * model for every domain (sched/asym.h), and a model small enough to
 * evaluate at every wakeup (EM_MAX_COMPLEXITY). The sysctl
 * sched_energy_aware turns it off. */
#include <stdlib.h>
#include <string.h>

#include "../sched/asym.h"
#include "sim_internal.h"

/* nr_pd * (nr_ps + nr_cpus) must not exceed it (topology.c). */
#define EM_MAX_COMPLEXITY 2048

static bool eas_possible(const struct sim *s, const char **why)
{
	bool invariant = true;
	for (int t = 0; t < s->ntypes; t++)
		invariant &= s->types[t].fie_khz != 0;
	if (s->topo.asym != SCHED_ASYM_CPUCAPACITY)
		*why = "CPUs do not have asymmetric capacities";
	else if (s->topo.smt)
		*why = "SMT is not supported";
	else if (!invariant)
		*why = "frequency-invariant load tracking not supported";
	else if (strcmp(s->cf_gov->name, "schedutil") != 0)
		*why = "schedutil is mandatory";
	else if (!sched_energy_model(s->m))
		*why = "no energy model";
	else
		return true;
	return false;
}

int perf_domains_build(struct sim *s, struct pm_diag *d)
{
	s->npds = 0;
	if (!s->par.sched_energy_aware) {
		s->eas_why = "sched_energy_aware is 0";
		return 0;
	}
	if (!eas_possible(s, &s->eas_why))
		return 0;
	const struct machine *m = s->m;
	int ndom = machine_freq_domains(m);
	s->pds = calloc((size_t)ndom, sizeof(*s->pds));
	s->pd_cpus = calloc((size_t)s->ncpus, sizeof(*s->pd_cpus));
	s->em = calloc((size_t)s->ntypes, sizeof(*s->em));
	if (!s->pds || !s->pd_cpus || !s->em)
		return pm_fail(d, "out of memory");
	for (int t = 0; t < s->ntypes; t++)
		em_build_table(&m->types[t], &s->em[t]);
	/* The online CPUs of each clock domain (a cpufreq policy). */
	int used = 0, nr_ps = 0;
	for (int dom = 0; dom < ndom; dom++) {
		struct sv_perf_domain *pd = &s->pds[s->npds];
		pd->cpus = &s->pd_cpus[used];
		for (int c = 0; c < s->ncpus; c++)
			if (machine_cpu_freq_domain(m, c) == dom)
				s->pd_cpus[used + pd->ncpus++] = c;
		if (!pd->ncpus)
			continue;
		pd->em = &s->em[s->cpus[pd->cpus[0]].type];
		nr_ps += pd->em->nr_perf_states;
		used += pd->ncpus;
		s->npds++;
	}
	/* The kernel walks the CPUs in order and puts each new domain at the
	 * head of its list: the domain of the highest first CPU leads. */
	for (int i = 1; i < s->npds; i++)
		for (int j = i; j > 0 && s->pds[j].cpus[0] > s->pds[j - 1].cpus[0]; j--) {
			struct sv_perf_domain tmp = s->pds[j];
			s->pds[j] = s->pds[j - 1];
			s->pds[j - 1] = tmp;
		}
	if (s->npds * (nr_ps + s->ncpus) > EM_MAX_COMPLEXITY) {
		s->npds = 0;
		s->eas_why = "the energy model's complexity is too high";
	}
	return 0;
}

void perf_domains_free(struct sim *s)
{
	free(s->pds);
	free(s->pd_cpus);
	free(s->em);
	s->pds = NULL;
	s->pd_cpus = NULL;
	s->em = NULL;
	s->npds = 0;
}
