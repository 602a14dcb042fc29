// SPDX-License-Identifier: GPL-2.0-only
/* haltpoll: the KVM guest governor (drivers/cpuidle/governors/haltpoll.c),
 * made for the cpuidle-haltpoll driver's two states: 0 = POLL, 1 = halt.
 * A guest polls for a while before halting, because a halt costs a VM
 * exit and its wakeup an IPI. The poll window adapts per CPU: it grows
 * (x guest_halt_poll_grow, at least guest_halt_poll_grow_start, at most
 * guest_halt_poll_ns) when a halt ended soon enough that polling would
 * have caught the wakeup, and shrinks (/ guest_halt_poll_shrink) after a
 * halt longer than guest_halt_poll_ns. The window is dev->poll_limit_ns,
 * which bounds the polling state (cpuidle_poll_time()).
 *
 * Follows v6.9+ (u64 block time since v5.8; a window shrunk below
 * grow_start drops to 0, i.e. halt at once, since v6.9 as
 * docs/sources.md 4.2 states it). The tunables are the module
 * parameters with their defaults; their ranges are narrower than the
 * kernel's unsigned int so that no arithmetic can wrap. On a table with
 * fewer than two states, state 0 is used. */
#include "governors.h"

static const struct tunable haltpoll_tunables[] = {
	{ .name = "guest_halt_poll_ns",
	  .help = "longest poll window, ns",
	  .offset = TUNABLE_FIELD(struct haltpoll_data, guest_halt_poll_ns),
	  .def = 200000, .min = 0, .max = 4294967295 },
	{ .name = "guest_halt_poll_shrink",
	  .help = "divisor applied to the window after a long halt (0: reset to 0)",
	  .offset = TUNABLE_FIELD(struct haltpoll_data, guest_halt_poll_shrink),
	  .def = 2, .min = 0, .max = 1000 },
	{ .name = "guest_halt_poll_grow",
	  .help = "factor applied to the window after a short halt",
	  .offset = TUNABLE_FIELD(struct haltpoll_data, guest_halt_poll_grow),
	  .def = 2, .min = 0, .max = 1000 },
	{ .name = "guest_halt_poll_grow_start",
	  .help = "smallest nonzero window, ns",
	  .offset = TUNABLE_FIELD(struct haltpoll_data, guest_halt_poll_grow_start),
	  .def = 50000, .min = 0, .max = 4294967295 },
	{ .name = "guest_halt_poll_allow_shrink",
	  .help = "1: shrink the window after long halts; 0: never",
	  .offset = TUNABLE_FIELD(struct haltpoll_data, guest_halt_poll_allow_shrink),
	  .def = 1, .min = 0, .max = 1 },
};

static int haltpoll_init(struct cpuidle_device *dev, struct pm_diag *d)
{
	struct haltpoll_data *h = dev->gov_data;
	h->last_state = 0; /* the kernel's zeroed device */
	dev->poll_limit_ns = 0;
	return 0;
}

static int haltpoll_select(struct cpuidle_device *dev, sim_ns latency_req, bool *stop_tick)
{
	struct haltpoll_data *h = dev->gov_data;

	if (dev->nstates < 2 || latency_req == 0) {
		*stop_tick = false;
		return 0;
	}
	if (dev->poll_limit_ns == 0)
		return 1; /* no window: halt, the tick may stop */
	if (h->last_state == 0) {
		/* Nothing came during the last poll window: halt. */
		if (dev->poll_time_limit)
			return 1;
		*stop_tick = false;
		return 0; /* the poll was cut short by a wakeup: poll again */
	}
	*stop_tick = false;
	return 0; /* after a halt, poll first */
}

/* adjust_poll_limit(): block_ns is how long the halt lasted. */
static void haltpoll_adjust(struct cpuidle_device *dev, const struct haltpoll_data *h,
			    sim_ns block_ns)
{
	sim_ns val;

	if (block_ns > dev->poll_limit_ns && block_ns <= h->guest_halt_poll_ns) {
		/* Polling a little longer would have caught this wakeup. */
		val = dev->poll_limit_ns * h->guest_halt_poll_grow;
		if (val < h->guest_halt_poll_grow_start)
			val = h->guest_halt_poll_grow_start;
		if (val > h->guest_halt_poll_ns)
			val = h->guest_halt_poll_ns;
		dev->poll_limit_ns = val;
	} else if (block_ns > h->guest_halt_poll_ns && h->guest_halt_poll_allow_shrink) {
		/* Too long to poll for: spin less next time. */
		val = h->guest_halt_poll_shrink ? dev->poll_limit_ns / h->guest_halt_poll_shrink : 0;
		if (val < h->guest_halt_poll_grow_start)
			val = 0;
		dev->poll_limit_ns = val;
	}
}

static void haltpoll_reflect(struct cpuidle_device *dev, int state)
{
	struct haltpoll_data *h = dev->gov_data;
	h->last_state = state;
	if (state != 0)
		haltpoll_adjust(dev, h, dev->last_residency_ns);
}

const struct cpuidle_governor cpuidle_haltpoll = {
	.since = 5004,
	.name = "haltpoll",
	.summary = "KVM guest: poll for an adaptive window, then halt (state 1)",
	.tunables = haltpoll_tunables,
	.ntunables = (int)(sizeof(haltpoll_tunables) / sizeof(haltpoll_tunables[0])),
	.data_size = sizeof(struct haltpoll_data),
	.init = haltpoll_init,
	.select = haltpoll_select,
	.reflect = haltpoll_reflect,
};
