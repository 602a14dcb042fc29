// SPDX-License-Identifier: GPL-2.0-only
/* periodic: N tasks, each releasing a job every period_us (like a video
 * decoder or an rt-app periodic phase); a job is run_us of work measured
 * at the machine's base frequency, of which stall_pct percent is memory
 * stall that does not scale with frequency. Jobs are released on an
 * absolute timer, so a late job does not shift later releases.
 * Throughput: jobs completed per second. Latency: release to completion
 * (response time); a job finishing after its next release is a deadline
 * miss. Task i's first release is offset by i * period / N so tasks do not
 * all wake in the same nanosecond. With jitter_pct, each job's work is
 * drawn uniformly within +-jitter_pct of run_us from the task's own random
 * stream, as frame decode times vary. With chunks > 1 a job runs as that
 * many equal bursts separated by gap_us waits for a device (a decoder
 * handing slices to a hardware block and waiting for its interrupt): short
 * idle periods that no timer announces, mixed with the long, timer-ended
 * one before the next release -- the pattern idle governors find hard. */
#include <stdio.h>
#include <stdlib.h>

#include "../core/rng.h"

#include "../engine/sim.h"
#include "workload.h"

struct periodic {
	int64_t tasks;
	int64_t period_us;
	int64_t run_us;
	int64_t stall_pct;
	int64_t jitter_pct;
	int64_t chunks;
	int64_t gap_us;
	double cycles, stall_ns; /* per chunk */
	struct rng *rng; /* one stream per task */
	double *scale;   /* per task: its current job's work factor */
	uint64_t misses;
};

static const struct tunable periodic_params[] = {
	{ "tasks", "number of periodic tasks", TUNABLE_FIELD(struct periodic, tasks), 1, 1, 100000, NULL },
	{ "period_us", "release period, us", TUNABLE_FIELD(struct periodic, period_us), 16667, 10, 100000000, NULL },
	{ "run_us", "work per job, us at base frequency", TUNABLE_FIELD(struct periodic, run_us), 4000, 0, 100000000, NULL },
	{ "stall_pct", "share of the work that is memory stall, %", TUNABLE_FIELD(struct periodic, stall_pct), 0, 0, 100, NULL },
	{ "jitter_pct", "job work varies uniformly within +- this %", TUNABLE_FIELD(struct periodic, jitter_pct), 10, 0, 100, NULL },
	{ "chunks", "bursts per job", TUNABLE_FIELD(struct periodic, chunks), 1, 1, 1000, NULL },
	{ "gap_us", "sleep between a job's bursts, us", TUNABLE_FIELD(struct periodic, gap_us), 0, 0, 100000000, NULL },
};

static int periodic_init(struct sim *s, void *data, struct pm_diag *d)
{
	struct periodic *p = data;
	double base_khz = sim_machine(s)->base_khz;
	double run_ns = (double)p->run_us * 1000.0;
	p->stall_ns = run_ns * (double)p->stall_pct / 100.0 / (double)p->chunks;
	p->cycles = workload_cycles((double)p->run_us * (double)(100 - p->stall_pct) / 100.0, base_khz) /
		    (double)p->chunks;
	sim_ns period = p->period_us * NS_PER_US;
	p->rng = calloc((size_t)p->tasks, sizeof(*p->rng));
	p->scale = calloc((size_t)p->tasks, sizeof(*p->scale));
	if (!p->rng || !p->scale)
		return pm_fail(d, "out of memory");
	for (int64_t i = 0; i < p->tasks; i++) {
		rng_init(&p->rng[i], sim_seed(s), UINT64_C(0x7065720000000000) + (uint64_t)i);
		char name[64];
		snprintf(name, sizeof(name), "periodic/%lld", (long long)i);
		sim_ns first = period * i / p->tasks;
		struct task *t = sim_task_new(s, name, first);
		if (!t)
			return pm_fail(d, "out of memory");
		t->wl_t0 = first; /* current release time */
		t->wl_role = (int)i;
	}
	return 0;
}

/* wl_state counts the job's steps: 2k runs chunk k, 2k+1 follows it (a gap
 * sleep, or the end of the job after the last chunk). */
static void periodic_next(struct sim *s, void *data, struct task *t, struct action *a)
{
	struct periodic *p = data;
	sim_ns period = p->period_us * NS_PER_US;
	if (t->wl_state % 2 == 0) {
		double *scale = &p->scale[t->wl_role];
		if (t->wl_state == 0) { /* one draw per job: all its chunks scale alike */
			*scale = 1.0;
			if (p->jitter_pct)
				*scale += (2.0 * rng_uniform(&p->rng[t->wl_role]) - 1.0) *
					  (double)p->jitter_pct / 100.0;
		}
		t->wl_state++;
		*a = (struct action){ .kind = ACT_RUN, .cycles = p->cycles * *scale,
				      .stall_ns = p->stall_ns * *scale };
		return;
	}
	if (t->wl_state / 2 + 1 < p->chunks) {
		t->wl_state++;
		/* The device's interrupt, not a timer of this CPU, ends the wait. */
		sim_post_workload_timer(s, sim_now(s) + p->gap_us * NS_PER_US, t->id);
		*a = (struct action){ .kind = ACT_BLOCK };
		return;
	}
	sim_ns now = sim_now(s);
	sim_record_latency(s, now - t->wl_t0);
	sim_add_work(s, 1);
	t->wl_t0 += period;
	if (now > t->wl_t0) {
		p->misses++;
		/* Skip the releases already missed, as a frame dropper would. */
		while (t->wl_t0 + period <= now)
			t->wl_t0 += period;
	}
	t->wl_state = 0;
	*a = (struct action){ .kind = ACT_SLEEP, .until = t->wl_t0 };
}

static void periodic_device_done(struct sim *s, void *data, uint32_t task)
{
	sim_wake(s, sim_task(s, task));
}

static void periodic_report(struct sim *s, void *data, struct run_result *r)
{
	struct periodic *p = data;
	struct result_extra *e = &r->extra[r->nextra++];
	snprintf(e->name, sizeof(e->name), "deadline_misses");
	snprintf(e->unit, sizeof(e->unit), "jobs");
	e->value = (double)p->misses;
}

static void periodic_fini(void *data)
{
	struct periodic *p = data;
	free(p->rng);
	free(p->scale);
}

const struct workload_ops workload_periodic = {
	.name = "periodic",
	.summary = "tasks releasing fixed work every period (video-like)",
	.throughput_unit = "jobs/s",
	.latency_what = "job response time",
	.params = periodic_params,
	.nparams = 7,
	.data_size = sizeof(struct periodic),
	.init = periodic_init,
	.next = periodic_next,
	.timer = periodic_device_done,
	.report = periodic_report,
	.fini = periodic_fini,
};
