// SPDX-License-Identifier: GPL-2.0-only
/* The cpuidle core: the governor registry and the pieces of
 * drivers/cpuidle/cpuidle.c that governors and idle loops share
 * (cpuidle_poll_time(), the exit bookkeeping of cpuidle_enter_state()),
 * as in Linux v6.18. */
#include "cpuidle.h"

#include <string.h>

extern const struct cpuidle_governor cpuidle_deepest;
extern const struct cpuidle_governor cpuidle_menu;
extern const struct cpuidle_governor cpuidle_teo;
extern const struct cpuidle_governor cpuidle_ladder;
extern const struct cpuidle_governor cpuidle_haltpoll;

/* Adding a governor: one file and one line here. */
static const struct cpuidle_governor *const governors[] = {
	&cpuidle_deepest,
	&cpuidle_menu,
	&cpuidle_teo,
	&cpuidle_ladder,
	&cpuidle_haltpoll,
};

int cpuidle_governor_count(void)
{
	return (int)(sizeof(governors) / sizeof(governors[0]));
}

const struct cpuidle_governor *cpuidle_governor_at(int i)
{
	return governors[i];
}

const struct cpuidle_governor *cpuidle_governor_find(const char *name)
{
	for (int i = 0; i < cpuidle_governor_count(); i++)
		if (strcmp(governors[i]->name, name) == 0)
			return governors[i];
	return NULL;
}

int cpuidle_deepest_scan(const struct cpuidle_device *dev, sim_ns latency_limit_ns)
{
	/* From the deepest down: the first allowed is the answer (usually
	 * the deepest itself, one test instead of a pass over all states). */
	for (int i = dev->nstates - 1; i > 0; i--)
		if (!dev->disabled[i] && dev->states[i].exit_ns <= latency_limit_ns)
			return i;
	return 0;
}

int cpuidle_deepest_allowed(struct cpuidle_device *dev, sim_ns latency_limit_ns)
{
	if (dev->deepest_known && dev->deepest_limit_ns == latency_limit_ns)
		return dev->deepest;
	dev->deepest = cpuidle_deepest_scan(dev, latency_limit_ns);
	dev->deepest_limit_ns = latency_limit_ns;
	dev->deepest_known = true;
	return dev->deepest;
}

/* CPUIDLE_POLL_MIN is the kernel's guess at one ping-pong round trip: a
 * state cheaper than that is no reason to stop polling. */
#define CPUIDLE_POLL_MIN_NS (10 * NS_PER_US)

/* The kernel caches the result in dev->poll_limit_ns (and resets the cache
 * when a state is disabled); computing it each time gives the same value
 * and leaves poll_limit_ns to haltpoll. */
bool cpuidle_state_polls_flags(const struct cstate *cs)
{
	return cs->poll || strstr(cs->desc, "MWAIT") != NULL;
}

sim_ns cpuidle_poll_time(const struct cpuidle_device *dev)
{
	if (dev->poll_limit_ns)
		return dev->poll_limit_ns;
	sim_ns max = dev->tick_period_ns / 16; /* CPUIDLE_POLL_MAX = TICK_NSEC / 16 */
	for (int i = 1; i < dev->nstates; i++) {
		if (!cpuidle_state_enabled(dev, i))
			continue;
		sim_ns r = dev->states[i].residency_ns;
		if (r < CPUIDLE_POLL_MIN_NS)
			continue;
		return r < max ? r : max;
	}
	return max;
}

enum cpuidle_miss cpuidle_classify(const struct cpuidle_device *dev, int state, sim_ns measured_ns)
{
	const struct cstate *s = &dev->states[state];
	if (measured_ns < s->residency_ns) {
		/* Too deep, but only a miss if something shallower was allowed. */
		for (int i = state - 1; i >= 0; i--)
			if (cpuidle_state_enabled(dev, i))
				return CPUIDLE_ABOVE;
		return CPUIDLE_FIT;
	}
	if (measured_ns <= s->exit_ns)
		return CPUIDLE_FIT;
	/* The time spent waking up is no sleep a deeper state could have used. */
	for (int i = state + 1; i < dev->nstates; i++) {
		if (!cpuidle_state_enabled(dev, i))
			continue;
		return measured_ns - s->exit_ns >= dev->states[i].residency_ns ? CPUIDLE_BELOW
									 : CPUIDLE_FIT;
	}
	return CPUIDLE_FIT;
}

/* cpuidle_classify()'s figures for one state of the table as it is. */
static struct cpuidle_fit cpuidle_fit_of(const struct cpuidle_device *dev, int state)
{
	const struct cstate *s = &dev->states[state];
	struct cpuidle_fit f = { .residency_ns = s->residency_ns, .exit_ns = s->exit_ns,
				 .next_res_ns = UINT64_MAX, .early = CPUIDLE_FIT };
	for (int i = state - 1; i >= 0; i--)
		if (cpuidle_state_enabled(dev, i))
			f.early = CPUIDLE_ABOVE;
	for (int i = state + 1; i < dev->nstates; i++)
		if (cpuidle_state_enabled(dev, i)) {
			f.next_res_ns = (uint64_t)dev->states[i].residency_ns;
			break;
		}
	return f;
}

__attribute__((noinline, cold)) static void cpuidle_keep_fit(struct cpuidle_device *dev)
{
	for (int i = 0; i < dev->nstates; i++)
		dev->fit[i] = cpuidle_fit_of(dev, i);
	dev->fit_known = true;
}

bool cpuidle_fit_consistent(const struct cpuidle_device *dev)
{
	for (int i = 0; dev->fit_known && i < dev->nstates; i++) {
		struct cpuidle_fit f = cpuidle_fit_of(dev, i);
		const struct cpuidle_fit *k = &dev->fit[i];
		if (k->residency_ns != f.residency_ns || k->exit_ns != f.exit_ns ||
		    k->next_res_ns != f.next_res_ns || k->early != f.early)
			return false;
	}
	return true;
}

/* cpuidle_classify() from the figures kept per state: no walk over the
 * table. Past the exit latency, measured - exit is positive and compared
 * unsigned with the next residency (never negative: machine.c checks
 * it), which UINT64_MAX (no deeper enabled state) never reaches. */
enum cpuidle_miss cpuidle_record_exit(struct cpuidle_device *dev, int state, sim_ns measured_ns)
{
	if (!dev->fit_known)
		cpuidle_keep_fit(dev);
	const struct cpuidle_fit *f = &dev->fit[state];
	struct cpuidle_state_stats *st = &dev->stats[state];
	dev->last_state = state;
	dev->last_residency_ns = measured_ns;
	st->time += measured_ns;
	if (measured_ns < f->residency_ns) {
		st->above += f->early == CPUIDLE_ABOVE;
		return f->early;
	}
	if (measured_ns > f->exit_ns && (uint64_t)(measured_ns - f->exit_ns) >= f->next_res_ns) {
		st->below++;
		return CPUIDLE_BELOW;
	}
	return CPUIDLE_FIT;
}

const char *const tick_policy_words[] = {
	[TICK_LEGACY] = "legacy", [TICK_GOVERNOR] = "governor", [TICK_PERIODIC] = "periodic", NULL,
};

int tick_policy_parse(const char *name, enum tick_policy *p)
{
	for (int i = 0; tick_policy_words[i]; i++)
		if (strcmp(name, tick_policy_words[i]) == 0) {
			*p = (enum tick_policy)i;
			return 0;
		}
	return -1;
}
