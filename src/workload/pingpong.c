// SPDX-License-Identifier: GPL-2.0-only
/* pingpong: pairs of tasks passing a token back and forth, like a pipe
 * ping-pong (lmbench lat_pipe, perf bench sched pipe): each side runs a
 * short burst (burst_us at base frequency, system time as a pipe write
 * is), wakes its partner and blocks. Throughput: round trips per second.
 * Latency: round-trip time as seen by the first task of each pair. */
#include <stdio.h>

#include "../engine/sim.h"
#include "workload.h"

struct pingpong {
	int64_t pairs;
	int64_t burst_ns;
	double cycles;
};

static const struct tunable pingpong_params[] = {
	{ "pairs", "number of task pairs", TUNABLE_FIELD(struct pingpong, pairs), 1, 1, 100000, NULL },
	{ "burst_ns", "work per message, ns at base frequency",
	  TUNABLE_FIELD(struct pingpong, burst_ns), 5000, 1, 1000000000, NULL },
};

/* wl_state: what the task does when next asked. The two woken states
 * differ by role, so that a woken task needs no test of it. */
enum {
	PP_START,      /* as created: ping starts holding the token, pong waits */
	PP_PASS,       /* its burst done: pass the token and wait */
	PP_PONG_WOKEN, /* woken, holding the token: run the burst */
	PP_PING_WOKEN, /* the same, once the round trip is recorded */
};

/* wl_role: the state the task's wakeup leads to (PP_PING_WOKEN or
 * PP_PONG_WOKEN), which PP_PASS sets without a test. */
static int pingpong_init(struct sim *s, void *data, struct pm_diag *d)
{
	struct pingpong *p = data;
	p->cycles = workload_cycles((double)p->burst_ns / 1000.0, sim_machine(s)->base_khz);
	for (int64_t i = 0; i < p->pairs; i++) {
		char name[64];
		snprintf(name, sizeof(name), "ping/%lld", (long long)i);
		struct task *a = sim_task_new(s, name, 0);
		snprintf(name, sizeof(name), "pong/%lld", (long long)i);
		struct task *b = sim_task_new(s, name, 0);
		if (!a || !b)
			return pm_fail(d, "out of memory");
		a->wl_role = PP_PING_WOKEN;
		b->wl_role = PP_PONG_WOKEN;
		a->wl_peer = b->id;
		b->wl_peer = a->id;
		a->wl_ptr = b;
		b->wl_ptr = a;
	}
	return 0;
}

/* Each side: burst, pass the token (wake the other) and block, woken:
 * burst again. */
static void pingpong_next(struct sim *s, void *data, struct task *t, struct action *a)
{
	struct pingpong *p = data;
	int64_t state = t->wl_state;
	if (state == PP_PASS) {
		t->wl_state = t->wl_role;
		*a = (struct action){ .kind = ACT_BLOCK };
		/* pipe_write() wakes synchronously. Last, a tail call: with
		 * no call to come back from, no case saves registers (the
		 * wakeup reads neither this task's state nor *a). */
		sim_wake_sync(s, t->wl_ptr);
		return;
	}
	if (state == PP_START && t->wl_role == PP_PONG_WOKEN) {
		t->wl_state = PP_PONG_WOKEN;
		*a = (struct action){ .kind = ACT_BLOCK };
		return;
	}
	t->wl_state = PP_PASS;
	*a = (struct action){ .kind = ACT_RUN, .cycles = p->cycles, .sys = true };
	if (state == PP_PING_WOKEN) {
		sim_ns now = sim_now(s), t0 = t->wl_t0;
		t->wl_t0 = now;
		sim_add_work(s, 1);
		/* Last, as the wakeup above: the histogram's rare slow path
		 * is then a tail call, and no case saves registers for it. */
		sim_record_latency(s, now - t0);
	} else if (state == PP_START) {
		t->wl_t0 = sim_now(s);
	}
}

const struct workload_ops workload_pingpong = {
	.name = "pingpong",
	.summary = "task pairs passing a token (pipe ping-pong)",
	.throughput_unit = "round trips/s",
	.latency_what = "round-trip time",
	.params = pingpong_params,
	.nparams = 2,
	.data_size = sizeof(struct pingpong),
	.init = pingpong_init,
	.next = pingpong_next,
};
