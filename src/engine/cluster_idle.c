// SPDX-License-Identifier: GPL-2.0-only
/* Cluster power-down under PSCI's platform-coordinated mode, as an Arm
 * device tree with a cluster state in its CPUs' cpu-idle-states has it
 * (hi3660.dtsi's CLUSTER_SLEEP_0/1; drivers/cpuidle/cpuidle-psci.c and
 * dt_idle_states.c, v6.x: the cluster state is one more cpuidle state of
 * every CPU, exit latency = entry + exit latency, target residency =
 * min-residency). Each CPU asks for it as for any state; the firmware
 * powers the core down and takes the cluster's shared logic (L2, snoop
 * control: the machine's cluster_w) down only when the last CPU of the
 * cluster asks for it too. A CPU that leaves the state while its cluster
 * is still up was only powered down as a core: it wakes as from the
 * state before. (Under the OS-initiated mode of cpuidle-psci-domain.c,
 * v5.10+, genpd picks a domain-idle-state for the last CPU instead: the
 * device trees of later SoCs; not modelled.) The cluster is the CPUs'
 * clock domain, one cpufreq policy per cluster as on every big.LITTLE
 * SoC. */
#include "sim_internal.h"

void cluster_idle_init(struct sim *s)
{
	const struct machine *m = s->m;
	s->cluster_cstate = -1;
	for (int i = m->ncstates - 1; i >= 0; i--)
		if (m->cstates[i].cluster)
			s->cluster_cstate = i;
	s->cluster_power = s->cluster_cstate >= 0;
	for (int t = 0; t < s->ntypes; t++)
		s->cluster_power |= s->types[t].t->cluster_w > 0;
}

bool cluster_is_down(const struct sim *s, int policy)
{
	if (s->cluster_cstate < 0)
		return false;
	const struct sim_policy *sp = &s->policies[policy];
	for (int j = 0; j < sp->p.ncpus; j++) {
		const struct sim_cpu *c = &s->cpus[sp->cpus[j]];
		if (c->mode != CPU_IDLE || !c->idle.states[c->cstate].cluster)
			return false;
	}
	return sp->p.ncpus > 0;
}

double cluster_power_w(const struct sim *s, int pkg)
{
	double w = 0;
	for (int i = 0; i < s->npolicies; i++) {
		const struct sim_policy *sp = &s->policies[i];
		if (sp->p.ncpus > 0 && s->cpus[sp->cpus[0]].pkg == pkg && !cluster_is_down(s, i))
			w += s->types[sp->type].t->cluster_w;
	}
	return w;
}

sim_ns cluster_wake_ns(const struct sim *s, const struct sim_cpu *c)
{
	const struct cstate *st = c->idle.states;
	int i = c->cstate;
	if (st[i].cluster && !cluster_is_down(s, c->policy))
		while (i > 0 && st[i].cluster)
			i--;
	return st[i].wake_ns ? st[i].wake_ns : st[i].exit_ns;
}
