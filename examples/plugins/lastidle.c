// SPDX-License-Identifier: GPL-2.0-only
/* lastidle: a minimal idle governor for pmlab.
 *
 * It predicts the coming idle period as the smaller of the time to the
 * next timer and a running average of the idle periods measured so far,
 * then picks the deepest enabled state whose target residency fits the
 * prediction and whose exit latency fits the PM QoS limit. When the
 * prediction is shorter than a tick, it keeps the tick running, as menu
 * and teo do.
 *
 * Build:  cc -shared -fPIC -O2 -Iinclude examples/plugins/lastidle.c -o lastidle.so
 * Use:    pmlab sim --plugin ./lastidle.so --cpuidle lastidle --machine i7-4790 \
 *             --workload pingpong --set lastidle_weight=4
 */
#include <pmlab/plugin.h>

/* Per CPU: the running average, in ns (0 before the first idle period). */
struct lastidle {
	int64_t avg_ns;
};

/* Designated initializers: a member a later plugin ABI adds is zero. */
static const struct pmlab_tunable tunables[] = {
	{ .name = "lastidle_weight", .def = 2, .min = 1, .max = 8,
	  .help = "weight of the newest idle period in the average, in eighths" },
};

static int lastidle_select(struct pmlab_idle_device *dev, int64_t latency_limit_ns,
			   bool *stop_tick)
{
	struct lastidle *l = dev->data;
	int64_t predicted = dev->next_timer_ns;
	int state = 0;

	if (l->avg_ns > 0 && l->avg_ns < predicted)
		predicted = l->avg_ns;
	for (int i = 1; i < dev->nstates; i++) {
		if (dev->disabled[i] || dev->states[i].exit_latency_ns > latency_limit_ns)
			continue;
		if (dev->states[i].target_residency_ns <= predicted)
			state = i;
	}
	/* State 0 may be disabled too: then the shallowest enabled one. */
	while (dev->disabled[state] && state + 1 < dev->nstates)
		state++;
	if (predicted < dev->tick_period_ns)
		*stop_tick = false;
	return state;
}

/* After each wakeup: fold the measured idle period into the average. */
static void lastidle_reflect(struct pmlab_idle_device *dev, int state)
{
	struct lastidle *l = dev->data;
	int64_t w = dev->tunables[0];

	(void)state; /* the period is what counts, whichever state it was in */
	if (dev->last_residency_ns <= 0)
		return;
	if (l->avg_ns == 0)
		l->avg_ns = dev->last_residency_ns;
	else
		l->avg_ns = (w * dev->last_residency_ns + (8 - w) * l->avg_ns) / 8;
}

static const struct pmlab_idle_governor lastidle = {
	.name = "lastidle",
	.summary = "deepest state that fits min(next timer, average idle period)",
	.tunables = tunables,
	.ntunables = 1,
	.data_size = sizeof(struct lastidle),
	.select = lastidle_select,
	.reflect = lastidle_reflect,
};

PMLAB_PLUGIN_EXPORT const struct pmlab_plugin pmlab_plugin = {
	.abi = PMLAB_PLUGIN_ABI,
	.idle = &lastidle,
};
