// SPDX-License-Identifier: GPL-2.0-only
/* Data shared by a group of tasks (the compile jobs of one build reading
 * the same headers) and last-level caches. Each group keeps, per LLC, an
 * activity count that decays with the machine's share_window_ns; a burst
 * starting under an LLC finds the group's data warm in proportion to that
 * LLC's share of the group's recent activity, and its memory stall is cut
 * by share_stall_cut times that share. Packing a group onto one cache
 * therefore shortens its stalls; spreading it over two halves the gain. */
#include <math.h>
#include <stdlib.h>

#include "sim_internal.h"

uint32_t sim_share_group_new(struct sim *s)
{
	uint32_t g = s->nshare_groups + 1;
	size_t n = (size_t)g * (size_t)s->topo.nllcs;
	double *act = realloc(s->share_act, n * sizeof(*act));
	if (!act) {
		s->oom = true;
		return 0;
	}
	s->share_act = act;
	sim_ns *when = realloc(s->share_when, n * sizeof(*when));
	if (!when) {
		s->oom = true;
		return 0;
	}
	s->share_when = when;
	for (int l = 0; l < s->topo.nllcs; l++) {
		act[(g - 1) * (size_t)s->topo.nllcs + (size_t)l] = 0;
		when[(g - 1) * (size_t)s->topo.nllcs + (size_t)l] = s->now;
	}
	s->nshare_groups = g;
	return g;
}

static double decayed(const struct sim *s, size_t i)
{
	double window = (double)s->m->share_window_ns;
	if (window <= 0)
		return 0;
	return s->share_act[i] * exp(-(double)(s->now - s->share_when[i]) / window);
}

/* The share of the group's recent activity under llc (0..1). */
static double warm_here(struct sim *s, const struct task *t, int llc)
{
	size_t base = (size_t)(t->share_group - 1) * (size_t)s->topo.nllcs;
	double here = 0, total = 0;
	for (int l = 0; l < s->topo.nllcs; l++) {
		double a = decayed(s, base + (size_t)l);
		total += a;
		if (l == llc)
			here = a;
	}
	return total > 0 ? here / total : 0;
}

double share_refill_factor(struct sim *s, const struct task *t, int llc)
{
	if (!t->share_group || t->share_group > s->nshare_groups || s->m->share_stall_cut <= 0)
		return 1.0;
	return 1.0 - s->m->share_stall_cut * warm_here(s, t, llc);
}

double share_stall_factor(struct sim *s, const struct task *t, int llc)
{
	/* The activity is recorded even without a stall cut: coherence
	 * (engine/memory.c) reads where the group runs. */
	if (!t->share_group || t->share_group > s->nshare_groups)
		return 1.0;
	size_t base = (size_t)(t->share_group - 1) * (size_t)s->topo.nllcs;
	double here = 0, total = 0;
	for (int l = 0; l < s->topo.nllcs; l++) {
		double a = decayed(s, base + (size_t)l);
		total += a;
		if (l == llc)
			here = a;
	}
	double warm = total > 0 ? here / total : 0;
	/* This burst is activity of the group here. */
	s->share_act[base + (size_t)llc] = here + 1.0;
	s->share_when[base + (size_t)llc] = s->now;
	return 1.0 - s->m->share_stall_cut * warm;
}

double share_remote_share(struct sim *s, const struct task *t, int pkg)
{
	if (!t->share_group || t->share_group > s->nshare_groups)
		return 0;
	size_t base = (size_t)(t->share_group - 1) * (size_t)s->topo.nllcs;
	double remote = 0, total = 0;
	int per_pkg = s->topo.nllcs / (s->npkgs > 0 ? s->npkgs : 1);
	for (int l = 0; l < s->topo.nllcs; l++) {
		double a = decayed(s, base + (size_t)l);
		total += a;
		if (per_pkg > 0 && l / per_pkg != pkg)
			remote += a;
	}
	return total > 0 ? remote / total : 0;
}
