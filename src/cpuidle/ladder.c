// SPDX-License-Identifier: GPL-2.0-only
/* ladder: the residency ladder (drivers/cpuidle/governors/ladder.c), the
 * default on periodic-tick kernels. It climbs one state at a time:
 * promotion after `ladder_promotion_count` consecutive idle periods longer
 * (exit latency excluded) than the current state's exit latency, demotion
 * after `ladder_demotion_count` shorter than it. A polling state 0 is
 * only used when the latency limit is 0. It never asks to keep the tick.
 *
 * Follows mainline as of v6.18 (ns-based thresholds since v5.8). Mainline
 * compares the residency, an s64 (an int before v5.8), with u64 (u32
 * before v5.8) thresholds, so the comparison is unsigned: an idle period
 * shorter than the state's exit latency gives a negative residency that
 * wraps to a huge value, which votes for promotion and never demotes. The
 * first selection, with no measurement yet (0 - exit latency), votes too.
 * Under very short idles mainline ladder therefore sinks to deep states.
 * A 2022 RFC made the comparison signed; it was reviewed but not merged:
 * `ladder_variant=signed` models it. The kernel hard-codes the counts
 * (4 and 1); here they are tunables with those defaults. The thresholds
 * are the kernel's: each state's own exit latency (no promotion from the
 * deepest state, no demotion from the first non-polling one). */
#include "governors.h"

static const char *const ladder_variant_words[] = { "mainline", "signed", NULL };

static const struct tunable ladder_tunables[] = {
	{ .name = "ladder_promotion_count",
	  .help = "consecutive long idle periods before moving one state deeper "
	  "(kernel: PROMOTION_COUNT 4)",
	  .offset = TUNABLE_FIELD(struct ladder_data, promotion_count),
	  .def = 4, .min = 1, .max = 1000000 },
	{ .name = "ladder_demotion_count",
	  .help = "consecutive short idle periods before moving one state "
	  "shallower (kernel: DEMOTION_COUNT 1)",
	  .offset = TUNABLE_FIELD(struct ladder_data, demotion_count),
	  .def = 1, .min = 1, .max = 1000000 },
	{ .name = "ladder_variant",
	  .help = "residency comparison: mainline (unsigned: an idle shorter than the exit "
	  "latency votes for promotion, never demotes) or signed (the unmerged 2022 RFC)",
	  .offset = TUNABLE_FIELD(struct ladder_data, variant),
	  .def = LADDER_MAINLINE, .min = 0, .max = 1, .words = ladder_variant_words },
};

static int ladder_init(struct cpuidle_device *dev, struct pm_diag *d)
{
	struct ladder_data *l = dev->gov_data;
	int64_t promo = l->promotion_count, demo = l->demotion_count, variant = l->variant;

	/* States below `first` keep zero thresholds, as the kernel's static
	 * per-CPU data does. */
	*l = (struct ladder_data){ .promotion_count = promo, .demotion_count = demo,
				   .variant = variant };
	l->first = dev->nstates > 1 && dev->states[0].poll ? 1 : 0;
	l->last = l->first;
	for (int i = l->first; i < dev->nstates; i++) {
		struct ladder_state *s = &l->st[i];
		s->promotion_count = (uint32_t)promo;
		s->demotion_count = (uint32_t)demo;
		if (i < dev->nstates - 1)
			s->promotion_time_ns = dev->states[i].exit_ns;
		if (i > l->first)
			s->demotion_time_ns = dev->states[i].exit_ns;
	}
	return 0;
}

/* ladder_do_selection(): votes start afresh in the state we leave. */
static int ladder_move(struct ladder_data *l, int to)
{
	l->st[l->last].promotions = 0;
	l->st[l->last].demotions = 0;
	l->last = to;
	return to;
}

/* residency > threshold (above) or < threshold, as the kernel's s64 vs
 * u64 comparison does it (mainline) or signed (the RFC). */
static bool ladder_exceeds(const struct ladder_data *l, sim_ns residency, sim_ns threshold)
{
	if (l->variant == LADDER_SIGNED)
		return residency > threshold;
	return (uint64_t)residency > (uint64_t)threshold;
}

static bool ladder_short_of(const struct ladder_data *l, sim_ns residency, sim_ns threshold)
{
	if (l->variant == LADDER_SIGNED)
		return residency < threshold;
	return (uint64_t)residency < (uint64_t)threshold;
}

static int ladder_select(struct cpuidle_device *dev, sim_ns latency_req, bool *stop_tick)
{
	struct ladder_data *l = dev->gov_data;
	const struct cstate *s = dev->states;
	int last = l->last;
	struct ladder_state *ls = &l->st[last];

	if (latency_req == 0)
		return ladder_move(l, 0);

	sim_ns residency = dev->last_residency_ns - s[last].exit_ns;

	if (last < dev->nstates - 1 && cpuidle_state_enabled(dev, last + 1) &&
	    ladder_exceeds(l, residency, ls->promotion_time_ns) && s[last + 1].exit_ns <= latency_req) {
		ls->promotions++;
		ls->demotions = 0;
		if (ls->promotions >= ls->promotion_count)
			return ladder_move(l, last + 1);
	}

	/* The current state became unusable: drop to one that fits now. */
	if (last > l->first && (!cpuidle_state_enabled(dev, last) || s[last].exit_ns > latency_req)) {
		int i;
		for (i = last - 1; i > l->first; i--)
			if (s[i].exit_ns <= latency_req)
				break;
		return ladder_move(l, i);
	}

	if (last > l->first && ladder_short_of(l, residency, ls->demotion_time_ns)) {
		ls->demotions++;
		ls->promotions = 0;
		if (ls->demotions >= ls->demotion_count)
			return ladder_move(l, last - 1);
	}
	return last;
}

static void ladder_reflect(struct cpuidle_device *dev, int state)
{
	struct ladder_data *l = dev->gov_data;
	/* A poll forced by the latency limit does not move the ladder. */
	if (state > 0)
		l->last = state;
}

const struct cpuidle_governor cpuidle_ladder = {
	.name = "ladder",
	.summary = "one state deeper after repeated long idles, shallower after a short one",
	.tunables = ladder_tunables,
	.ntunables = (int)(sizeof(ladder_tunables) / sizeof(ladder_tunables[0])),
	.data_size = sizeof(struct ladder_data),
	.init = ladder_init,
	.select = ladder_select,
	.reflect = ladder_reflect,
};
