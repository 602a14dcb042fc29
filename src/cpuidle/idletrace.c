// SPDX-License-Identifier: GPL-2.0-only
/* The idle-trace driver: one CPU's idle loop without the engine, one
 * select()/reflect() per trace row (model in idletrace.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idletrace.h"

#include "../plugin/registry.h"

static int apply_set(struct idletrace_sim *s, const char *kv, struct pm_diag *d)
{
	const struct cpuidle_governor *g = s->gov;
	int r = tunables_write_kv(g->tunables, g->ntunables, s->dev.gov_data, kv, d);
	if (r != 0)
		return r < 0 ? -1 : 0;
	char key[128], names[512];
	const char *value;
	kv_split(kv, key, sizeof(key), &value, d);
	tunables_names(g->tunables, g->ntunables, names, sizeof(names));
	if (g->ntunables)
		return pm_fail(d, "--set %s: unknown key '%s' (expected a %s tunable: %s)", kv, key,
			       g->name, names);
	return pm_fail(d, "--set %s: unknown key '%s' (%s has no tunables)", kv, key, g->name);
}

int idletrace_sim_init(struct idletrace_sim *s, const struct machine *m,
		       const struct idletrace_config *cfg, struct pm_diag *d)
{
	*s = (struct idletrace_sim){ 0 };
	s->gov = registry_cpuidle_find(cfg->registry, cfg->governor);
	if (!s->gov)
		return pm_fail(d, "unknown cpuidle governor '%s' (see pmlab governors)",
			       cfg->governor);
	if (cfg->hz != 100 && cfg->hz != 250 && cfg->hz != 300 && cfg->hz != 1000)
		return pm_fail(d, "--hz %d: not a CONFIG_HZ choice (expected 100, 250, 300 or 1000)",
			       cfg->hz);
	s->tick_policy = cfg->tick_policy;
	memcpy(s->states, m->cstates, sizeof(s->states));
	s->dev.states = s->states;
	s->dev.nstates = m->ncstates;
	s->dev.tick_period_ns = (NS_PER_SEC + cfg->hz / 2) / cfg->hz; /* TICK_NSEC */
	s->dev.gov = s->gov;
	s->dev.gov_data = calloc(1, s->gov->data_size ? s->gov->data_size : 1);
	if (!s->dev.gov_data)
		return pm_fail(d, "out of memory");
	tunables_set_defaults(s->gov->tunables, s->gov->ntunables, s->dev.gov_data);
	for (int i = 0; i < cfg->nsets; i++)
		if (apply_set(s, cfg->sets[i], d) < 0)
			return -1;
	if (s->gov->init && s->gov->init(&s->dev, d) < 0)
		return -1;
	return 0;
}

void idletrace_sim_destroy(struct idletrace_sim *s)
{
	free(s->dev.gov_data);
	s->dev.gov_data = NULL;
}

static sim_ns min_ns(sim_ns a, sim_ns b)
{
	return a < b ? a : b;
}

void idletrace_sim_step(struct idletrace_sim *s, const struct idletrace_row *row,
			struct idletrace_step *out)
{
	struct cpuidle_device *dev = &s->dev;
	const sim_ns tick = dev->tick_period_ns;
	const sim_ns to_tick = tick - s->phase;
	const sim_ns timer = row->next_timer_ns;

	dev->now = s->now;
	dev->tick_stopped = s->tick_policy == TICK_LEGACY;
	if (dev->tick_stopped) {
		dev->next_timer_ns = timer;
		dev->next_timer_no_tick_ns = timer;
	} else {
		dev->next_timer_ns = min_ns(to_tick, timer);
		/* nohz=off: the kernel reports the tick as the sleep length. */
		dev->next_timer_no_tick_ns = s->tick_policy == TICK_PERIODIC ? dev->next_timer_ns
									     : timer;
	}

	bool stop_tick = true;
	int st = s->gov->select(dev, row->latency_limit_ns, &stop_tick);
	if (st < 0 || st >= dev->nstates)
		st = 0;
	bool tick_runs = s->tick_policy == TICK_PERIODIC ||
			 (s->tick_policy == TICK_GOVERNOR && !stop_tick);

	sim_ns idle = min_ns(row->idle_ns, timer);
	bool tick_wakeup = false, poll_timeout = false;
	if (tick_runs && to_tick < idle) {
		idle = to_tick;
		tick_wakeup = true;
	}
	if (dev->states[st].poll) {
		sim_ns limit = cpuidle_poll_time(dev);
		if (idle > limit) {
			idle = limit;
			poll_timeout = true;
			tick_wakeup = false;
		}
	}

	dev->tick_wakeup = tick_wakeup;
	dev->poll_time_limit = poll_timeout;
	dev->stats[st].usage++;
	out->miss = cpuidle_record_exit(dev, st, idle);
	if (s->gov->reflect)
		s->gov->reflect(dev, st);
	/* Only the phase decides where the next tick falls; the clock itself
	 * saturates rather than overflow on absurd traces. */
	s->phase = (s->phase + idle % tick) % tick;
	s->now = idle > SIM_NS_MAX - s->now ? SIM_NS_MAX : s->now + idle;

	out->state = st;
	out->tick_stopped = !tick_runs;
	out->tick_wakeup = tick_wakeup;
	out->poll_timeout = poll_timeout;
	out->residency_ns = idle;
}
