// SPDX-License-Identifier: GPL-2.0-only
/* schedutil: kernel/sched/cpufreq_schedutil.c as of v6.19 (the v6.8 rework
 * of headroom and uclamp, v6.15 limits handling), with the scheduler's
 * effective_cpu_util() for a CPU that runs only CFS tasks (no RT, DL or
 * IRQ utilization in the simulator).
 *
 * At every hook call that passes rate_limit_us it maps the CPU's
 * utilization to a frequency: util + 25 % headroom, clamped to the
 * runqueue's uclamp range, times the reference frequency over capacity,
 * then the lowest table entry at or above that. The reference is the
 * hardware maximum when the driver's utilization is frequency-invariant
 * (policy->freq_invariant: x86 with APERF/MPERF since v5.7, arm64 with
 * AMU); without invariance util is running time relative to the current
 * frequency and the reference is 1.25 x cur (get_capacity_ref_freq(), the
 * January 2024 fix e37617c8e53a), so the headroom counts twice below
 * saturation. A single-CPU policy keeps its frequency while the CPU has
 * not idled since the previous evaluation; a shared one takes the maximum
 * over its CPUs. Tasks waking from I/O boost the utilization 128, 256,
 * 512, 1024 on consecutive wakeups within a tick, halving when no new one
 * comes.
 *
 * variant=4.7 (kernels 4.7 to 6.7, `--set kernel=X.Y` picks it): the 25 %
 * headroom applied once, to the reference frequency, after uclamp:
 * f = 1.25 x ref x clamp(util) / capacity with ref = cpuinfo max when
 * invariant, else cur (map_util_freq() before 9c0b4bb7f630, "sched/cpufreq:
 * Rework schedutil governor performance estimation", v6.8). The default
 * rate_limit_us of each kernel comes from the cpufreq core's rules of that
 * kernel (cpufreq_policy_transition_delay_us()).
 *
 * CPUFREQ_UPDATE_FORCE follows "sched: Consolidate cpufreq updates" (Qais
 * Yousef, v7, not merged): such a call ignores the rate limit and does not
 * restart it. */
#include <stdbool.h>
#include <stdlib.h>

#include "cpufreq.h"
#include "hookcost.h"

#define SCHED_CAPACITY_SCALE 1024
#define IOWAIT_BOOST_MIN (SCHED_CAPACITY_SCALE / 8)

struct sugov_cpu {
	unsigned int iowait_boost;  /* 0 or IOWAIT_BOOST_MIN..SCHED_CAPACITY_SCALE */
	bool iowait_boost_pending;  /* a boost request not yet used */
	sim_ns last_update;
	unsigned long util;         /* with headroom and clamps */
	uint64_t saved_idle_calls;
	/* util holds, without boost, while the driver's dirty bit for the CPU
	 * is clear (see sugov_shared_util()); capacity, once known (it is
	 * fixed). */
	bool util_cached;
	unsigned long capacity;
};

enum sugov_variant { SUGOV_CURRENT, SUGOV_V4_7 };

static const char *const sugov_variant_words[] = { "current", "4.7", NULL };

struct sugov_data {
	int64_t rate_limit_us;      /* -1: cpufreq_policy_transition_delay_us() */
	int64_t variant;
	sim_ns freq_update_delay_ns;
	sim_ns last_freq_update_time;
	uint32_t next_freq, cached_raw_freq;
	bool limits_changed, need_freq_update;
	struct sugov_cpu *cpus;
	/* Whether every CPU's util is known for a report the driver marks
	 * (util_dirty) and no CPU may carry an I/O boost (sugov_shared_util()). */
	bool all_cached, any_boost;
	/* The largest of those utils and how many CPUs have it, while
	 * max_known: kept as CPUs are read again, found anew only when the
	 * last CPU that held it went down (sugov_check() verifies both). */
	bool max_known;
	unsigned long max_util;
	int max_count;
	/* A CPU whose util is max_util while max_known (most often: checked
	 * where it is used). */
	int anchor;
	/* The raw targets get_next_freq() resolves to span_freq under the
	 * limits now, [span_lo, span_hi] (cpufreq_resolve_low_span(): the
	 * table entry's whole span), while span_known: found again when a
	 * target leaves it, dropped with new limits. Only the shared path
	 * keeps it, and each evaluation there makes span_freq next_freq
	 * (sugov_check() verifies both and resolves the ends). */
	bool span_known;
	uint32_t span_freq, span_lo, span_hi;
	/* The band of utils whose targets lie in the span (sugov_quiet_band()),
	 * while band_known: found again with a new span, and after a frequency
	 * change or new limits (the reference may be cur). */
	bool band_known, band_ok;
	uint32_t band_lo, band_hi;
};

static const struct tunable sugov_tunables[] = {
	{ "rate_limit_us", "minimum us between frequency changes (-1: the driver's transition "
	  "delay, else 1.5 x transition latency, else 1000)",
	  TUNABLE_FIELD(struct sugov_data, rate_limit_us), -1, -1, UINT32_MAX, NULL },
	{ "variant", "frequency rule: current (v6.8+: headroom on util, then uclamp; without "
	  "invariance the reference is 1.25 x cur) or 4.7 (kernels 4.7-6.7: uclamp, then 1.25 x "
	  "the reference, max or cur)", TUNABLE_FIELD(struct sugov_data, variant), SUGOV_CURRENT,
	  0, 1, sugov_variant_words },
};

/* sugov_should_update_freq(): the local CPU may always update here. */
static bool sugov_should_update(struct sugov_data *sg, sim_ns time, unsigned flags)
{
	if (sg->limits_changed) {
		sg->limits_changed = false;
		sg->need_freq_update = true;
		return true;
	}
	if (sg->need_freq_update || (flags & CPUFREQ_UPDATE_FORCE))
		return true;
	return time - sg->last_freq_update_time >= sg->freq_update_delay_ns;
}

/* The driver may no longer leave calls out (cpufreq_policy's
 * util_quiet_from): a path other than the common one runs, or the target,
 * the frequency or the limits move. The CPUs whose calls it left out are
 * read again as marked ones. */
static void sugov_quiet_off(struct cpufreq_policy *p)
{
	p->util_quiet_from = SIM_NS_MAX;
	if (!p->util_stale)
		return;
	for (int w = 0; w * 64 < p->ncpus; w++) {
		p->util_dirty[w] |= p->util_stale[w];
		p->util_stale[w] = 0;
	}
}

/* sugov_update_next_freq(): the rate limit restarts only on a change. */
static bool sugov_update_next_freq(struct sugov_data *sg, sim_ns time, uint32_t next_freq,
				   unsigned flags)
{
	if (sg->need_freq_update)
		sg->need_freq_update = false; /* no driver here asks for same-frequency updates */
	if (sg->next_freq == next_freq)
		return false;
	sg->next_freq = next_freq;
	if (!(flags & CPUFREQ_UPDATE_FORCE))
		sg->last_freq_update_time = time;
	return true;
}

/* sugov_iowait_reset(): a CPU that made no hook call for over a tick was idle. */
static bool sugov_iowait_reset(const struct cpufreq_policy *p, struct sugov_cpu *c, sim_ns time,
			       bool set_iowait_boost)
{
	if (time - c->last_update <= p->tick_ns)
		return false;
	c->iowait_boost = set_iowait_boost ? IOWAIT_BOOST_MIN : 0;
	c->iowait_boost_pending = set_iowait_boost;
	return true;
}

/* sugov_iowait_boost(): on every hook call, before the rate limit. */
static void sugov_iowait_boost(const struct cpufreq_policy *p, struct sugov_cpu *c, sim_ns time,
			       unsigned flags)
{
	bool set_iowait_boost = flags & CPUFREQ_UPDATE_IOWAIT;
	if (c->iowait_boost && sugov_iowait_reset(p, c, time, set_iowait_boost))
		return;
	if (!set_iowait_boost)
		return;
	/* Double once per request, however many wakeups come before it is used. */
	if (c->iowait_boost_pending)
		return;
	c->iowait_boost_pending = true;
	if (c->iowait_boost) {
		c->iowait_boost = c->iowait_boost << 1 > SCHED_CAPACITY_SCALE
					  ? SCHED_CAPACITY_SCALE : c->iowait_boost << 1;
		return;
	}
	c->iowait_boost = IOWAIT_BOOST_MIN;
}

/* sugov_iowait_apply(): when a frequency is computed; halves the boost if
 * no new I/O wakeup came since it was last used. */
static unsigned long sugov_iowait_apply(const struct cpufreq_policy *p, struct sugov_cpu *c,
					sim_ns time, unsigned long max_cap)
{
	if (!c->iowait_boost)
		return 0;
	if (sugov_iowait_reset(p, c, time, false))
		return 0;
	if (!c->iowait_boost_pending) {
		c->iowait_boost >>= 1;
		if (c->iowait_boost < IOWAIT_BOOST_MIN) {
			c->iowait_boost = 0;
			return 0;
		}
	}
	c->iowait_boost_pending = false;
	return (c->iowait_boost * max_cap) >> 10;
}

/* cpu_util()'s `util` from the scheduler's signals in place. */
static inline unsigned long sugov_src_util(const struct cpu_util_src *src)
{
	uint32_t util = *src->util_avg > *src->util_est ? *src->util_avg : *src->util_est;
	return util < src->capacity ? util : src->capacity;
}

/* The policy's CPU k's report: in place where the driver offers the
 * scheduler's signals (p->util_src), as cpu_util() would give it. */
static inline void sugov_read_util(const struct cpufreq_policy *p, int k, struct cpu_util *u)
{
	if (p->util_src) {
		u->util = sugov_src_util(&p->util_src[k]);
		u->capacity = p->util_src[k].capacity;
		u->uclamp_min = 0;
		u->uclamp_max = SCHED_CAPACITY_SCALE;
		return;
	}
	p->driver->cpu_util(p->driver_ctx, p->cpus[k], u);
}

/* sugov_get_util(): effective_cpu_util() for CFS alone, the boost, then
 * sugov_effective_cpu_perf(): 25 % headroom, capped by uclamp_max and the
 * capacity, at least uclamp_min. The 4.7 variant clamps without headroom
 * (it goes on the reference frequency). */
static inline unsigned long sugov_perf(const struct sugov_data *sg, unsigned long util,
				       unsigned long scale, unsigned long min,
				       unsigned long uclamp_max, unsigned long boost)
{
	unsigned long max = uclamp_max < scale ? uclamp_max : scale;
	if (util > scale)
		util = scale;
	if (util < boost)
		util = boost;
	unsigned long actual = sg->variant == SUGOV_V4_7 ? util : util + (util >> 2);
	if (actual < max)
		max = actual;
	return min > max ? min : max;
}

static void sugov_get_util(const struct sugov_data *sg, struct sugov_cpu *c,
			   const struct cpu_util *u, unsigned long boost)
{
	c->util = sugov_perf(sg, u->util, u->capacity, u->uclamp_min, u->uclamp_max, boost);
}

/* get_capacity_ref_freq() and get_next_freq()'s target: ref x util /
 * capacity. The reference: cpuinfo max with invariance, else 1.25 x cur
 * (current); 1.25 x (max or cur) with the 4.7 variant's headroom. */
static inline uint32_t sugov_raw_freq(const struct cpufreq_policy *p, const struct sugov_data *sg,
				      unsigned long util, unsigned long max_cap)
{
	uint64_t ref = p->freq_invariant ? p->cpuinfo_max : p->cur;
	if (sg->variant == SUGOV_V4_7 || !p->freq_invariant)
		ref += ref >> 2;
	return (uint32_t)(ref * util / max_cap);
}

/* cpufreq_resolve(p, freq, RELATION_LE) (E changes nothing here), from
 * the span kept: resolved again only when freq leaves it. */
static uint32_t sugov_span_freq(struct cpufreq_policy *p, struct sugov_data *sg, uint32_t freq)
{
	if (!sg->span_known || freq < sg->span_lo || freq > sg->span_hi) {
		sg->span_freq = cpufreq_resolve_low_span(p, freq, &sg->span_lo, &sg->span_hi);
		sg->span_known = true;
		sg->band_known = false;
	}
	return sg->span_freq;
}

/* get_next_freq(): the lowest table entry at or above the target,
 * resolved again only when the target changes. */
static uint32_t sugov_next_freq(struct cpufreq_policy *p, struct sugov_data *sg,
				unsigned long util, unsigned long max_cap)
{
	uint32_t freq = sugov_raw_freq(p, sg, util, max_cap);
	if (freq == sg->cached_raw_freq && !sg->need_freq_update)
		return sg->next_freq;
	sg->cached_raw_freq = freq;
	return cpufreq_resolve(p, freq, RELATION_LE);
}

/* sugov_hold_freq(): true while the CPU has not entered idle since the
 * previous evaluation, unless uclamp_max caps it (then it must comply). */
static bool sugov_hold_freq(struct cpufreq_policy *p, struct sugov_cpu *c, int cpu,
			    const struct cpu_util *u)
{
	if (u->uclamp_max < SCHED_CAPACITY_SCALE && u->util >= u->uclamp_max)
		return false;
	struct cpu_times t;
	p->driver->cpu_times(p->driver_ctx, cpu, &t);
	bool busy = t.idle_calls == c->saved_idle_calls;
	c->saved_idle_calls = t.idle_calls;
	return busy;
}

static void sugov_commit(struct cpufreq_policy *p, uint32_t freq)
{
	/* The slow path's __cpufreq_driver_target(next_freq, L); freq is an entry.
	 * Its cost is the fast switch's (cpufreq_driver_fast_switch(), which
	 * acpi-cpufreq and intel_cpufreq offer): one P-state MSR write. */
	cpufreq_hook_spend(p, CPUFREQ_CYCLES_FAST_SWITCH + CPUFREQ_CYCLES_MSR_WRITE);
	cpufreq_driver_target(p, freq, RELATION_L);
}

static __attribute__((noinline)) void sugov_update_single(struct cpufreq_policy *p,
							  struct sugov_data *sg, int cpu,
							  sim_ns time, unsigned flags)
{
	struct sugov_cpu *c = &sg->cpus[0];
	uint32_t cached_freq = sg->cached_raw_freq;
	sugov_iowait_boost(p, c, time, flags);
	c->last_update = time;
	cpufreq_hook_spend(p, CPUFREQ_CYCLES_CHECK);
	if (!sugov_should_update(sg, time, flags))
		return;
	cpufreq_hook_spend(p, CPUFREQ_CYCLES_UTIL_CPU + CPUFREQ_CYCLES_SELECT);

	struct cpu_util u;
	sugov_read_util(p, 0, &u); /* the policy's one CPU, cpu */
	unsigned long boost = sugov_iowait_apply(p, c, time, u.capacity);
	sugov_get_util(sg, c, &u, boost);
	uint32_t next_f = sugov_next_freq(p, sg, c->util, u.capacity);

	/* Lowering while the CPU never idled is likely premature. */
	if (sugov_hold_freq(p, c, cpu, &u) && next_f < sg->next_freq && !sg->need_freq_update) {
		next_f = sg->next_freq;
		sg->cached_raw_freq = cached_freq;
	}
	if (sugov_update_next_freq(sg, time, next_f, flags))
		sugov_commit(p, next_f);
}

/* The largest util over the policy's CPUs; *count: how many have it,
 * *first: the first that has it. */
static unsigned long sugov_max_of(const struct cpufreq_policy *p, const struct sugov_data *sg,
				  int *count, int *first)
{
	unsigned long util = 0;
	int n = 0;
	*first = 0;
	for (int k = 0; k < p->ncpus; k++) {
		if (sg->cpus[k].util > util) {
			util = sg->cpus[k].util;
			n = 1;
			*first = k;
		} else if (sg->cpus[k].util == util) {
			n++;
		}
	}
	*count = n;
	return util;
}

/* sugov_max_of(), kept. */
static unsigned long sugov_find_max(const struct cpufreq_policy *p, struct sugov_data *sg)
{
	sg->max_util = sugov_max_of(p, sg, &sg->max_count, &sg->anchor);
	sg->max_known = true;
	return sg->max_util;
}

/* CPU k's util moved from `was` (itself now in ck->util): the kept
 * maximum, its count and a CPU that has it follow, or are marked unknown
 * when the last CPU that held the maximum went below it. */
static inline void sugov_max_moved(struct sugov_data *sg, int k, const struct sugov_cpu *ck,
				   unsigned long was)
{
	if (ck->util > sg->max_util) {
		sg->max_util = ck->util;
		sg->max_count = 1;
		sg->anchor = k;
	} else if (ck->util == sg->max_util) {
		sg->max_count += was != sg->max_util;
		sg->anchor = k;
	} else if (was == sg->max_util && --sg->max_count == 0) {
		sg->max_known = false;
	}
}

/* The CPUs marked dirty, read again through the driver's cpu_util(). */
static __attribute__((noinline)) void sugov_reread_dirty(struct cpufreq_policy *p,
							 struct sugov_data *sg)
{
	struct cpu_util u;
	for (int w = 0; w * 64 < p->ncpus; w++) {
		for (uint64_t bits = p->util_dirty[w]; bits; bits &= bits - 1) {
			int k = w * 64 + __builtin_ctzll(bits);
			struct sugov_cpu *ck = &sg->cpus[k];
			unsigned long was = ck->util;
			p->driver->cpu_util(p->driver_ctx, p->cpus[k], &u);
			sugov_get_util(sg, ck, &u, 0);
			sugov_max_moved(sg, k, ck, was);
		}
		p->util_dirty[w] = 0;
	}
}

/* CPU k's figure from its signals in place (no clamps). */
static inline void sugov_reread_one(struct sugov_data *sg, int k, const struct cpu_util_src *sk)
{
	struct sugov_cpu *ck = &sg->cpus[k];
	unsigned long was = ck->util;
	ck->util = sugov_perf(sg, sugov_src_util(sk), sk->capacity, 0, SCHED_CAPACITY_SCALE, 0);
	sugov_max_moved(sg, k, ck, was);
}

/* The same, with the scheduler's signals read in place (p->util_src, no
 * clamps): no call per CPU, nor the registers it would make this path save
 * (callgrind, pingpong-su: -32 instructions a hook call). */
static inline void sugov_reread_in_place(struct cpufreq_policy *p, struct sugov_data *sg,
					 const struct cpu_util_src *src)
{
	for (int w = 0; w * 64 < p->ncpus; w++) {
		uint64_t bits = p->util_dirty[w];
		if (!bits)
			continue;
		p->util_dirty[w] = 0;
		do {
			int k = w * 64 + __builtin_ctzll(bits);
			sugov_reread_one(sg, k, &src[k]);
		} while (bits &= bits - 1);
	}
}

/* Every CPU read, each with its boost, and which of them keep their figure
 * until their report changes (see sugov_shared_util()). */
static __attribute__((noinline)) unsigned long sugov_read_all(struct cpufreq_policy *p,
							      struct sugov_data *sg, sim_ns time,
							      unsigned long max_cap)
{
	struct cpu_util u;
	bool boost_left = false, cached = p->util_dirty != NULL;
	for (int k = 0; k < p->ncpus; k++) {
		struct sugov_cpu *ck = &sg->cpus[k];
		if (ck->iowait_boost || !ck->util_cached || !p->util_dirty ||
		    (p->util_dirty[k / 64] >> (k % 64) & 1)) {
			sugov_read_util(p, k, &u);
			unsigned long boost = sugov_iowait_apply(p, ck, time, max_cap);
			sugov_get_util(sg, ck, &u, boost);
			ck->util_cached = boost == 0 && p->util_dirty;
			boost_left |= ck->iowait_boost != 0;
			cached &= ck->util_cached;
		}
	}
	/* Every CPU is now read: the dirty bits start again. */
	if (p->util_dirty)
		for (int w = 0; w * 64 < p->ncpus; w++)
			p->util_dirty[w] = 0;
	sg->all_cached = cached && p->util_dirty;
	sg->any_boost = boost_left;
	return sugov_find_max(p, sg);
}

/* The policy's demand: every CPU's sg_cpu->util (sugov_next_freq_shared()),
 * each a function of the CPU's report and its I/O boost. A CPU without a
 * boost whose report has not changed (its util_dirty bit is clear) keeps
 * its figure; with no boost anywhere, only the CPUs marked are read. The
 * same figures as reading every CPU, computed once. `common`: see
 * sugov_shared_body(). */
static inline __attribute__((always_inline)) unsigned long
sugov_shared_util(struct cpufreq_policy *p, struct sugov_data *sg, int j, sim_ns time,
		  unsigned long max_cap, bool common)
{
	if (!common && !(sg->all_cached && !sg->any_boost && !sg->cpus[j].iowait_boost))
		return sugov_read_all(p, sg, time, max_cap);
	const struct cpu_util_src *src = p->util_src;
	if (common) {
		/* At most 64 CPUs: one word (callgrind, pingpong-su: -14.3
		 * instructions a call, the loop over words and its spills). */
		uint64_t bits = p->util_dirty[0] | p->util_stale[0];
		p->util_dirty[0] = 0;
		p->util_stale[0] = 0;
		for (; bits; bits &= bits - 1) {
			int k = __builtin_ctzll(bits);
			sugov_reread_one(sg, k, &src[k]);
		}
	} else if (src) {
		sugov_reread_in_place(p, sg, src);
	} else {
		sugov_reread_dirty(p, sg);
	}
	if (sg->max_known)
		return sg->max_util;
	return sugov_find_max(p, sg);
}

/* The target a CPU's util u (cpu_util()'s) gives as the policy's largest
 * demand, without clamps or boost: it never falls as u rises. */
static uint32_t sugov_util_freq(const struct cpufreq_policy *p, const struct sugov_data *sg,
				unsigned long u, unsigned long cap)
{
	return sugov_raw_freq(p, sg, sugov_perf(sg, u, cap, 0, SCHED_CAPACITY_SCALE, 0), cap);
}

/* From `u` (whose target is at most freq), the largest util up to cap
 * whose target is at most freq: steps doubling up, then bisection. */
static unsigned long sugov_util_last_at_most(const struct cpufreq_policy *p,
					     const struct sugov_data *sg, uint32_t freq,
					     unsigned long cap, unsigned long u)
{
	unsigned long hi = u + 1; /* util_freq(u) <= freq < util_freq(hi), or hi = cap + 1 */
	for (unsigned long step = 1; hi <= cap && sugov_util_freq(p, sg, hi, cap) <= freq; step <<= 1) {
		u = hi;
		hi = u + step;
	}
	if (hi > cap + 1)
		hi = cap + 1;
	while (hi - u > 1) {
		unsigned long mid = u + (hi - u) / 2;
		if (sugov_util_freq(p, sg, mid, cap) <= freq)
			u = mid;
		else
			hi = mid;
	}
	return u;
}

/* From `u` (whose target is at least freq), the smallest util whose
 * target is at least freq: steps doubling down, then bisection. */
static unsigned long sugov_util_first_at_least(const struct cpufreq_policy *p,
					       const struct sugov_data *sg, uint32_t freq,
					       unsigned long cap, unsigned long u)
{
	long lo = (long)u - 1; /* util_freq(lo) < freq <= util_freq(u), or lo = -1 */
	for (long step = 1; lo >= 0 && sugov_util_freq(p, sg, (unsigned long)lo, cap) >= freq;
	     step <<= 1) {
		u = (unsigned long)lo;
		lo = (long)u - step;
	}
	if (lo < -1)
		lo = -1;
	while ((long)u - lo > 1) {
		long mid = lo + ((long)u - lo) / 2;
		if (sugov_util_freq(p, sg, (unsigned long)mid, cap) >= freq)
			u = (unsigned long)mid;
		else
			lo = mid;
	}
	return u;
}

/* For the evaluation's target `freq`, the span of targets that resolve to
 * the same entry, next_freq (the evaluation's, the span's, or the one
 * kept for cached_raw_freq, which resolves to it): a target in it keeps
 * next_freq, resolved or not. Then band_hi, the largest util in 0..cap
 * whose target is at most span_hi, and band_lo, the smallest whose target
 * is at least span_lo, searched from the anchor's util, whose target is
 * freq (the evaluation's own steps, sugov_util_freq(), which never fall as
 * util rises). While each CPU's util is at most band_hi and some CPU's at
 * least band_lo, the largest demand gives a target in the span: next_freq
 * again, the same work (the hook's cycles do not depend on the target).
 * Only where every CPU of the policy has the calling CPU's capacity (the
 * demand's scale). A band of the entry's, not of the one target
 * (pingpong-su: 1 hook call in 300 reaches schedutil, not 1 in 60). */
static __attribute__((noinline)) void sugov_quiet_band(struct cpufreq_policy *p,
						       struct sugov_data *sg, uint32_t freq,
						       unsigned long cap)
{
	sugov_span_freq(p, sg, freq);
	uint32_t tlo = sg->span_lo, thi = sg->span_hi;
	sg->band_known = true;
	sg->band_ok = false;
	for (int k = 0; k < p->ncpus; k++)
		if (p->util_src[k].capacity != cap)
			return;
	unsigned long u = sugov_src_util(&p->util_src[sg->anchor]);
	uint32_t at = sugov_util_freq(p, sg, u, cap);
	if (at < tlo || at > thi)
		return; /* not the evaluation's anchor: nothing left out */
	sg->band_hi = (uint32_t)sugov_util_last_at_most(p, sg, thi, cap, u);
	sg->band_lo = (uint32_t)sugov_util_first_at_least(p, sg, tlo, cap, u);
	sg->band_ok = true;
	/* The driver compares max(util_avg, util_est), before the clamp at
	 * the capacity: a band up to it takes any. */
	p->util_quiet_lo = sg->band_lo;
	p->util_quiet_hi = sg->band_hi >= cap ? UINT32_MAX : sg->band_hi;
	p->util_quiet_cycles = CPUFREQ_CYCLES_CHECK + CPUFREQ_CYCLES_UTIL_CPU * (uint32_t)p->ncpus +
			       CPUFREQ_CYCLES_SELECT;
	p->util_limited_cycles = CPUFREQ_CYCLES_CHECK;
}

/* A CPU with the largest util, when the one kept went down. */
static __attribute__((noinline)) void sugov_find_anchor(const struct cpufreq_policy *p,
							struct sugov_data *sg)
{
	int n;
	sugov_max_of(p, sg, &n, &sg->anchor);
}

/* An evaluation of the common path gave the target `freq` (kept, or new)
 * and left no CPU marked: each CPU's util is at most band_hi, the
 * anchor's (the largest) at least band_lo: it starts the holders. The
 * driver may leave out the calls that would return at the rate limit
 * before util_quiet_from, and from then those that would keep the target
 * (cpufreq_policy's util_quiet_*). */
static inline void sugov_quiet_on(struct cpufreq_policy *p, struct sugov_data *sg, uint32_t freq,
				  unsigned long cap)
{
	if (sg->cpus[sg->anchor].util != sg->max_util)
		sugov_find_anchor(p, sg);
	if (!sg->band_known)
		sugov_quiet_band(p, sg, freq, cap);
	if (!sg->band_ok) {
		p->util_quiet_from = SIM_NS_MAX;
		return;
	}
	p->util_quiet_holders = UINT64_C(1) << sg->anchor;
	p->util_quiet_from = sg->last_freq_update_time + sg->freq_update_delay_ns;
}

/* get_next_freq() for the demand, and the change if it is one: out of
 * line, as the target rarely moves (pingpong-su: 1 evaluation in 75);
 * from the entry's span while the target stays in it. */
static __attribute__((noinline)) void sugov_shared_retarget(struct cpufreq_policy *p,
							    struct sugov_data *sg, uint32_t freq,
							    sim_ns time, unsigned flags,
							    unsigned long max_cap, bool common)
{
	sg->cached_raw_freq = freq;
	uint32_t next_f = sugov_span_freq(p, sg, freq);
	if (sugov_update_next_freq(sg, time, next_f, flags)) {
		sg->band_known = false; /* cur moves: the reference may be it */
		sugov_commit(p, next_f);
	}
	/* The other paths withdrew it when they began. */
	if (common)
		sugov_quiet_on(p, sg, freq, max_cap);
}

/* sugov_update_shared(). With `common` (a constant) the caller knows that
 * no boost applies, here or anywhere, every CPU's figure is kept, the
 * signals are in place, the calling CPU's capacity is known and the policy
 * has at most 64 CPUs (one word of dirty bits, no loop over words): the steps
 * that would find so drop out, and the path left makes calls only in tail
 * position (the rest of the work is out of line: the boosts, the driver's
 * reads, a new target, the single-CPU policy's path), so that the hook
 * saves registers only for the loop over the CPUs marked (callgrind,
 * pingpong-su: -7.6 instructions a call). */
static inline __attribute__((always_inline)) void
sugov_shared_body(struct cpufreq_policy *p, struct sugov_data *sg, int j, sim_ns time,
		  unsigned flags, bool common)
{
	struct sugov_cpu *c = &sg->cpus[j];
	if (!common)
		sugov_iowait_boost(p, c, time, flags);
	c->last_update = time;
	cpufreq_hook_spend(p, CPUFREQ_CYCLES_CHECK);
	if (!sugov_should_update(sg, time, flags)) {
		if (!common && c->iowait_boost)
			sg->any_boost = true; /* the next evaluation must apply it */
		return;
	}
	/* sugov_next_freq_shared() reads every CPU's demand. */
	cpufreq_hook_spend(p, CPUFREQ_CYCLES_UTIL_CPU * (uint32_t)p->ncpus + CPUFREQ_CYCLES_SELECT);

	/* Every CPU's demand, each with its own boost and clamps, scaled by
	 * the capacity of the CPU that called (fixed: read once). */
	if (!common && !c->capacity) {
		struct cpu_util u;
		sugov_read_util(p, j, &u);
		c->capacity = u.capacity;
	}
	unsigned long max_cap = c->capacity;
	unsigned long util = sugov_shared_util(p, sg, j, time, max_cap, common);
	uint32_t freq = sugov_raw_freq(p, sg, util, max_cap);
	/* The same target: get_next_freq() gives next_freq again, no change. */
	if (freq == sg->cached_raw_freq && !sg->need_freq_update) {
		if (common)
			sugov_quiet_on(p, sg, freq, max_cap);
		return;
	}
	sugov_shared_retarget(p, sg, freq, time, flags, max_cap, common);
}

static __attribute__((noinline)) void sugov_update_shared_full(struct cpufreq_policy *p,
							       struct sugov_data *sg, int j,
							       sim_ns time, unsigned flags)
{
	sugov_quiet_off(p);
	sugov_shared_body(p, sg, j, time, flags, false);
}

/* sugov_update_shared(): the common call inline, any other out of line. */
static inline void sugov_update_shared(struct cpufreq_policy *p, struct sugov_data *sg, int j,
				       sim_ns time, unsigned flags)
{
	const struct sugov_cpu *c = &sg->cpus[j];
	if (!c->iowait_boost && !(flags & CPUFREQ_UPDATE_IOWAIT) && sg->all_cached &&
	    !sg->any_boost && p->util_src && p->util_stale && c->capacity && p->ncpus <= 64)
		sugov_shared_body(p, sg, j, time, flags, true);
	else
		sugov_update_shared_full(p, sg, j, time, flags);
}

static void sugov_hook(struct cpufreq_policy *p, int cpu, sim_ns now, unsigned flags)
{
	struct sugov_data *sg = p->gov_data;
	int j = cpufreq_policy_cpu_index(p, cpu);
	if (j < 0)
		return;
	if (p->ncpus == 1)
		sugov_update_single(p, sg, cpu, now, flags);
	else
		sugov_update_shared(p, sg, j, now, flags);
}

static int sugov_start(struct cpufreq_policy *p, struct pm_diag *d)
{
	struct sugov_data *sg = p->gov_data;
	if (!p->driver->cpu_util || !p->driver->cpu_times)
		return pm_fail(d, "schedutil: the cpufreq driver reports no CPU utilization");
	uint64_t rate_limit_us = sg->rate_limit_us < 0 ? cpufreq_policy_transition_delay_us(p)
						       : (uint64_t)sg->rate_limit_us;
	sg->freq_update_delay_ns = (sim_ns)rate_limit_us * NS_PER_US;
	sg->last_freq_update_time = 0;
	sg->next_freq = 0;
	sg->cached_raw_freq = 0;
	sg->limits_changed = false;
	sg->need_freq_update = false;
	sg->band_known = false;
	sg->span_known = false;
	sugov_quiet_off(p);
	p->hook = CPUFREQ_HOOK_UTIL; /* sugov_start(): cpufreq_add_update_util_hook() */
	sg->cpus = calloc((size_t)p->ncpus, sizeof(*sg->cpus));
	if (!sg->cpus)
		return pm_fail(d, "out of memory");
	return 0;
}

static void sugov_stop(struct cpufreq_policy *p)
{
	struct sugov_data *sg = p->gov_data;
	sugov_quiet_off(p);
	free(sg->cpus);
	sg->cpus = NULL;
}

/* sugov_limits(), slow-switch path: apply at once, re-evaluate next call. */
static void sugov_limits(struct cpufreq_policy *p)
{
	struct sugov_data *sg = p->gov_data;
	cpufreq_policy_apply_limits(p);
	sg->limits_changed = true;
	sg->band_known = false;
	sg->span_known = false;
	sugov_quiet_off(p);
}

/* CPU k is marked: by the driver (util_dirty), or left out (util_stale). */
static bool sugov_marked(const struct cpufreq_policy *p, int k)
{
	uint64_t w = p->util_dirty[k / 64] | (p->util_stale ? p->util_stale[k / 64] : 0);
	return w >> (k % 64) & 1;
}

/* --check of the calls the driver may leave out (util_quiet_from): only
 * in the common state, from the rate limit's end, with no limits pending;
 * the band's ends give targets in the span kept (band_hi at most, band_lo
 * at least), which holds cached_raw_freq and resolves to next_freq
 * (sugov_check()); each CPU not marked in util_dirty (kept, or left out
 * since its util last moved) has its util at most band_hi, and at least
 * band_lo if it is among the holders, which are never none. So while the
 * holders include a CPU not marked, the largest demand gives a target
 * that keeps next_freq: the call left out would have kept it (the
 * driver's test asks no more). */
static bool sugov_quiet_check(const struct cpufreq_policy *p, const struct sugov_data *sg)
{
	if (p->util_quiet_from == SIM_NS_MAX)
		return true;
	if (!sg->all_cached || sg->any_boost || !p->util_src || !p->util_stale || p->ncpus > 64 ||
	    sg->limits_changed || sg->need_freq_update || !sg->band_known || !sg->band_ok ||
	    !sg->span_known || sg->cached_raw_freq < sg->span_lo ||
	    sg->cached_raw_freq > sg->span_hi ||
	    p->util_quiet_from != sg->last_freq_update_time + sg->freq_update_delay_ns)
		return false;
	unsigned long cap = p->util_src[0].capacity;
	if (sugov_util_freq(p, sg, sg->band_hi, cap) > sg->span_hi ||
	    sugov_util_freq(p, sg, sg->band_lo, cap) < sg->span_lo ||
	    p->util_quiet_lo != sg->band_lo ||
	    p->util_quiet_hi != (sg->band_hi >= cap ? UINT32_MAX : sg->band_hi) ||
	    p->util_quiet_holders == 0 || p->util_quiet_holders >> (p->ncpus - 1) >> 1 ||
	    p->util_quiet_cycles != CPUFREQ_CYCLES_CHECK +
					     CPUFREQ_CYCLES_UTIL_CPU * (uint32_t)p->ncpus +
					     CPUFREQ_CYCLES_SELECT ||
	    p->util_limited_cycles != CPUFREQ_CYCLES_CHECK)
		return false;
	for (int k = 0; k < p->ncpus; k++) {
		const struct cpu_util_src *sk = &p->util_src[k];
		if (sk->capacity != cap)
			return false;
		if (p->util_dirty[0] >> k & 1)
			continue;
		uint32_t u = *sk->util_avg > *sk->util_est ? *sk->util_avg : *sk->util_est;
		if (u > p->util_quiet_hi || (p->util_quiet_holders >> k & 1 && u < p->util_quiet_lo))
			return false;
	}
	return true;
}

/* --check: the maximum kept (sugov_shared_util()) is the CPUs' and so is
 * the count of CPUs that have it; while the CPUs' figures are kept
 * (all_cached, no boost), each CPU not marked has the figure the driver's
 * cpu_util() gives now; and the calls the driver may leave out would
 * change nothing (sugov_quiet_check()). */
static bool sugov_check(const struct cpufreq_policy *p)
{
	const struct sugov_data *sg = p->gov_data;
	if (!sg || !sg->cpus)
		return true;
	/* The span kept: both ends resolve to its entry, next_freq (so does
	 * every target between: the resolution never falls as the target
	 * rises). */
	if (sg->span_known && (cpufreq_resolve(p, sg->span_lo, RELATION_LE) != sg->span_freq ||
			       cpufreq_resolve(p, sg->span_hi, RELATION_LE) != sg->span_freq ||
			       sg->span_lo > sg->span_hi || sg->span_freq != sg->next_freq))
		return false;
	if (!sugov_quiet_check(p, sg))
		return false;
	if (sg->all_cached && !sg->any_boost) {
		for (int k = 0; k < p->ncpus; k++) {
			if (sugov_marked(p, k))
				continue;
			struct cpu_util u;
			p->driver->cpu_util(p->driver_ctx, p->cpus[k], &u);
			if (sugov_perf(sg, u.util, u.capacity, u.uclamp_min, u.uclamp_max, 0) !=
			    sg->cpus[k].util)
				return false;
		}
	}
	if (!sg->max_known)
		return true;
	int n, first;
	return sugov_max_of(p, sg, &n, &first) == sg->max_util && n == sg->max_count;
}

/* The headroom moved from the reference frequency to util in v6.8. */
static const char *sugov_kernel_rules(int version)
{
	return version < 6008 ? "variant=4.7" : NULL;
}

const struct cpufreq_governor cpufreq_schedutil = {
	.since = 4007,
	.dynamic_switching = true,
	.kernel_rules = sugov_kernel_rules,
	.check = sugov_check,
	.name = "schedutil",
	.summary = "frequency from the scheduler's utilization: 1.25 x max x util / capacity",
	.tunables = sugov_tunables,
	.ntunables = (int)(sizeof(sugov_tunables) / sizeof(sugov_tunables[0])),
	.data_size = sizeof(struct sugov_data),
	.start = sugov_start,
	.stop = sugov_stop,
	.limits = sugov_limits,
	.update = sugov_hook,
};
