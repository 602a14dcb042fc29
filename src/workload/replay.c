// SPDX-License-Identifier: GPL-2.0-only
/* replay: a recorded trace (trace.dat or ftrace text, --workload
 * replay:FILE) played back as a workload. Each traced task runs its
 * recorded CPU bursts (traced time x the frequency it ran at = cycles, so
 * a faster or slower CPU takes less or more time) and waits between them
 * as it did in the trace: until the task that woke it has run up to the
 * wakeup (a dependency), for the recorded sleep (a timer), or until the
 * recorded time (an interrupt or anything else outside the tasks). Forks
 * start tasks where the parent forked them; the run ends when every task
 * has played its whole trace. Scheduling -- which CPU, when, preemption,
 * idle states, frequency -- is the simulator's own.
 *
 * Throughput: bursts completed per second. Latency: burst response time,
 * from being ready to run a burst to its end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/sim.h"
#include "../trace/replay_model.h"
#include "workload.h"

struct replay {
	int64_t capture_khz;
	int64_t stall_pct;
	const struct replay_model *m;
	struct replay_model own;  /* when the run lends none */
	double khz;               /* frequency of traced time without cpu_frequency events */
	struct task **sim;        /* per model task, NULL until it starts */
	uint32_t *pos;            /* next segment */
	int64_t *waiting;         /* block it waits on, -1 none */
	uint8_t *released;        /* per block */
	uint32_t done, total;
};

static const struct tunable replay_params[] = {
	{ "capture_khz", "frequency the trace ran at where it has no cpu_frequency events, kHz "
	  "(0: the machine's base)", TUNABLE_FIELD(struct replay, capture_khz), 0, 0, 100000000, NULL },
	{ "stall_pct", "share of each burst that is memory stall, not scaling with frequency, %",
	  TUNABLE_FIELD(struct replay, stall_pct), 0, 0, 100, NULL },
};

/* sched_prio_to_weight[] (kernel/sched/core.c), nice -20..19. */
static const uint32_t nice_weight[40] = {
	88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
	9548, 7620, 6100, 4904, 3906, 3121, 2501, 1991, 1586, 1277,
	1024, 820, 655, 526, 423, 335, 272, 215, 172, 137,
	110, 87, 70, 56, 45, 36, 29, 23, 18, 15,
};

/* CFS prio 100..139 is nice -20..19; the simulator has no real-time
 * class, so real-time tasks get the heaviest CFS weight. */
static uint32_t weight_of(int prio)
{
	if (prio < 0 || prio > 139)
		return NICE_0_WEIGHT;
	if (prio < 100)
		return nice_weight[0];
	return nice_weight[prio - 100];
}

static struct task *start_task(struct sim *s, struct replay *r, uint32_t i, sim_ns at)
{
	const struct replay_task *mt = &r->m->tasks[i];
	struct task *t = sim_task_new(s, mt->name, at);
	if (!t)
		return NULL;
	t->wl_role = (int)i;
	t->weight = weight_of(mt->prio);
	r->sim[i] = t;
	return t;
}

/* Block b's wait is over: wake its task if it waits on it now, or let it
 * pass the block when it gets there (its waker ran ahead of it, or its
 * parent has not forked it yet). */
static void release(struct sim *s, struct replay *r, uint32_t b)
{
	if (r->released[b])
		return;
	r->released[b] = 1;
	uint32_t i = r->m->blocks[b].task;
	if (r->sim[i] && r->waiting[i] == (int64_t)b) {
		r->waiting[i] = -1;
		sim_wake(s, r->sim[i]);
	}
}

static int replay_init(struct sim *s, void *data, struct pm_diag *d)
{
	struct replay *r = data;
	const char *path = sim_workload_arg(s);
	if (!path || !*path)
		return pm_fail(d, "replay: which trace? (expected --workload replay:FILE, a trace.dat "
			       "or ftrace text)");
	r->m = sim_workload_data(s);
	if (!r->m) {
		if (replay_model_load(&r->own, path, d) < 0)
			return -1;
		r->m = &r->own;
	}
	const struct replay_model *m = r->m;
	if (m->ncpus > sim_ncpus(s)) {
		char where[512];
		replay_model_cpu_where(m, where, sizeof(where));
		return pm_fail(d, "%s: CPU %d, but machine %s has %d CPUs (expected a machine with "
			       "at least %d)", where, m->ncpus - 1, sim_machine(s)->name, sim_ncpus(s),
			       m->ncpus);
	}
	r->khz = r->capture_khz ? (double)r->capture_khz : sim_machine(s)->base_khz;
	r->sim = calloc(m->ntasks ? m->ntasks : 1, sizeof(*r->sim));
	r->pos = calloc(m->ntasks ? m->ntasks : 1, sizeof(*r->pos));
	r->waiting = malloc((m->ntasks ? m->ntasks : 1) * sizeof(*r->waiting));
	r->released = calloc(m->nblocks ? m->nblocks : 1, 1);
	if (!r->sim || !r->pos || !r->waiting || !r->released)
		return pm_fail(d, "out of memory");
	r->total = m->ntasks;
	for (uint32_t i = 0; i < m->ntasks; i++) {
		r->waiting[i] = -1;
		if (m->tasks[i].start_kind == RS_AT && !start_task(s, r, i, m->tasks[i].start))
			return pm_fail(d, "out of memory");
	}
	for (uint32_t k = 0; k < m->nexternal; k++)
		if (sim_post_workload_timer(s, m->external[k].at, m->external[k].block) < 0)
			return pm_fail(d, "out of memory");
	if (r->total == 0)
		sim_stop(s);
	return 0;
}

/* wl_state 1: a burst was handed out at wl_t0. */
static void replay_next(struct sim *s, void *data, struct task *t, struct action *a)
{
	struct replay *r = data;
	uint32_t i = (uint32_t)t->wl_role;
	const struct replay_task *mt = &r->m->tasks[i];
	sim_ns now = sim_now(s);
	if (t->wl_state == 1) {
		sim_record_latency(s, now - t->wl_t0);
		sim_add_work(s, 1);
		t->wl_state = 0;
	}
	while (r->pos[i] < mt->nsegs) {
		const struct replay_seg *g = &mt->segs[r->pos[i]++];
		switch (g->kind) {
		case SEG_RUN: {
			double cycles = replay_seg_cycles(g, r->khz);
			double stall = (double)g->ns * (double)r->stall_pct / 100.0;
			*a = (struct action){ .kind = ACT_RUN,
					      .cycles = cycles * (double)(100 - r->stall_pct) / 100.0,
					      .stall_ns = stall };
			t->wl_state = 1;
			t->wl_t0 = now;
			return;
		}
		case SEG_WAKE:
			release(s, r, g->ref);
			continue;
		case SEG_FORK:
			if (!r->sim[g->ref])
				start_task(s, r, g->ref, now);
			continue;
		case SEG_SLEEP:
			*a = (struct action){ .kind = ACT_SLEEP, .until = now + g->ns };
			return;
		case SEG_BLOCK:
			if (r->released[g->ref])
				continue;
			r->waiting[i] = g->ref;
			*a = (struct action){ .kind = ACT_BLOCK, .iowait = g->iowait };
			return;
		}
	}
	if (++r->done == r->total)
		sim_stop(s);
	*a = (struct action){ .kind = ACT_EXIT };
}

static void replay_timer(struct sim *s, void *data, uint32_t block)
{
	release(s, data, block);
}

static void extra(struct run_result *res, const char *name, const char *unit, double v)
{
	if (res->nextra >= RESULT_MAX_EXTRA)
		return;
	struct result_extra *e = &res->extra[res->nextra++];
	snprintf(e->name, sizeof(e->name), "%s", name);
	snprintf(e->unit, sizeof(e->unit), "%s", unit);
	e->value = v;
}

static void replay_report(struct sim *s, void *data, struct run_result *res)
{
	struct replay *r = data;
	const struct replay_model *m = r->m;
	if (!m)
		return;
	double busy = 0;
	for (uint32_t i = 0; i < m->ntasks; i++)
		busy += (double)m->tasks[i].busy_ns;
	extra(res, "trace_duration", "s", (double)(m->t_end - m->t0) * 1e-9);
	extra(res, "trace_busy", "s", busy * 1e-9);
	extra(res, "trace_tasks", "tasks", m->ntasks);
	extra(res, "tasks_replayed", "tasks", r->done);
	extra(res, "dependencies", "wakeups", (double)m->dependencies);
	extra(res, "timer_sleeps", "wakeups", (double)m->timer_sleeps);
	extra(res, "external_wakeups", "wakeups", (double)m->external_wakes);
}

static void replay_fini(void *data)
{
	struct replay *r = data;
	free(r->sim);
	free(r->pos);
	free(r->waiting);
	free(r->released);
	if (r->m == &r->own)
		replay_model_free(&r->own);
}

const struct workload_ops workload_replay = {
	.name = "replay",
	.summary = "a recorded trace (trace.dat or ftrace text): --workload replay:FILE",
	.throughput_unit = "bursts/s",
	.latency_what = "burst response time",
	.params = replay_params,
	.nparams = 2,
	.data_size = sizeof(struct replay),
	.init = replay_init,
	.next = replay_next,
	.timer = replay_timer,
	.report = replay_report,
	.fini = replay_fini,
	.ends_run = true,
};
