// SPDX-License-Identifier: GPL-2.0-only
/* stressng: stress-ng's CPU stressor, `stress-ng --cpu N [--cpu-load P]`
 * (stress-ng manual; docs/sources.md 3).
 *
 * Reproduces: N workers (0: one per online CPU, as stress-ng --cpu 0),
 * each looping on bogo operations, one cpu-method call each, with no
 * system calls or I/O between them. With cpu_load below 100 each worker
 * sleeps after every operation for the time that keeps it busy cpu_load
 * percent of the time, as --cpu-load does, so a slower clock stretches
 * both the work and the sleep. Reports bogo ops/s (real time) as stress-ng
 * --metrics does, and bogo ops/s over usr+sys time and the bogo op count
 * as extra figures.
 *
 * Leaves out: the per-method differences (every operation costs the same
 * op_us), the parent's fork/reap, --cpu-load-slice, and the other
 * stressors.
 *
 * op_us default: the stress-ng 0.15 run in docs/sources.md 3, 2,707
 * cpu bogo ops in 1.50 s of user time, about 0.55 ms each (a ~3 GHz
 * core). Compute bound: no memory stall unless stall_pct says so. */
#include <stdio.h>

#include "../engine/sim.h"
#include "wlutil.h"

struct stressng {
	int64_t workers;
	int64_t op_us;
	int64_t stall_pct;
	int64_t cpu_load;
	struct action op;
};

static const struct tunable stressng_params[] = {
	{ "workers", "cpu stressor workers (0: one per online CPU)",
	  TUNABLE_FIELD(struct stressng, workers), 0, 0, 100000, NULL },
	{ "op_us", "work of one bogo op, us on a 3 GHz core", TUNABLE_FIELD(struct stressng, op_us),
	  550, 1, 1000000000, NULL },
	{ "stall_pct", "share of a bogo op that is memory stall, %",
	  TUNABLE_FIELD(struct stressng, stall_pct), 0, 0, 100, NULL },
	{ "cpu_load", "busy share of each worker, % (stress-ng --cpu-load)",
	  TUNABLE_FIELD(struct stressng, cpu_load), 100, 1, 100, NULL },
};

static int stressng_init(struct sim *s, void *data, struct pm_diag *d)
{
	struct stressng *n = data;
	if (n->workers == 0)
		n->workers = sim_ncpus(s);
	n->op = wl_work((double)n->op_us, n->stall_pct, false);
	for (int64_t i = 0; i < n->workers; i++) {
		char name[64];
		snprintf(name, sizeof(name), "stress-ng-cpu/%lld", (long long)i);
		if (!sim_task_new(s, name, 0))
			return pm_fail(d, "out of memory");
	}
	return 0;
}

/* wl_state: 0 start a bogo op, 1 it finished (sleep if loaded < 100 %), 2
 * slept. wl_t0: when the op started. */
static void stressng_next(struct sim *s, void *data, struct task *t, struct action *a)
{
	struct stressng *n = data;
	sim_ns now = sim_now(s);
	if (t->wl_state == 1) {
		sim_add_work(s, 1);
		sim_record_latency(s, now - t->wl_t0);
		if (n->cpu_load < 100) {
			sim_ns busy = now - t->wl_t0;
			t->wl_state = 2;
			*a = (struct action){ .kind = ACT_SLEEP,
					      .until = now + busy * (100 - n->cpu_load) / n->cpu_load };
			return;
		}
	}
	t->wl_state = 1;
	t->wl_t0 = now;
	*a = n->op;
}

static void stressng_report(struct sim *s, void *data, struct run_result *r)
{
	double cpu_s = wl_user_s(r) + wl_sys_s(r);
	wl_extra(r, "bogo_ops", "ops", r->work_done);
	wl_extra(r, "bogo_ops_per_cpu_s", "ops/s", cpu_s > 0 ? r->work_done / cpu_s : 0);
}

const struct workload_ops workload_stressng = {
	.name = "stressng",
	.summary = "stress-ng --cpu: workers looping on CPU bogo ops",
	.throughput_unit = "bogo ops/s",
	.latency_what = "bogo op time",
	.params = stressng_params,
	.nparams = WL_NPARAMS(stressng_params),
	.data_size = sizeof(struct stressng),
	.init = stressng_init,
	.next = stressng_next,
	.report = stressng_report,
};
