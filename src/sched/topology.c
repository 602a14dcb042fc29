// SPDX-License-Identifier: GPL-2.0-only
/* Building the scheduler's topology and sched domains from the machine,
 * as kernel/sched/topology.c (Linux 6.1) builds them: sd_init()'s
 * imbalance_pct, sd_degenerate()'s pruning and build_sched_domains()'s
 * imb_numa_nr. */
#include "topology.h"

#include "asym.h"

#include <stdlib.h>
#include <string.h>

#include "../machine/machine.h"

static int group_add(struct cpu_group *g, int cpu)
{
	int *grown = realloc(g->cpu, (size_t)(g->n + 1) * sizeof(int));
	if (!grown)
		return -1;
	g->cpu = grown;
	g->cpu[g->n++] = cpu;
	return 0;
}

static void groups_init(struct cpu_group *g, int n, enum group_kind kind)
{
	for (int i = 0; i < n; i++)
		g[i] = (struct cpu_group){ .kind = kind, .id = i };
}

/* The non-empty groups among g[first .. first+n), in order: the child
 * level's spans inside one domain. */
static int domain_groups(struct sched_domain *sd, struct cpu_group *g, int first, int n)
{
	sd->groups = calloc((size_t)n, sizeof(*sd->groups));
	if (!sd->groups)
		return -1;
	for (int i = 0; i < n; i++)
		if (g[first + i].n)
			sd->groups[sd->ngroups++] = &g[first + i];
	return 0;
}

/* Every domain instance of every level, with its groups. */
static int build_domains(struct sched_topology *t, const struct machine *m)
{
	int counts[SDL_COUNT] = { t->ncores, t->nllcs, t->npkgs, t->npkgs > 1 ? 1 : 0 };
	const struct cpu_group *spans[SDL_COUNT] = { t->core, t->llc, t->pkg, &t->all };
	int llcs_per_pkg = m->cores_per_package / m->llc_cores;
	for (int l = 0; l < SDL_COUNT; l++) {
		if (!counts[l])
			continue;
		t->dom[l] = calloc((size_t)counts[l], sizeof(*t->dom[l]));
		if (!t->dom[l])
			return -1;
		for (int i = 0; i < counts[l]; i++) {
			struct sched_domain *sd = &t->dom[l][i];
			sd->level = (enum sd_level)l;
			sd->span = &spans[l][i];
			sd->imbalance_pct = l == SDL_SMT ? 110 : 117;
			sd->numa = l == SDL_NUMA;
			int rc = 0;
			if (l == SDL_SMT) {
				sd->groups = calloc((size_t)sd->span->n + 1, sizeof(*sd->groups));
				rc = sd->groups ? 0 : -1;
				for (int k = 0; rc == 0 && k < sd->span->n; k++)
					sd->groups[sd->ngroups++] = &t->one[sd->span->cpu[k]];
			} else if (l == SDL_MC) {
				rc = domain_groups(sd, t->core, i * m->llc_cores, m->llc_cores);
			} else if (l == SDL_DIE) {
				rc = domain_groups(sd, t->llc, i * llcs_per_pkg, llcs_per_pkg);
			} else {
				rc = domain_groups(sd, t->pkg, 0, t->npkgs);
			}
			if (rc < 0)
				return -1;
		}
	}
	return 0;
}

/* Each CPU's domains bottom up, dropping those no wider than their child
 * (sd_degenerate()), and the NUMA imbalance build_sched_domains() allows:
 * with one LLC per node, an eighth of the node; with several, one task
 * per LLC. */
static void attach_domains(struct sched_topology *t)
{
	for (int c = 0; c < t->ncpus; c++) {
		const struct cpu_place *p = &t->cpu[c];
		struct sched_domain *cand[SDL_COUNT] = { &t->dom[SDL_SMT][p->core],
							 &t->dom[SDL_MC][p->llc],
							 &t->dom[SDL_DIE][p->pkg],
							 t->dom[SDL_NUMA] };
		int width = 1;
		t->cpu_ndom[c] = 0;
		for (int l = 0; l < SDL_COUNT; l++) {
			if (!cand[l] || cand[l]->span->n <= width)
				continue;
			width = cand[l]->span->n;
			t->cpu_dom[c][t->cpu_ndom[c]++] = cand[l];
		}
		/* Top down: a level left out takes the next one kept above it. */
		struct sched_domain *above = NULL;
		for (int l = SDL_COUNT - 1, k = t->cpu_ndom[c] - 1; l >= 0; l--) {
			if (k >= 0 && t->cpu_dom[c][k]->level == (enum sd_level)l)
				above = t->cpu_dom[c][k--];
			t->cpu_dom_from[c][l] = above;
		}
		if (t->dom[SDL_NUMA]) {
			int pkg_n = t->pkg[p->pkg].n, llc_n = t->llc[p->llc].n;
			int nr_llcs = pkg_n / llc_n;
			int imb = nr_llcs == 1 ? pkg_n >> 3 : nr_llcs;
			t->dom[SDL_NUMA]->imb_numa_nr = imb > 1 ? imb : 1;
		}
	}
}

int sched_topology_build(struct sched_topology *t, const struct machine *m, struct pm_diag *d)
{
	memset(t, 0, sizeof(*t));
	t->ncpus = m->online_cpus;
	t->ncores = machine_cores(m);
	t->npkgs = m->packages;
	t->nllcs = m->packages * (m->cores_per_package / m->llc_cores);
	t->cpu = calloc((size_t)t->ncpus, sizeof(*t->cpu));
	t->core = calloc((size_t)t->ncores, sizeof(*t->core));
	t->llc = calloc((size_t)t->nllcs, sizeof(*t->llc));
	t->pkg = calloc((size_t)t->npkgs, sizeof(*t->pkg));
	t->one = calloc((size_t)t->ncpus, sizeof(*t->one));
	t->all.cpu = calloc((size_t)t->ncpus, sizeof(int));
	t->cpu_dom = calloc((size_t)t->ncpus, sizeof(*t->cpu_dom));
	t->cpu_ndom = calloc((size_t)t->ncpus, sizeof(*t->cpu_ndom));
	t->cpu_dom_from = calloc((size_t)t->ncpus, sizeof(*t->cpu_dom_from));
	t->shared = calloc((size_t)t->nllcs, sizeof(*t->shared));
	t->core_mark = calloc((size_t)t->ncores, sizeof(*t->core_mark));
	t->rd = calloc(1, sizeof(*t->rd));
	t->pkg_newidle_failed = calloc((size_t)t->ncpus, sizeof(*t->pkg_newidle_failed));
	if (!t->cpu || !t->core || !t->llc || !t->pkg || !t->one || !t->all.cpu || !t->cpu_dom ||
	    !t->cpu_ndom || !t->cpu_dom_from || !t->shared || !t->core_mark || !t->rd ||
	    !t->pkg_newidle_failed)
		return pm_fail(d, "out of memory");
	groups_init(t->core, t->ncores, GROUP_CORE);
	groups_init(t->llc, t->nllcs, GROUP_LLC);
	groups_init(t->pkg, t->npkgs, GROUP_PKG);
	t->all = (struct cpu_group){ .n = t->ncpus, .cpu = t->all.cpu, .kind = GROUP_ALL };
	for (int c = 0; c < t->ncpus; c++) {
		struct cpu_place *p = &t->cpu[c];
		*p = (struct cpu_place){ .core = machine_cpu_core(m, c),
					 .llc = machine_cpu_llc(m, c),
					 .pkg = machine_cpu_package(m, c) };
		p->llc_pos = t->llc[p->llc].n; /* CPUs join their groups in order */
		t->all.cpu[c] = c;
		t->one[c] = (struct cpu_group){ .n = 1, .cpu = &t->all.cpu[c], .kind = GROUP_CPU,
						.id = c };
		if (group_add(&t->core[p->core], c) < 0 || group_add(&t->llc[p->llc], c) < 0 ||
		    group_add(&t->pkg[p->pkg], c) < 0)
			return pm_fail(d, "out of memory");
		if (t->core[p->core].n > 1)
			t->smt = true;
	}
	for (int c = 0; c < t->ncpus; c++) {
		t->cpu[c].llc_size = t->llc[t->cpu[c].llc].n;
		t->cpu[c].shared = &t->shared[t->cpu[c].llc];
	}
	for (int l = 0; l < t->nllcs; l++)
		t->shared[l] = (struct llc_shared){ .nr_idle_scan = t->llc[l].n,
						    .scan_at = -1,
						    .has_idle_cores = true };
	if (build_domains(t, m) < 0)
		return pm_fail(d, "out of memory");
	attach_domains(t);
	/* Symmetric until the caller says what the kernel sees (asym.h). */
	return sched_topology_set_asym(t, m, SCHED_ASYM_NONE, d);
}

void sched_topology_free(struct sched_topology *t)
{
	struct cpu_group *lists[3] = { t->core, t->llc, t->pkg };
	int counts[3] = { t->ncores, t->nllcs, t->npkgs };
	for (int k = 0; k < 3; k++)
		for (int i = 0; lists[k] && i < counts[k]; i++)
			free(lists[k][i].cpu);
	int ndom[SDL_COUNT] = { t->ncores, t->nllcs, t->npkgs, 1 };
	for (int l = 0; l < SDL_COUNT; l++) {
		for (int i = 0; t->dom[l] && i < ndom[l]; i++)
			free(t->dom[l][i].groups);
		free(t->dom[l]);
	}
	free(t->cpu);
	free(t->core);
	free(t->llc);
	free(t->pkg);
	free(t->one);
	free(t->all.cpu);
	free(t->cpu_dom);
	free(t->cpu_ndom);
	free(t->cpu_dom_from);
	free(t->shared);
	free(t->core_mark);
	free(t->capacity);
	free(t->asym_prio);
	free(t->rd);
	free(t->pkg_newidle_failed);
	memset(t, 0, sizeof(*t));
}
