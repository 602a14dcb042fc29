// SPDX-License-Identifier: GPL-2.0-only
#include "observer_tee.h"

static void run(void *ctx, int cpu, sim_ns now, const struct task *t)
{
	const struct observer_tee *tee = ctx;
	for (int i = 0; i < 2; i++)
		if (tee->o[i] && tee->o[i]->cpu_run)
			tee->o[i]->cpu_run(tee->o[i]->ctx, cpu, now, t);
}

static void idle(void *ctx, int cpu, sim_ns now, int state)
{
	const struct observer_tee *tee = ctx;
	for (int i = 0; i < 2; i++)
		if (tee->o[i] && tee->o[i]->cpu_idle)
			tee->o[i]->cpu_idle(tee->o[i]->ctx, cpu, now, state);
}

static void waking(void *ctx, int cpu, sim_ns now)
{
	const struct observer_tee *tee = ctx;
	for (int i = 0; i < 2; i++)
		if (tee->o[i] && tee->o[i]->cpu_waking)
			tee->o[i]->cpu_waking(tee->o[i]->ctx, cpu, now);
}

static void freq(void *ctx, int cpu, sim_ns now, uint32_t khz)
{
	const struct observer_tee *tee = ctx;
	for (int i = 0; i < 2; i++)
		if (tee->o[i] && tee->o[i]->cpu_freq)
			tee->o[i]->cpu_freq(tee->o[i]->ctx, cpu, now, khz);
}

static void core_power(void *ctx, int core, sim_ns now, double w)
{
	const struct observer_tee *tee = ctx;
	for (int i = 0; i < 2; i++)
		if (tee->o[i] && tee->o[i]->core_power)
			tee->o[i]->core_power(tee->o[i]->ctx, core, now, w);
}

static void uncore_power(void *ctx, int pkg, sim_ns now, double w)
{
	const struct observer_tee *tee = ctx;
	for (int i = 0; i < 2; i++)
		if (tee->o[i] && tee->o[i]->uncore_power)
			tee->o[i]->uncore_power(tee->o[i]->ctx, pkg, now, w);
}

static void task_new(void *ctx, sim_ns now, const struct task *t, const struct task *parent)
{
	const struct observer_tee *tee = ctx;
	for (int i = 0; i < 2; i++)
		if (tee->o[i] && tee->o[i]->task_new)
			tee->o[i]->task_new(tee->o[i]->ctx, now, t, parent);
}

static void task_wakeup(void *ctx, int cpu, int waker_cpu, sim_ns now, const struct task *t,
			const struct task *waker, enum sim_wake_cause why)
{
	const struct observer_tee *tee = ctx;
	for (int i = 0; i < 2; i++)
		if (tee->o[i] && tee->o[i]->task_wakeup)
			tee->o[i]->task_wakeup(tee->o[i]->ctx, cpu, waker_cpu, now, t, waker, why);
}

void observer_tee_init(struct observer_tee *t, const struct sim_observer *a,
		       const struct sim_observer *b)
{
	t->o[0] = a;
	t->o[1] = b;
	t->obs = (struct sim_observer){
		.ctx = t, .cpu_run = run, .cpu_idle = idle, .cpu_waking = waking, .cpu_freq = freq,
		.core_power = core_power, .uncore_power = uncore_power, .task_new = task_new,
		.task_wakeup = task_wakeup,
	};
}
