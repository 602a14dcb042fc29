// SPDX-License-Identifier: GPL-2.0-only
/* amd-pstate's guided mode. See cppc_guided.h. */
#include "cppc_guided.h"

#include <stdlib.h>

int cppc_guided_init(struct cppc_guided *g, struct cpufreq_policy *p, struct pm_diag *d)
{
	/* What the governor asked for last is policy->cur (amd_pstate_update()
	 * sets it from des_perf); until it asks, the frequency it found. */
	g->floor = p->cur;
	g->ncpus = p->ncpus;
	g->want = calloc((size_t)p->ncpus, sizeof(*g->want));
	g->hw = calloc((size_t)p->ncpus, sizeof(*g->hw));
	if (!g->want || !g->hw) {
		cppc_guided_fini(g);
		return pm_fail(d, "out of memory");
	}
	for (int j = 0; j < p->ncpus; j++)
		hw_auto_start(&g->hw[j], p, p->cpus[j]);
	return 0;
}

void cppc_guided_fini(struct cppc_guided *g)
{
	free(g->want);
	free(g->hw);
	g->want = NULL;
	g->hw = NULL;
}

static uint32_t choice(const struct cppc_guided *g, const struct cpufreq_policy *p)
{
	uint32_t lo = g->floor > p->min ? g->floor : p->min;
	uint32_t hi = p->max > lo ? p->max : lo, khz = lo;
	for (int j = 0; j < g->ncpus; j++) {
		uint32_t w = g->want[j] > hi ? hi : g->want[j];
		if (w > khz)
			khz = w;
	}
	return khz;
}

uint32_t cppc_guided_request(struct cppc_guided *g, const struct cpufreq_policy *p, uint32_t khz)
{
	g->floor = khz;
	return choice(g, p);
}

uint32_t cppc_guided_evaluate(struct cppc_guided *g, struct cpufreq_policy *p, int cpu,
			      sim_ns now)
{
	int j = cpufreq_policy_cpu_index(p, cpu);
	if (j < 0)
		return 0;
	uint64_t khz = hw_auto_evaluate(&g->hw[j], p, cpu, now, 0);
	if (!khz)
		return 0;
	g->want[j] = khz > UINT32_MAX ? UINT32_MAX : (uint32_t)khz;
	return choice(g, p);
}
