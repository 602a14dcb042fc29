// SPDX-License-Identifier: GPL-2.0-only
/* batch: N independent tasks, each with a fixed amount of work (work_ms
 * at base frequency, stall_pct percent of it memory stall), run to
 * completion in bursts of slice_us. The run ends when the last task
 * finishes. Throughput: tasks completed per hour; the completion time is
 * reported in seconds beside it. Latency: each task's completion time.
 * With share=1 the tasks share their data (one sharing group: see the
 * machine's share_stall_cut), as the jobs of one build do. mlp sets the
 * misses its stall keeps in flight (engine/memory.c's bandwidth). */
#include <stdio.h>

#include "../engine/sim.h"
#include "workload.h"

struct batch {
	int64_t tasks;
	int64_t work_ms;
	int64_t stall_pct;
	int64_t slice_us;
	int64_t share;
	int64_t pin_cpu;
	int64_t mlp;
	double cycles_per_slice, stall_per_slice;
	int64_t slices;
	int64_t left;
	sim_ns finished_at;
};

static const struct tunable batch_params[] = {
	{ "tasks", "number of tasks (0: one per CPU)", TUNABLE_FIELD(struct batch, tasks), 0, 0, 100000, NULL },
	{ "work_ms", "work per task, ms at base frequency", TUNABLE_FIELD(struct batch, work_ms), 1000, 1, 100000000, NULL },
	{ "stall_pct", "share of the work that is memory stall, %", TUNABLE_FIELD(struct batch, stall_pct), 0, 0, 100, NULL },
	{ "slice_us", "work per burst, us at base frequency (the task yields nothing between bursts)",
	  TUNABLE_FIELD(struct batch, slice_us), 10000, 10, 100000000, NULL },
	{ "share", "1: the tasks share data (one sharing group)", TUNABLE_FIELD(struct batch, share), 0, 0, 1, NULL },
	{ "pin_cpu", "CPU every task is pinned to (taskset), -1: none", TUNABLE_FIELD(struct batch, pin_cpu), -1, -1, MACHINE_MAX_CPUS - 1, NULL },
	{ "mlp", "misses in flight while a task stalls (a streaming loop: its line-fill buffers), 0: the machine's",
	  TUNABLE_FIELD(struct batch, mlp), 0, 0, 64, NULL },
};

static int batch_init(struct sim *s, void *data, struct pm_diag *d)
{
	struct batch *b = data;
	if (b->tasks == 0)
		b->tasks = sim_ncpus(s);
	int64_t slice = b->slice_us < b->work_ms * 1000 ? b->slice_us : b->work_ms * 1000;
	b->slices = (b->work_ms * 1000 + slice - 1) / slice;
	double per_us = (double)b->work_ms * 1000.0 / (double)b->slices;
	b->cycles_per_slice = workload_cycles(per_us * (double)(100 - b->stall_pct) / 100.0,
					      sim_machine(s)->base_khz);
	b->stall_per_slice = per_us * 1000.0 * (double)b->stall_pct / 100.0;
	b->left = b->tasks;
	uint32_t group = b->share ? sim_share_group_new(s) : 0;
	if (b->share && !group)
		return pm_fail(d, "out of memory");
	for (int64_t i = 0; i < b->tasks; i++) {
		char name[64];
		snprintf(name, sizeof(name), "batch/%lld", (long long)i);
		struct task *t = sim_task_new(s, name, 0);
		if (!t)
			return pm_fail(d, "out of memory");
		t->share_group = group;
		t->mlp = (double)b->mlp;
		int pin = (int)b->pin_cpu;
		if (pin >= 0 && sim_task_set_affinity(s, t, &pin, 1, d) < 0)
			return -1;
	}
	return 0;
}

/* wl_state counts the bursts done. */
static void batch_next(struct sim *s, void *data, struct task *t, struct action *a)
{
	struct batch *b = data;
	if (t->wl_state < b->slices) {
		t->wl_state++;
		*a = (struct action){ .kind = ACT_RUN, .cycles = b->cycles_per_slice,
				      .stall_ns = b->stall_per_slice };
		return;
	}
	sim_record_latency(s, sim_now(s));
	sim_add_work(s, 1);
	if (--b->left == 0) {
		b->finished_at = sim_now(s);
		sim_stop(s);
	}
	*a = (struct action){ .kind = ACT_EXIT };
}

static void batch_report(struct sim *s, void *data, struct run_result *r)
{
	struct batch *b = data;
	double secs = (double)r->duration_ns * 1e-9;
	r->throughput = secs > 0 ? r->work_done * 3600.0 / secs : 0;
	struct result_extra *e = &r->extra[r->nextra++];
	snprintf(e->name, sizeof(e->name), "seconds");
	snprintf(e->unit, sizeof(e->unit), "s");
	e->value = b->finished_at ? (double)b->finished_at * 1e-9 : 0;
	e = &r->extra[r->nextra++];
	snprintf(e->name, sizeof(e->name), "completed");
	snprintf(e->unit, sizeof(e->unit), "tasks");
	e->value = r->work_done;
}

const struct workload_ops workload_batch = {
	.name = "batch",
	.summary = "independent tasks with fixed work; completion time",
	.throughput_unit = "tasks/h",
	.latency_what = "task completion time",
	.params = batch_params,
	.nparams = sizeof(batch_params) / sizeof(batch_params[0]),
	.data_size = sizeof(struct batch),
	.init = batch_init,
	.next = batch_next,
	.report = batch_report,
	.ends_run = true,
};
