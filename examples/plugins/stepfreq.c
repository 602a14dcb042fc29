// SPDX-License-Identifier: GPL-2.0-only
/* stepfreq: a minimal frequency governor for pmlab.
 *
 * Every stepfreq_period_ms it reads each CPU's busy time since the last
 * look (the way ondemand samples), takes the busiest CPU of the policy,
 * and moves one table step up when that CPU was busier than
 * stepfreq_up_pct, one step down when it was idler than stepfreq_down_pct.
 * It runs from the scheduler's utilization hook, rate-limited by the period.
 *
 * Build:  cc -shared -fPIC -O2 -Iinclude examples/plugins/stepfreq.c -o stepfreq.so
 * Use:    pmlab sim --plugin ./stepfreq.so --cpufreq stepfreq --machine i7-4790 \
 *             --workload tbench --set stepfreq_up_pct=70
 */
#include <pmlab/plugin.h>

#define MAX_CPUS 1024

struct stepfreq {
	int64_t last_ns;             /* time of the last look */
	int64_t busy[MAX_CPUS];      /* each CPU's busy time then */
	int64_t total[MAX_CPUS];     /* busy + idle + iowait then */
};

enum { PERIOD_MS, UP_PCT, DOWN_PCT };

static const struct pmlab_tunable tunables[] = {
	[PERIOD_MS] = { .name = "stepfreq_period_ms", .def = 10, .min = 1, .max = 1000,
			.help = "how often the load is looked at (ms)" },
	[UP_PCT] = { .name = "stepfreq_up_pct", .def = 80, .min = 1, .max = 100,
		     .help = "one step up above this load (%)" },
	[DOWN_PCT] = { .name = "stepfreq_down_pct", .def = 30, .min = 0, .max = 99,
		       .help = "one step down below this load (%)" },
};

static int stepfreq_start(struct pmlab_freq_policy *p, char *err, size_t errlen)
{
	(void)err, (void)errlen; /* it cannot fail */
	p->use_hook(p, true);
	return 0;
}

/* Start and every change of the limits: stay inside them. */
static void stepfreq_limits(struct pmlab_freq_policy *p)
{
	p->target(p, p->cur, PMLAB_RELATION_L);
}

static void stepfreq_update(struct pmlab_freq_policy *p, int cpu, int64_t now_ns, unsigned flags)
{
	struct stepfreq *s = p->data;
	int64_t load = 0;
	int i, at = 0;

	(void)cpu, (void)flags; /* the whole policy's load is looked at */
	if (now_ns - s->last_ns < p->tunables[PERIOD_MS] * 1000000)
		return;
	s->last_ns = now_ns;
	for (i = 0; i < p->ncpus && p->cpus[i] < MAX_CPUS; i++) {
		struct pmlab_cpu_times t;
		int c = p->cpus[i];
		p->cpu_times(p, c, &t);
		int64_t busy = t.busy_ns - s->busy[c], total = t.busy_ns + t.idle_ns + t.iowait_ns -
								  s->total[c];
		s->busy[c] = t.busy_ns;
		s->total[c] = t.busy_ns + t.idle_ns + t.iowait_ns;
		if (total > 0 && 100 * busy / total > load)
			load = 100 * busy / total;
	}
	while (at + 1 < p->ntable && p->table[at] < p->cur)
		at++;
	if (load > p->tunables[UP_PCT] && at + 1 < p->ntable)
		p->target(p, p->table[at + 1], PMLAB_RELATION_L);
	else if (load < p->tunables[DOWN_PCT] && at > 0)
		p->target(p, p->table[at - 1], PMLAB_RELATION_H);
}

static const struct pmlab_freq_governor stepfreq = {
	.name = "stepfreq",
	.summary = "one table step up or down per period, from the busiest CPU's load",
	.tunables = tunables,
	.ntunables = 3,
	.data_size = sizeof(struct stepfreq),
	.start = stepfreq_start,
	.limits = stepfreq_limits,
	.update = stepfreq_update,
};

PMLAB_PLUGIN_EXPORT const struct pmlab_plugin pmlab_plugin = {
	.abi = PMLAB_PLUGIN_ABI,
	.freq = &stepfreq,
};
