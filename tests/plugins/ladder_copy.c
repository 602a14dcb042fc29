// SPDX-License-Identifier: GPL-2.0-only
/* src/cpuidle/ladder.c rewritten against pmlab/plugin.h, rule for rule:
 * the plugin seam's test (tests/plugins/plugin_cli.sh) runs it beside the
 * built-in ladder and expects byte-identical results. */
#include <pmlab/plugin.h>

#define MAX_STATES 16

struct rung {
	uint32_t promotion_count, demotion_count;
	int64_t promotion_time_ns, demotion_time_ns;
	uint32_t promotions, demotions;
};

struct ladder {
	int last, first;
	struct rung st[MAX_STATES];
};

enum { PROMOTION_COUNT, DEMOTION_COUNT, VARIANT };

static const struct pmlab_tunable tunables[] = {
	{ .name = "ladder_promotion_count", .def = 4, .min = 1, .max = 1000000,
	  .help = "consecutive long idle periods before one state deeper" },
	{ .name = "ladder_demotion_count", .def = 1, .min = 1, .max = 1000000,
	  .help = "consecutive short idle periods before one state shallower" },
	{ .name = "ladder_variant", .def = 0, .min = 0, .max = 1,
	  .help = "0: mainline (unsigned comparison), 1: signed (the 2022 RFC)" },
};

static int ladder_init(struct pmlab_idle_device *dev, char *err, size_t errlen)
{
	struct ladder *l = dev->data;

	(void)err, (void)errlen;
	l->first = dev->nstates > 1 && dev->states[0].polling ? 1 : 0;
	l->last = l->first;
	for (int i = l->first; i < dev->nstates; i++) {
		struct rung *s = &l->st[i];
		s->promotion_count = (uint32_t)dev->tunables[PROMOTION_COUNT];
		s->demotion_count = (uint32_t)dev->tunables[DEMOTION_COUNT];
		if (i < dev->nstates - 1)
			s->promotion_time_ns = dev->states[i].exit_latency_ns;
		if (i > l->first)
			s->demotion_time_ns = dev->states[i].exit_latency_ns;
	}
	return 0;
}

static int ladder_move(struct ladder *l, int to)
{
	l->st[l->last].promotions = 0;
	l->st[l->last].demotions = 0;
	l->last = to;
	return to;
}

static bool exceeds(const struct pmlab_idle_device *dev, int64_t r, int64_t t)
{
	return dev->tunables[VARIANT] ? r > t : (uint64_t)r > (uint64_t)t;
}

static bool short_of(const struct pmlab_idle_device *dev, int64_t r, int64_t t)
{
	return dev->tunables[VARIANT] ? r < t : (uint64_t)r < (uint64_t)t;
}

static int ladder_select(struct pmlab_idle_device *dev, int64_t latency_req, bool *stop_tick)
{
	struct ladder *l = dev->data;
	const struct pmlab_idle_state *s = dev->states;
	int last = l->last;

	(void)stop_tick; /* ladder leaves the tick to the idle loop */
	struct rung *ls = &l->st[last];

	if (latency_req == 0)
		return ladder_move(l, 0);
	int64_t residency = dev->last_residency_ns - s[last].exit_latency_ns;
	if (last < dev->nstates - 1 && !dev->disabled[last + 1] &&
	    exceeds(dev, residency, ls->promotion_time_ns) &&
	    s[last + 1].exit_latency_ns <= latency_req) {
		ls->promotions++;
		ls->demotions = 0;
		if (ls->promotions >= ls->promotion_count)
			return ladder_move(l, last + 1);
	}
	if (last > l->first && (dev->disabled[last] || s[last].exit_latency_ns > latency_req)) {
		int i;
		for (i = last - 1; i > l->first; i--)
			if (s[i].exit_latency_ns <= latency_req)
				break;
		return ladder_move(l, i);
	}
	if (last > l->first && short_of(dev, residency, ls->demotion_time_ns)) {
		ls->demotions++;
		ls->promotions = 0;
		if (ls->demotions >= ls->demotion_count)
			return ladder_move(l, last - 1);
	}
	return last;
}

static void ladder_reflect(struct pmlab_idle_device *dev, int state)
{
	struct ladder *l = dev->data;
	if (state > 0)
		l->last = state;
}

static const struct pmlab_idle_governor ladder_copy = {
	.name = "ladder_copy",
	.summary = "the built-in ladder, as a plugin",
	.tunables = tunables,
	.ntunables = 3,
	.data_size = sizeof(struct ladder),
	.init = ladder_init,
	.select = ladder_select,
	.reflect = ladder_reflect,
};

PMLAB_PLUGIN_EXPORT const struct pmlab_plugin pmlab_plugin = {
	.abi = PMLAB_PLUGIN_ABI,
	.idle = &ladder_copy,
};
