// SPDX-License-Identifier: GPL-2.0-only
/* teo: the Timer Events Oriented governor (drivers/cpuidle/governors/teo.c).
 *
 * Follows Linux v6.18.y: the 2025 design (no utilization awareness, no
 * "recent intercepts" ring; short_idles, tick_intercepts and
 * artificial_wakeup), with the stable fix of the tick_intercepts condition
 * (Nov 2025: count intercepts at or below one tick, the merged code had
 * the comparison reversed). The v6.19 rework (metrics decaying to zero,
 * tick wakeups counted as hits on the deepest state, the target residency
 * check after the sleep-length query dropped) and the v7.0 refinements
 * are not modelled. Older teo (v5.16..v6.14: the timer queried first,
 * NR_RECENT, util awareness) is described in docs/sources.md 4.1.
 *
 * Bins: bin i holds idle durations in [residency(i), residency(i+1)).
 * After each wakeup the bin of the time to the next timer ("sleep
 * length") and the bin of the measured idle are compared: the same bin is
 * a "hit" (the timer woke the CPU), a shallower one an "intercept" (some
 * other wakeup came first). All metrics decay by 1/8 per wakeup.
 * Selection starts from the deepest enabled state and moves shallower
 * when intercepts below it outweigh everything else; the timer is then
 * checked, and the tick kept unless the expected idle is a tick or more.
 *
 * No tunables: the kernel has none. teo_enable_device() zeroes the
 * per-CPU data (sleep length 0) and the device's last state index is 0,
 * so the very first selection learns from a fictitious zero-length wakeup
 * in state 0: a short idle and a hit in bin 0. Since the counters decay
 * by v >> 3, which stops at 7, that hit never wears off entirely. This
 * model does the same (teo_init()). */
#include "governors.h"

#define PULSE TEO_PULSE
#define DECAY_SHIFT TEO_DECAY_SHIFT
#define LATENCY_THRESHOLD_NS (CPUIDLE_RESIDENCY_THRESHOLD_NS / 2)
#define KTIME_MAX INT64_MAX

static uint32_t decayed(uint32_t v)
{
	return v - (v >> DECAY_SHIFT);
}

/* teo_update(): classify the last wakeup as a hit or an intercept. */
static void teo_update(struct cpuidle_device *dev, struct teo_data *t)
{
	int idx_timer = 0, idx_duration = 0;
	sim_ns measured;

	t->short_idles = decayed(t->short_idles);
	if (t->artificial_wakeup) {
		measured = SIM_NS_MAX; /* might have been a long sleep */
	} else {
		sim_ns lat = dev->states[dev->last_state].exit_ns;
		measured = dev->last_residency_ns;
		/* The wakeup delay is rarely the worst case: take half the
		 * exit latency as its average. */
		if (measured >= lat) {
			measured -= lat / 2;
			if (measured < CPUIDLE_RESIDENCY_THRESHOLD_NS)
				t->short_idles += PULSE;
		} else {
			measured /= 2;
			t->short_idles += PULSE;
		}
	}

	for (int i = 0; i < dev->nstates; i++) {
		struct teo_bin *b = &t->bins[i];
		b->hits = decayed(b->hits);
		b->intercepts = decayed(b->intercepts);
		sim_ns r = dev->states[i].residency_ns;
		if (r <= t->sleep_length_ns) {
			idx_timer = i;
			if (r <= measured)
				idx_duration = i;
		}
	}

	t->tick_intercepts = decayed(t->tick_intercepts);
	if (idx_timer == idx_duration) {
		t->bins[idx_timer].hits += PULSE;
	} else {
		t->bins[idx_duration].intercepts += PULSE;
		if (measured <= dev->tick_period_ns)
			t->tick_intercepts += PULSE;
	}
	t->total = decayed(t->total) + PULSE;
}

/* With the tick stopped, a state shorter than a tick risks a long stay. */
static bool teo_state_ok(const struct cpuidle_device *dev, int i)
{
	return !dev->tick_stopped || dev->states[i].residency_ns >= dev->tick_period_ns;
}

/* Deepest enabled state below idx whose residency fits duration_ns, else
 * the shallowest enabled one below idx (idx itself if there is none). */
static int teo_find_shallower_state(const struct cpuidle_device *dev, int idx,
				    sim_ns duration_ns)
{
	for (int i = idx - 1; i >= 0; i--) {
		if (!cpuidle_state_enabled(dev, i))
			continue;
		idx = i;
		if (dev->states[i].residency_ns <= duration_ns)
			break;
	}
	return idx;
}

static int teo_init(struct cpuidle_device *dev, struct pm_diag *d)
{
	struct teo_data *t = dev->gov_data;
	/* As the kernel's memset(): sleep length 0, and a wakeup to learn
	 * from (dev->last_state_idx starts at 0, not -1). */
	*t = (struct teo_data){ .sleep_length_ns = 0, .pending = true };
	return 0;
}

static int teo_select(struct cpuidle_device *dev, sim_ns latency_req, bool *stop_tick)
{
	struct teo_data *t = dev->gov_data;
	const struct cstate *s = dev->states;
	const sim_ns tick = dev->tick_period_ns;
	sim_ns delta_tick = tick / 2, duration_ns;
	uint32_t idx_intercept_sum = 0, intercept_sum = 0, idx_hit_sum = 0, hit_sum = 0;
	int constraint_idx = 0, idx0 = 0, idx = -1;

	if (t->pending) {
		teo_update(dev, t);
		t->pending = false;
	}

	/* Unknown until queried below; a wakeup after an unqueried selection
	 * counts as an intercept unless it lands in the deepest bin. */
	t->sleep_length_ns = KTIME_MAX;

	if (dev->nstates < 2) {
		idx = 0;
		goto out_tick;
	}
	if (cpuidle_state_enabled(dev, 0))
		idx = 0;

	/* Candidate: the deepest enabled state, with the sums of the metrics
	 * of all bins shallower than it. */
	for (int i = 1; i < dev->nstates; i++) {
		intercept_sum += t->bins[i - 1].intercepts;
		hit_sum += t->bins[i - 1].hits;
		if (!cpuidle_state_enabled(dev, i))
			continue;
		if (idx < 0)
			idx0 = i; /* first enabled state */
		idx = i;
		if (s[i].exit_ns <= latency_req)
			constraint_idx = i;
		idx_intercept_sum = intercept_sum;
		idx_hit_sum = hit_sum;
	}
	if (idx < 0) {
		idx = 0; /* nothing enabled: state 0 regardless */
		goto out_tick;
	}
	if (idx == idx0) {
		/* One enabled state: use it; keep the tick if it is shallow. */
		duration_ns = s[idx].residency_ns;
		goto end;
	}

	/* Early wakeups below the candidate outnumber everything at or above
	 * it: look for the deepest state whose residency the idle duration
	 * exceeded in more than half of those cases. */
	if (2 * idx_intercept_sum > t->total - idx_hit_sum) {
		int first_suitable_idx = idx;

		intercept_sum = 0;
		for (int i = idx - 1; i >= 0; i--) {
			intercept_sum += t->bins[i].intercepts;
			if (2 * intercept_sum > idx_intercept_sum) {
				/* This one, unless too shallow for a stopped tick
				 * or disabled: then the last suitable one. */
				if (teo_state_ok(dev, i) && cpuidle_state_enabled(dev, i))
					idx = i;
				else
					idx = first_suitable_idx;
				break;
			}
			if (!cpuidle_state_enabled(dev, i))
				continue;
			if (teo_state_ok(dev, i)) {
				first_suitable_idx = i;
				continue;
			}
			/* Too shallow, and so are the rest. */
			if (first_suitable_idx == idx)
				break;
		}
	}

	if (idx > constraint_idx)
		idx = constraint_idx;

	/* Shallow anyway, and short idles dominate (timers that close are
	 * rare) or the latency limit forces it: don't query the timer. */
	if ((!idx || s[idx].residency_ns < CPUIDLE_RESIDENCY_THRESHOLD_NS) &&
	    (2 * t->short_idles >= t->total || latency_req < LATENCY_THRESHOLD_NS))
		goto out_tick;

	duration_ns = dev->next_timer_no_tick_ns;
	delta_tick = dev->next_timer_ns;
	t->sleep_length_ns = duration_ns;
	if (!idx)
		goto out_tick;

	/* The timer comes before the candidate would pay off. */
	if (s[idx].residency_ns > duration_ns) {
		int i = teo_find_shallower_state(dev, idx, duration_ns);
		if (teo_state_ok(dev, i))
			idx = i;
	}

	/* Most early wakeups come within a tick: keep it. */
	if (s[idx].residency_ns < tick && t->tick_intercepts > t->total / 2 + t->total / 8)
		duration_ns = tick / 2;

end:
	if ((!s[idx].poll && duration_ns >= tick) || dev->tick_stopped)
		return idx;
	/* The tick stays: the state must pay off before it. */
	if (idx > idx0 && s[idx].residency_ns > delta_tick)
		idx = teo_find_shallower_state(dev, idx, delta_tick);
out_tick:
	*stop_tick = false;
	return idx;
}

static void teo_reflect(struct cpuidle_device *dev, int state)
{
	struct teo_data *t = dev->gov_data;
	t->pending = true;
	/* Woken by a safety net, not by what the CPU was waiting for: the
	 * poll time limit, or a tick although no timer was due within one. */
	t->artificial_wakeup = dev->poll_time_limit ||
			       (dev->tick_wakeup && t->sleep_length_ns > dev->tick_period_ns);
	dev->poll_time_limit = false;
}

const struct cpuidle_governor cpuidle_teo = {
	.since = 5001,
	.name = "teo",
	.summary = "timer events oriented: learns hits and intercepts per state bin (v6.18)",
	.data_size = sizeof(struct teo_data),
	.init = teo_init,
	.select = teo_select,
	.reflect = teo_reflect,
};
