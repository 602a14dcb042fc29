// SPDX-License-Identifier: GPL-2.0-only
/* bursts: a minimal workload for pmlab.
 *
 * bursts_tasks tasks, each in a loop: wake up, run burst_us of work (as
 * measured at the machine's base frequency, so it takes longer at lower
 * clocks), then sleep for a random think time (exponential, mean
 * think_us) from the end of the burst -- a crowd of interactive requests.
 * Throughput: bursts per second. Latency: from the wakeup the task asked
 * for to the end of its burst (queueing plus running). Random numbers come
 * from the run's seed, so a run is reproducible.
 *
 * Build:  cc -shared -fPIC -O2 -Iinclude examples/plugins/bursts.c -o bursts.so -lm
 * Use:    pmlab sim --plugin ./bursts.so --workload bursts --machine i7-4790 \
 *             --set bursts_tasks=8 --set think_us=2000
 */
#include <math.h>
#include <stdio.h>

#include <pmlab/plugin.h>

#define MAX_TASKS 4096

enum { TASKS, BURST_US, THINK_US };

static const struct pmlab_tunable params[] = {
	[TASKS] = { "bursts_tasks", "number of tasks", 4, 1, MAX_TASKS },
	[BURST_US] = { "burst_us", "work per burst, us at base frequency", 500, 1, 10000000 },
	[THINK_US] = { "think_us", "mean sleep between bursts, us", 5000, 1, 100000000 },
};

struct bursts {
	uint64_t rng[MAX_TASKS];    /* each task's xorshift64 state */
	int64_t asked[MAX_TASKS];   /* when the current burst's wakeup was due */
	bool running[MAX_TASKS];    /* the task is in its burst */
};

static double uniform(uint64_t *x) /* (0, 1] */
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return (double)((*x >> 11) + 1) / 9007199254740992.0;
}

static int bursts_init(struct pmlab_run_ctx *c, char *err, size_t errlen)
{
	struct bursts *b = c->data;

	for (int i = 0; i < c->params[TASKS]; i++) {
		char name[32];
		snprintf(name, sizeof(name), "bursts/%d", i);
		int id = c->task_new(c, name, 0);
		if (id < 0 || id >= MAX_TASKS)
			return snprintf(err, errlen, "cannot create task %d", i), -1;
		b->rng[id] = c->seed * 2654435761u + (uint64_t)id + 1;
	}
	return 0;
}

static void bursts_next(struct pmlab_run_ctx *c, int task, struct pmlab_action *a)
{
	struct bursts *b = c->data;
	int64_t now = c->now(c);

	if (!b->running[task]) { /* woke up: the burst */
		b->running[task] = true;
		a->kind = PMLAB_ACT_RUN;
		a->cycles = (double)c->params[BURST_US] * c->base_khz / 1000.0;
		return;
	}
	b->running[task] = false; /* burst done: count it, think */
	c->record_latency(c, now - b->asked[task]);
	c->add_work(c, 1);
	b->asked[task] = now + (int64_t)(-log(uniform(&b->rng[task])) *
					 (double)c->params[THINK_US] * 1000.0);
	a->kind = PMLAB_ACT_SLEEP;
	a->until_ns = b->asked[task];
}

static const struct pmlab_workload bursts = {
	.name = "bursts",
	.summary = "tasks that run a burst, then think for a random time",
	.throughput_unit = "bursts/s",
	.latency_what = "wakeup to end of burst",
	.params = params,
	.nparams = 3,
	.data_size = sizeof(struct bursts),
	.init = bursts_init,
	.next = bursts_next,
};

PMLAB_PLUGIN_EXPORT const struct pmlab_plugin pmlab_plugin = {
	.abi = PMLAB_PLUGIN_ABI,
	.workload = &bursts,
};
