// SPDX-License-Identifier: GPL-2.0-only
/* The built-in default placement (src/sched/placement_spread.c, CFS's
 * spreading) against pmlab/plugin.h: every decision handed to the kernel's
 * policy through the calls a plugin gets, none short-cut by the adapter.
 * Run beside the built-in spread, byte-identical: the seam adds nothing. */
#include <pmlab/plugin.h>

static int copy_select(struct pmlab_sched *s, const struct pmlab_select *w)
{
	return s->default_cpu(s, w);
}

static bool copy_newidle(struct pmlab_sched *s, int cpu)
{
	return s->default_newidle(s, cpu);
}

static void copy_tick(struct pmlab_sched *s, int cpu)
{
	s->default_tick(s, cpu);
}

static const struct pmlab_placement spread_copy = {
	.name = "spread_copy",
	.summary = "the built-in spread, as a plugin",
	.select_cpu = copy_select,
	.newidle_balance = copy_newidle,
	.tick_balance = copy_tick,
};

PMLAB_PLUGIN_EXPORT const struct pmlab_plugin pmlab_plugin = {
	.abi = PMLAB_PLUGIN_ABI,
	.placement = &spread_copy,
};
